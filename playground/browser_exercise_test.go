package playground

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

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
	// The console's Send, whose look the exercise page's Check takes.
	sendLook := b.text(buttonLook("send"))
	b.click("#exercise-check")
	b.waitUntil("the check says passed", `document.getElementById("exercise-status").textContent.startsWith("Passed!")`,
		`document.getElementById("exercise-panel").innerText`)

	// The code exercise, graded from its page in the workspace.
	b.open("/exercises/stdio-server")
	if look := b.text(buttonLook("exercise-check")); look != sendLook {
		t.Errorf("the exercise page's Check looks like %s, the console's Send like %s", look, sendLook)
	}
	b.click("#exercise-check")
	b.waitUntil("the grade passes, stage by stage",
		`document.getElementById("exercise-status").textContent.includes("Passed: all 7 stages") && document.querySelectorAll("#exercise-stages li.passed").length === 7`,
		`document.querySelector("main, body").innerText`)

	// A restart: a new playground over the same progress file.
	srv := startPlayground(t, store)
	b.base = srv.URL
	b.open("/")
	b.expect("the home page counts both passes", `document.body.innerText.includes("2 of 30 exercises passed.")`, `document.body.innerText`)
	b.expect("and marks them", `document.querySelectorAll(".home-progress .exercise-status.done").length === 2`, `document.body.innerText`)

	// The servers table fits its box on a laptop and narrower, so that
	// every live address is in sight without scrolling.
	for _, width := range []int64{1366, 1024, 768, 375} {
		b.run(fmt.Sprintf("a window %d pixels wide", width), chromedp.EmulateViewport(width, 900))
		b.open("/")
		if got := b.text(serversOverflow); got != "" {
			t.Errorf("at %d px the servers table does not fit: %s", width, got)
		}
	}
}

// buttonLook describes the look of the button with an id: what makes a
// styled button differ from the browser's default one.
func buttonLook(id string) string {
	return fmt.Sprintf(`(() => {
		const s = getComputedStyle(document.getElementById(%s));
		return [s.backgroundColor, s.color, s.borderTopColor, s.borderRadius, s.fontSize, s.fontWeight, s.cursor].join(" ");
	})()`, jsString(id))
}

// serversOverflow says what of the home page's servers table is out of
// its box or the window, or "" when all of it fits and every live
// address is in view.
const serversOverflow = `(() => {
	const box = document.querySelector(".servers").closest(".table-scroll");
	const out = [];
	if (box.scrollWidth > box.clientWidth) out.push("the table is " + box.scrollWidth + " px wide in a box of " + box.clientWidth);
	if (document.documentElement.scrollWidth > window.innerWidth) out.push("the page is " + document.documentElement.scrollWidth + " px wide in a window of " + window.innerWidth);
	const r = box.getBoundingClientRect();
	const addrs = [...document.querySelectorAll(".servers .address")];
	if (addrs.length < 5) out.push("only " + addrs.length + " live addresses");
	for (const a of addrs) {
		const ar = a.getBoundingClientRect();
		if (ar.width === 0 || ar.left < r.left || ar.right > r.right + 0.5) out.push(a.textContent + " is at " + ar.left + ".." + ar.right + ", the box at " + r.left + ".." + r.right);
	}
	return out.join("; ");
})()`
