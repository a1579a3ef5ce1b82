package playground

import (
	"bufio"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The learner's own server, first class, on the MCP and A2A consoles:
// the browser tests here point the consoles at servers wirelab did not
// write. The MCP ones use @modelcontextprotocol/server-everything, the
// MCP project's own test server, which .ci/server-everything-install
// puts in a cache directory (the tests skip, saying so, when it is not
// there); it runs offline.

// everythingEnv names a directory that holds the installed server
// (node_modules/.bin/node and node_modules/@modelcontextprotocol/
// server-everything), in place of the cache .ci/server-everything-install
// writes.
const everythingEnv = "WIRELAB_SERVER_EVERYTHING"

// everything returns the Node binary and the server's entry point, or
// skips the test.
func everything(t *testing.T) (node, index string) {
	t.Helper()
	dirs := []string{os.Getenv(everythingEnv)}
	if os.Getenv(everythingEnv) == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		found, _ := filepath.Glob(filepath.Join(cache, "wirelab", "server-everything", "*", ".installed"))
		dirs = nil
		for _, f := range found {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		node = filepath.Join(dirs[i], "node_modules", ".bin", "node")
		index = filepath.Join(dirs[i], "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
		if _, err := os.Stat(index); err == nil {
			if _, err := os.Stat(node); err == nil {
				return node, index
			}
		}
	}
	t.Skipf("@modelcontextprotocol/server-everything is not installed: run .ci/server-everything-install (it needs npm once), or set %s to a directory holding its node_modules", everythingEnv)
	return "", ""
}

// setTo types the learner's server into the custom target's "to".
func (b *browserTab) setTo(to string) {
	b.t.Helper()
	b.text(fmt.Sprintf(`(e => (e.value = %s, e.dispatchEvent(new Event("change")), ""))(document.getElementById("custom-to"))`, jsString(to)))
}

// setComposer types a frame into the composer.
func (b *browserTab) setComposer(frame string) {
	b.t.Helper()
	b.text(fmt.Sprintf(`(e => (e.value = %s, e.dispatchEvent(new Event("input")), ""))(document.getElementById("composer"))`, jsString(frame)))
}

// ownDump is what a failure of these tests shows of the page.
const ownDump = consoleDump + ` + "\nnotes: " + [...document.querySelectorAll("#transcript-rows tr.row[data-dir=note]")].map(r => r.textContent).join("\n") + "\nown: " + (document.getElementById("own-status")?.textContent ?? "") + "\ntemplates: " + [...document.querySelectorAll("#template option")].map(o => o.textContent).slice(-12).join(" | ") + "\ncomposer: " + document.getElementById("composer").value`

// rowHas is true once a message row holds text.
func rowHas(dir, text string) string {
	return fmt.Sprintf(`%s.some(r => r.dataset.dir === %q && r.textContent.includes(%s))`, messageRows, dir, jsString(text))
}

// TestBrowserOwnMCPStdio: server-everything over stdio, by its command:
// initialize, then the console asks what it declares, a tools/call built
// from its tools/list echoes, and a resource is read through the
// template built from its resources/list.
func TestBrowserOwnMCPStdio(t *testing.T) {
	node, index := everything(t)
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "custom-stdio")
	b.setTo(node + " " + index + " stdio")
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the server answers initialize", rowHas("in", "result (id 1)"), ownDump)
	b.waitUntil("the revision it answered is said", `document.getElementById("own-status").textContent.includes("2025-11-25")`, ownDump)

	b.text(`(document.getElementById("own-declared").click(), "")`) // a script click: the page scrolls as rows come, and a mouse click may land beside
	b.waitUntil("its tools are templates", `[...document.querySelectorAll("#template optgroup[data-own] option")].some(o => o.textContent === "tools/call echo")`, ownDump)
	b.choose("template", "tools/call echo")
	frame := b.text(`document.getElementById("composer").value`)
	if !strings.Contains(frame, `"name":"echo","arguments":{"message":""}`) {
		t.Fatalf("the echo template, from its inputSchema, reads %s", frame)
	}
	b.setComposer(strings.Replace(frame, `"message":""`, `"message":"read the wire"`, 1))
	b.click("#send")
	b.waitUntil("the tool echoes", saved(`Echo: read the wire`), ownDump)

	b.waitUntil("its resources are templates", `[...document.querySelectorAll("#template optgroup[data-own] option")].some(o => o.textContent.startsWith("resources/read "))`, ownDump)
	uri := b.text(`[...document.querySelectorAll("#template optgroup[data-own] option")].find(o => o.textContent.startsWith("resources/read ")).textContent.slice("resources/read ".length)`)
	b.choose("template", "resources/read "+uri)
	b.click("#send")
	b.waitUntil("the resource is read", messageRows+`.some(r => r.dataset.dir === "in" && r.textContent.includes("result"))`, ownDump)
	b.waitUntil("the resource's contents came", saved(`"contents":[{"uri":`+strconv.Quote(uri)), ownDump)
}

// TestBrowserOwnMCPHTTP: server-everything over Streamable HTTP, by its
// endpoint's URL: initialize to the URL's path; a hand-typed
// {{session}} is filled from the server's Mcp-Session-Id (the check
// does not ask for initialize once it came); headers typed once go with
// every request and are cut short in the views; a tool is called
// through the template built from its tools/list. The doctor says what
// to change for a wrong path and for a port where nothing listens.
func TestBrowserOwnMCPHTTP(t *testing.T) {
	node, index := everything(t)
	port := freePort(t)
	cmd := exec.Command(node, index, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// The server says on stderr when it listens.
	listening := make(chan struct{})
	// Ends when the server's stderr closes, at its end.
	go func() {
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			if !said && strings.Contains(sc.Text(), "listening on port") {
				close(listening)
				said = true
			}
		}
	}()
	select {
	case <-listening:
	case <-time.After(browserStart):
		t.Fatalf("server-everything did not say it listens within %v", browserStart)
	}
	url := "http://127.0.0.1:" + port + "/mcp"

	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "custom-http")
	b.setTo(url)
	b.text(`(e => (e.value = "Authorization: Bearer not-a-real-token-0123456789", e.dispatchEvent(new Event("input")), ""))(document.getElementById("custom-headers"))`)
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the server answers initialize", rowHas("in", "result (id 1)"), ownDump)
	if got := b.text(messageRows + `.find(r => r.dataset.dir === "out").querySelector(".summary").textContent`); !strings.HasPrefix(got, "POST /mcp HTTP/1.1") {
		t.Errorf("initialize went as %q", got)
	}
	b.click(`#transcript-rows tr.row[data-dir="out"]`)
	b.click(`.view-tab[data-view="pretty"]`)
	if got := b.text(`document.getElementById("detail-body").textContent`); !strings.Contains(got, "Authorization: Bearer not-…(") {
		t.Errorf("the request's view does not show the header cut short:\n%s", got)
	}

	// A hand-typed {{session}}: the check passes once the session is
	// known, and the frame goes with the server's id in it.
	b.setComposer("POST /mcp HTTP/1.1\nHost: 127.0.0.1:" + port + "\nAccept: application/json, text/event-stream\nContent-Type: application/json\nMcp-Session-Id: {{session}}\nMCP-Protocol-Version: 2025-11-25\n\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	b.expect("the check does not ask for initialize again", `document.getElementById("check").className === "check ok"`, `document.getElementById("check").textContent`)
	b.click("#send")
	b.waitUntil("the notification is accepted", rowHas("in", "202"), ownDump)
	if got := b.text(`document.getElementById("composer").value`); strings.Contains(got, "{{session}}") || !strings.Contains(got, "Mcp-Session-Id: ") {
		t.Errorf("the frame sent still reads:\n%s", got)
	}

	b.text(`(document.getElementById("own-declared").click(), "")`) // a script click: the page scrolls as rows come, and a mouse click may land beside
	b.waitUntil("its tools are templates", `[...document.querySelectorAll("#template optgroup[data-own] option")].some(o => o.textContent === "tools/call get-sum")`, ownDump)
	b.choose("template", "tools/call get-sum")
	frame := b.text(`document.getElementById("composer").value`)
	if !strings.Contains(frame, `"arguments":{"a":0,"b":0}`) || !strings.Contains(frame, "MCP-Protocol-Version: 2025-11-25") || strings.Contains(frame, "{{session}}") {
		t.Fatalf("the get-sum template reads\n%s", frame)
	}
	b.setComposer(strings.Replace(frame, `{"a":0,"b":0}`, `{"a":2,"b":3}`, 1))
	b.click("#send")
	b.waitUntil("the tool answers", saved(`The sum of 2 and 3 is 5`), ownDump)

	// The doctor: a path where the server has no endpoint, and a port
	// where nothing listens.
	b.setTo("http://127.0.0.1:" + port + "/nope")
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the doctor explains the 404", `[...document.querySelectorAll("#transcript-rows .doctor")].some(d => d.textContent.includes("no endpoint at /nope"))`, ownDump)
	b.setTo("http://127.0.0.1:" + freePort(t) + "/mcp")
	b.click("#send")
	b.waitUntil("the doctor explains the refusal", `[...document.querySelectorAll("#transcript-rows .doctor")].some(d => d.textContent.includes("nothing listens there"))`, ownDump)
}

// TestBrowserOwnStdioDoctor: a stdio server that writes a line that is
// not JSON to stdout, and one that exits at once, each get the doctor's
// diagnosis beside the row, in the page's language.
func TestBrowserOwnStdioDoctor(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "custom-stdio")
	b.setTo(`sh -c 'echo starting up; cat'`)
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the doctor names the noise", `[...document.querySelectorAll("#transcript-rows .doctor")].some(d => d.textContent.includes("write logs to stderr"))`, ownDump)

	b.open("/console/mcp?lang=ru")
	b.choose("target", "custom-stdio")
	b.setTo(`sh -c 'echo no config file >&2; exit 3'`)
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the doctor says the server exited before answering", `[...document.querySelectorAll("#transcript-rows .doctor")].some(d => d.textContent.includes("сервер завершился, не ответив"))`, ownDump)
}

// TestBrowserOwnA2A: an agent reached by its card's URL: the console
// reads the card, sends to the endpoint the card names, and offers the
// card's skills as templates.
func TestBrowserOwnA2A(t *testing.T) {
	agent := a2a.NewServer(&a2a.Options{Tools: tools.New(&tools.Options{DeployStep: time.Millisecond}), Loopback: true})
	srv := httptest.NewServer(agent)
	t.Cleanup(func() { agent.Close(); srv.Close() })

	b := openBrowser(t)
	b.open("/console/a2a")
	b.choose("target", "custom-http")
	b.setTo(srv.URL + "/.well-known/agent-card.json")
	b.text(`(document.getElementById("own-declared").click(), "")`) // a script click: the page scrolls as rows come, and a mouse click may land beside
	b.waitUntil("the card is read", `document.getElementById("own-status").textContent.includes("endpoint http://")`, ownDump)
	b.choose("template", "SendMessage Count words")
	b.click("#send")
	b.waitUntil("the skill's task completes", savedIn("a2a", `TASK_STATE_COMPLETED`), ownDump)
}

// saved is true once a row from a server that the MCP console keeps
// (its history, in localStorage) holds text.
func saved(text string) string { return savedIn("mcp", text) }

func savedIn(slug, text string) string {
	return fmt.Sprintf(`(JSON.parse(localStorage.getItem("wirelab.console.%s") || "{}").rows || []).some(r => r.dir === "in" && (r.text || "").includes(%s))`, slug, jsString(text))
}

// freePort is a loopback port nothing listens on, for a moment.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}
