package playground

import (
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// lesson is one lesson in one language, rendered.
type lesson struct {
	Num  int    // NN in NN-slug.md: the lesson's place in the course
	Slug string // its address: /learn/<slug>
	rendered
}

// course is every lesson in every language, in order, rendered once when
// the playground starts: the text is embedded, so it never changes
// while the program runs.
type course struct {
	lessons map[lang][]lesson
}

// loadCourse renders the lessons of lessons, a tree of <lang>/NN-slug.md
// files. Every language must have the same lessons: a learner who
// switches language keeps their place.
func loadCourse(lessons fs.FS) (*course, error) {
	md := newMarkdown()
	c := &course{lessons: map[lang][]lesson{}}
	for _, l := range allLangs() {
		names, err := fs.Glob(lessons, string(l)+"/*.md")
		if err != nil {
			return nil, fmt.Errorf("listing %s lessons: %w", l, err)
		}
		for _, name := range names { // fs.Glob sorts, so NN orders them
			ls, err := loadLesson(lessons, name, md, l.text())
			if err != nil {
				return nil, err
			}
			c.lessons[l] = append(c.lessons[l], ls)
		}
	}
	first := allLangs()[0]
	for _, l := range allLangs()[1:] {
		if got, want := slugs(c.lessons[l]), slugs(c.lessons[first]); got != want {
			return nil, fmt.Errorf("the %s lessons (%s) are not the %s lessons (%s)", l, got, first, want)
		}
	}
	return c, nil
}

func loadLesson(lessons fs.FS, name string, md *markdown, t uiText) (lesson, error) {
	num, slug, ok := strings.Cut(strings.TrimSuffix(path.Base(name), ".md"), "-")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || len(num) != 2 || slug == "" {
		return lesson{}, fmt.Errorf("%s: a lesson is named NN-slug.md", name)
	}
	src, err := fs.ReadFile(lessons, name)
	if err != nil {
		return lesson{}, fmt.Errorf("reading %s: %w", name, err)
	}
	r, err := md.render(src, t)
	if err != nil {
		return lesson{}, fmt.Errorf("%s: %w", name, err)
	}
	if r.Title == "" {
		return lesson{}, fmt.Errorf("%s: no title: a lesson starts with a line \"# Title\"", name)
	}
	return lesson{Num: n, Slug: slug, rendered: r}, nil
}

func slugs(ls []lesson) string {
	var s []string
	for _, l := range ls {
		s = append(s, l.Slug)
	}
	return strings.Join(s, ", ")
}

// find returns the lesson with a slug in a language, and its neighbours.
func (c *course) find(l lang, slug string) (prev, cur, next *lesson) {
	ls := c.lessons[l]
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

// mountLessons adds the course's pages to mux:
//
//	GET /learn/        the lessons, in order
//	GET /learn/{slug}  one lesson, with its contents and its neighbours
//
// ?lang=en|ru picks the language and a cookie remembers it; ?embed=1
// leaves out everything around the text, for an iframe (viewFor, in
// layout.templ).
//
// The lessons are rendered here, once. One that does not render is a bug
// in the embedded text, which the tests render too, so it panics.
func mountLessons(mux *http.ServeMux, lessons fs.FS) *course {
	c, err := loadCourse(lessons)
	if err != nil {
		panic("playground: the course does not render: " + err.Error())
	}
	mux.Handle("GET /learn", http.RedirectHandler("/learn/", http.StatusMovedPermanently))
	mux.HandleFunc("GET /learn/{$}", func(w http.ResponseWriter, r *http.Request) {
		v := viewFor(w, r)
		show(w, r, http.StatusOK, courseList(v, c.lessons[v.Lang]))
	})
	mux.HandleFunc("GET /learn/{slug}", func(w http.ResponseWriter, r *http.Request) {
		v := viewFor(w, r)
		prev, cur, next := c.find(v.Lang, r.PathValue("slug"))
		if cur == nil {
			show(w, r, http.StatusNotFound, lessonNotFound(v, r.PathValue("slug")))
			return
		}
		show(w, r, http.StatusOK, lessonPage(v, cur, prev, next))
	})
	return c
}

// lessonHref is the address of a lesson.
func lessonHref(l *lesson) templ.SafeURL {
	return templ.SafeURL("/learn/" + l.Slug)
}

// number shows a lesson's number as the file names it: 07.
func number(l *lesson) string { return fmt.Sprintf("%02d", l.Num) }

// title is the title of the lesson with this slug, or the slug while the
// lesson is not written.
func (c *course) title(l lang, slug string) string {
	if _, cur, _ := c.find(l, slug); cur != nil {
		return cur.Title
	}
	return slug
}
