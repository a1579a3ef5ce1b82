package playground

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/tap"
)

// TestBrowserConsoleHistory: two frames sent to the MCP server over
// stdio are kept per method; after a reload, the template list offers
// each under "sent before: METHOD", and one click puts a past frame back
// in the composer. The session exports, from the page, as a recording
// that tap.Read reads, and the Export recording button says nothing is
// wrong.
func TestBrowserConsoleHistory(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "mcp-stdio")
	b.choose("template", "initialize")
	sent := b.text(`document.getElementById("composer").value`)
	b.click("#send")
	b.waitUntil("the initialize answer is in the transcript",
		fmt.Sprintf(`%s.length >= 2 && %s[1].dataset.dir === "in"`, messageRows, messageRows), consoleDump)
	b.choose("template", "tools/list")
	b.click("#send")
	b.waitUntil("the tools/list answer is in the transcript",
		fmt.Sprintf(`%s.length >= 4 && %s[3].dataset.dir === "in"`, messageRows, messageRows), consoleDump)

	// The session, exported from the page as the button asks for it.
	session := b.text(`new URL(document.getElementById("share").href).searchParams.get("watch")`)
	file := awaitText(b, `fetch("/console/export?target=mcp-stdio&session=`+session+`").then(r => r.text())`)
	events, err := tap.Read(strings.NewReader(file))
	if err != nil {
		t.Fatalf("the page's export is no recording: %v\n%s", err, file)
	}
	if len(events) != 5 || events[1].Data != sent || !strings.Contains(events[3].Data, `"method":"tools/list"`) {
		t.Errorf("the exported recording:\n%s", file)
	}
	b.click("#export-recording")
	b.expect("the export button has not said it failed", `!document.getElementById("status").textContent.includes("failed")`, consoleDump)

	b.open("/console/mcp")
	b.text(`document.getElementById("composer").value = ""`) // what the reload restored is not what is tested
	groups := `[...document.querySelectorAll("#template optgroup[data-history]")].map(g => g.label + " (" + g.children.length + ")").join(", ")`
	if got := b.text(groups); got != "sent before: tools/list (1), sent before: initialize (1)" {
		t.Errorf("after a reload, the history in the template list is %q, want tools/list then initialize, one frame each", got)
	}
	picked := b.text(`(() => {
		const g = [...document.querySelectorAll("#template optgroup[data-history]")].find(g => g.label === "sent before: initialize");
		if (!g) return "";
		const s = document.getElementById("template");
		s.value = g.children[0].value;
		s.dispatchEvent(new Event("change", { bubbles: true }));
		return document.getElementById("composer").value;
	})()`)
	if picked != sent {
		t.Errorf("picking initialize from the history put in the composer\n%s\nwant the frame sent\n%s", picked, sent)
	}
}
