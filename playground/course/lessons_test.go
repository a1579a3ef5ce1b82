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

// TestEveryLessonOpens checks that every lesson of the real course, in
// every language, opens with its lesson block right under its title:
// two to four goals, a time, and the lessons to take first, which Load
// has already held to lessons before it. The box is the first thing of
// the page's text, and links each lesson it needs.
func TestEveryLessonOpens(t *testing.T) {
	c, err := Load(chapters.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Langs() {
		for _, ls := range c.In(l) {
			where := fmt.Sprintf("%s/%02d-%s.md", l, ls.Num, ls.Slug)
			src, err := fs.ReadFile(chapters.FS, where)
			if err != nil {
				t.Fatal(err)
			}
			if lines := strings.SplitN(string(src), "\n", 4); len(lines) < 3 || lines[1] != "" || lines[2] != "```lesson" {
				t.Errorf("%s: the lesson block is not right under the title (a blank line, then ```lesson)", where)
			}
			in := ls.Intro
			if in == nil {
				t.Errorf("%s: no lesson block", where)
				continue
			}
			if n := len(in.Goals); n < 2 || n > 4 {
				t.Errorf("%s: %d goals; a lesson promises two to four", where, n)
			}
			if ls.Num > 1 && len(in.Needs) == 0 {
				t.Errorf("%s: needs no lesson; only the first lesson needs none", where)
			}
			if !strings.HasPrefix(ls.HTML, `<aside class="lesson-intro"`) {
				t.Errorf("%s: the page's text does not open with the box: %.80q", where, ls.HTML)
			}
			for _, need := range in.Needs {
				if !strings.Contains(ls.HTML, `<a href="/learn/`+need+`">`+c.Title(l, need)+`</a>`) {
					t.Errorf("%s: the box does not link %s by its title", where, need)
				}
			}
		}
	}
}

// TestIntro checks the lesson block: what it reads, how the box shows
// it, and each mistake an author may make, with its line.
func TestIntro(t *testing.T) {
	md := NewMarkdown()
	src := "# T\n\n```lesson\nminutes: 25\nneeds: a, b\ngoals:\n- Send `initialize` *first*.\n- Read <b>it</b>.\n```\n\ntext\n"
	r, err := md.Render([]byte(src), English)
	if err != nil {
		t.Fatal(err)
	}
	want := &Intro{Minutes: 25, Needs: []string{"a", "b"}, Goals: []string{"Send <code>initialize</code> <em>first</em>.", "Read <!-- raw HTML omitted -->it<!-- raw HTML omitted -->."}}
	if diff := cmp.Diff(want, r.Intro); diff != "" {
		t.Errorf("intro (-want +got):\n%s", diff)
	}
	if strings.Contains(r.HTML, "minutes") || strings.Contains(r.HTML, "<pre") {
		t.Errorf("the block is left in the text: %s", r.HTML)
	}
	box := introHTML(r.Intro, Russian.labels(), func(s string) string { return "Урок " + s })
	for _, w := range []string{`<aside class="lesson-intro" aria-label="Об этом уроке">`, "Около 25 мин",
		`<li>Send <code>initialize</code> <em>first</em>.</li>`, `<a href="/learn/a">Урок a</a>, <a href="/learn/b">Урок b</a>`} {
		if !strings.Contains(box, w) {
			t.Errorf("the box has no %s:\n%s", w, box)
		}
	}
	if box := introHTML(&Intro{Minutes: 5, Goals: []string{"x"}}, English.labels(), nil); !strings.Contains(box, "Nothing first") {
		t.Errorf("a lesson that needs nothing does not say so:\n%s", box)
	}

	for _, tt := range []struct{ block, want string }{
		{"needs:\ngoals:\n- x", "line 3: the lesson block has no minutes:"},
		{"minutes: 0\ngoals:\n- x", "line 3: line 1 of the lesson block: minutes: \"0\" is not a whole number"},
		{"minutes: ten\ngoals:\n- x", `minutes: "ten" is not a whole number`},
		{"minutes: 5\ngoals:", "has no goals"},
		{"minutes: 5\n- x", "line 2 of the lesson block: a list item outside goals:"},
		{"minutes: 5\ngoals: x", "the goals go on the lines below"},
		{"minutes: 5\ntime: 5\ngoals:\n- x", `unknown key "time"`},
		{"minutes: 5\nminutes: 6\ngoals:\n- x", "minutes: given twice"},
		{"minutes: 5\nsomething\ngoals:\n- x", `"something" is neither`},
		{"minutes: 5\ngoals:\n- x\n- x\n- x\n- x\n- x\n- x\n- x", "7 goals; at most 6"},
	} {
		_, err := md.Render([]byte("# T\n\n```lesson\n"+tt.block+"\n```\n"), English)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("block %q: %v, want an error saying %q", tt.block, err, tt.want)
		}
	}
	_, err = md.Render([]byte("# T\n\n```lesson\nminutes: 5\ngoals:\n- x\n```\n\n```lesson\nminutes: 5\ngoals:\n- x\n```\n"), English)
	if err == nil || !strings.Contains(err.Error(), "line 9: a second lesson block") {
		t.Errorf("two lesson blocks: %v", err)
	}
}

// TestIntroNeeds checks that Load holds needs to earlier lessons, and
// the facts of a lesson block to the same in every language.
func TestIntroNeeds(t *testing.T) {
	block := func(title, needs string, minutes int) *fstest.MapFile {
		return &fstest.MapFile{Data: fmt.Appendf(nil, "# %s\n\n```lesson\nminutes: %d\nneeds: %s\ngoals:\n- Do it.\n```\n", title, minutes, needs)}
	}
	for _, tt := range []struct {
		name   string
		change func(fstest.MapFS)
		want   string
	}{
		{"fine", func(c fstest.MapFS) {
			for _, l := range []string{"en", "ru"} {
				c[l+"/02-second.md"] = block("Second", "first", 10)
				c[l+"/10-last.md"] = block("Last", "first, second", 10)
			}
		}, ""},
		{"a lesson that is not there", func(c fstest.MapFS) { c["en/02-second.md"] = block("Second", "zeroth", 10) },
			`en/02-second.md: needs "zeroth", which is no lesson before it`},
		{"a later lesson", func(c fstest.MapFS) { c["en/02-second.md"] = block("Second", "last", 10) },
			`en/02-second.md: needs "last", which is no lesson before it`},
		{"itself", func(c fstest.MapFS) { c["ru/02-second.md"] = block("Second", "second", 10) },
			`ru/02-second.md: needs "second", which is no lesson before it`},
		{"another time in Russian", func(c fstest.MapFS) {
			c["en/02-second.md"] = block("Second", "first", 10)
			c["ru/02-second.md"] = block("Second", "first", 15)
		}, "ru/second: the lesson block says minutes: 15, needs: first; in en it says minutes: 10, needs: first"},
		{"a block in one language only", func(c fstest.MapFS) { c["en/02-second.md"] = block("Second", "first", 10) },
			"ru/second: the lesson block says nothing (no lesson block); in en it says minutes: 10, needs: first"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := threeLessons()
			tt.change(c)
			_, err := Load(c)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Load: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Load: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}
