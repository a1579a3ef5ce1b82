package playground

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/chapters"
	"github.com/wirelab/wirelab/playground/course"
)

// frameOutput is the text under the frame at index i, in the view it
// shows.
func frameOutput(i int) string {
	return fmt.Sprintf(`document.querySelectorAll(".frame")[%d].querySelector(".frame-output").innerText`, i)
}

// framePromises lists, for each frame of the page, the first line of
// the reply block that follows it (before the next frame), or "" when
// the text promises no answer.
const framePromises = `JSON.stringify([...document.querySelectorAll(".frame")].map((f, i, all) => {
	const next = all[i + 1];
	for (const r of document.querySelectorAll(".lesson .reply")) {
		const after = f.compareDocumentPosition(r) & Node.DOCUMENT_POSITION_FOLLOWING;
		const before = !next || (next.compareDocumentPosition(r) & Node.DOCUMENT_POSITION_PRECEDING);
		if (after && before) return r.querySelector("pre").textContent.split("\n")[0];
	}
	return "";
}))`

// TestBrowserCourse is a learner going through the whole course in a
// real browser: every lesson, in every language, with every Send
// pressed in order. Under each frame that the text promises an answer
// for, the server's answer must appear, and where the promise starts
// with an HTTP status line, the answer must have that status. A frame
// that names {{session}} or {{task}} only gets its status if the page
// filled in what the earlier answers said. What each answer says is
// TestLessonFrames's business; this test is about the page.
func TestBrowserCourse(t *testing.T) {
	b := openBrowser(t)
	c, err := course.Load(chapters.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range allLangs() {
		for _, ls := range c.In(l) {
			where := string(l) + "/" + ls.Slug
			b.open("/learn/" + ls.Slug + "?lang=" + string(l))
			var promises []string
			if err := json.Unmarshal([]byte(b.text(framePromises)), &promises); err != nil {
				t.Fatalf("%s: reading the page's reply blocks: %v", where, err)
			}
			if len(promises) != len(ls.Frames) {
				t.Fatalf("%s: the page has %d frames, the lesson %d", where, len(promises), len(ls.Frames))
			}
			for i, f := range ls.Frames {
				// The raw view shows an HTTP answer's status line as it came.
				b.text(fmt.Sprintf(`(document.querySelectorAll(".frame")[%d].querySelector('.frame-view[data-view="raw"]').click(), "")`, i))
				b.clickNth(".frame-send", i)
				stdio := strings.HasSuffix(f.Target, "stdio")
				if promises[i] == "" && stdio {
					continue // maybe a notification: nothing to wait for
				}
				what := fmt.Sprintf("%s: frame %d (%s) is answered", where, i+1, f.Target)
				b.waitUntil(what, fmt.Sprintf(`document.querySelectorAll(".frame")[%d].querySelectorAll(".frame-output .wire-in").length > 0`, i), frameDump)
				if status, ok := strings.CutPrefix(promises[i], "HTTP/1.1 "); ok {
					b.waitUntil(fmt.Sprintf("%s with %s", what, status),
						fmt.Sprintf(`%s.includes(%q)`, frameOutput(i), "HTTP/1.1 "+status), frameDump)
				}
			}
		}
	}
}
