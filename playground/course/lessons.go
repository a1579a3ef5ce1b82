package course

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// Lesson is one lesson in one language, rendered.
type Lesson struct {
	Num  int    // NN in NN-slug.md: the lesson's place in the course
	Slug string // its address: /learn/<slug>
	Rendered
}

// Lessons is every lesson in every language, in order, rendered once by
// Load: the text is embedded, so it never changes while the program
// runs. Nothing changes it after Load, so any number of pages may read
// it at once.
type Lessons struct {
	byLang map[Lang][]Lesson
}

// Load renders the lessons of fsys, a tree of <lang>/NN-slug.md files
// (package chapters holds the course's own). Every language must have
// the same lessons: a learner who switches language keeps their place.
// The first lesson that does not render is the error, with its file's
// name.
func Load(fsys fs.FS) (*Lessons, error) {
	md := NewMarkdown()
	c := &Lessons{byLang: map[Lang][]Lesson{}}
	for _, l := range Langs() {
		names, err := fs.Glob(fsys, string(l)+"/*.md")
		if err != nil {
			return nil, fmt.Errorf("listing %s lessons: %w", l, err)
		}
		titles := map[string]string{} // of the lessons so far: what a lesson may need
		for _, name := range names {  // fs.Glob sorts, so NN orders them
			ls, err := loadLesson(fsys, name, md, l)
			if err != nil {
				return nil, err
			}
			if in := ls.Intro; in != nil {
				for _, need := range in.Needs {
					if _, ok := titles[need]; !ok {
						return nil, fmt.Errorf("%s: needs %q, which is no lesson before it", name, need)
					}
				}
				ls.HTML = introHTML(in, l.labels(), func(slug string) string { return titles[slug] }) + ls.HTML
			}
			titles[ls.Slug] = ls.Title
			c.byLang[l] = append(c.byLang[l], ls)
		}
	}
	first := Langs()[0]
	for _, l := range Langs()[1:] {
		if got, want := slugs(c.byLang[l]), slugs(c.byLang[first]); got != want {
			return nil, fmt.Errorf("the %s lessons (%s) are not the %s lessons (%s)", l, got, first, want)
		}
		// The time and the lessons to take first are facts about the
		// lesson, not its words: they are the same in every language.
		for i, ls := range c.byLang[l] {
			if got, want := introFacts(ls.Intro), introFacts(c.byLang[first][i].Intro); got != want {
				return nil, fmt.Errorf("%s/%s: the lesson block says %s; in %s it says %s", l, ls.Slug, got, first, want)
			}
			// The questions too: progress keeps an answer by the
			// question's and the choice's numbers, whatever the language
			// it was given in.
			if got, want := quizFacts(ls.Quiz), quizFacts(c.byLang[first][i].Quiz); got != want {
				return nil, fmt.Errorf("%s/%s: the quiz has %s; in %s it has %s", l, ls.Slug, got, first, want)
			}
		}
	}
	return c, nil
}

func loadLesson(fsys fs.FS, name string, md *Markdown, l Lang) (Lesson, error) {
	num, slug, ok := strings.Cut(strings.TrimSuffix(path.Base(name), ".md"), "-")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || len(num) != 2 || slug == "" {
		return Lesson{}, fmt.Errorf("%s: a lesson is named NN-slug.md", name)
	}
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return Lesson{}, fmt.Errorf("reading %s: %w", name, err)
	}
	r, err := md.Render(src, l)
	if err != nil {
		return Lesson{}, fmt.Errorf("%s: %w", name, err)
	}
	if r.Title == "" {
		return Lesson{}, fmt.Errorf("%s: no title: a lesson starts with a line \"# Title\"", name)
	}
	return Lesson{Num: n, Slug: slug, Rendered: r}, nil
}

// introFacts is what an intro says that no translation changes.
func introFacts(in *Intro) string {
	if in == nil {
		return "nothing (no lesson block)"
	}
	return fmt.Sprintf("minutes: %d, needs: %s", in.Minutes, strings.Join(in.Needs, ", "))
}

// quizFacts is what a quiz says that no translation changes: how many
// questions, how many choices each has and which one is right.
func quizFacts(qs []Question) string {
	if len(qs) == 0 {
		return "no questions"
	}
	var s []string
	for i, q := range qs {
		s = append(s, fmt.Sprintf("%d: choice %d of %d right", i+1, q.Right, len(q.Choices)))
	}
	if len(qs) == 1 {
		return "1 question (" + s[0] + ")"
	}
	return fmt.Sprintf("%d questions (%s)", len(qs), strings.Join(s, "; "))
}

func slugs(ls []Lesson) string {
	var s []string
	for _, l := range ls {
		s = append(s, l.Slug)
	}
	return strings.Join(s, ", ")
}

// In returns the lessons in a language, in order. The slice is the
// course's own: a caller reads it and does not change it.
func (c *Lessons) In(l Lang) []Lesson { return c.byLang[l] }

// Find returns the lesson with a slug in a language, and its neighbours;
// nil for a lesson that is not there.
func (c *Lessons) Find(l Lang, slug string) (prev, cur, next *Lesson) {
	ls := c.byLang[l]
	for i := range ls {
		if ls[i].Slug != slug {
			continue
		}
		if i > 0 {
			prev = &ls[i-1]
		}
		if i+1 < len(ls) {
			next = &ls[i+1]
		}
		return prev, &ls[i], next
	}
	return nil, nil, nil
}

// Title is the title of the lesson with this slug, or the slug while the
// lesson is not written.
func (c *Lessons) Title(l Lang, slug string) string {
	if _, cur, _ := c.Find(l, slug); cur != nil {
		return cur.Title
	}
	return slug
}
