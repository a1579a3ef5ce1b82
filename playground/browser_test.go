package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The pages as a reader uses them, in a real browser: the runnable frames
// of a lesson, a console's handshake and its views, the language switch,
// the comfort keys, the five-wires page, and that nothing a page loads
// comes from anywhere but this machine. browser_helpers_test.go starts
// the browser; without one these tests are skipped.

// frameDump describes the runnable frames of a lesson: each one's target
// and what its output shows.
const frameDump = `[...document.querySelectorAll(".frame")].map((f, i) =>
	"frame " + (i + 1) + " (" + f.dataset.target + "), output:\n    " +
	(f.querySelector(".frame-output").innerText.trim().replaceAll("\n", "\n    ") || "(nothing)")
).join("\n") || "(no frames)"`

// frameAnswer is the text of the server's lines ("in" rows) under the
// frame at index i.
func frameAnswer(i int) string {
	return fmt.Sprintf(`[...document.querySelectorAll(".frame")[%d].querySelectorAll(".frame-output .wire-in")].map(r => r.textContent).join("\n")`, i)
}

// TestBrowserLessonFrame sends the session of the MCP lesson with the
// Send buttons of its frames, in order, and reads the child server's
// answers under them.
func TestBrowserLessonFrame(t *testing.T) {
	b := openBrowser(t)
	b.open("/learn/mcp-by-hand")

	got := b.text(`[...document.querySelectorAll(".frame")].map(f => f.dataset.target + " " + (f.querySelector(".frame-input").value.match(/"method":"([^"]+)"/) || [])[1]).join("\n")`)
	want := strings.Join([]string{
		"mcp-stdio tools/list", // before initialize: refused
		"mcp-stdio initialize",
		"mcp-stdio initialize", // again: refused
		"mcp-http initialize",  // a counter-offer, in a session of its own
		"mcp-stdio notifications/initialized",
		"mcp-stdio tools/list",
		"mcp-stdio tools/call",
		"mcp-stdio tools/call", // weather: a tool error
		"mcp-stdio tools/call", // word_cont: a protocol error
	}, "\n")
	if got != want {
		t.Fatalf("the lesson's frames are\n%s\nwant\n%s", got, want)
	}

	b.clickNth(".frame-send", 1)
	b.waitUntil(`the initialize frame shows the answer, with "protocolVersion"`,
		frameAnswer(1)+`.includes('"protocolVersion"')`, frameDump)

	// The notification has no answer; the frames after it do.
	b.clickNth(".frame-send", 4)
	b.clickNth(".frame-send", 5)
	b.waitUntil(`the tools/list frame shows the tools, with "inputSchema"`,
		frameAnswer(5)+`.includes('"inputSchema"')`, frameDump)
	b.clickNth(".frame-send", 6)
	b.waitUntil(`the tools/call frame shows the answer, with "words"`,
		frameAnswer(6)+`.includes('"words"')`, frameDump)

	// The answer is shown pretty first: indented JSON, its size and its
	// latency beside it; the raw view is the line as the server wrote it.
	if s := b.text(frameAnswer(6)); !strings.Contains(s, `"words": 3`) || !strings.Contains(s, " ms") {
		t.Errorf("tools/call answered, pretty\n%s\nwant indented JSON with \"words\": 3, and a latency in ms", s)
	}
	rawButton := `document.querySelectorAll(".frame")[6].querySelector('.frame-view[data-view="raw"]')`
	b.text("(" + rawButton + `.click(), "")`)
	b.waitUntil("the raw view shows the line as it came",
		frameAnswer(6)+".includes('\"structuredContent\":{\"words\":3,\"chars\":13}')", frameDump)

	// Below the lesson, the sequence diagram of the page's wire: four
	// messages sent, three answered.
	b.waitUntil("the lesson's wire shows a diagram with seven arrows",
		`!document.getElementById("lesson-wire").hidden && document.querySelectorAll("#lesson-diagram svg line[marker-end]").length === 7`,
		`"arrows: " + document.querySelectorAll("#lesson-diagram svg line[marker-end]").length`)
	// "Nothing appears under it, and nothing should", says the lesson.
	if s := b.text(`document.querySelectorAll(".frame")[4].querySelector(".frame-output").innerText.trim()`); s != "" {
		t.Errorf("under notifications/initialized the page shows %q, want nothing\n%s", s, b.describe(frameDump))
	}
}

// The console's transcript, as JavaScript. messageRows are the rows of
// messages that crossed the wire, leaving out the playground's notes.
const (
	messageRows = `[...document.querySelectorAll('#transcript-rows tr.row:is([data-dir="out"], [data-dir="in"])')]`
	consoleDump = `"status: " + document.getElementById("status").textContent +
	"\ncheck: " + document.getElementById("check").textContent +
	"\ntranscript:\n" + ([...document.querySelectorAll("#transcript-rows tr")].map(tr =>
		"  [" + tr.className + (tr.dataset.dir ? " dir=" + tr.dataset.dir : "") + "] " +
		[...tr.cells].map(c => c.textContent).join(" | ")).join("\n") || "  (no rows)")`
)

// cell is the text of a column (summary, latency, ...) of the message
// row at index i.
func cell(i int, column string) string {
	return fmt.Sprintf(`(%s[%d]?.querySelector(".%s")?.textContent ?? "")`, messageRows, i, column)
}

// TestBrowserConsoleHandshake opens an MCP session over Streamable HTTP
// from the MCP console, with its templates, and reads the result in every
// place the console shows it: the transcript, the detail views, the
// sequence diagram, the mermaid export, and the history after a reload.
func TestBrowserConsoleHandshake(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")

	b.choose("target", "mcp-http")
	b.choose("template", "initialize")
	if s := b.text(`document.getElementById("composer").value`); !strings.HasPrefix(s, "POST /mcp HTTP/1.1\n") {
		t.Fatalf("the initialize template put in the composer:\n%s", s)
	}
	b.click("#send")
	b.waitUntil("the initialize answer is in the transcript, 200 OK",
		fmt.Sprintf(`%s.length >= 2 && %s[1].dataset.dir === "in" && %s.includes("200 OK")`,
			messageRows, messageRows, cell(1, "summary")),
		consoleDump)
	// The summary of an answer names what its body is, as it does for
	// the request ("initialize (id 1)").
	b.expect("the initialize answer's summary names its body, a result for id 1",
		cell(1, "summary")+`.includes("result (id 1)")`, consoleDump)

	// The next template carries the session initialize opened: the page
	// read Mcp-Session-Id from the answer.
	b.choose("template", "notifications/initialized")
	if s := b.text(`document.getElementById("composer").value`); strings.Contains(s, "{{session}}") || !strings.Contains(s, "Mcp-Session-Id: ") {
		t.Fatalf("after initialize, the notifications/initialized template is\n%s\nwant the session id in Mcp-Session-Id\n%s", s, b.describe(consoleDump))
	}
	if c := b.text(`document.getElementById("check").className + ": " + document.getElementById("check").textContent`); !strings.HasPrefix(c, "check ok") {
		t.Fatalf("the console finds fault with the notifications/initialized template: %s", c)
	}
	b.click("#send")
	b.waitUntil("the transcript has the notification's 202",
		fmt.Sprintf(`%s.length >= 4 && %s.includes("202")`, messageRows, cell(3, "summary")), consoleDump)

	checkRows := func() {
		t.Helper()
		dirs := b.text(messageRows + `.map(r => r.dataset.dir).join(" ")`)
		if dirs != "out in out in" {
			t.Errorf("the messages in the transcript go %q, want \"out in out in\"\n%s", dirs, b.describe(consoleDump))
		}
		if s := b.text(cell(1, "summary")); !strings.Contains(s, "200 OK") {
			t.Errorf("the second message's summary is %q, want 200 OK", s)
		}
		if s := b.text(cell(1, "latency")); strings.TrimSpace(s) == "" {
			t.Errorf("the second message has no latency\n%s", b.describe(consoleDump))
		}
		if s := b.text(cell(3, "summary")); !strings.Contains(s, "202") {
			t.Errorf("the fourth message's summary is %q, want 202", s)
		}
		// The handshake is four rows, no more: what the playground fixed in
		// a request (here: the Content-Length it added) is marked on the
		// request's own row.
		if all := b.text(`document.querySelectorAll("#transcript-rows tr.row").length + ""`); all != "4" {
			t.Errorf("the transcript has %s rows, want 4\n%s", all, b.describe(consoleDump))
		}
		if fix := b.text(messageRows + `[0].querySelector(".fixed")?.title || ""`); !strings.Contains(fix, "Content-Length") {
			t.Errorf("the initialize row does not say the playground added Content-Length (mark: %q)", fix)
		}
	}
	checkRows()
	t.Logf("the transcript:\n%s", b.describe(consoleDump))

	// The second message, in the three views.
	n := b.text(messageRows + `[1].dataset.n`)
	b.click(fmt.Sprintf(`#transcript-rows tr[data-n="%s"]`, n))
	b.waitUntil("the detail pane shows the answer", `!document.getElementById("detail").hidden && document.querySelector("#transcript-rows tr.selected") !== null`, consoleDump)
	detail := `document.getElementById("detail-body").textContent`
	for _, v := range []struct{ view, cond, want string }{
		{"pretty", detail + `.includes("\n  ")`, "indented JSON"},
		{"raw", detail + `.includes("␍")`, "the CR marks (␍) of the HTTP head"},
		{"hex", detail + `.startsWith("00000000")`, "offset 00000000 first"},
	} {
		b.click(fmt.Sprintf(`.view-tab[data-view="%s"]`, v.view))
		b.expect(fmt.Sprintf("the %s view shows %s", v.view, v.want), v.cond,
			`"selected tab: " + document.querySelector('.view-tab[aria-selected="true"]')?.dataset.view + "\n" + `+detail)
	}
	// The pretty view keeps the head as it crossed: its headers in the
	// raw view's order, not sorted.
	headerNames := func(view string) string {
		b.click(fmt.Sprintf(`.view-tab[data-view="%s"]`, view))
		return b.text(detail + `.split(/\n\n|(?:␍\n){2}/)[0].split("\n").slice(1).map(l => l.split(":")[0].toLowerCase()).join(" ")`)
	}
	raw, pretty := headerNames("raw"), headerNames("pretty")
	if !strings.Contains(raw, "mcp-session-id") || pretty != raw {
		t.Errorf("the answer's headers, pretty:\n  %s\nwant them in the raw view's order:\n  %s", pretty, raw)
	}

	// The sequence diagram: one arrow, with its head, per message.
	b.waitUntil("the diagram has an arrow for each message",
		`document.querySelectorAll("#diagram svg line[marker-end]").length >= 4 && document.querySelector("#diagram svg marker") !== null`,
		`"arrows: " + document.querySelectorAll("#diagram svg line[marker-end]").length + "\n" + document.getElementById("diagram").innerHTML.slice(0, 2000)`)
	if wrong := b.text(diagramOverflow); wrong != "" {
		t.Errorf("the diagram's texts do not fit:\n%s\n%s", wrong, b.describe(`document.getElementById("diagram").innerHTML.slice(0, 3000)`))
	}
	// Large text makes the diagram larger too, as it does the page.
	diagramWidth := `document.querySelector("#diagram svg").getBoundingClientRect().width / document.querySelector("#diagram svg").width.baseVal.value`
	if r := evalIn[float64](b, diagramWidth); r < 0.95 || r > 1.05 {
		t.Errorf("in normal text the diagram is drawn at %.2f of its size, want 1", r)
	}
	b.click(`[data-comfort="size"]`)
	b.expect("large text makes the diagram larger", diagramWidth+` > 1.3`, `"drawn at " + (`+diagramWidth+`)`)
	b.click(`[data-comfort="size"]`)

	b.click("#export-mermaid")
	b.waitUntil("the mermaid export is shown", `!document.getElementById("mermaid-out").hidden && document.getElementById("mermaid-out").value.startsWith("sequenceDiagram")`,
		`"hidden: " + document.getElementById("mermaid-out").hidden + "\n" + document.getElementById("mermaid-out").value`)
	if m := b.text(`document.getElementById("mermaid-out").value`); strings.Count(m, "->>") != 4 {
		t.Errorf("the mermaid export has %d arrows, want 4:\n%s", strings.Count(m, "->>"), m)
	}
	checkRows() // nothing more came in meanwhile

	// History: the page keeps its transcript in localStorage (under
	// wirelab.console.<slug>), a moment after each change. Once it is
	// there, a reload shows it again, marked as old.
	b.waitUntil("the transcript is kept for a reload", `(() => {
		try {
			const kept = JSON.parse(localStorage.getItem("wirelab.console.mcp"));
			return kept.rows.filter(r => r.dir === "out" || r.dir === "in").length === 4;
		} catch (e) {
			return false;
		}
	})()`, `"kept: " + localStorage.getItem("wirelab.console.mcp")`)
	b.run("reloading the console", chromedp.Reload())
	b.waitUntil("the four messages are back after the reload, marked old",
		fmt.Sprintf(`%s.length === 4 && %s.every(r => r.classList.contains("row-old"))`, messageRows, messageRows), consoleDump)
	if dirs := b.text(messageRows + `.map(r => r.dataset.dir).join(" ")`); dirs != "out in out in" {
		t.Errorf("after the reload the messages go %q, want \"out in out in\"", dirs)
	}
}

// TestBrowserRussian switches a lesson to Russian with the language
// switch; the choice holds on the next page, through the cookie.
func TestBrowserRussian(t *testing.T) {
	b := openBrowser(t)
	b.open("/learn/mcp-by-hand")
	if l := b.text(`document.documentElement.lang`); l != "en" {
		t.Fatalf("a fresh browser sees the lesson in %q, want en", l)
	}
	b.clickAndLoad(`.lang-switch a[hreflang="ru"]`)

	if l := b.text(`document.documentElement.lang`); l != "ru" {
		t.Errorf("after the switch <html lang=%q>, want ru (at %s)", l, b.text(`location.href`))
	}
	buttons := b.text(`[...document.querySelectorAll(".frame-send")].map(b => b.textContent.trim()).join(" | ")`)
	if buttons != strings.Repeat("Отправить | ", 8)+"Отправить" {
		t.Errorf("the Send buttons say %q, want nine times Отправить", buttons)
	}
	// The lesson's own diagram names the learner in Russian too.
	b.click(".frame-send")
	b.waitUntil("the lesson's diagram is drawn", `document.querySelectorAll("#lesson-diagram svg text.lane").length >= 2`, consoleDump)
	if s := b.text(`[...document.querySelectorAll("#lesson-diagram svg text.lane")].map(t => t.textContent).join(" | ")`); !strings.HasPrefix(s, "вы | ") {
		t.Errorf("the Russian lesson's diagram lifelines are %q, want вы first", s)
	}

	b.open("/console/mcp")
	if l := b.text(`document.documentElement.lang`); l != "ru" {
		t.Errorf("the console, opened after the switch, is in %q, want ru", l)
	}
	if s := b.text(`document.getElementById("send").textContent.trim()`); s != "Отправить" {
		t.Errorf("the console's Send button says %q, want Отправить", s)
	}
	// The sequence diagram speaks the page's language: the learner's
	// lifeline is "вы".
	b.click("#send")
	lanes := `[...document.querySelectorAll("#diagram svg text.lane")].map(t => t.textContent).join(" | ")`
	b.waitUntil("the diagram is drawn", `document.querySelectorAll("#diagram svg line[marker-end]").length >= 2`, consoleDump)
	if s := b.text(lanes); !strings.HasPrefix(s, "вы | ") {
		t.Errorf("the Russian diagram's lifelines are %q, want вы first", s)
	}
	b.click("#export-mermaid")
	if m := b.text(`document.getElementById("mermaid-out").value`); !strings.Contains(m, "participant you as вы\n") {
		t.Errorf("the Russian mermaid text does not name the learner вы:\n%s", m)
	}
}

// TestBrowserStaysOnMachine visits every page and uses the frames and the
// consoles, and checks that the browser asked nothing of any host but
// this machine: no fonts, scripts or pictures from elsewhere.
func TestBrowserStaysOnMachine(t *testing.T) {
	b := openBrowser(t)
	type request struct{ url, from string } // from: the page that asked
	var (
		mu   sync.Mutex // guards seen
		seen []request  // everything the tab asked for, in order
	)
	err := chromedp.Listen(b.ctx, func(ev any) {
		// Runs in the loop that reads the browser's messages: no commands here.
		var r request
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			r = request{ev.Request.URL, ev.DocumentURL}
		case *network.EventWebSocketCreated:
			r = request{ev.URL, "a websocket"}
		default:
			return
		}
		mu.Lock()
		seen = append(seen, r)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	b.run("enabling the network domain", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, network.Enable, network.EnableParams{})
		return err
	}))

	pages := []string{"/", "/learn/", "/learn/mcp-by-hand", "/console/"}
	for _, c := range consoles() {
		pages = append(pages, "/console/"+c.Slug)
	}
	pages = append(pages, "/five-wires")
	for _, p := range pages {
		status := b.openStatus(p)
		if status != 200 {
			if p == "/five-wires" {
				t.Logf("%s answers %d; not visited", p, status)
				continue
			}
			t.Errorf("%s answers %d, want 200", p, status)
			continue
		}
		switch {
		case p == "/learn/mcp-by-hand":
			for i := range 7 {
				b.clickNth(".frame-send", i)
			}
			b.expect("the lesson's tools/call frame is answered", frameAnswer(6)+`.includes('"words"')`, frameDump)
		case strings.HasPrefix(p, "/console/") && p != "/console/":
			// Each console sends its first template and shows the answer.
			b.click("#send")
			b.expect(p+" shows an answer", messageRows+`.some(r => r.dataset.dir === "in")`, consoleDump)
		}
	}

	mu.Lock()
	requests := append([]request(nil), seen...)
	mu.Unlock()
	here, err := url.Parse(b.base)
	if err != nil {
		t.Fatal(err)
	}
	if len(requests) < len(pages) {
		t.Fatalf("the tab asked for %d URLs on %d pages: the listener is not seeing the requests\n%v", len(requests), len(pages), requests)
	}
	var away []string
	for _, r := range requests {
		u, err := url.Parse(r.url)
		if err != nil {
			away = append(away, fmt.Sprintf("%s, unreadable (%v), from %s", r.url, err, r.from))
			continue
		}
		switch {
		case u.Scheme == "data" || u.Scheme == "blob" || u.Scheme == "about":
		case u.Host == here.Host:
		case u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost" || u.Hostname() == "::1":
		default:
			if line := r.url + " from " + r.from; !slices.Contains(away, line) {
				away = append(away, line)
			}
		}
	}
	if len(away) > 0 {
		t.Errorf("the pages asked for URLs off this machine:\n  %s", strings.Join(away, "\n  "))
	}
	t.Logf("%d requests, none off this machine but the %d above", len(requests), len(away))
}

// TestBrowserComfort: the theme key and its memory, the shortcuts dialog,
// and the large-text button.
func TestBrowserComfort(t *testing.T) {
	b := openBrowser(t)
	b.open("/learn/mcp-by-hand")
	theme := `document.documentElement.dataset.theme || "system"`
	if s := b.text(theme); s != "system" {
		t.Fatalf("a fresh browser has the theme %q, want system (no data-theme)", s)
	}

	b.keys("t")
	b.waitUntil(`"t" turns the theme to light`, `document.documentElement.dataset.theme === "light"`,
		`"data-theme: " + document.documentElement.dataset.theme`)
	b.run("reloading", chromedp.Reload())
	if s := b.text(theme); s != "light" {
		t.Errorf("after a reload the theme is %q, want light", s)
	}

	dialog := `document.getElementById("shortcuts")`
	b.keys("?")
	b.waitUntil(`"?" opens the shortcuts dialog`, dialog+`.open`, `"open: " + `+dialog+`?.open`)
	b.keys(kb.Escape)
	b.waitUntil("Escape closes the shortcuts dialog", `!`+dialog+`.open`, `"open: " + `+dialog+`.open`)

	diagramWidth := `String(document.querySelector(".lesson svg.sequence").getBoundingClientRect().width)`
	before, _ := strconv.ParseFloat(b.text(diagramWidth), 64)
	b.click(`[data-comfort="size"]`)
	b.waitUntil("the large-text button sets data-size=large", `document.documentElement.dataset.size === "large"`,
		`"data-size: " + document.documentElement.dataset.size`)
	// The lesson's sequence diagram grows with the text.
	if after, _ := strconv.ParseFloat(b.text(diagramWidth), 64); before <= 0 || after < 1.3*before {
		t.Errorf("the lesson's diagram is %.0f px wide in large text, %.0f px before: want it to grow with the text", after, before)
	}
	if s := b.text(`document.querySelector('[data-comfort="size"]').getAttribute("aria-pressed")`); s != "true" {
		t.Errorf("the large-text button has aria-pressed=%q, want true", s)
	}
	b.run("reloading", chromedp.Reload())
	if s := b.text(`document.documentElement.dataset.size || ""`); s != "large" {
		t.Errorf("after a reload data-size is %q, want large", s)
	}
}

// fiveWiresDump describes the five columns, with what static/fivewires.js
// sets for a test to read: data-state on the page and on each column,
// the medians and their spread with their values in data- attributes,
// and the first call, shown apart.
const fiveWiresDump = `"page [" + document.getElementById("five-wires")?.dataset.state + "], fastest: " +
	document.getElementById("five-wires")?.dataset.fastest + ", status: " + (document.getElementById("fw-status")?.textContent ?? "") + "\n" +
	[...document.querySelectorAll(".fw-col")].map(c => {
		const q = (s) => c.querySelector(s);
		const data = (s) => JSON.stringify(Object.assign({}, q(s)?.dataset));
		return c.dataset.wire + " [" + c.dataset.state + "]" +
			"\n    on the wire: " + q(".fw-wire-latency")?.textContent + " " + data(".fw-wire-latency") +
			", spread " + q(".fw-wire-spread")?.textContent + " " + data(".fw-wire-spread") +
			"\n    from the page: " + q(".fw-page-latency")?.textContent + " " + data(".fw-page-latency") +
			", spread " + q(".fw-page-spread")?.textContent + " " + data(".fw-page-spread") +
			"\n    first call " + data(".fw-warm") + ": " + (q(".fw-warm")?.innerText ?? "").replaceAll("\n", " | ") +
			"\n    bytes " + q(".fw-bytes-out")?.textContent + " / " + q(".fw-bytes-in")?.textContent +
			(q(".fw-error")?.hidden === false ? "\n    error: " + q(".fw-error").textContent : "");
	}).join("\n")`

// fiveWiresSpread is a script that checks the numbers of every column
// that is done and returns what is wrong with them, one line each, or ""
// when nothing is: fiveWiresRuns calls counted, the median between the
// fastest and the slowest on the wire and from the page, the first
// call's two times, and the last call's bytes in view. whyOf maps a
// column to what its first call should have included.
func fiveWiresSpread(whyOf map[string]string) string {
	jsonOf := func(v any) []byte { b, _ := json.Marshal(v); return b } // a map of strings always encodes
	return fmt.Sprintf(`(() => {
	const whyOf = %s, runs = %d, wrong = [];
	for (const c of document.querySelectorAll(".fw-col")) {
		if (c.dataset.state !== "done") continue;
		const say = (s) => wrong.push(c.dataset.wire + ": " + s);
		const q = (s) => c.querySelector(s);
		for (const [name, unit] of [["wire", "Ns"], ["page", "Ms"]]) {
			const median = Number(q(".fw-" + name + "-latency").dataset[unit.toLowerCase()]);
			const d = q(".fw-" + name + "-spread").dataset;
			const min = Number(d["min" + unit]), max = Number(d["max" + unit]);
			if (Number(d.runs) !== runs) say(name + ": " + d.runs + " calls counted, want " + runs);
			if (!(min > 0 && min <= median && median <= max)) say(name + ": want 0 < min <= median <= max, have " + min + ", " + median + ", " + max);
			if (!/\d.*–.*\d/.test(q(".fw-" + name + "-spread").textContent)) say(name + ": the spread is not shown as fastest – slowest");
		}
		if (q(".fw-runs").hidden) say("the line saying what the median is of is hidden");
		const warm = q(".fw-warm");
		if (warm.hidden) say("the first call is not shown");
		if (warm.dataset.why !== whyOf[c.dataset.wire]) say("the first call included " + warm.dataset.why + ", want " + whyOf[c.dataset.wire]);
		if (!(Number(q(".fw-warm-wire").dataset.ns) > 0 && Number(q(".fw-warm-page").dataset.ms) > 0)) say("the first call has no times");
		if (q(".fw-warm-why").textContent === "") say("the first call does not say what it included");
		if (q(".fw-result .fw-sent").textContent === "" || q(".fw-result .fw-back").textContent === "") say("the last call's bytes are not shown");
		if (!(Number(q(".fw-bytes-out").dataset.bytes) > 0 && Number(q(".fw-bytes-in").dataset.bytes) > 0)) say("no byte counts");
	}
	return wrong.join("\n");
})()`, jsonOf(whyOf), fiveWiresRuns)
}

// TestBrowserFiveWires presses Run all on the five-wires page and waits
// for every column to show the median of its calls with their spread,
// its first call apart, and the whole cost of one call, handshake
// included; checks that a column is crowned only when its slowest call
// beat every other column's fastest; then runs the stdio and gRPC
// columns again, whose first calls now find the server running and the
// connection open, and whose cost is still that of a call from nothing.
func TestBrowserFiveWires(t *testing.T) {
	b := openBrowser(t)
	if status := b.openStatus("/five-wires"); status != 200 {
		t.Skipf("/five-wires answers %d: the page is not there yet", status)
	}
	if !evalIn[bool](b, `document.getElementById("fw-run-all") !== null`) {
		t.Skip("/five-wires has no #fw-run-all yet")
	}
	if status := b.fetchStatus("/static/fivewires.js"); status != 200 {
		t.Skipf("/static/fivewires.js answers %d: the page's script is not there yet", status)
	}
	if s := b.text(`[...document.querySelectorAll(".fw-col")].map(c => c.dataset.wire).join(" ")`); s != "stdio http grpc mcp a2a" {
		t.Fatalf("the page's columns are %q, want \"stdio http grpc mcp a2a\"", s)
	}

	b.click("#fw-run-all")
	// A column shows its median on the wire as text, with the number
	// in nanoseconds beside it.
	shows := `(c => {
		const dd = c.querySelector(".fw-wire-latency");
		return dd !== null && /\d/.test(dd.textContent) && Number(dd.dataset.ns) > 0;
	})`
	b.waitUntil("every column shows its latency on the wire",
		`[...document.querySelectorAll(".fw-col")].every(`+shows+`)`, fiveWiresDump)
	b.expect("Run all ends with every column done and a verdict",
		`document.getElementById("five-wires").dataset.state === "done" &&
		[...document.querySelectorAll(".fw-col")].every(c => c.dataset.state === "done") &&
		["fastest", "close"].includes(document.getElementById("five-wires").dataset.verdict)`,
		fiveWiresDump)
	// The verdict follows the rule, on whatever the machine measured: a
	// column crowned has a slowest call faster than every other column's
	// fastest, and when none is, the smallest median's slowest call was
	// not; the mark and the status say the same.
	verdictWrong := `(() => {
		const root = document.getElementById("five-wires"), wrong = [];
		const cols = [...document.querySelectorAll(".fw-col")].map(c => {
			const d = c.querySelector(".fw-wire-spread").dataset;
			return { wire: c.dataset.wire, median: Number(c.querySelector(".fw-wire-latency").dataset.ns), min: Number(d.minNs), max: Number(d.maxNs),
				marked: !c.querySelector(".fw-badge").hidden || c.classList.contains("fw-fastest") };
		});
		const best = cols.slice().sort((a, b) => a.median - b.median)[0];
		const beats = cols.every(c => c === best || best.max < c.min);
		const status = document.getElementById("fw-status").textContent;
		if (root.dataset.verdict === "fastest") {
			if (root.dataset.fastest !== best.wire) wrong.push("crowned " + root.dataset.fastest + ", the smallest median is " + best.wire);
			if (!beats) wrong.push(best.wire + " is crowned, but its slowest call does not beat every other column's fastest");
			for (const c of cols) if (c.marked !== (c.wire === best.wire)) wrong.push(c.wire + " marked " + c.marked);
			if (!status.startsWith("Fastest on the wire: ")) wrong.push("status " + JSON.stringify(status));
		} else {
			if (beats) wrong.push(best.wire + "'s slowest call beat every other column's fastest, yet the verdict is " + root.dataset.verdict);
			if (root.dataset.fastest !== undefined || cols.some(c => c.marked)) wrong.push("a column is marked although it is too close to call");
			if (!status.startsWith("Too close to call: ")) wrong.push("status " + JSON.stringify(status));
		}
		return wrong.join("\n");
	})()`
	if wrong := b.text(verdictWrong); wrong != "" {
		t.Errorf("the verdict:\n%s\n%s", wrong, b.describe(fiveWiresDump))
	}
	// The whole cost of one call, by column: round trips, and whose bytes.
	// MCP's bytes are the four exchanges' shown in its session and its
	// call; gRPC's are those of the call that opened the connection.
	costWrong := func() string {
		return b.text(`(() => {
			const want = {"stdio": "1 call", "http": "1 call", "grpc": "2 dialed", "mcp": "4 session", "a2a": "1 call"}, wrong = [];
			const sum = (c, s) => [...c.querySelectorAll(s)].reduce((n, e) => n + Number(e.dataset.bytes), 0);
			for (const c of document.querySelectorAll(".fw-col")) {
				const q = (s) => c.querySelector(s);
				const got = q(".fw-trips").dataset.trips + " " + q(".fw-cost").dataset.from;
				if (got !== want[c.dataset.wire]) wrong.push(c.dataset.wire + ": " + got + ", want " + want[c.dataset.wire]);
				const out = Number(q(".fw-bytes-out").dataset.bytes), back = Number(q(".fw-bytes-in").dataset.bytes);
				if (!(out > 0 && back > 0)) wrong.push(c.dataset.wire + ": bytes " + out + " / " + back);
				if (c.dataset.wire === "grpc") continue;
				const shownOut = sum(c, ".fw-step-result .fw-sent-size, .fw-result .fw-sent-size");
				const shownBack = sum(c, ".fw-step-result .fw-back-size, .fw-result .fw-back-size");
				if (out !== shownOut || back !== shownBack) wrong.push(c.dataset.wire + ": cost " + out + " / " + back + ", the exchanges shown " + shownOut + " / " + shownBack);
			}
			return wrong.join("\n");
		})()`)
	}
	if wrong := costWrong(); wrong != "" {
		t.Errorf("the whole cost of one call, after Run all:\n%s\n%s", wrong, b.describe(fiveWiresDump))
	}
	grpcCost := b.text(`["out", "in"].map(d => document.querySelector("#fw-grpc .fw-bytes-" + d).dataset.bytes).join(" / ")`)
	// And the rule itself, held to numbers chosen for it: a difference
	// within the spread crowns nothing.
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	verdicts, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const { verdict } = await import("/static/verdict.js");
		const c = (name, median, min, max) => ({ name, median, min, max });
		const kind = (v) => v.kind + (v.best ? " " + v.best.name : "") + (v.next ? " next " + v.next.name : "") + (v.rival ? " rival " + v.rival.name : "");
		return [
			verdict([]),
			verdict([c("a", 5, 4, 6)]),
			verdict([c("a", 5, 4, 6), c("b", 9, 7, 12), c("c", 8, 6.5, 20)]),
			verdict([c("a", 5, 4, 7), c("b", 9, 7, 12)]),
			verdict([c("a", 5, 4, 8), c("b", 5.1, 3, 12)]),
		].map(kind).join("\n");
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("importing static/verdict.js: %v%s", err, b.consoleText())
	}
	wantVerdicts := "none\nalone a\nfastest a next c\nclose a rival b\nclose a rival b"
	if verdicts != wantVerdicts {
		t.Errorf("static/verdict.js gives\n%s\nwant\n%s", verdicts, wantVerdicts)
	}
	// The tab is new: its first stdio call starts the server and its
	// first gRPC call opens the connection.
	first := map[string]string{"stdio": "started", "http": "cold", "grpc": "dialed", "mcp": "cold", "a2a": "cold"}
	if wrong := b.text(fiveWiresSpread(first)); wrong != "" {
		t.Errorf("after Run all:\n%s\n%s", wrong, b.describe(fiveWiresDump))
	}
	t.Logf("the five wires:\n%s", b.describe(fiveWiresDump))

	// A column's own Run, again: the server and the connection are kept.
	for _, wire := range []string{"stdio", "grpc"} {
		// The column's state goes to running at once, so that waiting for
		// done waits for this run.
		b.click("#fw-" + wire + " .fw-run")
		b.expect("the "+wire+" column runs", `document.getElementById("fw-`+wire+`").dataset.state === "running"`, fiveWiresDump)
		b.waitUntil("the "+wire+" column is done again", `document.getElementById("fw-`+wire+`").dataset.state === "done"`, fiveWiresDump)
	}
	first["stdio"], first["grpc"] = "running", "kept"
	if wrong := b.text(fiveWiresSpread(first)); wrong != "" {
		t.Errorf("after running stdio and gRPC again:\n%s\n%s", wrong, b.describe(fiveWiresDump))
	}
	// A column's own Run takes the mark away: it compared runs made together.
	if s := b.text(`(document.getElementById("five-wires").dataset.verdict ?? "") + " " + document.querySelectorAll(".fw-col.fw-fastest").length`); s != " 0" {
		t.Errorf("after a column's own Run, the verdict is %q", s)
	}
	// The gRPC call on the kept connection still costs, from nothing, what
	// the call that opened it did.
	if wrong := costWrong(); wrong != "" {
		t.Errorf("the whole cost of one call, after running stdio and gRPC again:\n%s\n%s", wrong, b.describe(fiveWiresDump))
	}
	if again := b.text(`["out", "in"].map(d => document.querySelector("#fw-grpc .fw-bytes-" + d).dataset.bytes).join(" / ")`); again != grpcCost {
		t.Errorf("gRPC's whole cost was %s, and on the kept connection %s; want the cost of the call that opened it both times", grpcCost, again)
	}
}

// TestBrowserConsoleAnswersTheServer: over MCP on stdio, a production
// deploy makes the server ask the learner (elicitation/create). The
// request gets an Answer button, which writes the response into the
// composer; sending it lets the tool run. A second tab follows the
// session through the share link, read only, and sees what comes next.
func TestBrowserConsoleAnswersTheServer(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")
	for i, name := range []string{"initialize", "notifications/initialized", "deploy to production (the server asks you first)"} {
		b.choose("template", name)
		b.click("#send")
		if i == 0 {
			b.waitUntil("the initialize answer is in", messageRows+`.some(r => r.textContent.includes("result (id 1)"))`, consoleDump)
		}
	}
	ask := `document.querySelector("#transcript-rows tr.row-ask")`
	b.waitUntil("the server's question is a row with an Answer button",
		ask+` !== null && `+ask+`.textContent.includes("elicitation/create") && `+ask+`.querySelector("button.answer") !== null`, consoleDump)
	b.text("(" + ask + `.querySelector("button.answer").click(), "")`)
	answer := b.text(`document.getElementById("composer").value`)
	if !strings.Contains(answer, `"result":{"action":"accept","content":{"confirm":true}}`) {
		t.Fatalf("the Answer button wrote\n%s\nwant an accept with confirm true", answer)
	}
	b.click("#send")
	b.waitUntil("the deploy ran once answered", messageRows+`.some(r => r.textContent.includes("result (id 11)") && !r.textContent.includes("isError"))`, consoleDump)
	b.expect("the answered request offers no Answer any more",
		ask+` !== null && `+ask+`.querySelector("button.answer") === null`, consoleDump)

	// The share link opens the same session in another tab.
	share := b.text(`document.getElementById("share").getAttribute("href")`)
	if !strings.Contains(share, "/console/mcp?watch=") {
		t.Fatalf("the share link is %q", share)
	}
	tabCtx, closeTab := chromedp.NewContext(b.ctx)
	t.Cleanup(closeTab)
	// The tab opens under a context with no deadline, or it would close
	// when the deadline passed.
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("opening a second tab: %v", err)
	}
	w := &browserTab{t: t, ctx: tabCtx, base: b.base}
	w.run("opening the share link", chromedp.Navigate(share))
	w.waitUntil("the follower replays the session so far", messageRows+`.some(r => r.textContent.includes("result (id 11)"))`, consoleDump)
	// Read only, visibly: no Send, Restart or Clear, and a composer
	// that shows the frame but takes no typing.
	if d := w.text(`String(document.getElementById("send").hidden && document.getElementById("restart").hidden && document.getElementById("clear").hidden && document.getElementById("composer").readOnly)`); d != "true" {
		t.Errorf("the follower's console shows a control that does nothing, or its composer takes typing\n%s", w.describe(consoleDump))
	}
	b.choose("template", "ping")
	b.click("#send")
	w.waitUntil("the follower sees the next exchange live", messageRows+`.some(r => r.textContent.includes("ping (id 8)"))`, consoleDump)
}

// diagramOverflow is a script that returns, one line each, the texts of
// the console's sequence diagram that do not fit their place: a label
// wider than its arrow, a lifeline's name running into the next one's,
// or "" when all fit.
const diagramOverflow = `(() => {
	const svg = document.querySelector("#diagram svg");
	const wrong = [];
	// A text's own words, without the <title> that holds all of a cut one.
	const shown = (t) => [...t.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join("");
	const arrows = [...svg.querySelectorAll("line[marker-end]")];
	if (svg.querySelectorAll("text.label").length !== arrows.length || arrows.length === 0) wrong.push("the arrows' labels are not text.label, one per arrow");
	if (svg.querySelectorAll("text.lane").length < 2) wrong.push("the lifelines' names are not text.lane");
	[...svg.querySelectorAll("text.label")].forEach((t, i) => {
		const b = t.getBBox(), l = arrows[i];
		const lo = Math.min(l.x1.baseVal.value, l.x2.baseVal.value), hi = Math.max(l.x1.baseVal.value, l.x2.baseVal.value);
		if (b.x < lo || b.x + b.width > hi) wrong.push("label " + JSON.stringify(shown(t)) + " spans " + b.x.toFixed(0) + "-" + (b.x + b.width).toFixed(0) + ", its arrow " + lo + "-" + hi);
	});
	const lanes = [...svg.querySelectorAll("text.lane")].map(t => [shown(t), t.getBBox()]);
	for (let i = 1; i < lanes.length; i++) {
		if (lanes[i - 1][1].x + lanes[i - 1][1].width > lanes[i][1].x) wrong.push("lifelines " + JSON.stringify(lanes[i - 1][0]) + " and " + JSON.stringify(lanes[i][0]) + " overlap");
	}
	const width = svg.viewBox.baseVal.width;
	for (const t of svg.querySelectorAll("text")) {
		const b = t.getBBox();
		if (b.x < 0 || b.x + b.width > width) wrong.push(JSON.stringify(shown(t)) + " leaves the diagram");
	}
	return wrong.join("\n");
})()`

// TestBrowserConsoleGRPCBytes: a gRPC call's raw and hex views are the
// HTTP/2 bytes that crossed, frame by frame with their direction, the
// first call's opening with the client's preface, and its pretty view is
// the annotated dump; the request's row has the client's bytes.
func TestBrowserConsoleGRPCBytes(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/grpc")
	b.choose("template", "ListTools")
	b.click("#send")
	b.waitUntil("the call's capture is in the transcript", messageRows+`.length >= 2 && `+messageRows+`[1].dataset.dir === "in"`, consoleDump)

	detail := `document.getElementById("detail-body").textContent`
	view := func(row int, v string) string {
		t.Helper()
		b.click(fmt.Sprintf(`#transcript-rows tr[data-n="%s"]`, b.text(fmt.Sprintf("%s[%d].dataset.n", messageRows, row))))
		b.click(fmt.Sprintf(`.view-tab[data-view="%s"]`, v))
		return b.text(detail)
	}
	lines := func(s string, n int) string {
		l := strings.SplitN(s, "\n", n+1)
		return strings.Join(l[:min(n, len(l))], "\n")
	}

	// The client's first frame is its preface. (The server may send its
	// SETTINGS before the preface reaches it, so a frame from the server
	// may come first.)
	firstOut := func(view string) string {
		if i := strings.Index("\n"+view, "\n-> "); i >= 0 {
			return view[i:]
		}
		return view
	}
	hex := view(1, "hex")
	if !strings.HasPrefix(firstOut(hex), "-> PREFACE len=24\n00000000  50 52 49 20 2a 20 48 54  54 50 2f 32 2e 30 0d 0a  |PRI * HTTP/2.0..|\n") {
		t.Errorf("the first call's hex view starts\n%s\nwant the client's preface, PRI * HTTP/2.0", lines(hex, 4))
	}
	if !strings.Contains("\n"+hex, "\n<- SETTINGS stream=0 len=") || !strings.Contains(hex, "\n-> HEADERS stream=1 len=") || !strings.Contains(hex, "\n<- DATA stream=1 len=") {
		t.Errorf("the hex view does not show frames both ways, each labelled:\n%s", hex)
	}
	if strings.Contains(hex, "63 61 6c 6c 20 2f") {
		t.Errorf("the hex view holds the bytes of the dump's \"call /\":\n%s", lines(hex, 6))
	}
	if raw := view(1, "raw"); !strings.HasPrefix(firstOut(raw), "-> PREFACE len=24\nPRI * HTTP/2.0␍␊␍␊SM␍␊␍␊\n") {
		t.Errorf("the raw view starts\n%s\nwant the preface as text", lines(raw, 3))
	}
	if pretty := view(1, "pretty"); !strings.HasPrefix(pretty, "call /tools.v1.ToolServer/ListTools on stream 1: OK (0)") {
		t.Errorf("the pretty view starts\n%s\nwant the annotated dump", lines(pretty, 3))
	}
	// The request's row: the client's frames alone, and their size.
	if out := view(0, "hex"); !strings.HasPrefix(out, "-> PREFACE len=24\n") || strings.Contains(out, "\n<- ") {
		t.Errorf("the request's hex view is\n%s\nwant the client's frames only", lines(out, 8))
	}
	if size := b.text(cell(0, "size")); !strings.HasSuffix(size, " B") {
		t.Errorf("the request's row has size %q, want the client's bytes", size)
	}

	// The next call goes on the kept connection: no preface.
	b.click("#send")
	b.waitUntil("the second call's capture is in", messageRows+`.length >= 4 && `+messageRows+`[3].dataset.dir === "in"`, consoleDump)
	// (What the connection still owed, a PING's ACK say, may come first.)
	if hex := view(3, "hex"); strings.Contains(hex, "PREFACE") || !strings.Contains(hex, "-> HEADERS stream=3 len=") {
		t.Errorf("the second call's hex view is\n%s\nwant its HEADERS on stream 3, and no preface", hex)
	}
}

// TestBrowserConsoleA2AStream: the rows of an A2A stream say what each
// event carries, a task's state or an artifact's name, not only
// "result".
func TestBrowserConsoleA2AStream(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/a2a")
	b.choose("template", "SendMessage deploy (asks which environment)")
	b.click("#send")
	b.waitUntil("the task waits for input", messageRows+`.some(r => r.dataset.dir === "in" && r.textContent.includes("TASK_STATE_INPUT_REQUIRED"))`, consoleDump)
	b.choose("template", "SendStreamingMessage: answer the task")
	b.click("#send")
	summaries := messageRows + `.filter(r => r.dataset.dir === "in").map(r => r.querySelector(".summary").textContent)`
	b.waitUntil("the stream ends with the task completed", summaries+`.some(s => s.includes("statusUpdate TASK_STATE_COMPLETED"))`, consoleDump)
	for _, want := range []string{"statusUpdate TASK_STATE_WORKING", `artifactUpdate "deploy log"`} {
		b.expect("a stream row reads "+want, summaries+`.some(s => s.includes(`+jsString(want)+`))`, consoleDump)
	}
	if bare := b.text(summaries + `.filter(s => /· result \(id/.test(s)).join("\n")`); bare != "" {
		t.Errorf("stream rows that say only \"result\":\n%s", bare)
	}
}

// TestBrowserConsoleCustomStdio: a server of the learner's own, started
// from its command line, is named short in every row, the whole line in
// the cell's tooltip, and so in the diagram's lifeline.
func TestBrowserConsoleCustomStdio(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")
	// The test binary is the server (TestMain), at a long path.
	command := os.Args[0] + " server mcp"
	b.choose("target", "custom-stdio")
	b.text(fmt.Sprintf(`(document.getElementById("custom-to").value = %s, "")`, jsString(command)))
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the custom server answers initialize", messageRows+`.some(r => r.textContent.includes("result (id 1)"))`, consoleDump)

	short := "custom-stdio " + filepath.Base(os.Args[0]) + " server mcp"
	if len(short) > len("custom-stdio ")+24 {
		short = strings.TrimRight(short[:len("custom-stdio ")+23], " ") + "…"
	}
	cells := b.text(messageRows + `.map(r => r.querySelector(".target").textContent + " | " + r.querySelector(".target").title).join("\n")`)
	for _, c := range strings.Split(cells, "\n") {
		if c != short+" | "+command {
			t.Errorf("a row's target reads %q, want %q with the whole command in its tooltip", c, short+" | "+command)
		}
	}
	b.waitUntil("the diagram is drawn", `document.querySelectorAll("#diagram svg text.lane").length === 2`, `document.getElementById("diagram").innerHTML.slice(0, 1500)`)
	lane := b.text(`(t => [...t.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join("") + " | " + (t.querySelector("title")?.textContent ?? ""))(document.querySelectorAll("#diagram svg text.lane")[1])`)
	if lane != short+" | custom-stdio "+command {
		t.Errorf("the diagram's lifeline reads %q, want %q with the whole command in its title", lane, short+" | custom-stdio "+command)
	}
}
