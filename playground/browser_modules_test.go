package playground

import "testing"

// globalsAdded lists, space separated, the names the page's scripts put
// on window: those window has and a new, empty window (an iframe's) has
// not.
const globalsAdded = `(() => {
	const f = document.createElement("iframe");
	document.body.append(f);
	const fresh = new Set(Object.getOwnPropertyNames(f.contentWindow));
	f.remove();
	return Object.getOwnPropertyNames(window).filter((n) => !fresh.has(n)).join(" ");
})()`

// fetched is a condition that holds once the page has fetched a script of
// static/: a module's imports are fetched only as the module is read.
func fetched(name string) string {
	return `performance.getEntriesByType("resource").some((e) => e.name.endsWith("/static/` + name + `"))`
}

// TestBrowserNoGlobals opens every kind of page that runs scripts, checks
// that its modules have run, and that they, and comfort.js, left nothing
// on window: the modules share through import and export, and comfort.js
// keeps its names inside one function.
func TestBrowserNoGlobals(t *testing.T) {
	b := openBrowser(t)
	for _, p := range []struct {
		path string
		ran  string // a condition that holds once the page's modules have run
	}{
		{"/", `document.querySelector('[data-comfort="theme"]') !== null`},
		{"/learn/mcp-by-hand", `document.querySelector(".frame .frame-views") !== null`},
		{"/console/mcp", `/^check (ok|bad)$/.test(document.getElementById("check").className)`},
		{"/console/mcp?watch=presenter", `document.getElementById("status").dataset.state === "waiting"`},
		{"/console/stdio?exercise=frames-stdio-errors", `/^check (ok|bad)$/.test(document.getElementById("check").className) && ` + fetched("exercise.js")},
		{"/five-wires", fetched("verdict.js")},
		{"/exercises/stdio-server", fetched("exercise.js")},
	} {
		b.open(p.path)
		b.waitUntil(p.path+": the page's modules have run", p.ran, `document.querySelector("main")?.innerText ?? ""`)
		if added := b.text(globalsAdded); added != "" {
			t.Errorf("%s: the scripts put on window: %s%s", p.path, added, b.consoleText())
		}
	}
	if c := b.consoleText(); c != "" {
		t.Errorf("the pages complained:%s", c)
	}
}
