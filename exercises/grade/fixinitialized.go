package grade

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
)

// FixInitialized grades the fix-initialized exercise: an MCP client
// (revision 2025-11-25) over stdio, given with one bug, that starts its
// server, opens the session and prints the names of the server's tools,
//
//	fix-initialized SERVER [ARG...]
//
// The server is the grader's, behind the relay of stdiopeer.go: a
// scripted one (fixServer) that refuses every request but ping until
// notifications/initialized has come, as a server may.
func FixInitialized() *Grader {
	return &Grader{
		Exercise: "fix-initialized",
		Stages: []Stage{
			// The first stage builds the grader's relay too.
			{Name: "sends initialize", Run: fixInitSendsInitialize, Limit: time.Minute},
			{Name: "sends notifications/initialized", Run: fixInitSendsInitialized},
			{Name: "prints the tools", Run: fixInitPrintsTools},
		},
	}
}

const (
	hintFixInitialized = `The session opens in three messages: initialize, its answer, then the notification notifications/initialized, which says the client is ready. The lifecycle says the client MUST send it; until it comes, a server may refuse everything but ping, as this one does.`
	hintFixInitialize  = `The first message on the server's stdin is the initialize request, on one line: {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{...}}}.`
)

// fixServerTools is the result of the scripted server's tools/list.
const fixServerTools = `{"tools":[` +
	`{"name":"word_count","description":"Counts the words and characters of a text.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}},` +
	`{"name":"weather","description":"Today's weather in a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}`

// fixServer is the grader's scripted MCP server (revision 2025-11-25)
// for the small client exercises: one tools/list, and tools/call for
// the two tools it lists, whose results the stages choose.
type fixServer struct {
	results map[string]string // tools/call results by tool name

	mu    sync.Mutex // guards ready and trace
	ready bool       // notifications/initialized has come
	trace []string   // every line, "-> " from the program, "<- " to it
}

// serve answers one server process the program started, line by line,
// until its stdin ends.
func (srv *fixServer) serve(s *peerSession) {
	for {
		line, ok := s.next(DefaultLimit)
		if !ok {
			return
		}
		srv.record("-> " + line)
		if answer := srv.answer(line); answer != "" {
			srv.record("<- " + answer)
			s.send(answer)
		}
	}
}

func (srv *fixServer) record(line string) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	srv.trace = append(srv.trace, line)
}

// answer returns the answer to one line, or "" for a notification.
func (srv *fixServer) answer(line string) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`
	}
	if m.ID == nil {
		if m.Method == "notifications/initialized" {
			srv.mu.Lock()
			srv.ready = true
			srv.mu.Unlock()
		}
		return ""
	}
	reply := func(result string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}
	refuse := func(code int, message string) string {
		msg, _ := json.Marshal(message)
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, m.ID, code, msg)
	}
	srv.mu.Lock()
	ready := srv.ready
	srv.mu.Unlock()
	switch {
	case m.Method == "initialize":
		return reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"wirelab-grader","version":"1"}}`)
	case m.Method == "ping":
		return reply(`{}`)
	case m.Method == "notifications/initialized":
		return refuse(-32600, "invalid request: notifications/initialized is a notification, and has no id")
	case !ready:
		return refuse(-32600, fmt.Sprintf("invalid request: %s before notifications/initialized; the client is not ready yet", m.Method))
	case m.Method == "tools/list":
		return reply(fixServerTools)
	case m.Method == "tools/call" && srv.results[m.Params.Name] != "":
		return reply(srv.results[m.Params.Name])
	case m.Method == "tools/call":
		return refuse(-32602, fmt.Sprintf("unknown tool: %q", m.Params.Name))
	}
	return refuse(-32601, fmt.Sprintf("method %q not found", m.Method))
}

// fixRun is one run of a small client against a fixServer.
type fixRun struct {
	args   []string // the command line, before the server's
	code   int
	stdout string
	stderr string
	trace  []string
}

// fixStart runs the program once with args and the server's command
// line, against srv, and waits for it to exit.
func fixStart(t *T, srv *fixServer, args ...string) (*fixRun, error) {
	peer, err := newStdioPeer(t, srv.serve)
	if err != nil {
		return nil, err
	}
	defer peer.shutdown()
	r := &fixRun{args: args}
	p, err := t.Start(append(append([]string(nil), args...), peer.command()...)...)
	if err != nil {
		return nil, err
	}
	p.CloseStdin()
	if r.code, err = p.Wait(); err != nil {
		return nil, About(err, "", r.sent())
	}
	out, err := p.Output()
	if err != nil {
		return nil, About(err, "", r.sent())
	}
	r.stdout, r.stderr = string(out), p.Stderr()
	started := len(peer.started()) > 0
	peer.shutdown() // every line is recorded once the sessions have ended
	srv.mu.Lock()
	r.trace = append([]string(nil), srv.trace...)
	srv.mu.Unlock()
	if !started {
		f := Failf("the program exited with status %d without starting the server it was given", r.code)
		f.Sent, f.Stderr = r.sent(), r.stderr
		return nil, f
	}
	return r, nil
}

// sent is the run's command line, as the report shows it.
func (r *fixRun) sent() string {
	words := make([]string, 0, len(r.args)+1)
	for _, a := range r.args {
		if strings.ContainsAny(a, ` "{`) {
			a = "'" + a + "'"
		}
		words = append(words, a)
	}
	return shorten("command line: " + strings.Join(append(words, "SERVER"), " "))
}

// requests returns the lines the program wrote to the server.
func (r *fixRun) requests() []string {
	var lines []string
	for _, l := range r.trace {
		if rest, ok := strings.CutPrefix(l, "-> "); ok {
			lines = append(lines, rest)
		}
	}
	return lines
}

// fail is a failure of this run, with the lines both ways and stderr.
func (r *fixRun) fail(hint, format string, args ...any) *Failure {
	f := Failf(format, args...)
	f.Sent, f.Got, f.Stderr, f.Hint = r.sent(), shorten(strings.Join(r.trace, "\n")), lastLines(r.stderr, stderrLines), hint
	return f
}

func fixInitSendsInitialize(t *T) error {
	r, err := fixStart(t, &fixServer{})
	if err != nil {
		return err
	}
	reqs := r.requests()
	if len(reqs) == 0 {
		return r.fail(hintFixInitialize, "the program sent nothing to its server; it exited with status %d", r.code)
	}
	if f := CompareJSON([]byte(reqs[0]), mcpcWantInitialize, Subset); f != nil {
		f.restatef("the first message is not the initialize request expected")
		f.Sent, f.Hint = r.sent(), hintFixInitialize
		return f
	}
	return nil
}

func fixInitSendsInitialized(t *T) error {
	r, err := fixStart(t, &fixServer{})
	if err != nil {
		return err
	}
	reqs := r.requests()
	if len(reqs) < 2 {
		return r.fail(hintFixInitialized, "after the answer to initialize the program sent nothing more, and exited with status %d", r.code)
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal([]byte(reqs[1]), &m)
	var f *Failure
	switch {
	case m.Method != "notifications/initialized":
		if m.Method == "" {
			m.Method = "a message without a method"
		}
		f = r.fail(hintFixInitialized, "after the answer to initialize, the next message is %s, not notifications/initialized", m.Method)
	case m.ID != nil:
		f = r.fail(hintMCPNoID, "notifications/initialized has an id, which makes it a request")
	default:
		return nil
	}
	// Show the answer to initialize, and what came after it.
	f.Expected = mcpInitialized
	for i, l := range r.trace {
		if strings.HasPrefix(l, "<- ") {
			f.Sent, f.Got = shorten(l), shorten(strings.Join(r.trace[i+1:], "\n"))
			break
		}
	}
	return f
}

func fixInitPrintsTools(t *T) error {
	r, err := fixStart(t, &fixServer{})
	if err != nil {
		return err
	}
	const want = "word_count\nweather\n"
	if r.code != 0 || r.stdout != want {
		f := r.fail("", "the program exited with status %d; stdout is not the names of the tools, one per line", r.code)
		f.Got = ""
		f.setDiff([]byte(want), []byte(r.stdout), firstDiff([]byte(want), []byte(r.stdout)))
		return f
	}
	return nil
}
