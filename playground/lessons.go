package playground

import (
	"fmt"
	"io/fs"
	"net/http"

	"github.com/a-h/templ"

	"github.com/wirelab/wirelab/playground/course"
)

// lessonSite serves the course: the list of lessons and each lesson.
type lessonSite struct {
	lessons *course.Lessons
}

// newLessonSite renders the lessons, once. One that does not render is a
// bug in the embedded text, which the tests render too, so it panics.
func newLessonSite(lessons fs.FS) *lessonSite {
	c, err := course.Load(lessons)
	if err != nil {
		panic("playground: the course does not render: " + err.Error())
	}
	return &lessonSite{lessons: c}
}

// page is one lesson, /learn/{slug}, with the answers to its questions
// that x's progress holds, for a page on this machine.
func (l *lessonSite) page(x *exerciseSite) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v := viewFor(w, r)
		prev, cur, next := l.lessons.Find(v.Lang, r.PathValue("slug"))
		if cur == nil {
			show(w, r, http.StatusNotFound, lessonNotFound(v, r.PathValue("slug")))
			return
		}
		var quiz *quizState
		if len(cur.Quiz) > 0 {
			s := x.quizStateOf(r, cur.Slug, cur.Quiz)
			quiz = &s
		}
		show(w, r, http.StatusOK, lessonPage(v, cur, prev, next, quiz))
	}
}

// lessonHref is the address of a lesson.
func lessonHref(l *course.Lesson) templ.SafeURL {
	return templ.SafeURL("/learn/" + l.Slug)
}

// number shows a lesson's number as the file names it: 07.
func number(l *course.Lesson) string { return fmt.Sprintf("%02d", l.Num) }
