package playground

import (
	"context"
	"encoding/pem"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestBrowserOwnExportReplay: a session with server-everything over
// stdio, exported with the console's "Export recording" button as a
// reader would (the browser saves the file), reads as a recording,
// checks clean, and replays against the same server with no difference.
func TestBrowserOwnExportReplay(t *testing.T) {
	node, index := everything(t)
	b := openBrowser(t)
	dir := t.TempDir()
	b.open("/")
	if _, err := chromedp.CallBrowser(b.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatalf("letting downloads into %s: %v", dir, err)
	}

	b.open("/console/mcp")
	b.choose("target", "custom-stdio")
	b.setTo(node + " " + index + " stdio")
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the server answers initialize", rowHas("in", "result (id 1)"), ownDump)
	b.text(`(document.getElementById("own-declared").click(), "")`)
	b.waitUntil("its tools are templates", `[...document.querySelectorAll("#template optgroup[data-own] option")].some(o => o.textContent === "tools/call echo")`, ownDump)
	b.chooseOwn("tools/call echo")
	b.setComposer(strings.Replace(b.text(`document.getElementById("composer").value`), `"message":""`, `"message":"read the wire"`, 1))
	b.click("#send")
	b.waitUntil("the tool echoes", saved(`Echo: read the wire`), ownDump)

	b.click("#export-recording")
	file := waitForFile(t, dir, "wirelab-custom-stdio-*.jsonl")
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := tap.Read(f)
	if err != nil {
		t.Fatalf("the exported file is not a recording: %v", err)
	}
	report := tapcheck.Check(events)
	if n := report.Count("error"); n > 0 {
		t.Errorf("the export has %d errors: %+v", n, report.Findings)
	}
	sentEcho := false
	for _, m := range report.Messages {
		sentEcho = sentEcho || m.Method == "tools/call"
	}
	if !sentEcho {
		t.Fatalf("the export has no tools/call among %d messages", len(report.Messages))
	}

	ctx, cancel := context.WithTimeout(context.Background(), browserWait)
	defer cancel()
	diffs, err := tap.ReplayStdio(ctx, events, []string{node, index, "stdio"}, 5*time.Second, io.Discard)
	if err != nil {
		t.Fatalf("replaying the export: %v", err)
	}
	if len(diffs) > 0 {
		t.Errorf("the export replays with %d differences: %+v", len(diffs), diffs)
	}
}

// waitForFile waits for a file the browser saves, named by a pattern
// (Chromium writes a .crdownload first, and renames it when done).
func waitForFile(t *testing.T, dir, pattern string) string {
	t.Helper()
	deadline := time.Now().Add(browserWait)
	for time.Now().Before(deadline) {
		if found, _ := filepath.Glob(filepath.Join(dir, pattern)); len(found) > 0 {
			return found[0]
		}
		time.Sleep(50 * time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	t.Fatalf("no %s was saved in %s within %v (it holds %d files)", pattern, dir, browserWait, len(entries))
	return ""
}

// TestBrowserOwnMCPHTTPS: the learner's own MCP server over https, with
// a certificate from an authority this machine does not trust: without
// -cacert the doctor names the handshake and says what to add; with
// -cacert FILE after the URL, server/discover is answered and a tool
// is called through the template built from what it declares.
func TestBrowserOwnMCPHTTPS(t *testing.T) {
	handler := mcp.NewServer(tools.New(nil), &mcp.ServerOptions{Version: "test"}).HTTPHandler(&mcp.HTTPOptions{Loopback: true})
	srv := httptest.NewTLSServer(handler)
	t.Cleanup(func() { handler.Close(); srv.Close() })
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}

	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "custom-http")
	b.setTo(srv.URL + mcp.Endpoint)
	b.choose("template", "server/discover (revisions and capabilities)")
	b.click("#send")
	b.waitUntil("the doctor names the untrusted authority", `[...document.querySelectorAll("#transcript-rows .doctor")].some(d => d.textContent.includes("-cacert"))`, ownDump)

	b.setTo(srv.URL + mcp.Endpoint + " -cacert " + ca)
	b.choose("template", "server/discover (revisions and capabilities)")
	b.click("#send")
	b.waitUntil("the server answers over https", `document.getElementById("own-status").textContent.includes("2026-07-28")`, ownDump)
	b.text(`(document.getElementById("own-declared").click(), "")`)
	b.waitUntil("its tools are templates", `[...document.querySelectorAll("#template optgroup[data-own] option")].some(o => o.textContent === "tools/call word_count")`, ownDump)
	b.chooseOwn("tools/call word_count")
	b.setComposer(strings.Replace(b.text(`document.getElementById("composer").value`), `"text":""`, `"text":"read the wire"`, 1))
	b.click("#send")
	b.waitUntil("the tool answers over https", saved(`"words":3`), ownDump)
}
