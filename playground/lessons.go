package playground

import (
	"fmt"
	"io/fs"
	"net/http"

	"github.com/a-h/templ"

	"github.com/wirelab/wirelab/playground/course"
)

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
func mountLessons(mux *http.ServeMux, lessons fs.FS) *course.Lessons {
	c, err := course.Load(lessons)
	if err != nil {
		panic("playground: the course does not render: " + err.Error())
	}
	mux.Handle("GET /learn", http.RedirectHandler("/learn/", http.StatusMovedPermanently))
	mux.HandleFunc("GET /learn/{$}", func(w http.ResponseWriter, r *http.Request) {
		v := viewFor(w, r)
		show(w, r, http.StatusOK, courseList(v, c.In(v.Lang)))
	})
	mux.HandleFunc("GET /learn/{slug}", func(w http.ResponseWriter, r *http.Request) {
		v := viewFor(w, r)
		prev, cur, next := c.Find(v.Lang, r.PathValue("slug"))
		if cur == nil {
			show(w, r, http.StatusNotFound, lessonNotFound(v, r.PathValue("slug")))
			return
		}
		show(w, r, http.StatusOK, lessonPage(v, cur, prev, next))
	})
	return c
}

// lessonHref is the address of a lesson.
func lessonHref(l *course.Lesson) templ.SafeURL {
	return templ.SafeURL("/learn/" + l.Slug)
}

// number shows a lesson's number as the file names it: 07.
func number(l *course.Lesson) string { return fmt.Sprintf("%02d", l.Num) }
