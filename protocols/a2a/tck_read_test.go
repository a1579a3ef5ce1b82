package a2a_test

// Reading what the agent sends, for the tests in tck_*_test.go: tasks,
// messages and artifacts in both revisions' shapes, the events of an SSE
// stream, and the agent card.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/a2a"
)

// Tasks, messages and events as both revisions write them. The 0.3 kind
// fields are kept so that tests can check them; state and role are as
// sent (compare with c.state and c.role).

type tckTask struct {
	Kind      string          `json:"kind"`
	ID        string          `json:"id"`
	ContextID string          `json:"contextId"`
	Status    tckStatus       `json:"status"`
	Artifacts []tckArtifact   `json:"artifacts"`
	History   []tckMessage    `json:"history"`
	raw       json.RawMessage // as sent
}

type tckStatus struct {
	State     string      `json:"state"`
	Message   *tckMessage `json:"message"`
	Timestamp string      `json:"timestamp"`
}

type tckMessage struct {
	Kind      string    `json:"kind"`
	MessageID string    `json:"messageId"`
	ContextID string    `json:"contextId"`
	TaskID    string    `json:"taskId"`
	Role      string    `json:"role"`
	Parts     []tckPart `json:"parts"`
}

type tckPart struct {
	Kind      string          `json:"kind"`
	Text      *string         `json:"text"`
	Raw       *string         `json:"raw"`
	URL       *string         `json:"url"`
	Data      json.RawMessage `json:"data"`
	MediaType string          `json:"mediaType"`
	File      *struct {
		Bytes    string `json:"bytes"`
		URI      string `json:"uri"`
		MimeType string `json:"mimeType"`
	} `json:"file"`
}

type tckArtifact struct {
	ArtifactID string    `json:"artifactId"`
	Name       string    `json:"name"`
	Parts      []tckPart `json:"parts"`
}

// tckText joins the text parts of a message or artifact.
func tckText(parts []tckPart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Text != nil {
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}

// task reads a task as GetTask and CancelTask return it: 0.3 marks it
// "kind": "task", 1.0 has no kind.
func (c *tckClient) task(raw json.RawMessage) tckTask {
	c.t.Helper()
	var t tckTask
	if err := json.Unmarshal(raw, &t); err != nil {
		c.t.Fatalf("reading a task: %v: %s", err, raw)
	}
	t.raw = raw
	if want := map[bool]string{true: "", false: "task"}[c.v10()]; t.Kind != want {
		c.t.Errorf("task kind %q, want %q: %s", t.Kind, want, raw)
	}
	if t.ID == "" {
		c.t.Errorf("task without an id: %s", raw)
	}
	return t
}

// sendResult reads SendMessage's result: 1.0 wraps the task as
// {"task": {...}}, 0.3 sends the task itself.
func (c *tckClient) sendResult(raw json.RawMessage) tckTask {
	c.t.Helper()
	if c.v10() {
		var w map[string]json.RawMessage
		if err := json.Unmarshal(raw, &w); err != nil || len(w) != 1 || w["task"] == nil {
			c.t.Fatalf(`SendMessage result %s, want {"task": {...}}`, raw)
		}
		raw = w["task"]
	}
	return c.task(raw)
}

// send is SendMessage with these params.
func (c *tckClient) send(params map[string]any) tckTask {
	c.t.Helper()
	return c.sendResult(c.result("SendMessage", params))
}

// say sends one text message, with kv added to it, and returns the task.
func (c *tckClient) say(text string, kv ...string) tckTask {
	c.t.Helper()
	return c.send(map[string]any{"message": c.msg(text, kv...)})
}

// get is GetTask.
func (c *tckClient) get(id string) tckTask {
	c.t.Helper()
	return c.task(c.result("GetTask", map[string]any{"id": id}))
}

// completed is a task that completed: "count read the wire".
func (c *tckClient) completed() tckTask {
	c.t.Helper()
	return c.expect(c.say("count read the wire"), a2a.StateCompleted)
}

// waiting is a task that waits for the caller: "deploy api-gateway"
// asks which environment.
func (c *tckClient) waiting() tckTask {
	c.t.Helper()
	return c.expect(c.say("deploy api-gateway"), a2a.StateInputRequired)
}

// canceled is a task canceled while it waited.
func (c *tckClient) canceled() tckTask {
	c.t.Helper()
	return c.expect(c.task(c.result("CancelTask", map[string]any{"id": c.waiting().ID})), a2a.StateCanceled)
}

// answer answers a waiting task in the same task and context.
func (c *tckClient) answer(task tckTask, text string) tckTask {
	c.t.Helper()
	return c.say(text, "taskId", task.ID, "contextId", task.ContextID)
}

// expect fails the test unless the task is in state.
func (c *tckClient) expect(t tckTask, state a2a.TaskState) tckTask {
	c.t.Helper()
	if t.Status.State != c.state(state) {
		c.t.Fatalf("task %s is %q, want %q: %s", t.ID, t.Status.State, c.state(state), t.raw)
	}
	return t
}

// tckEvent is one event of a stream: a JSON-RPC response whose result
// is a task, a message, a status update or an artifact update. Kind names
// it the 0.3 way in both revisions.
type tckEvent struct {
	reply    tckReply
	Kind     string // "task", "message", "status-update", "artifact-update"
	Task     *tckTask
	Status   *tckStatusEvent
	Artifact *tckArtifactEvent
}

type tckStatusEvent struct {
	Kind      string    `json:"kind"`
	TaskID    string    `json:"taskId"`
	ContextID string    `json:"contextId"`
	Status    tckStatus `json:"status"`
	Final     *bool     `json:"final"` // 0.3 only
}

type tckArtifactEvent struct {
	Kind      string      `json:"kind"`
	TaskID    string      `json:"taskId"`
	ContextID string      `json:"contextId"`
	Artifact  tckArtifact `json:"artifact"`
	Append    bool        `json:"append"`
	LastChunk bool        `json:"lastChunk"`
}

// tckStream is an open SSE stream.
type tckStream struct {
	c      *tckClient
	id     string // the request's id, which every event carries
	resp   *http.Response
	lines  *bufio.Scanner
	cancel context.CancelFunc
}

// stream sends a streaming request and returns the open stream, after
// checking that it is one: 200, text/event-stream.
func (c *tckClient) stream(method string, params any) *tckStream {
	c.t.Helper()
	body := c.request(c.method(method), params)
	ctx, cancel := context.WithTimeout(c.t.Context(), tckPatience)
	resp, err := http.DefaultClient.Do(c.newRequest(ctx, body, nil))
	if err != nil {
		cancel()
		c.t.Fatalf("%s: %v", method, err)
	}
	s := &tckStream{c: c, id: fmt.Sprint(c.lastID), resp: resp, lines: bufio.NewScanner(resp.Body), cancel: cancel}
	s.lines.Buffer(nil, 1<<20)
	c.t.Cleanup(s.close)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("%s: HTTP %d, want 200: %s", method, resp.StatusCode, b)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("%s: Content-Type %q, want text/event-stream: %s", method, resp.Header.Get("Content-Type"), b)
	}
	return s
}

// close stops reading; the server sees the connection go.
func (s *tckStream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next reads the next event, or reports false at the end of the stream.
// Every event must be one "data:" line holding a JSON-RPC response to the
// stream's request.
func (s *tckStream) next() (tckEvent, bool) {
	t := s.c.t
	t.Helper()
	var data []string
	for s.lines.Scan() {
		line := s.lines.Text()
		if line == "" {
			if len(data) > 0 {
				break
			}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		if field != "data" {
			t.Errorf("unexpected SSE line %q", line)
			continue
		}
		data = append(data, strings.TrimPrefix(value, " "))
	}
	if err := s.lines.Err(); err != nil {
		t.Fatalf("reading the stream: %v", err)
	}
	if len(data) == 0 {
		return tckEvent{}, false
	}
	if len(data) != 1 {
		t.Errorf("an event of %d data lines; this server writes each message on one", len(data))
	}
	ev := tckEvent{reply: tckDecodeReply(t, []byte(strings.Join(data, "\n")))}
	if string(ev.reply.ID) != s.id {
		t.Errorf("event id %s, want the request's id %s", ev.reply.ID, s.id)
	}
	if ev.reply.Error == nil {
		s.c.readEvent(&ev)
	}
	return ev, true
}

// all reads the events up to the end of the stream.
func (s *tckStream) all() []tckEvent {
	s.c.t.Helper()
	var evs []tckEvent
	for {
		ev, ok := s.next()
		if !ok {
			return evs
		}
		evs = append(evs, ev)
	}
}

// results reads the rest of the stream and returns the result of each
// event, as sent, checking nothing; unlike next, it may be called off the
// test's goroutine.
func (s *tckStream) results() ([]string, error) {
	var out []string
	for s.lines.Scan() {
		data, ok := strings.CutPrefix(s.lines.Text(), "data: ")
		if !ok {
			continue
		}
		var r struct{ Result json.RawMessage }
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return out, fmt.Errorf("event %d: %w", len(out), err)
		}
		out = append(out, string(r.Result))
	}
	return out, s.lines.Err()
}

// readEvent fills in what an event's result holds: in 1.0 it is wrapped
// ({"statusUpdate": {...}}), in 0.3 it names its own kind.
func (c *tckClient) readEvent(ev *tckEvent) {
	c.t.Helper()
	raw := ev.reply.Result
	if c.v10() {
		var w map[string]json.RawMessage
		if err := json.Unmarshal(raw, &w); err != nil || len(w) != 1 {
			c.t.Fatalf("1.0 stream result %s, want an object with one member", raw)
		}
		names := map[string]string{"task": "task", "message": "message", "statusUpdate": "status-update", "artifactUpdate": "artifact-update"}
		for k, v := range w {
			if ev.Kind = names[k]; ev.Kind == "" {
				c.t.Fatalf("1.0 stream result member %q is not task, message, statusUpdate or artifactUpdate", k)
			}
			raw = v
		}
	} else {
		var head struct {
			Kind string `json:"kind"`
		}
		json.Unmarshal(raw, &head)
		ev.Kind = head.Kind
	}
	switch ev.Kind {
	case "task":
		t := c.task(raw)
		ev.Task = &t
	case "status-update":
		ev.Status = &tckStatusEvent{}
		json.Unmarshal(raw, ev.Status)
	case "artifact-update":
		ev.Artifact = &tckArtifactEvent{}
		json.Unmarshal(raw, ev.Artifact)
	case "message":
	default:
		c.t.Fatalf("0.3 stream result without a known kind: %s", raw)
	}
	if !c.v10() {
		return
	}
	// 1.0 removed "kind" and "final".
	var members map[string]json.RawMessage
	json.Unmarshal(raw, &members)
	for _, k := range []string{"kind", "final"} {
		if _, ok := members[k]; ok {
			c.t.Errorf("1.0 %s event has %q, which only 0.3 had: %s", ev.Kind, k, raw)
		}
	}
}

// state is the task state an event carries, or "" for an artifact update.
func (ev tckEvent) state() string {
	switch {
	case ev.Task != nil:
		return ev.Task.Status.State
	case ev.Status != nil:
		return ev.Status.Status.State
	}
	return ""
}

// streamError reads a stream that must hold just one event, an error with
// code, and returns it.
func (c *tckClient) streamError(method string, params any, code int64) tckError {
	c.t.Helper()
	evs := c.stream(method, params).all()
	if len(evs) != 1 || evs[0].reply.Error == nil {
		c.t.Fatalf("%s: %d events, want one error event %d", method, len(evs), code)
	}
	tckCheckError(c.t, c.version, *evs[0].reply.Error, code)
	return *evs[0].reply.Error
}

// card fetches the agent card at path; edit may change the request.
func (s *tckServer) card(t *testing.T, path string, edit func(*http.Request)) tckHTTP {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return tckHTTP{status: resp.StatusCode, header: resp.Header, body: b}
}

// cardJSON fetches the card and decodes it as a generic object.
func (s *tckServer) cardJSON(t *testing.T) map[string]any {
	t.Helper()
	h := s.card(t, a2a.CardPath, nil)
	if h.status != http.StatusOK {
		t.Fatalf("GET %s: HTTP %d: %s", a2a.CardPath, h.status, h.body)
	}
	var card map[string]any
	if err := json.Unmarshal(h.body, &card); err != nil {
		t.Fatalf("the card is not a JSON object: %v", err)
	}
	return card
}
