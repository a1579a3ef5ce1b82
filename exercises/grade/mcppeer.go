package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/tools"
)

// This file is the world around the program in the mcp-client stages:
// an HTTP server on a loopback port that records everything the client
// sends, in front of wirelab's own MCP server or of a small scripted one
// (for the stages that need a server to behave in one particular way),
// and the record of one run of the program against it.

// mcpMaxRecorded is how much of a request's or an answer's body a
// recording keeps: far more than any message of these stages.
const mcpMaxRecorded = 64 << 10

// mcpExchange is one HTTP request from the client and the server's answer.
type mcpExchange struct {
	Method string      // the HTTP method
	Header http.Header // the request's headers, as the client sent them
	Body   []byte      // the request's body
	Status int         // the answer's status
	Answer http.Header // the answer's headers, as the client saw them
	Reply  []byte      // the answer's body (for SSE, the whole stream)
}

// mcpPeer serves an MCP endpoint for one stage and records every
// exchange. Session ids are what a real server makes up at random, so
// the client sees stable aliases in their place ("session-1"): reports
// stay the same from one run to the next.
type mcpPeer struct {
	srv      *httptest.Server
	h        http.Handler
	closeH   func() // ends h's sessions, so that no request waits on them
	stopOnce sync.Once

	mu      sync.Mutex        // guards the fields below
	log     []mcpExchange     // in the order the answers ended
	aliases map[string]string // a session id the server made -> its alias
	real    map[string]string // an alias -> the session id
}

// newMCPPeer serves h at a loopback URL. closeH, if not nil, is called
// first when the peer shuts down.
func newMCPPeer(h http.Handler, closeH func()) *mcpPeer {
	p := &mcpPeer{h: h, closeH: closeH, aliases: map[string]string{}, real: map[string]string{}}
	p.srv = httptest.NewServer(p)
	return p
}

// newWirelabPeer serves wirelab's own MCP server, the one that
// `wirelab server mcp --http` runs, with its tool catalogue.
func newWirelabPeer() *mcpPeer {
	h := mcp.NewServer(tools.New(nil), nil).HTTPHandler(nil)
	return newMCPPeer(h, h.Close)
}

// url is the MCP endpoint's URL.
func (p *mcpPeer) url() string { return p.srv.URL + mcp.Endpoint }

// host is the URL's host:port, which reports replace with a placeholder.
func (p *mcpPeer) host() string { return strings.TrimPrefix(p.srv.URL, "http://") }

// shutdown stops the server: its sessions first, so that a request
// waiting on one (a GET stream) ends, then the connections, then the
// server, which waits for its handlers to return. Calling it again does
// nothing.
func (p *mcpPeer) shutdown() {
	p.stopOnce.Do(func() {
		if p.closeH != nil {
			p.closeH()
		}
		p.srv.CloseClientConnections()
		p.srv.Close()
	})
}

// exchanges returns what has been recorded so far.
func (p *mcpPeer) exchanges() []mcpExchange {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]mcpExchange(nil), p.log...)
}

func (p *mcpPeer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, mcpMaxRecorded))
	r.Body = io.NopCloser(bytes.NewReader(body))
	x := mcpExchange{Method: r.Method, Header: r.Header.Clone(), Body: body}
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		p.mu.Lock()
		if real, ok := p.real[id]; ok {
			r.Header.Set("Mcp-Session-Id", real)
		}
		p.mu.Unlock()
	}
	rec := &mcpRecorder{ResponseWriter: w, p: p}
	p.h.ServeHTTP(rec, r)
	x.Status, x.Answer, x.Reply = rec.status, w.Header().Clone(), rec.body.Bytes()
	if x.Status == 0 {
		x.Status = http.StatusOK // what net/http sends for a handler that wrote nothing
	}
	p.mu.Lock()
	p.log = append(p.log, x)
	p.mu.Unlock()
}

// alias returns the alias of a session id the server made.
func (p *mcpPeer) alias(real string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	a, ok := p.aliases[real]
	if !ok {
		a = fmt.Sprintf("session-%d", len(p.aliases)+1)
		p.aliases[real], p.real[a] = a, real
	}
	return a
}

// mcpRecorder keeps an answer's status and the start of its body, and
// puts the alias of a new session id in its header.
type mcpRecorder struct {
	http.ResponseWriter
	p      *mcpPeer
	status int
	body   bytes.Buffer
}

func (w *mcpRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
		if id := w.Header().Get("Mcp-Session-Id"); id != "" {
			w.Header().Set("Mcp-Session-Id", w.p.alias(id))
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *mcpRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.body.Write(b[:min(len(b), mcpMaxRecorded-w.body.Len())])
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush, which SSE needs.
func (w *mcpRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// method is the JSON-RPC method of a POST, or "" if it has none.
func (x mcpExchange) method() string {
	var m struct {
		Method string `json:"method"`
	}
	json.Unmarshal(x.Body, &m)
	return m.Method
}

// what names a request in a sentence: "a POST of tools/call".
func (x mcpExchange) what() phrase {
	if m := x.method(); m != "" {
		return phrasef("a POST of %s", m)
	}
	return phrasef("a %s", x.Method)
}

// request shows the request for a report: the HTTP method and the
// message.
func (x mcpExchange) request() string {
	if len(x.Body) == 0 {
		return x.Method
	}
	return shorten(x.Method + " " + string(compact(bytes.TrimSpace(x.Body))))
}

// answer shows the server's answer for a report: status, session id,
// type and body.
func (x mcpExchange) answer() string {
	s := fmt.Sprintf("HTTP %d", x.Status)
	if id := x.Answer.Get("Mcp-Session-Id"); id != "" {
		s += ", Mcp-Session-Id: " + id
	}
	if mt := mcpMediaType(x.Answer); mt != "" {
		s += ", " + mt
	}
	if body := bytes.TrimSpace(x.Reply); len(body) > 0 {
		s += ", " + string(compact(body))
	}
	return shorten(s)
}

// mcpcRun is what one run of the program did.
type mcpcRun struct {
	args   []string // the command line after --url URL
	code   int      // the exit status
	stdout string
	stderr string // its last lines
	log    []mcpExchange
	host   string // the server's host:port, which reports hide
}

// mcpcStart runs the program against p with args after --url, waits for
// it to exit and shuts p down.
func mcpcStart(t *T, p *mcpPeer, args ...string) (*mcpcRun, error) {
	defer p.shutdown()
	r := &mcpcRun{args: args, host: p.host()}
	proc, err := t.Start(append([]string{"--url", p.url()}, args...)...)
	if err != nil {
		return nil, err
	}
	r.code, err = proc.Wait()
	if err == nil {
		var out []byte
		out, err = proc.Output()
		r.stdout = string(out)
	}
	p.shutdown() // the log is complete once every handler has returned
	r.log = p.exchanges()
	if err != nil {
		// It hangs: say what it was doing.
		var f *Failure
		if errors.As(err, &f) && len(r.log) > 0 {
			last := r.log[len(r.log)-1]
			f.addf("; the last thing it sent was %s, answered with HTTP %d", last.what(), last.Status)
			f.Sent = last.answer()
		}
		return nil, r.scrub(err)
	}
	r.stderr = proc.Stderr()
	return r, nil
}

// scrub replaces the server's port in a failure with PORT, so that
// reports are the same from one run to the next.
func (r *mcpcRun) scrub(err error) error {
	var f *Failure
	if errors.As(err, &f) {
		hide := func(s string) string { return strings.ReplaceAll(s, r.host, "127.0.0.1:PORT") }
		f.Summary, f.SummaryRU, f.Sent, f.Stderr, f.Output = hide(f.Summary), hide(f.SummaryRU), hide(f.Sent), hide(f.Stderr), hide(f.Output)
		if f.Offset == nil { // a caret points into Got as it is
			f.Got = hide(f.Got)
		}
	}
	return err
}

// commandLine is how the program was started, for reports.
func (r *mcpcRun) commandLine() string {
	words := []string{"mcp-client", "--url", "http://127.0.0.1:PORT/mcp"}
	for _, a := range r.args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.ContainsAny(v, " \"") {
			a = k + "=" + fmt.Sprintf("%q", v)
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// posts returns the POSTs the program sent, which carry its messages.
func (r *mcpcRun) posts() []mcpExchange {
	var posts []mcpExchange
	for _, x := range r.log {
		if x.Method == http.MethodPost {
			posts = append(posts, x)
		}
	}
	return posts
}

// answerTo returns the exchange of the first POST of method, if any.
func (r *mcpcRun) answerTo(method string) (mcpExchange, bool) {
	for _, x := range r.posts() {
		if x.method() == method {
			return x, true
		}
	}
	return mcpExchange{}, false
}

// fail is a failure that shows the program's stderr.
func (r *mcpcRun) fail(format string, args ...any) *Failure {
	f := Failf(format, args...)
	f.Stderr = r.stderr
	return f
}

// mcpScripted is a small MCP server over Streamable HTTP with one tool
// result, whatever the tool's name: enough for a client's whole session.
// Like some servers, it refuses requests until notifications/initialized
// has come; like others (the TypeScript SDK's, by default), it can
// answer every request with an SSE stream.
type mcpScripted struct {
	result string // tools/call's result, as JSON
	sse    bool   // answer requests with text/event-stream

	mu          sync.Mutex // guards initialized
	initialized bool       // notifications/initialized has come
}

// mcpScriptedSession is the session id the scripted server gives.
const mcpScriptedSession = "scripted-1"

func (s *mcpScripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	refuse := func(status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":%q}}`+"\n", msg)
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	body, _ := io.ReadAll(r.Body) // already in memory: the peer read it
	json.Unmarshal(body, &msg)
	session := r.Header.Get("Mcp-Session-Id")
	switch {
	case r.URL.Path != mcp.Endpoint:
		refuse(http.StatusNotFound, "the MCP endpoint is "+mcp.Endpoint)
		return
	case r.Method == http.MethodDelete && session == mcpScriptedSession:
		w.WriteHeader(http.StatusNoContent)
		return
	case r.Method != http.MethodPost:
		w.Header().Set("Allow", "POST, DELETE")
		refuse(http.StatusMethodNotAllowed, "this server takes POST, and DELETE to end a session")
		return
	case msg.Method == "initialize":
		w.Header().Set("Mcp-Session-Id", mcpScriptedSession)
	case session == "":
		refuse(http.StatusBadRequest, "missing Mcp-Session-Id header")
		return
	case session != mcpScriptedSession:
		refuse(http.StatusNotFound, fmt.Sprintf("no session %q", session))
		return
	}
	if len(msg.ID) == 0 { // a notification
		if msg.Method == "notifications/initialized" {
			s.mu.Lock()
			s.initialized = true
			s.mu.Unlock()
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	s.mu.Lock()
	ready := s.initialized
	s.mu.Unlock()
	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method %q not found"}}`, msg.ID, msg.Method)
	var before []string // what the server says before the answer
	switch {
	case msg.Method == "initialize":
		answer = fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"scripted","version":"1"}}}`, msg.ID)
	case !ready:
		answer = fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"%s before notifications/initialized: the handshake is not over"}}`, msg.ID, msg.Method)
	case msg.Method == "tools/call":
		answer = fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, msg.ID, s.result)
		before = []string{`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"scripted","data":"working on it"}}`}
	}
	if !s.sse {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer+"\n")
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	// The stream opens with an event that has an id and empty data,
	// which a client could resume from; then a comment, the server's own
	// messages, and the answer.
	io.WriteString(w, "id: 0\ndata:\n\n: the answer follows\n\n")
	for i, m := range append(before, answer) {
		fmt.Fprintf(w, "event: message\nid: %d\ndata: %s\n\n", i+1, m)
	}
}

// mcpMediaType is a header's Content-Type without its parameters.
func mcpMediaType(h http.Header) string {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt
}
