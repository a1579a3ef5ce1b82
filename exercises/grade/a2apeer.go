package grade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The agent side of the a2a-client stages: an HTTP server on a loopback
// port that serves an agent card and a JSON-RPC endpoint, and writes down
// every request the client makes with what it was answered. Behind the
// endpoint is either the course's own agent (a2a.Server) or a script,
// for behaviour the real agent does not show on demand: a task that stays
// working, a JSON-RPC error.

// a2aEndpoint is where the peers' cards send requests. It is not the
// base URL's path, so that a client that POSTs to the base URL instead of
// where the card says is found out.
const a2aEndpoint = "/a2a"

// a2aShownURL stands for the peer's base URL in reports, whose port
// changes from run to run.
const a2aShownURL = "http://127.0.0.1:PORT"

// a2aDeployStep is the real agent's deploy step: fast, since the stage
// is about the conversation, not the wait.
const a2aDeployStep = 10 * time.Millisecond

// a2aExchange is one HTTP request the client made, and the answer.
type a2aExchange struct {
	method, path string          // the HTTP request
	version      string          // its A2A-Version header
	rpc          string          // the JSON-RPC method, if the body is a request
	params       json.RawMessage // its params
	status       int             // the HTTP status answered

	// From the answer: the task it is about, its state (for a stream,
	// the last one sent) with the agent's words, or the JSON-RPC error.
	taskID, contextID string
	state             a2a.TaskState
	say               string
	err               *jsonrpc.Error
}

// a2aPeer is an agent for one stage. Close it before the stage ends.
type a2aPeer struct {
	srv   *httptest.Server
	real  *a2a.Server  // the course's agent, which also writes the card
	agent http.Handler // serves JSON-RPC at "/": the real agent, or a script

	mu  sync.Mutex // guards log
	log []a2aExchange
}

// newA2APeer starts a peer: the real agent when script is nil.
func newA2APeer(script *a2aScript) *a2aPeer {
	var n atomic.Int64
	agent := a2a.NewServer(&a2a.Options{
		Tools:   tools.New(&tools.Options{DeployStep: a2aDeployStep}),
		Version: "grader",
		// Ids numbered from 1, and one fixed time, so that reports
		// come out the same every time.
		NewID: func() string { return fmt.Sprintf("id-%d", n.Add(1)) },
		Now:   func() time.Time { return time.Date(2026, 3, 12, 9, 0, 0, 0, time.UTC) },
	})
	p := &a2aPeer{real: agent, agent: agent}
	if script != nil {
		p.agent = script
	}
	p.srv = httptest.NewUnstartedServer(http.HandlerFunc(p.serve))
	// Clients that hang up mid-answer are the learner's to debug, not
	// noise in the grader's own output.
	p.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	p.srv.Start()
	return p
}

// Close stops the agent's tasks, then the server. The real agent's
// Close ends the requests that wait on a task, so that the server's
// Close, which waits for every request, returns.
func (p *a2aPeer) Close() {
	p.real.Close()
	p.srv.CloseClientConnections()
	p.srv.Close()
}

// exchanges returns what the client has sent so far.
func (p *a2aPeer) exchanges() []a2aExchange {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]a2aExchange(nil), p.log...)
}

func (p *a2aPeer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, a2a.MaxBody))
	e := a2aExchange{method: r.Method, path: r.URL.Path, version: r.Header.Get(a2a.VersionHeader)}
	var req struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &req) == nil {
		e.rpc, e.params = req.Method, req.Params
	}
	rec := &a2aRecorder{ResponseWriter: w, status: http.StatusOK}
	switch {
	case r.URL.Path == a2a.CardPath && r.Method == http.MethodGet:
		// The real agent's card, with the endpoint moved.
		card := p.real.Card(r.Host)
		for i := range card.SupportedInterfaces {
			card.SupportedInterfaces[i].URL = "http://" + r.Host + a2aEndpoint
		}
		b, _ := a2a.CardJSON(card)
		rec.Header().Set("Content-Type", "application/json")
		rec.Write(append(b, '\n'))
	case r.URL.Path == a2aEndpoint:
		fwd := r.Clone(r.Context())
		fwd.URL.Path = "/"
		fwd.Body = io.NopCloser(bytes.NewReader(body))
		p.agent.ServeHTTP(rec, fwd)
	default:
		// As the real agent answers a path it does not serve (a zero
		// id is written null: the request was not read).
		b, _ := json.Marshal(jsonrpc.NewErrorResponse(jsonrpc.ID{}, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
			"no such path %q: requests go to the url of the agent card's interface (GET %s)", r.URL.Path, a2a.CardPath)))
		rec.Header().Set("Content-Type", "application/json")
		rec.WriteHeader(http.StatusNotFound)
		rec.Write(append(b, '\n'))
	}
	e.status = rec.status
	if e.path != a2a.CardPath {
		e.readAnswer(rec.body.Bytes())
	}
	p.mu.Lock()
	p.log = append(p.log, e)
	p.mu.Unlock()
}

// a2aRecorder passes an answer on and keeps a copy.
type a2aRecorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *a2aRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *a2aRecorder) Write(b []byte) (int, error) {
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush a stream's events.
func (r *a2aRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// readAnswer notes what an answer says: one JSON-RPC response, or an SSE
// stream of them (each on a "data:" line).
func (e *a2aExchange) readAnswer(body []byte) {
	if !bytes.HasPrefix(body, []byte("data:")) {
		e.readResponse(body)
	}
	for _, line := range bytes.Split(body, []byte("\n")) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			e.readResponse(data)
		}
	}
}

func (e *a2aExchange) readResponse(b []byte) {
	var resp struct {
		Result struct {
			a2a.Task                                // GetTask's result
			Wrapped      *a2a.Task                  `json:"task"` // SendMessage's, a stream's first event
			StatusUpdate *a2a.TaskStatusUpdateEvent `json:"statusUpdate"`
		} `json:"result"`
		Error *jsonrpc.Error `json:"error"`
	}
	if json.Unmarshal(b, &resp) != nil {
		return
	}
	if resp.Error != nil {
		e.err = resp.Error
		return
	}
	t, status := &resp.Result.Task, &resp.Result.Task.Status
	if resp.Result.Wrapped != nil {
		t, status = resp.Result.Wrapped, &resp.Result.Wrapped.Status
	}
	if u := resp.Result.StatusUpdate; u != nil {
		status = &u.Status
	} else if t.ID != "" && e.taskID == "" {
		e.taskID, e.contextID = t.ID, t.ContextID
	}
	if status.State != "" {
		e.state, e.say = status.State, a2aText(status.Message)
	}
}

// a2aSent is the message a SendMessage (or SendStreamingMessage) sent.
func a2aSent(e a2aExchange) a2a.Message {
	var p struct {
		Message a2a.Message `json:"message"`
	}
	json.Unmarshal(e.params, &p)
	return p.Message
}

// a2aMasked is params as reports show them: the random messageId
// replaced, the keys sorted.
func a2aMasked(params json.RawMessage) string {
	var v map[string]any
	if json.Unmarshal(params, &v) != nil {
		return shorten(string(params))
	}
	if m, ok := v["message"].(map[string]any); ok && m["messageId"] != nil {
		m["messageId"] = "…"
	}
	b, _ := json.Marshal(v)
	return shorten(string(b))
}

// a2aDescribe lists requests on one line, with what each was answered
// when that says more than 200 OK:
//
//	GET /.well-known/agent-card.json, POST /a2a GetTask -> TASK_STATE_WORKING (x3)
//
// Repeats are counted, or with counts false only marked, for logs whose
// length depends on timing.
func a2aDescribe(log []a2aExchange, counts bool) string {
	const most = 12 // entries shown: a client that loops makes many
	var out []string
	for i, n := 0, 0; i < len(log) && len(out) < most; i += n {
		s := log[i].String()
		for n = 1; i+n < len(log) && log[i+n].String() == s; n++ {
		}
		switch {
		case n > 1 && counts:
			s += fmt.Sprintf(" (x%d)", n)
		case n > 1:
			s += " (repeated)"
		}
		out = append(out, s)
	}
	if len(out) == most {
		out = append(out, "…")
	}
	return strings.Join(out, ", ")
}

// String is one request, and its answer when that says more than 200 OK.
func (e a2aExchange) String() string {
	s := strings.TrimSpace(e.method + " " + e.path + " " + e.rpc)
	switch {
	case e.status != http.StatusOK:
		return s + fmt.Sprintf(" -> HTTP %d", e.status)
	case e.err != nil:
		return s + fmt.Sprintf(" -> error %d", e.err.Code)
	case e.state != "":
		return s + " -> " + string(e.state)
	}
	return s
}

// a2aText is the text of a message's text parts.
func a2aText(m *a2a.Message) string {
	var b strings.Builder
	if m != nil {
		for _, p := range m.Parts {
			if p.Text != nil {
				b.WriteString(*p.Text)
			}
		}
	}
	return b.String()
}

// a2aStep is one state of a scripted task, or an error in its place.
type a2aStep struct {
	state    a2a.TaskState
	say      string         // the agent's status message
	artifact string         // a text artifact the task has from this step on
	err      *jsonrpc.Error // the answer instead of the task
}

// a2aScript is an agent with one task, task-1, which moves one step
// along its script each time the client asks for it with GetTask and
// stays at the last step. SendMessage starts it; asked to wait (no
// returnImmediately) it answers at the first step that settles the
// task, as the spec requires; SendStreamingMessage streams every step
// up to that one.
type a2aScript struct {
	steps []a2aStep

	mu   sync.Mutex // guards next
	next int        // the step the next request gets; 0: not started
}

const (
	a2aScriptTask    = "task-1"
	a2aScriptContext = "context-1"
)

func (s *a2aScript) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The request's shape is checked by the real agent, in the stages
	// before the scripted ones; here only what the script needs is read.
	var req struct {
		ID     jsonrpc.ID `json:"id"`
		Method string     `json:"method"`
		Params struct {
			ID            string `json:"id"` // GetTask's
			Configuration struct {
				ReturnImmediately bool `json:"returnImmediately"`
			} `json:"configuration"`
		} `json:"params"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	params := req.Params
	s.mu.Lock()
	defer s.mu.Unlock()
	// refuse answers with a JSON-RPC error; its message goes on the
	// wire, to the client, so it stays English.
	refuse := func(code int64, format string, args ...any) {
		a2aWrite(w, jsonrpc.NewErrorResponse(req.ID, jsonrpc.Errorf(code, format, args...)))
	}
	switch {
	case (req.Method == "SendMessage" || req.Method == "SendStreamingMessage") && s.next > 0:
		refuse(a2a.CodeUnsupportedOperation, "unsupported operation: this agent takes one task at a time, and %s is not finished: follow it with GetTask", a2aScriptTask)
	case req.Method == "SendMessage" && params.Configuration.ReturnImmediately:
		s.answer(w, req.ID, 0, true)
		s.next = 1
	case req.Method == "SendMessage":
		s.next = s.settles()
		s.answer(w, req.ID, s.next, true)
		s.next++
	case req.Method == "SendStreamingMessage":
		s.stream(w, req.ID)
	case req.Method == "GetTask" && (s.next == 0 || params.ID != a2aScriptTask):
		refuse(a2a.CodeTaskNotFound, "task not found: there is no task %q", params.ID)
	case req.Method == "GetTask":
		s.next = min(s.next, len(s.steps)-1)
		s.answer(w, req.ID, s.next, false)
		s.next++
	default:
		refuse(jsonrpc.CodeMethodNotFound, "method not found: %q (this agent answers SendMessage, SendStreamingMessage and GetTask)", req.Method)
	}
}

// settles is the first step that ends the task, waits for the caller,
// or is an error.
func (s *a2aScript) settles() int {
	for i, st := range s.steps {
		if st.err != nil || st.state.Terminal() || st.state.Interrupted() {
			return i
		}
	}
	return len(s.steps) - 1
}

// task is task-1 at step i, with the artifacts of the steps so far.
func (s *a2aScript) task(i int) a2a.Task {
	st := s.steps[i]
	t := a2a.Task{ID: a2aScriptTask, ContextID: a2aScriptContext, Status: a2a.TaskStatus{State: st.state}}
	if st.say != "" {
		t.Status.Message = &a2a.Message{MessageID: fmt.Sprintf("status-%d", i+1), TaskID: a2aScriptTask,
			ContextID: a2aScriptContext, Role: a2a.RoleAgent, Parts: []a2a.Part{a2a.TextPart(st.say)}}
	}
	for j := 0; j <= i; j++ {
		if a := s.steps[j].artifact; a != "" {
			t.Artifacts = append(t.Artifacts, a2a.Artifact{ArtifactID: fmt.Sprintf("artifact-%d", j+1), Name: "result", Parts: []a2a.Part{a2a.TextPart(a)}})
		}
	}
	return t
}

// answer writes step i as one JSON response: SendMessage wraps the task
// ({"task": ...}), GetTask does not.
func (s *a2aScript) answer(w http.ResponseWriter, id jsonrpc.ID, i int, wrap bool) {
	if err := s.steps[i].err; err != nil {
		a2aWrite(w, jsonrpc.NewErrorResponse(id, err))
		return
	}
	t := s.task(i)
	var result any = t
	if wrap {
		result = a2a.SendMessageResponse{Task: &t}
	}
	resp, _ := jsonrpc.NewResponse(id, result)
	a2aWrite(w, resp)
}

// stream writes the steps up to the one that settles the task as SSE
// events: the task first, then its artifacts and status changes.
func (s *a2aScript) stream(w http.ResponseWriter, id jsonrpc.ID) {
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(resp *jsonrpc.Response) {
		b, _ := json.Marshal(resp)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	event := func(ev a2a.StreamResponse) {
		resp, _ := jsonrpc.NewResponse(id, ev)
		send(resp)
	}
	last := s.settles()
	s.next = last + 1
	for i := 0; i <= last; i++ {
		t := s.task(i)
		switch st := s.steps[i]; {
		case st.err != nil:
			send(jsonrpc.NewErrorResponse(id, st.err))
		case i == 0:
			event(a2a.StreamResponse{Task: &t})
		default:
			if st.artifact != "" {
				event(a2a.StreamResponse{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
					TaskID: t.ID, ContextID: t.ContextID, Artifact: t.Artifacts[len(t.Artifacts)-1], LastChunk: true}})
			}
			event(a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status}})
		}
	}
}

func a2aWrite(w http.ResponseWriter, resp *jsonrpc.Response) {
	b, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(b, '\n'))
}
