package playground

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/playground/wire"
)

// TestBrowserTap: /taps, opened before the tap starts, lists it without
// a reload; the MCP console that follows it (the link /taps gives) shows
// the tap's messages as rows, those recorded before it opened and those
// recorded after, live.
func TestBrowserTap(t *testing.T) {
	b := openBrowser(t)
	b.open("/taps")
	rec := tap.NewRecorder(nil)
	rec.Add(tap.Event{Kind: tap.KindStart, Format: tap.Format, Command: []string{"node", "server.js"}})
	for _, e := range []tap.Event{
		{Dir: tap.Out, Data: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`},
		{Dir: tap.In, Data: `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`},
		{Dir: tap.Out, Data: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	} {
		e.Kind = tap.KindLine
		rec.Add(e)
	}
	pub, err := wire.Publish(b.base, "node server.js", rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()

	b.waitUntil("/taps lists tap-1", `!!document.querySelector('a[href="/console/mcp?watch=tap-1"]')`, `document.body.innerText`)
	b.clickAndLoad(`a[href="/console/mcp?watch=tap-1"]`)
	b.waitUntil("the console shows the three messages so far", messageRows+`.length === 3`, consoleDump)
	rec.Add(tap.Event{Kind: tap.KindLine, Dir: tap.Out, Data: `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`})
	b.waitUntil("the console shows the fourth, live", messageRows+`.length === 4 && `+messageRows+`[3].textContent.includes("tools/list")`, consoleDump)
}

// TestBrowserOpenRecording: a recording with a planted defect (the
// server writes a log line on stdout), opened with the form on /taps,
// shows in the MCP console read only (no composer), its row marked with
// the finding and counted above the transcript; the row's view explains
// it, in the page's language.
func TestBrowserOpenRecording(t *testing.T) {
	b := openBrowser(t)
	file := filepath.Join(t.TempDir(), "planted.jsonl")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	rec := tap.NewRecorder(&tap.RecorderOptions{File: f})
	rec.Add(tap.Event{Kind: tap.KindStart, Format: tap.Format, Command: []string{"node", "server.js"}})
	for _, e := range []tap.Event{
		{Dir: tap.Out, Data: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`},
		{Dir: tap.In, Data: `server ready on stdio`},
		{Dir: tap.In, Data: `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`},
		{Dir: tap.Out, Data: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	} {
		e.Kind, e.Size = tap.KindLine, len(e.Data)
		rec.Add(e)
	}
	f.Close()

	b.open("/taps")
	b.run("choosing the recording", chromedp.SetUploadFiles(chromedp.CSS(`input[name="recording"]`), []string{file}))
	b.clickAndLoad(`.taps-open button[type="submit"]`)
	marked := `document.querySelector('#transcript-rows tr.row-finding-error')`
	b.waitUntil("the console marks the planted line", marked+`?.querySelector(".finding-mark")?.textContent.includes("stdout-noise")`, consoleDump)
	b.expect("the mark is on the line the server wrote", marked+`.querySelector(".summary").textContent.startsWith("not JSON")`, consoleDump)
	b.expect("the summary counts one error", `document.getElementById("findings-count")?.textContent.includes("1 errors, 0 warnings")`, consoleDump)
	b.expect("the console is read only: no composer, a note in its place",
		`document.querySelector("section.composer").hidden && document.querySelector(".tap-read-only") !== null && location.pathname === "/console/mcp"`, consoleDump)
	b.click(`.findings-first`)
	b.waitUntil("the row's view explains the finding", `document.querySelector(".row-findings .finding-error")?.textContent.includes("logs belong on stderr")`, consoleDump)

	b.open("/taps?lang=ru")
	b.expect("/taps lists the recording, read only", `document.querySelector(".tap-recorded")?.textContent.includes("только чтение")`, `document.body.innerText`)
	b.clickAndLoad(`.tap-recorded a`)
	b.waitUntil("the Russian console counts the error", `document.getElementById("findings-count")?.textContent.includes("ошибок 1")`, consoleDump)
	b.click(`#transcript-rows tr.row-finding-error`)
	b.waitUntil("the row's view explains it in Russian", `document.querySelector(".row-findings")?.textContent.includes("журналы пишут в stderr")`, consoleDump)
}
