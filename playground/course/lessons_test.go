package course

import (
	"fmt"
	"io/fs"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/chapters"
)

// TestEveryLessonRenders renders the real course, in every language, and
// checks that each lesson shows every frame its text has.
func TestEveryLessonRenders(t *testing.T) {
	c, err := Load(chapters.FS)
	if err != nil {
		t.Fatal(err)
	}
	fence := regexp.MustCompile("(?m)^```frame ")
	for _, l := range Langs() {
		if len(c.In(l)) == 0 {
			t.Errorf("no %s lessons", l)
		}
		for _, ls := range c.In(l) {
			src, err := fs.ReadFile(chapters.FS, fmt.Sprintf("%s/%02d-%s.md", l, ls.Num, ls.Slug))
			if err != nil {
				t.Fatal(err)
			}
			want := len(fence.FindAll(src, -1))
			if want == 0 {
				t.Errorf("%s/%s has no runnable frame", l, ls.Slug)
			}
			if got := strings.Count(ls.HTML, `<div class="frame" data-target=`); got != want || len(ls.Frames) != want {
				t.Errorf("%s/%s shows %d frames (%d read), its text has %d", l, ls.Slug, got, len(ls.Frames), want)
			}
			for _, f := range ls.Frames {
				if !strings.Contains(ls.HTML, ">"+escapeText(f.Content)+"</textarea>") {
					t.Errorf("%s/%s: frame %q is not on the page", l, ls.Slug, f.Content)
				}
			}
			if ls.Title == "" || len(ls.TOC) == 0 {
				t.Errorf("%s/%s: title %q, %d sections", l, ls.Slug, ls.Title, len(ls.TOC))
			}
		}
	}
}

// threeLessons is a small course for the parts one lesson cannot show.
func threeLessons() fstest.MapFS {
	c := fstest.MapFS{}
	for _, l := range []string{"en", "ru"} {
		for _, f := range []struct{ name, title string }{
			{"01-first.md", "First"}, {"02-second.md", "Second"}, {"10-last.md", "Last"},
		} {
			c[l+"/"+f.name] = &fstest.MapFile{Data: []byte("# " + f.title + " " + l + "\n\n## Part\n\ntext\n")}
		}
	}
	return c
}

// TestLessonOrder checks that lessons come in the order of their
// numbers, and that Find and Title name a lesson's neighbours and title
// in the language asked for.
func TestLessonOrder(t *testing.T) {
	c, err := Load(threeLessons())
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, ls := range c.In(English) {
		order = append(order, fmt.Sprintf("%02d %s", ls.Num, ls.Title))
	}
	if diff := cmp.Diff([]string{"01 First en", "02 Second en", "10 Last en"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}

	title := func(ls *Lesson) string {
		if ls == nil {
			return ""
		}
		return ls.Title
	}
	for _, tt := range []struct {
		lang                 Lang
		slug                 string
		prev, cur, next, got string
	}{
		{English, "first", "", "First en", "Second en", "First en"},
		{Russian, "second", "First ru", "Second ru", "Last ru", "Second ru"},
		{English, "last", "Second en", "Last en", "", "Last en"},
		{English, "nope", "", "", "", "nope"}, // a lesson not yet written is named by its slug
	} {
		prev, cur, next := c.Find(tt.lang, tt.slug)
		got := []string{title(prev), title(cur), title(next), c.Title(tt.lang, tt.slug)}
		if diff := cmp.Diff([]string{tt.prev, tt.cur, tt.next, tt.got}, got); diff != "" {
			t.Errorf("%s/%s: previous, lesson, next, title (-want +got):\n%s", tt.lang, tt.slug, diff)
		}
	}
}

func TestBrokenCourse(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(fstest.MapFS)
		want   string
	}{
		{"a lesson missing in one language", func(c fstest.MapFS) { delete(c, "ru/02-second.md") },
			"the ru lessons (first, last) are not the en lessons (first, second, last)"},
		{"a name without a number", func(c fstest.MapFS) { c["en/intro.md"] = &fstest.MapFile{Data: []byte("# Intro\n")} },
			"en/intro.md: a lesson is named NN-slug.md"},
		{"no title", func(c fstest.MapFS) { c["ru/02-second.md"] = &fstest.MapFile{Data: []byte("## Part\n")} },
			`ru/02-second.md: no title`},
		{"a frame to nowhere", func(c fstest.MapFS) {
			c["en/10-last.md"] = &fstest.MapFile{Data: []byte("# Last\n\n```frame mcp-sse\n{}\n```\n")}
		}, `en/10-last.md: line 3: frame: unknown target "mcp-sse"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := threeLessons()
			tt.change(c)
			_, err := Load(c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestLangs checks that every language parses from its own name, that
// nothing else does, and that the renderer has every one of its words in
// each.
func TestLangs(t *testing.T) {
	for _, l := range Langs() {
		if got, ok := ParseLang(string(l)); !ok || got != l {
			t.Errorf("ParseLang(%q) = %q, %v", l, got, ok)
		}
		v := reflect.ValueOf(l.labels())
		for i := range v.NumField() {
			if v.Field(i).String() == "" {
				t.Errorf("%s: no %s", l, v.Type().Field(i).Name)
			}
		}
	}
	for _, s := range []string{"", "de", "EN", "en-US"} {
		if l, ok := ParseLang(s); ok {
			t.Errorf("ParseLang(%q) = %q, true; want false", s, l)
		}
	}
	if Langs()[0] != English {
		t.Errorf("the default language is %s, want en", Langs()[0])
	}
}
