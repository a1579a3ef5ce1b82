package playground

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/mcp"
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
	if d := os.Getenv(everythingEnv); d != "" {
		// CI installed it and named the directory: missing, it is a failure.
		t.Fatalf("%s=%s holds no node_modules/.bin/node and node_modules/@modelcontextprotocol/server-everything/dist/index.js", everythingEnv, d)
	}
	t.Skipf("@modelcontextprotocol/server-everything is not installed: run .ci/server-everything-install (it needs npm once), or set %s to a directory holding its node_modules", everythingEnv)
	return "", ""
}

// setTo types the learner's server into the custom target's "to".
func (b *browserTab) setTo(to string) {
	b.t.Helper()
	b.text(fmt.Sprintf(`(e => (e.value = %s, e.dispatchEvent(new Event("change")), ""))(document.getElementById("custom-to"))`, jsString(to)))
}

// chooseOwn picks a template built from what the server declared, by
// its name (wirelab's own templates may have the same name).
func (b *browserTab) chooseOwn(name string) {
	b.t.Helper()
	b.text(fmt.Sprintf(`(s => { const o = [...s.querySelectorAll("optgroup[data-own] option")].find(o => o.textContent === %s); s.value = o.value; s.dispatchEvent(new Event("change")); return ""; })(document.getElementById("template"))`, jsString(name)))
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
	b.chooseOwn("tools/call echo")
	frame := b.text(`document.getElementById("composer").value`)
	if !strings.Contains(frame, `"name":"echo","arguments":{"message":""}`) {
		t.Fatalf("the echo template, from its inputSchema, reads %s", frame)
	}
	b.setComposer(strings.Replace(frame, `"message":""`, `"message":"read the wire"`, 1))
	b.click("#send")
	b.waitUntil("the tool echoes", saved(`Echo: read the wire`), ownDump)

	b.waitUntil("its resources are templates", `[...document.querySelectorAll("#template optgroup[data-own] option")].some(o => o.textContent.startsWith("resources/read "))`, ownDump)
	uri := b.text(`[...document.querySelectorAll("#template optgroup[data-own] option")].find(o => o.textContent.startsWith("resources/read ")).textContent.slice("resources/read ".length)`)
	b.chooseOwn("resources/read " + uri)
	b.click("#send")
	b.waitUntil("the resource is read", messageRows+`.some(r => r.dataset.dir === "in" && r.textContent.includes("result"))`, ownDump)
	b.waitUntil("the resource's contents came", saved(`"contents":[{"uri":`+strconv.Quote(uri)), ownDump)

	// A resource template is a resources/read whose URI the learner
	// fills in.
	const dynamic = "demo://resource/dynamic/text/{resourceId}"
	b.waitUntil("its resource templates are templates", `[...document.querySelectorAll("#template optgroup[data-own] option")].some(o => o.textContent === "resources/read `+dynamic+`")`, ownDump)
	b.chooseOwn("resources/read " + dynamic)
	frame = b.text(`document.getElementById("composer").value`)
	if !strings.Contains(frame, `"uri":"`+dynamic+`"`) {
		t.Fatalf("the resource template's frame reads %s", frame)
	}
	b.setComposer(strings.Replace(frame, "{resourceId}", "7", 1))
	b.click("#send")
	b.waitUntil("the templated resource is read", saved(`"uri":"demo://resource/dynamic/text/7"`), ownDump)

	// A prompt's arguments get a form too, written from its prompts/list
	// entry: a required field left empty says so, and what is typed goes
	// into the frame.
	b.waitUntil("its prompts are templates", `[...document.querySelectorAll("#template optgroup[data-own] option")].some(o => o.textContent === "prompts/get args-prompt")`, ownDump)
	b.chooseOwn("prompts/get args-prompt")
	b.waitUntil("the prompt's form is shown", schemaForm+`.textContent.includes("Arguments of prompt args-prompt")`, ownDump)
	b.typeInto("city", "x")
	b.typeInto("city", "")
	b.waitUntil("the required city says so", schemaError("city")+` === "is required"`, ownDump)
	b.typeInto("city", "Lisbon")
	b.waitUntil("the frame follows the form", `document.getElementById("composer").value.includes('"arguments":{"city":"Lisbon"}')`, ownDump)
	b.click("#send")
	b.waitUntil("the prompt comes back with the city in it", saved(`Lisbon`), ownDump)
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
	b.chooseOwn("tools/call get-sum")
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

// TestBrowserOwnMCPModern: a server that speaks 2026-07-28 (wirelab's
// own, reached as the learner's would be) answers server/discover; what
// it declares is asked in that revision, and its templates carry the
// revision in params._meta and the headers that repeat the method and
// the name, with no session.
//
// The server lists one tool a page: the console follows nextCursor
// through every page when it asked itself, offers the next page as a
// template when the learner asked, and keeps what was declared across a
// reload.
func TestBrowserOwnMCPModern(t *testing.T) {
	cat := tools.New(nil)
	handler := mcp.NewServer(cat, &mcp.ServerOptions{Version: "test", PageSize: 1}).HTTPHandler(&mcp.HTTPOptions{Loopback: true})
	srv := httptest.NewServer(handler)
	t.Cleanup(func() { handler.Close(); srv.Close() })

	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "custom-http")
	b.setTo(srv.URL + mcp.Endpoint)
	b.choose("template", "server/discover (revisions and capabilities)")
	b.click("#send")
	b.waitUntil("the revision it answered is said", `document.getElementById("own-status").textContent.includes("2026-07-28")`, ownDump)
	b.text(`(document.getElementById("own-declared").click(), "")`)
	var names []string
	for _, d := range cat.List() {
		names = append(names, "tools/call "+d.Name)
	}
	if len(names) < 2 {
		t.Fatalf("the catalogue has %d tools: no second page to follow", len(names))
	}
	list, _ := json.Marshal(names)
	ownNames := `[...document.querySelectorAll("#template optgroup[data-own] option")].map(o => o.textContent)`
	b.waitUntil("every page of its tools is followed", fmt.Sprintf(`(n => %s.every(x => n.includes(x)))(%s)`, list, ownNames), ownDump)

	// A tools/list the learner sends: its next page is a template.
	b.setComposer("POST " + mcp.Endpoint + " HTTP/1.1\nHost: {{host}}\nAccept: application/json, text/event-stream\nContent-Type: application/json\nMCP-Protocol-Version: 2026-07-28\nMcp-Method: tools/list\n\n" +
		`{"jsonrpc":"2.0","id":50,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	b.click("#send")
	b.waitUntil("the next page is offered", ownNames+`.includes("tools/list: the next page (nextCursor)")`, ownDump)
	b.chooseOwn("tools/list: the next page (nextCursor)")
	if frame := b.text(`document.getElementById("composer").value`); !strings.Contains(frame, `"cursor":"`) {
		t.Errorf("the next page's frame has no cursor:\n%s", frame)
	}

	// A reload keeps what the server declared.
	b.open("/console/mcp")
	b.expect("the target is kept", `document.getElementById("target").value === "custom-http"`, ownDump)
	b.expect("its templates are there at once", fmt.Sprintf(`(n => %s.every(x => n.includes(x)))(%s)`, list, ownNames), ownDump)

	b.chooseOwn("tools/call word_count")
	frame := b.text(`document.getElementById("composer").value`)
	for _, want := range []string{"MCP-Protocol-Version: 2026-07-28\n", "Mcp-Method: tools/call\n", "Mcp-Name: word_count\n", `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`, `"arguments":{"text":""}`} {
		if !strings.Contains(frame, want) {
			t.Errorf("the word_count template lacks %q:\n%s", want, frame)
		}
	}
	if strings.Contains(frame, "Mcp-Session-Id") {
		t.Errorf("a 2026-07-28 template has a session:\n%s", frame)
	}
	b.setComposer(strings.Replace(frame, `"text":""`, `"text":"read the wire"`, 1))
	b.click("#send")
	b.waitUntil("the tool answers", saved(`"words":3`), ownDump)
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

	// A server that answers and then exits has nothing wrong with its
	// start: its exit gets no diagnosis.
	b.setTo(`sh -c 'read line; echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"'`)
	b.click("#send")
	b.waitUntil("the server answers and exits", `[...document.querySelectorAll("#transcript-rows tr.row[data-dir=note]")].some(r => r.textContent.includes("it exited (exit status 0)"))`, ownDump)
	if n := b.text(`String(document.querySelectorAll("#transcript-rows .doctor").length)`); n != "1" {
		t.Errorf("%s diagnoses, want only the noise's", n)
	}

	b.open("/console/mcp?lang=ru")
	b.choose("target", "custom-stdio")
	b.setTo(`sh -c 'echo no config file >&2; exit 3'`)
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the doctor says the server exited before answering, with its stderr", `[...document.querySelectorAll("#transcript-rows .doctor")].some(d => d.textContent.includes("сервер завершился, не ответив") && d.querySelector(".doctor-stderr")?.textContent.includes("no config file"))`, ownDump)
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
	b.chooseOwn("SendMessage Count words")
	b.click("#send")
	b.waitUntil("the skill's task completes", savedIn("a2a", `TASK_STATE_COMPLETED`), ownDump)

	// A2A 0.3: the answer is the task itself, whose id (here nowhere
	// else in the answer) fills {{task}} in the message that answers the
	// task's question.
	agent03 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				Message struct {
					TaskID string `json:"taskId"`
				} `json:"message"`
			} `json:"params"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		state := "input-required"
		if req.Params.Message.TaskID == "task-03" {
			state = "completed"
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"kind":"task","id":"task-03","contextId":"c-03","status":{"state":%q}}}`, req.ID, state)
	}))
	t.Cleanup(agent03.Close)
	b.setTo(agent03.URL + "/")
	post03 := func(body string) string {
		return "POST / HTTP/1.1\nHost: {{host}}\nContent-Type: application/json\n\n" + body
	}
	message03 := func(id int, text, extra string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"message/send","params":{"message":{"kind":"message","messageId":"m%d","role":"user","parts":[{"kind":"text","text":%q}]%s}}}`, id, id, text, extra)
	}
	b.setComposer(post03(message03(30, "deploy api-gateway", "")))
	b.click("#send")
	b.waitUntil("the 0.3 task asks for input", savedRow(`"id":30,`, `"input-required"`), ownDump)
	b.setComposer(post03(message03(31, "staging", `,"taskId":"{{task}}"`)))
	b.click("#send")
	b.waitUntil("the 0.3 task completes", savedRow(`"id":31,`, `"completed"`), ownDump)
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

// TestBrowserDoctorCases: the connection doctor's reading of each
// classic failure, one transcript row (and the request it answers) at a
// time, as static/doctor.js gets them from the console.
func TestBrowserDoctorCases(t *testing.T) {
	post := func(headers, body string) string {
		return "POST /mcp HTTP/1.1\nHost: 127.0.0.1:3001\nContent-Type: application/json\n" + headers + "\n" + body
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	modern := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	answer := func(head string) map[string]any {
		return map[string]any{"kind": "http", "dir": "in", "text": head + "\n\n"}
	}
	var (
		cases       []map[string]any
		names, want []string
	)
	for _, tt := range []struct {
		name    string
		slug    string
		row     map[string]any
		request string
		ctx     map[string]any
		want    string // the diagnosis's key, or "" for none
	}{
		{"refused", "mcp", map[string]any{"kind": "refused", "text": "connecting to 127.0.0.1:9: dial tcp 127.0.0.1:9: connect: connection refused"}, "", nil, "refused"},
		{"no such host", "mcp", map[string]any{"kind": "refused", "text": "connecting to nowhere.invalid:80: dial tcp: lookup nowhere.invalid: no such host"}, "", nil, "dns"},
		{"unknown authority", "mcp", map[string]any{"kind": "refused", "text": `TLS with 127.0.0.1:8443: its certificate is signed by "x", which the system roots does not trust (unknown authority)`}, "", nil, "tlsUnknown"},
		{"plain server behind https", "mcp", map[string]any{"kind": "refused", "text": "TLS with 127.0.0.1:80: the server does not speak TLS"}, "", nil, "tlsPlain"},
		{"TLS server behind http", "mcp", map[string]any{"kind": "refused", "text": `reading the answer: malformed HTTP response "\x15\x03\x01\x00\x02\x02P"`}, "", nil, "plainToTLS"},
		{"program not found", "mcp", map[string]any{"kind": "refused", "text": `custom-stdio: could not start "nope": exec: "nope": executable file not found in $PATH`}, "", nil, "notStarted"},
		{"404 on the path", "mcp", answer("HTTP/1.1 404 Not Found"), post("", initialize), nil, "notFound"},
		{"404 for a session", "mcp", answer("HTTP/1.1 404 Not Found"), post("Mcp-Session-Id: abc\n", list), nil, "sessionGone"},
		{"405", "mcp", answer("HTTP/1.1 405 Method Not Allowed"), "GET /mcp HTTP/1.1\nAccept: text/event-stream\n\n", nil, "method"},
		{"406", "mcp", answer("HTTP/1.1 406 Not Acceptable"), post("", initialize), nil, "accept"},
		{"415", "mcp", answer("HTTP/1.1 415 Unsupported Media Type"), post("", initialize), nil, "contentType"},
		{"400 without a session", "mcp", answer("HTTP/1.1 400 Bad Request"), post("", list), nil, "noSession"},
		{"400 for the version", "mcp", map[string]any{"kind": "http", "dir": "in", "text": "HTTP/1.1 400 Bad Request\n\n" + `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Unsupported protocol version: 2099-01-01"},"id":null}`},
			post("Mcp-Session-Id: abc\nMCP-Protocol-Version: 2099-01-01\n", list), map[string]any{"version": "2025-11-25"}, "version"},
		{"400 to 2026-07-28 from a legacy server", "mcp", answer("HTTP/1.1 400 Bad Request"), post("MCP-Protocol-Version: 2026-07-28\nMcp-Method: tools/list\n", modern), nil, "legacy"},
		{"401 without metadata", "mcp", answer("HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Bearer"), post("", initialize), nil, "auth"},
		{"401 with metadata", "mcp", answer(`HTTP/1.1 401 Unauthorized` + "\n" + `WWW-Authenticate: Bearer resource_metadata="http://127.0.0.1:3001/.well-known/oauth-protected-resource"`), post("", initialize), nil, "authMeta"},
		{"200 is no failure", "mcp", answer("HTTP/1.1 200 OK"), post("", initialize), nil, ""},
		{"server/discover refused", "mcp", map[string]any{"kind": "line", "dir": "in", "text": `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`}, `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`, nil, "discoverLegacy"},
		{"stdout noise", "mcp", map[string]any{"kind": "line", "dir": "in", "text": "Starting server...", "summary": "not JSON"}, "", nil, "noise"},
		{"exits before answering", "mcp", map[string]any{"kind": "exit", "dir": "note", "text": "the server's stdout closed: it exited (exit status 1)"}, "", map[string]any{"answered": false}, "exitEarly"},
		{"exits after answering", "mcp", map[string]any{"kind": "exit", "dir": "note", "text": "the server's stdout closed: it exited (exit status 0)"}, "", map[string]any{"answered": true}, ""},
		{"no card", "a2a", answer("HTTP/1.1 404 Not Found"), "GET /card.json HTTP/1.1\n\n", nil, "cardMissing"},
		{"no A2A endpoint", "a2a", answer("HTTP/1.1 404 Not Found"), "POST /rpc HTTP/1.1\n\n{}", nil, "a2aNotFound"},
	} {
		if tt.ctx == nil {
			tt.ctx = map[string]any{}
		}
		tt.ctx["slug"] = tt.slug
		tt.ctx["host"] = "127.0.0.1:3001"
		var request any // the request a row answers, if any
		if tt.request != "" {
			request = map[string]any{"text": tt.request}
		}
		cases = append(cases, map[string]any{"row": tt.row, "request": request, "ctx": tt.ctx})
		names = append(names, tt.name)
		want = append(want, tt.want)
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	b := openBrowser(t)
	b.open("/console/mcp")
	// The module is imported again by the page's own URL, so it is the
	// module the console runs.
	b.text(fmt.Sprintf(`(import("/static/doctor.js").then(m => { document.body.dataset.doctor = JSON.stringify(%s.map(c => (d => d ? d.key : "")(m.diagnose(c.row, c.request, c.ctx)))); }), "")`, in))
	b.waitUntil("the doctor answers", `document.body.dataset.doctor !== undefined`, `""`)
	var got []string
	if err := json.Unmarshal([]byte(b.text(`document.body.dataset.doctor`)), &got); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Errorf("%s: the doctor's diagnosis is %q, want %q", names[i], got[i], want[i])
		}
	}
}
