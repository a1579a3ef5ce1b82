package playground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	// Named so: the package has a templ component called page.
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The browser tests drive a headless Chromium through the pages, as a
// reader would: they click, press keys, and wait for what the page's
// scripts show. This file starts the browser and the playground, and
// gives the tests short ways to act on the page and to wait on it.

// browserEnv set to 1 makes a missing browser a failure rather than a
// skip: CI sets it, so that the browser tests cannot be skipped there
// without anyone noticing.
const browserEnv = "WIRELAB_BROWSER_TESTS"

// browserNames are the names a Chromium goes by on PATH.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// browserWait bounds one wait for the page or one action on it. It is a
// guard against hanging, not a measurement: the machines that run the
// tests are often busy compiling, and a browser on them is slow.
const browserWait = 45 * time.Second

// browserStart bounds starting the browser, which on a busy machine
// takes longer than anything the page does.
const browserStart = 90 * time.Second

// findBrowser returns the path of a Chromium on PATH. Without one the
// test is skipped, or fails if browserEnv is 1.
func findBrowser(t *testing.T) string {
	t.Helper()
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := fmt.Sprintf("no Chromium on PATH (looked for %s)", strings.Join(browserNames, ", "))
	if os.Getenv(browserEnv) == "1" {
		t.Fatalf("%s, and %s=1 says the browser tests must run: install chromium", msg, browserEnv)
	}
	t.Skipf("%s: skipping the browser tests; install chromium to run them (%s=1 makes this a failure)", msg, browserEnv)
	return ""
}

// browserTab is one tab of a headless Chromium, showing a playground
// that talks to live reference servers.
type browserTab struct {
	t    *testing.T
	ctx  context.Context // the tab's chromedp context; it has no deadline
	base string          // the playground's URL, "http://127.0.0.1:port"

	mu      sync.Mutex // guards console
	console []string   // what the page said on its console: errors, warnings, exceptions
}

// openBrowser starts the reference servers, a playground in front of
// them (with stdio children that are this test binary), and a headless
// Chromium with one tab. Everything stops when the test ends.
func openBrowser(t *testing.T) *browserTab {
	t.Helper()
	return openBrowserWith(t, nil)
}

// openBrowserWith is openBrowser with a playground that keeps progress
// in store.
func openBrowserWith(t *testing.T, store *progress.Store) *browserTab {
	t.Helper()
	exe := findBrowser(t)
	srv := startPlayground(t, store)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		// CI runs as root, where Chromium refuses to start sandboxed.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		// A proxy that goes nowhere: a request that leaves the machine
		// fails instead of leaving. Loopback addresses stay direct, as
		// Chromium bypasses any proxy for them by itself; the bypass
		// rule "<-loopback>" would take that away and send the
		// playground's own pages to the dead proxy too.
		chromedp.ProxyServer("127.0.0.1:9"),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx)
	// Cleanups run last first: the tab and the browser close before the
	// playground and the servers.
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})

	tab := &browserTab{t: t, ctx: tabCtx, base: srv.URL}
	// The first run starts the browser; its context must have no
	// deadline, or the deadline would end the browser, so the start is
	// bounded by a timer instead.
	started := make(chan error, 1)
	// Ends when Do returns: at once, or when cancelAlloc stops the browser.
	go func() { started <- chromedp.Do(tabCtx) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("starting %s: %v", exe, err)
		}
	case <-time.After(browserStart):
		t.Fatalf("%s did not start in %v", exe, browserStart)
	}

	// The page's own complaints: a script error is often the whole story
	// of a failure, so every failure message carries them.
	messages := chromedp.Console(tabCtx)
	// Ends when the tab's context is cancelled, in the cleanup above.
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			// The browser asks every site for /favicon.ico, which the
			// playground does not have: that 404 is no news.
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

// startPlayground serves a playground for the browser, with the live
// servers, keeping progress in store; it stops when the test ends.
func startPlayground(t *testing.T, store *progress.Store) *httptest.Server {
	t.Helper()
	targets := liveServers(t)
	t.Setenv(childEnv, "1")
	pg := New(tools.New(&tools.Options{DeployStep: time.Millisecond}), &Options{
		HTTPURL:     targets.HTTPURL,
		HTTPAuthURL: targets.HTTPAuthURL,
		GRPCAddr:    targets.GRPCAddr,
		MCPURL:      targets.MCPURL,
		A2AURL:      targets.A2AURL,
		OAuthURL:    targets.OAuthURL,
		MCPAuthURL:  targets.MCPAuthURL,
		Executable:  os.Args[0],
		Progress:    store,
	})
	srv := httptest.NewServer(pg)
	t.Cleanup(func() {
		srv.Close()
		pg.Close()
	})
	return srv
}

// run runs actions on the tab, in order, all within browserWait.
func (b *browserTab) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v%s", what, err, b.consoleText())
	}
}

// open loads a page of the playground and waits for it to load; its
// modules have run by then.
func (b *browserTab) open(path string) {
	b.t.Helper()
	b.run("opening "+path, chromedp.Navigate(b.base+path))
}

// click clicks, with the mouse, the first element that matches a CSS
// selector, once it is visible.
func (b *browserTab) click(selector string) {
	b.t.Helper()
	b.run("clicking "+selector, chromedp.Click(chromedp.CSS(selector)))
}

// clickNth clicks, with the mouse, the element at index i of those that
// match a CSS selector.
func (b *browserTab) clickNth(selector string, i int) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		nodes, err := chromedp.Nodes(chromedp.CSSAll(selector), chromedp.NodeVisible)(ctx, t)
		if err != nil {
			return err
		}
		if i >= len(nodes) {
			return fmt.Errorf("only %d elements match", len(nodes))
		}
		_, err = chromedp.MouseClickNode(nodes[i])(ctx, t)
		return err
	}))
	if err != nil {
		b.t.Fatalf("clicking %s number %d: %v%s", selector, i+1, err, b.consoleText())
	}
}

// clickAndLoad clicks an element that leads to another page, and waits
// for that page to load.
func (b *browserTab) clickAndLoad(selector string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.WaitEvent(cdppage.LoadEventFired, nil, chromedp.Click(chromedp.CSS(selector))))
	if err != nil {
		b.t.Fatalf("clicking %s and waiting for the next page: %v%s", selector, err, b.consoleText())
	}
}

// openStatus loads a page and returns the HTTP status it answered with.
func (b *browserTab) openStatus(path string) int64 {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(b.base+path))
	if err != nil {
		b.t.Fatalf("opening %s: %v%s", path, err, b.consoleText())
	}
	return resp.Status
}

// fetchStatus asks, from the page, for a path of the playground and
// returns the status.
func (b *browserTab) fetchStatus(path string) int {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`fetch(%s).then(r => r.status)`, jsString(path)), chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("fetching %s: %v", path, err)
	}
	return s
}

// choose selects the option of a <select> whose text is text, as a
// reader picking it from the list would, and fails with the list when no
// option has that text.
func (b *browserTab) choose(id, text string) {
	b.t.Helper()
	miss := b.text(fmt.Sprintf(`(() => {
		const s = document.getElementById(%s);
		const o = [...s.options].find(o => o.text === %s);
		if (!o) return "the list has: " + [...s.options].map(o => JSON.stringify(o.text)).join(", ");
		s.value = o.value;
		s.dispatchEvent(new Event("change", { bubbles: true }));
		return "";
	})()`, jsString(id), jsString(text)))
	if miss != "" {
		b.t.Fatalf("#%s has no option %q; %s", id, text, miss)
	}
}

// keys presses keys, as typed on the keyboard, where the focus is.
func (b *browserTab) keys(keys string) {
	b.t.Helper()
	b.run(fmt.Sprintf("pressing %q", keys), chromedp.KeyEvent(keys))
}

// evalIn evaluates a JavaScript expression in the page and returns its
// value, which must be JSON that fits T.
func evalIn[T any](b *browserTab, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v%s", expr, err, b.consoleText())
	}
	return v
}

// text evaluates an expression that gives a string.
func (b *browserTab) text(expr string) string {
	b.t.Helper()
	return evalIn[string](b, expr)
}

// waitUntil waits until a JavaScript condition holds in the page. If it
// does not hold in time, the test stops with what, the text of dump (an
// expression that describes the page's state), and the page's console.
// Use it when the rest of the test needs the condition.
func (b *browserTab) waitUntil(what, cond, dump string) {
	b.t.Helper()
	if err := b.poll(cond); err != nil {
		b.t.Fatalf("waiting until %s: %v\n%s%s", what, err, b.describe(dump), b.consoleText())
	}
}

// expect is waitUntil for a condition the rest of the test can do
// without: a failure is reported, and the test goes on.
func (b *browserTab) expect(what, cond, dump string) {
	b.t.Helper()
	if err := b.poll(cond); err != nil {
		b.t.Errorf("waiting until %s: %v\n%s%s", what, err, b.describe(dump), b.consoleText())
	}
}

// poll waits until a JavaScript condition holds in the page, for at most
// browserWait.
func (b *browserTab) poll(cond string) error {
	ctx, cancel := context.WithTimeout(b.ctx, browserWait+5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](cond,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(browserWait)))
	if errors.Is(err, chromedp.ErrPollingTimeout) {
		return fmt.Errorf("still not so after %v", browserWait)
	}
	return err
}

// describe evaluates a dump expression for a failure message; a dump
// that fails says why instead.
func (b *browserTab) describe(dump string) string {
	if dump == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](dump))
	if err != nil {
		return "(could not read the page: " + err.Error() + ")"
	}
	return "the page shows:\n" + s
}

// consoleText is what the page said on its console, for a failure
// message, or "".
func (b *browserTab) consoleText() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.console) == 0 {
		return ""
	}
	return "\nthe page's console:\n  " + strings.Join(b.console, "\n  ")
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a Go string always encodes
	}
	return string(b)
}
