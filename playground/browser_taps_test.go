package playground

import (
	"testing"

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
