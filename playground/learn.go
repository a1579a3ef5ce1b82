package playground

import (
	"html"
	"net/http"
	"strings"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/playground/course"
)

// The course map, /learn/: every lesson in order with its time and its
// goals, each lesson's exercises with where the learner stands on them
// (from the progress file that `wirelab grade` and the exercise pages
// keep), and the lesson to take next.

// exerciseState is where a learner stands on one exercise.
type exerciseState string

const (
	// passed: the grader passed it, once at least.
	passed exerciseState = "passed"
	// tried: not passed, but the learner has been at it: a grade or a
	// check failed, or they asked for a hint or looked at the solution.
	tried exerciseState = "tried"
	// notStarted: nothing recorded.
	notStarted exerciseState = "not-started"
)

// stateOf reads an exercise's state from the progress file.
func stateOf(st *progress.State, id string) exerciseState {
	e := st.Exercise(id)
	switch {
	case e.Passed:
		return passed
	case e.Failures > 0 || e.HintsShown > 0 || e.SolutionShown:
		return tried
	}
	return notStarted
}

// mapView is the course map in one language.
type mapView struct {
	Lessons []mapLesson
	Problem string // why the progress file cannot be read, if it cannot
	Search  []searchEntry
	// Kept is where the answers to the lessons' questions are kept:
	// "progress" (the file, for a page on this machine) or "browser".
	Kept string
}

// mapLesson is one lesson on the map.
type mapLesson struct {
	*course.Lesson
	Exercises []mapExercise
	Next      bool // the lesson to take next
	// Quiz counts the answers to the lesson's questions that progress
	// holds: nil for a lesson without questions, and all zero but
	// Questions for a page whose answers are kept in its browser
	// (Kept), which static/quiz.js counts there.
	Quiz *quizScore
}

// mapExercise is one exercise on the map, with its state.
type mapExercise struct {
	exercises.Exercise
	State exerciseState
}

// newMapView puts the lessons of one language and the learner's progress
// together. kept says where the answers to the lessons' questions are
// kept: "progress", l's, or "browser", which the map counts in the
// page.
func newMapView(lessons []course.Lesson, l loaded, kept string) mapView {
	v := mapView{Problem: l.Problem, Kept: kept}
	bySlug := map[string]int{}
	for i := range lessons {
		bySlug[lessons[i].Slug] = i
		ml := mapLesson{Lesson: &lessons[i]}
		if qs := lessons[i].Quiz; len(qs) > 0 {
			s := quizScore{Questions: len(qs)}
			if kept == "progress" {
				s = scoreOf(l.State.Answers(lessons[i].Slug), qs)
			}
			ml.Quiz = &s
		}
		v.Lessons = append(v.Lessons, ml)
	}
	for _, e := range exercises.List() {
		if i, ok := bySlug[e.Lesson]; ok {
			v.Lessons[i].Exercises = append(v.Lessons[i].Exercises, mapExercise{Exercise: e, State: stateOf(&l.State, e.ID)})
		}
	}
	if i := nextLesson(v.Lessons); i >= 0 {
		v.Lessons[i].Next = true
	}
	return v
}

// nextLesson is the index of the lesson to take next, or -1 when the
// course is done. The learner's place is the last lesson where they have
// been at an exercise or answered a question: that lesson while one of
// its exercises is not passed or one of its questions not answered, the
// one after it once all are. A learner who has been at none starts at
// the first lesson. Lessons are not marked as read, so a lesson is
// passed over without its questions answered only once a later lesson's
// exercise or question is begun.
func nextLesson(ls []mapLesson) int {
	last := -1
	for i, l := range ls {
		if l.Quiz != nil && l.Quiz.Answered > 0 {
			last = i
		}
		for _, e := range l.Exercises {
			if e.State != notStarted {
				last = i
			}
		}
	}
	if last < 0 {
		return 0
	}
	if q := ls[last].Quiz; q != nil && q.Answered < q.Questions {
		return last
	}
	for _, e := range ls[last].Exercises {
		if e.State != passed {
			return last
		}
	}
	if last+1 < len(ls) {
		return last + 1
	}
	return -1
}

// courseMap serves /learn/: the map of the course, with the learner's
// progress as x reads it. The answers to the lessons' questions are
// counted from it for a page on this machine; a page from another
// machine, a classroom follower's, counts those its own browser keeps.
func (l *lessonSite) courseMap(x *exerciseSite) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v := viewFor(w, r)
		kept := "browser"
		if x.keepsProgress(r) {
			kept = "progress"
		}
		m := newMapView(l.lessons.In(v.Lang), x.state(v.Lang), kept)
		m.Search = searchIndex(l.lessons.In(v.Lang))
		// quiz.js counts the answers a browser keeps.
		v.Scripts = append(v.Scripts[:len(v.Scripts):len(v.Scripts)], "/static/search.js", "/static/quiz.js")
		show(w, r, http.StatusOK, courseList(v, learnStrings(v.Lang), m))
	}
}

// stateMark is the sign of an exercise's state on the map; the words are
// beside it for screen readers.
func stateMark(s exerciseState) string {
	switch s {
	case passed:
		return "✓"
	case tried:
		return "◐"
	}
	return "○"
}

// goalsTitle is a lesson's goals as plain text, one a line: the tooltip
// of its link on the map.
func goalsTitle(l *course.Lesson) string {
	if l.Intro == nil {
		return ""
	}
	var b strings.Builder
	for _, g := range l.Intro.Goals {
		b.WriteString("• " + stripTags(g) + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// stripTags turns a goal's inline HTML back into text: its tags go, its
// entities are read. Goals come from the course's renderer, so the HTML
// is goldmark's own, with no "<" outside a tag.
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return html.UnescapeString(b.String())
}
