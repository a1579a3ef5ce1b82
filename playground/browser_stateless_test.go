package playground

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// frameWith is the index of the first frame of the page whose text has
// every one of parts, or -1.
func frameWith(parts ...string) string {
	list, _ := json.Marshal(parts) // a JavaScript array of strings
	return fmt.Sprintf(`[...document.querySelectorAll(".frame")].findIndex(f => %s.every(p => f.querySelector(".frame-input").value.includes(p)))`, list)
}

// showRaw switches the frame at index i to its raw view, where an answer
// is the line the server wrote.
func showRaw(b *browserTab, i int) {
	b.text(fmt.Sprintf(`(document.querySelectorAll(".frame")[%d].querySelector('.frame-view[data-view="raw"]').click(), "")`, i))
}

// TestBrowserStatelessLesson: the lesson on MCP 2026-07-28, in English
// and in Russian, runs in the browser. Its stateless tools/call, sent
// with no initialize before it, comes back with resultType "complete"
// and the count in structuredContent; its 2025-11-25 initialize, sent
// to the same server, still opens a session of the old revision.
func TestBrowserStatelessLesson(t *testing.T) {
	b := openBrowser(t)
	for _, lang := range []string{"en", "ru"} {
		page := "/learn/mcp-stateless?lang=" + lang
		b.open(page)
		if got := b.text(`document.documentElement.lang`); got != lang {
			t.Fatalf("%s is in %q", page, got)
		}

		// The modern call first, so that nothing before it could have
		// opened a session for it to lean on.
		modern := evalIn[int](b, frameWith(`"method":"tools/call"`, `"name":"word_count"`, `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`))
		if modern < 0 {
			t.Fatalf("%s: no 2026-07-28 tools/call of word_count among the frames:\n%s", page, b.describe(frameDump))
		}
		showRaw(b, modern) // the answer as it came, on one line
		b.clickNth(".frame-send", modern)
		b.waitUntil(page+": the 2026-07-28 tools/call is answered with the count",
			frameAnswer(modern)+`.includes('"structuredContent":{"words":3,"chars":13}')`, frameDump)
		if s := b.text(frameAnswer(modern)); !strings.Contains(s, `"resultType":"complete"`) {
			t.Errorf("%s: the 2026-07-28 answer has no resultType complete:\n%s", page, s)
		}

		legacy := evalIn[int](b, frameWith(`"method":"initialize"`, `"protocolVersion":"2025-11-25"`))
		if legacy < 0 {
			t.Fatalf("%s: no 2025-11-25 initialize among the frames:\n%s", page, b.describe(frameDump))
		}
		showRaw(b, legacy)
		b.clickNth(".frame-send", legacy)
		b.waitUntil(page+": the 2025-11-25 initialize is answered with that revision",
			frameAnswer(legacy)+`.includes('"protocolVersion":"2025-11-25"')`, frameDump)
	}
}
