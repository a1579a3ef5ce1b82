package playground

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/wirelab/wirelab/internal/classroom"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The classroom as a room of browsers sees it: the instructor's tab on
// this machine presents, and followers on another origin (this machine's
// address on its network, as a laptop in the room reaches it) join with
// the code, follow the presenter live, read only, and are refused what
// only the instructor's machine may do.

// browserRoomCode is the join code of the browser tests' room.
const browserRoomCode = "W4RN7B"

// lanAddress is an IPv4 address of this machine that is not loopback:
// the address a follower's browser reaches the playground by. Without
// one the test is skipped: two origins need two addresses.
func lanAddress(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skipf("skipping: cannot list this machine's addresses (%v), and a follower on another origin needs one that is not loopback", err)
	}
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	t.Skip("skipping: this machine has no IPv4 address beside loopback, and a follower on another origin needs one")
	return ""
}

// classroomBrowser is a playground in classroom mode listening on every
// address, and a headless Chromium to open its pages in: the
// instructor's on http://127.0.0.1:PORT, followers' on
// http://LAN:PORT, each follower in a browser context of its own (its
// own cookies, as its own laptop would have).
type classroomBrowser struct {
	t         *testing.T
	alloc     context.Context // the browser's
	local     string          // http://127.0.0.1:PORT
	remote    string          // http://LAN:PORT
	room      *classroom.Room
	presenter *browserTab
	closeHub  func() // ends every socket of the playground, as stopping wirelab would
}

func openClassroom(t *testing.T) *classroomBrowser {
	t.Helper()
	exe := findBrowser(t)
	lan := lanAddress(t)
	targets := liveServers(t)
	t.Setenv(childEnv, "1")

	// Every address, so that the same playground answers on loopback
	// and on the network.
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatalf("listening on every address: %v", err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	room := classroom.New(&classroom.Options{Code: browserRoomCode})
	pg := New(tools.New(&tools.Options{DeployStep: time.Millisecond}), &Options{
		HTTPURL: targets.HTTPURL, HTTPAuthURL: targets.HTTPAuthURL, GRPCAddr: targets.GRPCAddr,
		MCPURL: targets.MCPURL, A2AURL: targets.A2AURL, Executable: os.Args[0],
		Hosts:     []string{lan},
		Classroom: &Classroom{Room: room, JoinURLs: []string{"http://" + net.JoinHostPort(lan, port) + "/join"}},
	})
	srv := httptest.NewUnstartedServer(pg)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		pg.Close()
	})

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		// As openBrowser: a proxy that goes nowhere, so that nothing
		// leaves the machine; loopback and the machine's own network
		// address go direct.
		chromedp.ProxyServer("127.0.0.1:9"),
		chromedp.Flag("proxy-bypass-list", lan),
		chromedp.WindowSize(1280, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	c := &classroomBrowser{t: t, alloc: alloc, local: "http://127.0.0.1:" + port, remote: "http://" + net.JoinHostPort(lan, port), room: room, closeHub: pg.Close}
	c.presenter = c.tab(c.local, nil)
	return c
}

// tab opens a tab on base: beside another tab, in its browser context
// (the same cookies: another tab of the same laptop), or, with beside
// nil, in a browser context of its own (another laptop). The first tab
// starts the browser.
func (c *classroomBrowser) tab(base string, beside *browserTab) *browserTab {
	c.t.Helper()
	var ctx context.Context
	var cancel context.CancelFunc
	switch {
	case c.presenter == nil:
		ctx, cancel = chromedp.NewContext(c.alloc)
	case beside == nil:
		ctx, cancel = chromedp.NewContext(c.presenter.ctx, chromedp.WithNewBrowserContext())
	default:
		ctx, cancel = chromedp.NewContext(beside.ctx)
	}
	c.t.Cleanup(cancel)
	tab := &browserTab{t: c.t, ctx: ctx, base: base}
	started := make(chan error, 1)
	// Ends when Do returns: at once, or when the cleanup stops the browser.
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			c.t.Fatalf("opening a tab: %v", err)
		}
	case <-time.After(browserStart):
		c.t.Fatalf("the browser did not open a tab in %v", browserStart)
	}
	messages := chromedp.Console(ctx)
	// Ends when the tab's context is cancelled, in the cleanup above.
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if strings.HasSuffix(m.URL, "/favicon.ico") {
				continue
			}
			switch m.Type {
			case chromedp.ConsoleError, chromedp.ConsoleWarning, chromedp.ConsoleException:
				tab.mu.Lock()
				tab.console = append(tab.console, fmt.Sprintf("%s %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
				tab.mu.Unlock()
			}
		}
	}()
	return tab
}

// join opens path on a follower's tab, which the classroom sends to its
// join page, and joins with the code and a name; the page comes back to
// path.
func (c *classroomBrowser) join(f *browserTab, name, path string) {
	c.t.Helper()
	f.open(path)
	if p := f.text(`location.pathname`); p != "/join" {
		c.t.Fatalf("a follower without the cookie opened %s and is at %s, want the join page\n%s", path, p, f.describe(`document.body.innerText`))
	}
	f.run("typing the code and a name",
		chromedp.SendKeys(chromedp.CSS(`input[name="code"]`), browserRoomCode),
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), name),
	)
	ctx, cancel := context.WithTimeout(f.ctx, browserWait)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.WaitEvent(cdppage.LoadEventFired, nil, chromedp.Submit(chromedp.CSS(`input[name="name"]`)))); err != nil {
		c.t.Fatalf("joining as %s: %v%s", name, err, f.consoleText())
	}
	f.waitUntil("the join page goes back to "+path, fmt.Sprintf(`location.pathname + location.search === %s && document.readyState === "complete"`, jsString(path)),
		`location.href + "\n" + document.body.innerText`)
}

// awaitText evaluates an expression that gives a promise of a string,
// and returns the string.
func awaitText(b *browserTab, expr string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v%s", expr, err, b.consoleText())
	}
	return s
}

// waitAcross is waitUntil for a condition that holds on another page:
// the page may go there while the condition is being polled, which ends
// that poll (the page's script context is gone), so it polls again, on
// the next page, within the same bound.
func waitAcross(b *browserTab, what, cond, dump string) {
	b.t.Helper()
	deadline := time.Now().Add(browserWait)
	for {
		err := b.poll(cond)
		if err == nil {
			return
		}
		msg := err.Error()
		gone := strings.Contains(msg, "Cannot find context") || strings.Contains(msg, "context was destroyed") || strings.Contains(msg, "navigated or closed")
		if !gone || time.Now().After(deadline) {
			b.t.Fatalf("waiting until %s: %v\n%s%s", what, err, b.describe(dump), b.consoleText())
		}
	}
}

// followDump describes a follower's console: its status, the target and
// frame it shows, its rows and the selected one.
const followDump = `"status [" + document.getElementById("status").dataset.state + "]: " + document.getElementById("status").textContent +
	"\ntarget shown: " + (document.getElementById("target-shown")?.textContent ?? "(none)") +
	"\ncomposer: " + document.getElementById("composer").value.split("\n")[0] +
	"\nselected: " + (document.querySelector("#transcript-rows tr.selected")?.dataset.n ?? "none") +
	", view: " + document.querySelector('.view-tab[aria-selected="true"]')?.dataset.view +
	"\ntranscript:\n" + ([...document.querySelectorAll("#transcript-rows tr")].map(tr =>
		"  [" + tr.className + "] " + [...tr.cells].map(c => c.textContent).join(" | ")).join("\n") || "  (no rows)")`

// TestBrowserClassroom: the instructor presents the MCP console from
// this machine; a follower on the machine's network address joins with
// the code and sees the handshake's four rows, in order, as they happen,
// with the presenter's target, frame and selected row, read only; a
// browser without the code sees only the join page; a follower cannot
// start a stdio server or grade code, and the page says why; and when
// the presenter opens a lesson, the follower goes there too, to the
// frame in view.
func TestBrowserClassroom(t *testing.T) {
	c := openClassroom(t)
	p := c.presenter

	p.open("/console/mcp")
	p.waitUntil("the instructor's console offers Present", `!document.getElementById("present").hidden`, consoleDump)
	p.click("#present")
	p.waitUntil("the console presents", `document.getElementById("present").getAttribute("aria-pressed") === "true"`, consoleDump)

	// A follower with the code.
	f := c.tab(c.remote, nil)
	c.join(f, "Ada", "/console/mcp?watch=presenter")
	f.waitUntil("the follower is live", `document.getElementById("status").dataset.state === "live"`, followDump)
	if s := f.text(`String(document.getElementById("send").hidden && document.getElementById("restart").hidden && document.getElementById("clear").hidden && document.getElementById("composer").readOnly && document.getElementById("target").closest("label").hidden)`); s != "true" {
		t.Errorf("the follower's console is not plainly read only: a Send, Restart, Clear or target list shows, or the composer takes typing\n%s", f.describe(followDump))
	}
	f.expect("the follower's bar offers to share progress, off", `!document.getElementById("room-bar").hidden && !document.querySelector(".room-share").checked`,
		`"room bar hidden: " + document.getElementById("room-bar").hidden`)

	// A browser without the code: every page is the join page.
	stranger := c.tab(c.remote, nil)
	for _, path := range []string{"/console/mcp?watch=presenter", "/learn/mcp-by-hand", "/exercises/", "/"} {
		stranger.open(path)
		if got := stranger.text(`location.pathname + " " + String(document.querySelector('input[name="code"]') !== null)`); got != "/join true" {
			t.Errorf("a browser without the code opened %s and got %q, want the join page with its code field", path, got)
		}
	}
	if s := stranger.fetchStatus("/ws?watch=presenter"); s != 401 {
		t.Errorf("a browser without the code asked for the presenter's socket and got %d, want 401", s)
	}

	// The handshake, live: the follower has each answer before the
	// next request goes.
	p.choose("target", "mcp-http")
	p.choose("template", "initialize")
	f.waitUntil("the follower shows the presenter's target and frame",
		`document.getElementById("target-shown").textContent === "mcp-http" && document.getElementById("composer").value.startsWith("POST /mcp HTTP/1.1")`, followDump)
	p.click("#send")
	f.waitUntil("the follower sees initialize and its answer", messageRows+`.length === 2 && `+cell(1, "summary")+`.includes("200 OK")`, followDump)
	p.choose("template", "notifications/initialized")
	f.waitUntil("the follower sees the presenter's next frame, with the session's id",
		`document.getElementById("composer").value.includes("Mcp-Session-Id: ") && document.getElementById("composer").value.includes("notifications/initialized")`, followDump)
	p.click("#send")
	f.waitUntil("the follower sees the notification and its 202", messageRows+`.length === 4 && `+cell(3, "summary")+`.includes("202")`, followDump)
	got := f.text(messageRows + `.map(r => r.dataset.dir + " " + r.querySelector(".summary").textContent).join("\n")`)
	for i, want := range []string{"out POST /mcp HTTP/1.1 · initialize (id 1)", "in HTTP/1.1 200 OK", "out POST /mcp HTTP/1.1 · notifications/initialized", "in HTTP/1.1 202"} {
		if lines := strings.Split(got, "\n"); i >= len(lines) || !strings.HasPrefix(lines[i], want) {
			t.Errorf("the follower's rows are\n%s\nwant row %d to start %q", got, i+1, want)
		}
	}

	// The row the presenter selects, in the view the presenter picks.
	p.click(`#transcript-rows tr[data-n="2"]`)
	p.click(`.view-tab[data-view="raw"]`)
	f.waitUntil("the follower shows the presenter's row in the raw view",
		`document.querySelector("#transcript-rows tr.selected")?.dataset.n === "2" && document.querySelector('.view-tab[aria-selected="true"]').dataset.view === "raw" && document.getElementById("detail-body").textContent.includes("␍")`, followDump)

	// A follower who comes late gets the history, then the state.
	late := c.tab(c.remote, nil)
	c.join(late, "Grace", "/console/mcp?watch=presenter")
	late.waitUntil("the late follower has the four rows and the presenter's row in the raw view",
		messageRows+`.length === 4 && document.querySelector("#transcript-rows tr.selected")?.dataset.n === "2" && document.querySelector('.view-tab[aria-selected="true"]').dataset.view === "raw"`, followDump)

	// Follow off: the follower reads at its own pace; on: back to the
	// presenter.
	f.click("#follow")
	p.click(`#transcript-rows tr[data-n="4"]`)
	p.waitUntil("the presenter selected row 4", `document.querySelector("#transcript-rows tr.selected")?.dataset.n === "4"`, consoleDump)
	// The presenter's state goes out within stateDelay; the follower,
	// not following, stays. Its own copy of that state is the proof it
	// came.
	f.waitUntil("not following, the follower says so", `document.getElementById("status").dataset.state === "paused"`, followDump)
	f.click("#follow")
	f.waitUntil("following again, the follower jumps to the presenter's row", `document.querySelector("#transcript-rows tr.selected")?.dataset.n === "4"`, followDump)

	// What only the instructor's machine may do. A stdio server: the
	// engine refuses, and the transcript says why.
	own := c.tab(c.remote, f) // Ada's second tab: the same cookie
	own.open("/console/mcp")
	own.choose("target", "mcp-stdio")
	own.choose("template", "initialize")
	own.click("#send")
	own.waitUntil("the follower's own console says why a stdio server will not start",
		`document.querySelector("#transcript-rows tr.row-refused") !== null`, consoleDump)
	t.Logf("a follower's stdio send: %s", own.text(`document.querySelector("#transcript-rows tr.row-refused").textContent`))
	if s := own.text(`document.querySelector("#transcript-rows tr.row-refused").textContent`); !strings.Contains(s, "machine") {
		t.Errorf("the refusal of a follower's stdio send says %q, want it to say only the instructor's machine may", s)
	}
	// A grade: 403, with the reason; and the exercise page offers no
	// grade, saying why.
	grade := awaitText(own, `fetch("/exercises/stdio-server/grade", {method: "POST"}).then(async r => r.status + " " + (await r.json()).error)`)
	if !strings.HasPrefix(grade, "403 ") || !strings.Contains(grade, "instructor's machine") {
		t.Errorf("a follower's grade was answered %q, want 403 saying only the instructor's machine may", grade)
	}
	own.open("/exercises/stdio-server")
	if s := own.text(`String(document.getElementById("exercise-check") === null) + " " + document.querySelector("main").innerText`); !strings.HasPrefix(s, "true ") || !strings.Contains(s, "not open on this machine") {
		t.Errorf("a follower's exercise page offers a grade, or does not say why not:\n%s", s)
	}

	// Progress reaches the instructor only when the follower opts in:
	// the box, off at first, is remembered, and a frame check the
	// follower makes then shows on the dashboard, failure and all.
	const exercise = "frames-stdio-errors"
	own.open("/console/stdio?exercise=" + exercise)
	own.waitUntil("the follower's bar is there, sharing off", `!document.getElementById("room-bar").hidden && !document.querySelector(".room-share").checked`,
		`"bar hidden: " + document.getElementById("room-bar").hidden`)
	own.click(".room-share")
	own.run("reloading", chromedp.Reload())
	own.waitUntil("the choice to share is remembered", `!document.getElementById("room-bar").hidden && document.querySelector(".room-share").checked`,
		`"bar hidden: " + document.getElementById("room-bar").hidden + ", checked: " + document.querySelector(".room-share").checked`)
	own.waitUntil("the console has its session", `document.getElementById("status").textContent !== ""`, consoleDump)
	own.click("#exercise-check")
	own.waitUntil("the check has answered: not yet", `document.querySelector("#exercise-steps li") !== null`,
		`document.getElementById("exercise-status").textContent`)
	dash := c.tab(c.local, p)
	dash.open("/classroom")
	title := exerciseTitle(exercise, en)
	dash.waitUntil("the dashboard shows Ada's failed check", fmt.Sprintf(`document.querySelector("main").innerText.includes("Ada") && document.querySelector("main").innerText.includes(%s)`, jsString(title)),
		`document.querySelector("main").innerText`)
	if f := c.room.Followers(); len(f) != 2 || !f[0].Share || f[0].Failure == nil || f[0].Failure.Exercise != exercise || f[0].Failure.Message == "" {
		t.Errorf("the room has %+v, want Ada (first) sharing, with a failure of %s that says where, and Grace", f, exercise)
	} else {
		t.Logf("the dashboard has Ada's failure: %s", f[0].Failure.Message)
	}

	// The presenter opens a lesson; the follower, following, goes too,
	// and to the frame the presenter has in view.
	p.open("/learn/mcp-by-hand")
	p.waitUntil("the lesson presents at once: the tab presented before", `document.getElementById("present").getAttribute("aria-pressed") === "true"`,
		`"present: " + document.getElementById("present").outerHTML`)
	waitAcross(f, "the follower goes to the lesson", `location.pathname === "/learn/mcp-by-hand" && new URLSearchParams(location.search).get("follow") !== null && document.readyState === "complete"`,
		`location.href`)
	p.text(`(document.querySelectorAll(".frame")[5].scrollIntoView({block: "center"}), "")`)
	f.waitUntil("the follower marks the presenter's frame and scrolls to it",
		`(() => { const f = document.querySelectorAll(".frame")[5]; const r = f.getBoundingClientRect(); return f.classList.contains("presenter-here") && r.bottom > 0 && r.top < innerHeight; })()`,
		`"status: " + document.getElementById("follow-status").textContent + "\nmarked: " + [...document.querySelectorAll(".frame")].findIndex(f => f.classList.contains("presenter-here"))`)

	// The presenter stops: the follower waits for the next.
	p.click("#present")
	f.waitUntil("the follower waits for the next presenter", `["waiting", "ended"].includes(document.getElementById("follow-status").dataset.state)`,
		`document.getElementById("follow-status").textContent`)
	// The playground goes away: the follower says it is reconnecting.
	c.closeHub()
	f.waitUntil("the follower says it is reconnecting", `document.getElementById("follow-status").dataset.state === "reconnecting"`,
		`document.getElementById("follow-status").textContent`)

	for _, tab := range []*browserTab{p, f} {
		if s := tab.consoleText(); s != "" {
			t.Errorf("a page complained:%s", s)
		}
	}
}

// statesSeen is a script that keeps every state the status line takes,
// in data-states on <body>, for a test to read the ones that pass.
const statesSeen = `(() => {
	const status = document.getElementById("status");
	document.body.dataset.states = status.dataset.state || "";
	new MutationObserver(() => (document.body.dataset.states += " " + status.dataset.state)).observe(status, { attributes: true, attributeFilter: ["data-state"] });
	return "";
})()`

// TestBrowserFollowerStatus: a follower's console says plainly how
// following goes: no such session (a 404 before the upgrade), waiting
// for a presenter, live, and ended when the presenter's tab goes; a
// session's follower says the session ended. In the dark theme and
// large text, its parts stay readable and the page does not overflow.
func TestBrowserFollowerStatus(t *testing.T) {
	b := openBrowser(t)
	status := `document.getElementById("status").dataset.state`

	b.open("/console/mcp?watch=0123456789abcdef0123456789abcdef")
	b.waitUntil("an unknown session is no such session", status+` === "no-session"`, followDump)
	if s := b.text(`document.getElementById("status").textContent`); !strings.Contains(s, "no such session") {
		t.Errorf("for an unknown session the status says %q, want \"no such session\"", s)
	}
	// The page came with its 404, which the browser logs: no news.
	b.mu.Lock()
	b.console = nil
	b.mu.Unlock()

	b.open("/console/mcp?watch=presenter")
	b.waitUntil("nobody presents: waiting", status+` === "waiting"`, followDump)
	b.text(statesSeen)

	tabCtx, closeTab := chromedp.NewContext(b.ctx)
	t.Cleanup(closeTab)
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("opening a second tab: %v", err)
	}
	p := &browserTab{t: t, ctx: tabCtx, base: b.base}
	p.open("/console/mcp")
	p.waitUntil("the console offers Present", `!document.getElementById("present").hidden`, consoleDump)
	p.click("#present")
	b.waitUntil("a presenter: live", status+` === "live"`, followDump)

	// A frame longer than a state may carry reaches the follower cut,
	// and says so.
	p.text(`(() => { const c = document.getElementById("composer"); c.value = "x".repeat(100000); c.dispatchEvent(new Event("input")); return ""; })()`)
	b.waitUntil("the follower shows the long frame's start, marked cut",
		`(v => v.startsWith("xxxx") && v.endsWith("\n…") && v.length < 64 * 1024)(document.getElementById("composer").value)`,
		`"composer: " + document.getElementById("composer").value.length + " characters, ending " + JSON.stringify(document.getElementById("composer").value.slice(-10))`)

	// The projector's settings: dark, large. The status, the switch and
	// the read-only mark keep their contrast, and nothing runs off the
	// page.
	b.text(`(document.documentElement.dataset.theme = "dark", document.documentElement.dataset.size = "large", "")`)
	problems := b.text(`(() => {
		const wrong = [];
		const bg = getComputedStyle(document.body).backgroundColor;
		for (const sel of ["#status", ".follow-switch", ".read-only-mark", "#composer"]) {
			const e = document.querySelector(sel);
			if (!e || e.offsetWidth === 0) { wrong.push(sel + " is not shown"); continue; }
			if (getComputedStyle(e).color === bg) wrong.push(sel + " has the background's colour");
		}
		if (bg !== "rgb(13, 17, 23)") wrong.push("the background is " + bg + ", not the dark theme's");
		if (document.documentElement.scrollWidth > innerWidth) wrong.push("the page is " + document.documentElement.scrollWidth + " px wide in a " + innerWidth + " px window");
		return wrong.join("\n");
	})()`)
	if problems != "" {
		t.Errorf("in the dark theme and large text, the follower's console:\n%s", problems)
	}

	// The presenter's tab leaves the console for a page without a
	// socket: ended, then waiting for the next.
	p.open("/")
	b.waitUntil("the presenter gone: waiting again", status+` === "waiting"`, followDump)
	if s := b.text(`document.body.dataset.states`); !strings.Contains(s, "live ended waiting") {
		t.Errorf("the follower's status went %q, want live, ended, then waiting", s)
	}

	// A session's follower: live, then ended with the session.
	p.open("/console/mcp")
	p.waitUntil("the console has its session's link", `document.getElementById("share").getAttribute("href").includes("?watch=")`, consoleDump)
	share := p.text(`document.getElementById("share").getAttribute("href")`)
	b.run("opening the share link", chromedp.Navigate(share))
	b.waitUntil("the session's follower is live", status+` === "live"`, followDump)
	p.open("/")
	b.waitUntil("the session's follower says it ended", status+` === "ended"`, followDump)
	if c := b.consoleText(); c != "" {
		t.Errorf("the follower's page complained:%s", c)
	}
}

// TestBrowserTryThisFrame: a student's own wirelab follows the
// instructor's (FollowRemote, as wirelab serve --follow does); its
// console at ?watch=instructor shows the instructor's console with the
// student's own beside it, and "try this frame here" puts the
// presenter's frame into the student's composer, made the student's:
// its Host the student's own server, its session the student's own.
func TestBrowserTryThisFrame(t *testing.T) {
	b := openBrowser(t) // the instructor's playground, and its tab
	targets := liveServers(t)
	student := New(tools.New(&tools.Options{DeployStep: time.Millisecond}), &Options{
		HTTPURL: targets.HTTPURL, MCPURL: targets.MCPURL, A2AURL: targets.A2AURL, GRPCAddr: targets.GRPCAddr, Executable: os.Args[0],
	})
	srv := httptest.NewServer(student)
	ctx, stop := context.WithCancel(context.Background())
	relayed := make(chan error, 1)
	// Ends when stop is called, in the cleanup.
	go func() {
		relayed <- student.hub.FollowRemote(ctx, "ws://"+strings.TrimPrefix(b.base, "http://")+"/ws?watch=presenter", nil, nil)
	}()
	t.Cleanup(func() {
		stop()
		<-relayed
		srv.Close()
		student.Close()
	})

	b.open("/console/mcp")
	b.waitUntil("the instructor's console offers Present", `!document.getElementById("present").hidden`, consoleDump)
	b.click("#present")
	b.choose("target", "mcp-http")
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the instructor's initialize is answered", messageRows+`.length >= 2`, consoleDump)
	b.choose("template", "notifications/initialized")

	tabCtx, closeTab := chromedp.NewContext(b.ctx)
	t.Cleanup(closeTab)
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("opening the student's tab: %v", err)
	}
	s := &browserTab{t: t, ctx: tabCtx, base: srv.URL}
	s.open("/console/mcp?watch=instructor")
	s.waitUntil("the student sees the instructor's console, live, with the next frame",
		`document.getElementById("status").dataset.state === "live" && `+messageRows+`.length >= 2 && document.getElementById("composer").value.includes("notifications/initialized")`, followDump)
	own := `document.getElementById("own-console").contentDocument`
	s.waitUntil("the student's own console is beside it", own+`?.getElementById("check")?.className.startsWith("check")`, followDump)

	// The instructor's initialize, tried here: to the student's own MCP server.
	b.choose("template", "initialize")
	s.waitUntil("the follower shows initialize", `document.getElementById("composer").value.includes('"initialize"')`, followDump)
	s.click("#try")
	studentHost := strings.TrimPrefix(targets.MCPURL, "http://")
	studentHost = studentHost[:strings.Index(studentHost, "/")]
	s.waitUntil("the student's composer has the frame, to the student's own server",
		fmt.Sprintf(`%s.getElementById("composer").value.includes('"initialize"') && %s.getElementById("composer").value.includes("Host: %s") && %s.getElementById("target").value === "mcp-http"`, own, own, studentHost, own),
		own+`.getElementById("composer").value`)
	s.text(`(` + own + `.getElementById("send").click(), "")`)
	s.waitUntil("the student's own server answers",
		own+`.querySelectorAll('#transcript-rows tr.row[data-dir="in"]').length >= 1 && `+own+`.querySelector('#transcript-rows tr.row[data-dir="in"]').textContent.includes("200 OK")`,
		own+`.getElementById("transcript-rows").innerText`)

	// The next frame carries a session: tried here, it carries the
	// student's, not the instructor's.
	b.choose("template", "notifications/initialized")
	instructorSession := b.text(`(document.getElementById("composer").value.match(/Mcp-Session-Id: (\S+)/) || [])[1] || ""`)
	s.waitUntil("the follower shows the notification", `document.getElementById("composer").value.includes("notifications/initialized")`, followDump)
	s.click("#try")
	s.waitUntil("the student's composer has the notification", own+`.getElementById("composer").value.includes("notifications/initialized")`, own+`.getElementById("composer").value`)
	got := s.text(own + `.getElementById("composer").value`)
	if instructorSession == "" || strings.Contains(got, instructorSession) || !strings.Contains(got, "Mcp-Session-Id: ") || strings.Contains(got, "{{session}}") {
		t.Errorf("tried here, the instructor's notification (session %q) became\n%s\nwant the student's own session in Mcp-Session-Id", instructorSession, got)
	}
	for _, tab := range []*browserTab{b, s} {
		if c := tab.consoleText(); c != "" {
			t.Errorf("a page complained:%s", c)
		}
	}
}
