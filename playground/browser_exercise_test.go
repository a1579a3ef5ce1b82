package playground

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/wirelab/wirelab/exercises/frames"
	"github.com/wirelab/wirelab/exercises/progress"
)

// TestBrowserExercises is the "done when" in a browser: a
// learner does a frame exercise in the console and presses Check, then
// grades a code exercise from its page, and after a restart of the
// playground finds both passed on the home page.
func TestBrowserExercises(t *testing.T) {
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	ws := solvedWorkspace(t)
	store.Update(func(st *progress.State) error { st.Workspace = ws; return nil })

	b := openBrowserWith(t, store)

	// The frame exercise, typed in the console with the exercise panel.
	const frameEx = "frames-stdio-errors"
	fs, ok := frames.Solution(frameEx)
	if !ok {
		t.Fatalf("%s has no solution", frameEx)
	}
	b.open("/exercises/" + frameEx)
	b.clickAndLoad("a.button")
	b.waitUntil("the console is connected and the panel is there",
		`document.getElementById("share").href.includes("watch=") && document.getElementById("exercise-panel") !== null`, "")
	for i, f := range fs {
		b.choose("target", f.Target)
		b.text(fmt.Sprintf(`(() => {
			const c = document.getElementById("composer");
			c.value = %s;
			c.dispatchEvent(new Event("input"));
			return "";
		})()`, jsString(f.Text)))
		b.click("#send")
		// A frame the console finds fault with (a line that is not JSON,
		// on purpose) goes on the second press.
		if b.text(`document.getElementById("send").textContent`) != b.text(`JSON.parse(document.getElementById("console-data").textContent).text.send`) {
			b.click("#send")
		}
		b.waitUntil(fmt.Sprintf("frame %d is answered", i+1),
			fmt.Sprintf(`document.querySelectorAll("#transcript-rows tr[data-dir=in]").length >= %d`, i+1), consoleDump)
	}
	b.click("#exercise-check")
	b.waitUntil("the check says passed", `document.getElementById("exercise-status").textContent.startsWith("Passed!")`,
		`document.getElementById("exercise-panel").innerText`)

	// The code exercise, graded from its page in the workspace.
	b.open("/exercises/stdio-server")
	b.click("#exercise-check")
	b.waitUntil("the grade passes, stage by stage",
		`document.getElementById("exercise-status").textContent.includes("Passed: all 7 stages") && document.querySelectorAll("#exercise-stages li.passed").length === 7`,
		`document.querySelector("main, body").innerText`)

	// A restart: a new playground over the same progress file.
	srv := startPlayground(t, store)
	b.base = srv.URL
	b.open("/")
	b.expect("the home page counts both passes", `document.body.innerText.includes("2 of 14 exercises passed.")`, `document.body.innerText`)
	b.expect("and marks them", `document.querySelectorAll(".home-progress .exercise-status.done").length === 2`, `document.body.innerText`)
}
