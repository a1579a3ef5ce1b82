package playground

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/wirelab/wirelab/exercises/progress"
)

// mapDump describes the course map for a failure message.
const mapDump = `[...document.querySelectorAll(".map-lesson")].map(l => l.id + (l.classList.contains("next") ? " (next)" : "")).join("\n")`

// TestBrowserCourseMap opens /learn/ in a real browser with some
// progress: the lesson to take next stands out and says so, each
// exercise shows its state, a lesson's goals are its link's tooltip and
// are shown below it, and the next lesson's link leads to the lesson.
func TestBrowserCourseMap(t *testing.T) {
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	err := store.Update(func(st *progress.State) error {
		for _, id := range []string{"frames-stdio-errors", "stdio-server", "stdio-client"} {
			st.Pass(id, time.Unix(0, 0))
		}
		st.SetExercise("frames-http-auth", progress.Exercise{HintsShown: 1})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b := openBrowserWith(t, store)
	b.open("/learn/")
	b.expect("the http lesson is the one marked next, and only it",
		`[...document.querySelectorAll(".map-lesson.next")].map(l => l.id).join() === "lesson-http"`, mapDump)
	b.expect("the mark says so, in a visible line",
		`document.querySelector("#lesson-http .map-next").offsetHeight > 0 && document.querySelector("#lesson-http .map-next").innerText === "Take this one next"`, mapDump)
	b.expect("the next lesson has a border of its own",
		`getComputedStyle(document.querySelector("#lesson-http")).borderTopWidth !== getComputedStyle(document.querySelector("#lesson-grpc")).borderTopWidth`, mapDump)
	b.expect("each exercise shows its state",
		`document.querySelector('#lesson-stdio a[href="/exercises/stdio-server"]').dataset.state === "passed" &&
		 document.querySelector('#lesson-http a[href="/exercises/frames-http-auth"]').dataset.state === "tried" &&
		 document.querySelector('#lesson-grpc a[href="/exercises/grpc-server"]').dataset.state === "not-started"`, mapDump)
	b.expect("a lesson's time shows beside its title",
		`document.querySelector("#lesson-grpc .lesson-time").innerText === "45 min"`, mapDump)
	b.expect("its goals are its link's tooltip and are shown below it",
		`document.querySelector("#lesson-grpc > a").title.startsWith("• Send an ExecuteTool call") &&
		 document.querySelector("#lesson-grpc .map-goals").offsetHeight > 0`, mapDump)
	b.clickAndLoad("#lesson-http > a")
	b.expect("the link leads to the lesson", `location.pathname === "/learn/http" && document.querySelector(".lesson-intro") !== null`, `location.href`)

	b.open("/learn/?lang=ru")
	b.expect("the Russian map says it in Russian",
		`document.querySelector("#lesson-http .map-next").innerText === "Следующий урок" && document.querySelector("#lesson-grpc .lesson-time").innerText === "45 мин"`, mapDump)
}
