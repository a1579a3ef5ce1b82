package playground

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/chapters"
	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/playground/course"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestNextLesson checks which lesson the map marks as the next one, for
// each kind of progress.
func TestNextLesson(t *testing.T) {
	ex := func(states ...exerciseState) []mapExercise {
		var es []mapExercise
		for _, s := range states {
			es = append(es, mapExercise{State: s})
		}
		return es
	}
	for _, tt := range []struct {
		name    string
		lessons [][]mapExercise
		want    int
	}{
		{"nothing done: the first lesson", [][]mapExercise{nil, ex(notStarted), ex(notStarted)}, 0},
		{"a tried exercise keeps its lesson", [][]mapExercise{nil, ex(passed, tried), ex(notStarted)}, 1},
		{"an exercise not begun keeps its lesson", [][]mapExercise{nil, ex(passed, notStarted), ex(notStarted)}, 1},
		{"all passed: the lesson after", [][]mapExercise{nil, ex(passed, passed), nil, ex(notStarted)}, 2},
		{"the furthest lesson counts, not the first gap", [][]mapExercise{ex(notStarted), ex(passed), ex(notStarted)}, 2},
		{"a later hint moves the place on", [][]mapExercise{ex(passed), ex(notStarted), ex(tried, notStarted)}, 2},
		{"the last lesson passed: nothing next", [][]mapExercise{ex(notStarted), ex(passed)}, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ls []mapLesson
			for _, es := range tt.lessons {
				ls = append(ls, mapLesson{Exercises: es})
			}
			if got := nextLesson(ls); got != tt.want {
				t.Errorf("nextLesson = %d, want %d", got, tt.want)
			}
		})
	}
	// The answers to a lesson's questions place the learner as its
	// exercises do: a lesson answered in part is the one to take; one
	// answered whole, with its exercises passed, hands on to the next.
	quiz := func(answered, of int) *quizScore { return &quizScore{Answered: answered, Questions: of} }
	for _, tt := range []struct {
		name    string
		lessons []mapLesson
		want    int
	}{
		{"questions answered in part keep their lesson", []mapLesson{{Quiz: quiz(4, 4)}, {Quiz: quiz(2, 4)}, {Quiz: quiz(0, 3)}}, 1},
		{"all answered: the lesson after", []mapLesson{{Quiz: quiz(4, 4)}, {Quiz: quiz(0, 3)}}, 1},
		{"all answered, an exercise not passed", []mapLesson{{Quiz: quiz(4, 4), Exercises: ex(tried)}, {Quiz: quiz(0, 3)}}, 0},
		{"a later answer moves the place on", []mapLesson{{Exercises: ex(notStarted)}, {Quiz: quiz(1, 3)}}, 1},
		{"none answered: the first lesson", []mapLesson{{Quiz: quiz(0, 4)}, {Quiz: quiz(0, 3)}}, 0},
		{"the last lesson answered: nothing next", []mapLesson{{Quiz: quiz(0, 4)}, {Quiz: quiz(3, 3)}}, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ls := tt.lessons
			if got := nextLesson(ls); got != tt.want {
				t.Errorf("nextLesson = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestStateOf checks how the progress file's record of an exercise
// reads on the map.
func TestStateOf(t *testing.T) {
	st := &progress.State{}
	st.SetExercise("hinted", progress.Exercise{HintsShown: 1})
	st.SetExercise("peeked", progress.Exercise{SolutionShown: true})
	st.SetExercise("failed", progress.Exercise{Failures: 1})
	st.SetExercise("done", progress.Exercise{Passed: true, HintsShown: 2, Failures: 5})
	got := map[string]exerciseState{}
	for _, id := range []string{"hinted", "peeked", "failed", "done", "untouched"} {
		got[id] = stateOf(st, id)
	}
	want := map[string]exerciseState{"hinted": tried, "peeked": tried, "failed": tried, "done": passed, "untouched": notStarted}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
}

// mapEntry matches one lesson of the map as the page shows it: its id,
// whether it is next, and its exercises' states, in order.
var (
	mapLessonRe   = regexp.MustCompile(`<li class="map-lesson( next)?" id="lesson-([a-z0-9-]+)">`)
	mapExerciseRe = regexp.MustCompile(`href="/exercises/([a-z0-9-]+)" data-state="([a-z-]+)"`)
)

// TestCourseMap serves /learn/ with a progress file and reads the map
// back: every lesson in order with its time and goals, each exercise's
// state from the file, and the next lesson marked, in both languages.
func TestCourseMap(t *testing.T) {
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	h := New(tools.New(nil), &Options{Progress: store})
	c := newLessonSite(chapters.FS).lessons

	// No progress: the first lesson is next, nothing is begun.
	body := get(h, "/learn/").Body.String()
	if got := mapLessonRe.FindAllStringSubmatch(body, -1); len(got) != len(c.In(course.English)) {
		t.Fatalf("the map shows %d lessons, the course has %d", len(got), len(c.In(course.English)))
	}
	for i, m := range mapLessonRe.FindAllStringSubmatch(body, -1) {
		ls := c.In(course.English)[i]
		if m[2] != ls.Slug {
			t.Errorf("lesson %d on the map is %s, want %s", i+1, m[2], ls.Slug)
		}
		if (m[1] != "") != (i == 0) {
			t.Errorf("with no progress, %s is marked next: %v", ls.Slug, m[1] != "")
		}
	}
	for _, w := range []string{`<span class="lesson-time">20 min</span>`, `<ul class="map-goals" aria-label="You will be able to">`,
		`<p class="map-next">Take this one next</p>`, `data-state="not-started"`} {
		if !strings.Contains(body, w) {
			t.Errorf("the map has no %s", w)
		}
	}
	if strings.Contains(body, `data-state="passed"`) || strings.Contains(body, `data-state="tried"`) {
		t.Errorf("an exercise shows as begun with no progress")
	}

	// Both stdio exercises passed, a hint seen for the HTTP server: the
	// http lesson is next, and each exercise shows its state.
	err := store.Update(func(st *progress.State) error {
		st.Pass("frames-stdio-errors", time.Unix(0, 0))
		st.Pass("stdio-server", time.Unix(0, 0))
		st.Pass("stdio-client", time.Unix(0, 0))
		st.SetExercise("http-server", progress.Exercise{HintsShown: 1})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	body = get(h, "/learn/?lang=ru").Body.String()
	var next []string
	for _, m := range mapLessonRe.FindAllStringSubmatch(body, -1) {
		if m[1] != "" {
			next = append(next, m[2])
		}
	}
	if diff := cmp.Diff([]string{"http"}, next); diff != "" {
		t.Errorf("next lessons (-want +got):\n%s", diff)
	}
	states := map[string]string{}
	for _, m := range mapExerciseRe.FindAllStringSubmatch(body, -1) {
		states[m[1]] = m[2]
	}
	for id, want := range map[string]string{"stdio-server": "passed", "stdio-client": "passed", "http-server": "tried", "grpc-server": "not-started"} {
		if states[id] != want {
			t.Errorf("%s shows as %q, want %q", id, states[id], want)
		}
	}
	for _, w := range []string{`<html lang="ru">`, `<span class="lesson-time">30 мин</span>`, `<p class="map-next">Следующий урок</p>`,
		`(пройдено)`, `(начато)`, `(не начато)`} {
		if !strings.Contains(body, w) {
			t.Errorf("the Russian map has no %s", w)
		}
	}
}

// TestCourseMapProblem checks that a progress file that cannot be read
// is said at the top of the map, and the map still shows.
func TestCourseMapProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := New(tools.New(nil), &Options{Progress: progress.NewStore(path)})
	w := get(h, "/learn/")
	if body := w.Body.String(); w.Code != 200 || !strings.Contains(body, `class="progress-problem"`) || !strings.Contains(body, `id="lesson-why-servers"`) {
		t.Errorf("GET /learn/ with a broken progress file: %d\n%s", w.Code, body)
	}
}

// TestGoalsTitle checks the tooltip text of a lesson's goals.
func TestGoalsTitle(t *testing.T) {
	l := &course.Lesson{Rendered: course.Rendered{Intro: &course.Intro{Goals: []string{"Send <code>initialize</code> &amp; wait.", "Read it."}}}}
	if got, want := goalsTitle(l), "• Send initialize & wait.\n• Read it."; got != want {
		t.Errorf("goalsTitle = %q, want %q", got, want)
	}
}

// TestSearchIndex checks the index the course map carries for search:
// every lesson's top and every section of its table of contents, in the
// page's language only, and the search box and its script on the page.
func TestSearchIndex(t *testing.T) {
	c := newLessonSite(chapters.FS).lessons
	h := New(tools.New(nil), &Options{})
	for _, l := range allLangs() {
		idx := searchIndex(c.In(l))
		have := map[string]bool{}
		for _, e := range idx {
			have[e.Lesson+"#"+e.ID] = true
			if e.Text == "" && e.ID == "" {
				t.Errorf("%s/%s: the lesson's top has no text", l, e.Lesson)
			}
		}
		for _, ls := range c.In(l) {
			if !have[ls.Slug+"#"] {
				t.Errorf("%s/%s: the lesson's top is not in the index", l, ls.Slug)
			}
			for _, h := range ls.TOC {
				if !have[ls.Slug+"#"+h.ID] {
					t.Errorf("%s/%s: section %s is not in the index", l, ls.Slug, h.ID)
				}
			}
		}
		body := get(h, "/learn/?lang="+string(l)).Body.String()
		for _, w := range []string{`<script id="search-index" type="application/json">`, `<input type="search" id="course-search"`,
			`<script type="module" src="/static/search.js">`, searchStrings(l).Label} {
			if !strings.Contains(body, w) {
				t.Errorf("%s map: no %s", l, w)
			}
		}
		other := map[lang]string{en: "Протокол", ru: "Choosing a protocol"}[l]
		if i := strings.Index(body, `id="search-index"`); i < 0 || strings.Contains(body[i:i+strings.Index(body[i:], "</script>")], other) {
			t.Errorf("%s map: the index holds another language's text (%q)", l, other)
		}
	}
}
