package tapcheck

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// A2A over its JSON-RPC binding: each request is a POST of its own; a
// streaming method answers with an event stream. The checker knows the
// two revisions in use (1.0, whose JSON is the ProtoJSON of a2a.proto,
// and 0.3), told apart by the A2A-Version header (absent means 0.3).

// a2aVersionHeader names the revision a request speaks.
const a2aVersionHeader = "A2A-Version"

// The revisions, as a message is tagged.
const (
	a2a10 = "A2A 1.0"
	a2a03 = "A2A 0.3"
)

// a2aMethods10 and a2aMethods03 are each revision's method names;
// the streaming ones answer with an event stream.
var (
	a2aMethods10 = map[string]bool{
		"SendMessage": false, "SendStreamingMessage": true, "GetTask": false, "ListTasks": false,
		"CancelTask": false, "SubscribeToTask": true, "GetExtendedAgentCard": false,
		"CreateTaskPushNotificationConfig": false, "GetTaskPushNotificationConfig": false,
		"ListTaskPushNotificationConfigs": false, "DeleteTaskPushNotificationConfig": false,
	}
	a2aMethods03 = map[string]bool{
		"message/send": false, "message/stream": true, "tasks/get": false, "tasks/cancel": false,
		"tasks/resubscribe": true, "agent/getAuthenticatedExtendedCard": false,
		"tasks/pushNotificationConfig/set": false, "tasks/pushNotificationConfig/get": false,
		"tasks/pushNotificationConfig/list": false, "tasks/pushNotificationConfig/delete": false,
	}
)

// a2aErrors are the error codes A2A defines beyond JSON-RPC's own, and
// the revisions that have each.
var a2aErrors = map[int64]string{
	-32001: "TaskNotFound", -32002: "TaskNotCancelable", -32003: "PushNotificationNotSupported",
	-32004: "UnsupportedOperation", -32005: "ContentTypeNotSupported", -32006: "InvalidAgentResponse",
	-32007: "ExtendedAgentCardNotConfigured", -32008: "ExtensionSupportRequired (1.0)", -32009: "VersionNotSupported (1.0)",
}

// a2aExchange is what the checker knows of one A2A HTTP exchange.
type a2aExchange struct {
	era       string // a2a10 or a2a03
	asked     string // the A2A-Version the request named, "" for none
	known     bool   // asked names a revision A2A has
	method    string
	refused   bool // the request was answered with an error
	stream    bool // the answer is an event stream
	final     int  // the event that ended the stream, 0 before it
	lastState string
}

// a2aExchangeOf decides whether an HTTP request is A2A: it names an
// A2A-Version, or calls an A2A method without the headers of MCP (whose
// 2025-11-25 tasks/get and tasks/cancel have the same names as 0.3's).
func (c *checker) a2aExchangeOf(e tap.Event, msg *jsonrpc.Request) *a2aExchange {
	asked := e.Header.Get(a2aVersionHeader)
	if asked == "" {
		if u, err := url.Parse(e.URL); err == nil {
			asked = u.Query().Get(a2aVersionHeader) // the spec allows either
		}
	}
	_, is10 := a2aMethods10[msg.Method]
	_, is03 := a2aMethods03[msg.Method]
	mcp := e.Header.Get("Mcp-Session-Id") != "" || e.Header.Get("Mcp-Protocol-Version") != ""
	if asked == "" && (mcp || !(is10 || is03)) {
		return nil
	}
	x := &a2aExchange{era: a2a03, asked: asked, method: msg.Method}
	v := strings.TrimSpace(asked)
	switch {
	case v == "":
		x.known = true // "absent means 0.3"
	case v == "1.0" || strings.HasPrefix(v, "1.0."):
		x.era, x.known = a2a10, true
	case v == "0.3" || strings.HasPrefix(v, "0.3."):
		x.known = true
	}
	switch {
	case !x.known:
	case x.era == a2a10 && is03 && !is10:
		c.find("a2a-method-version", e.Seq, "%s is a 0.3 method, sent with %s: %s", "%s — метод 0.3, а отправлен с %s: %s", msg.Method, a2aVersionHeader, asked)
	case x.era == a2a03 && is10 && !is03:
		c.find("a2a-method-version", e.Seq, "%s is a 1.0 method, sent without %s: 1.0 (which means 0.3)",
			"%s — метод 1.0, а отправлен без %s: 1.0 (значит, как 0.3)", msg.Method, a2aVersionHeader)
	}
	return x
}

// a2aResponse checks an answer in an A2A exchange: its error code, the
// states of the tasks it carries, and where a stream ends.
func (c *checker) a2aResponse(e tap.Event, x *a2aExchange, msg *jsonrpc.Response) {
	if x.stream && x.final != 0 {
		c.find("a2a-after-final", e.Seq, "%s sends more after event %d ended the stream", "%s присылает ещё, хотя событие %d уже закончило поток", x.method, x.final)
	}
	if msg.Error != nil {
		x.refused = true
		c.a2aError(e, x, msg.Error.Code)
		x.final = e.Seq // an error ends a stream too
		return
	}
	if !x.known {
		c.find("a2a-version", e.Seq, "%s: %q answered with a result, not VersionNotSupported (-32009)",
			"%s: %q, а в ответе результат, не VersionNotSupported (-32009)", a2aVersionHeader, x.asked)
	}
	for _, s := range a2aStates(msg.Result) {
		switch {
		case s.message:
			x.final = e.Seq // a message, not a task: the exchange is over
			continue
		case s.state == "":
			continue
		}
		state, ok := a2aState(s.state, x.era)
		if !ok {
			c.find("a2a-state", e.Seq, "task %s: state %q is not a state of %s", "задача %s: состояния %q нет в %s", s.task, s.state, x.era)
			continue
		}
		if s.task != "" {
			if last, seen := c.a2aTasks[s.task]; seen && a2aTerminal(last.state) && state != last.state {
				c.find("a2a-terminal-left", e.Seq, "task %s was %s in event %d, now %s", "задача %s была %s в событии %d, а теперь %s", s.task, last.state, last.event, state)
			}
			c.a2aTasks[s.task] = a2aSeen{state: state, event: e.Seq}
		}
		x.lastState = state
		if a2aTerminal(state) || a2aInterrupted(state) || s.final {
			x.final = e.Seq
		}
	}
}

// a2aError checks an error code against the revision.
func (c *checker) a2aError(e tap.Event, x *a2aExchange, code int64) {
	if !x.known {
		if code != -32009 {
			c.find("a2a-version", e.Seq, "%s: %q answered with error %d, not VersionNotSupported (-32009)",
				"%s: %q, а в ответе ошибка %d, не VersionNotSupported (-32009)", a2aVersionHeader, x.asked, code)
		}
		return
	}
	if code >= -32700 && code <= -32600 {
		return // JSON-RPC's own: parse error, invalid request, method not found, invalid params, internal error
	}
	name, ok := a2aErrors[code]
	switch {
	case !ok:
		c.find("a2a-error-code", e.Seq, "error %d is not a code %s defines", "ошибки с кодом %d в %s нет", code, x.era)
	case x.era == a2a03 && strings.HasSuffix(name, "(1.0)"):
		c.find("a2a-error-code", e.Seq, "error %d (%s) is not a 0.3 code", "ошибки %d (%s) в 0.3 нет", code, name)
	}
}

// a2aEnd checks, when a stream's body ends, that an event ended it.
func (c *checker) a2aEnd(e tap.Event, x *a2aExchange) {
	if !x.stream || x.final != 0 || e.Data != "" {
		return // not a stream, ended as it should, or broken off (noted elsewhere)
	}
	last := phrase{x.lastState, "на состоянии " + x.lastState}
	if x.lastState == "" {
		last = phrase{"no task state at all", "без единого состояния задачи"}
	}
	c.find("a2a-stream-unfinished", e.Seq, "%s's stream closed at %s", "поток %s закрылся %s", x.method, last)
}

// a2aSeen is the last state a task was seen in.
type a2aSeen struct {
	state string
	event int
}

// taskState is one task's state as a result or event carries it.
type taskState struct {
	task, state string
	final       bool // 0.3: a status-update with final: true
	message     bool // not a task but a message
}

// a2aStates finds the task states in a result: a 1.0 {"task": ...},
// {"statusUpdate": ...}, {"tasks": [...]} or a bare Task; a 0.3 Task or
// status-update event (with "kind"); a message of either.
func a2aStates(result json.RawMessage) []taskState {
	var r struct {
		Kind         string            `json:"kind"`
		ID           string            `json:"id"`
		TaskID       string            `json:"taskId"`
		Status       *a2aStatus        `json:"status"`
		Final        bool              `json:"final"`
		Task         json.RawMessage   `json:"task"`
		StatusUpdate json.RawMessage   `json:"statusUpdate"`
		Message      json.RawMessage   `json:"message"`
		Tasks        []json.RawMessage `json:"tasks"`
		MessageID    string            `json:"messageId"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	var out []taskState
	switch {
	case r.Task != nil:
		out = append(out, a2aStates(r.Task)...)
	case r.StatusUpdate != nil:
		out = append(out, a2aStates(r.StatusUpdate)...)
	case r.Message != nil, r.Kind == "message", r.MessageID != "" && r.Status == nil:
		out = append(out, taskState{message: true})
	case r.Tasks != nil:
		for _, t := range r.Tasks {
			for _, s := range a2aStates(t) {
				s.final = false // a listing ends no stream
				out = append(out, s)
			}
		}
	case r.Status != nil:
		task := r.ID
		if r.TaskID != "" {
			task = r.TaskID
		}
		out = append(out, taskState{task: task, state: r.Status.State, final: r.Final})
	}
	return out
}

type a2aStatus struct {
	State string `json:"state"`
}

// a2aStateNames are the task states, as 0.3 spells them; 1.0 spells
// them TASK_STATE_ and the name in capitals with underscores.
var a2aStateNames = []string{"submitted", "working", "input-required", "auth-required", "completed", "failed", "canceled", "rejected"}

// a2aState reads a state as the revision spells it, and returns its
// 0.3 name.
func a2aState(s, era string) (string, bool) {
	for _, name := range a2aStateNames {
		spelled := name
		if era == a2a10 {
			spelled = "TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		}
		if s == spelled {
			return name, true
		}
	}
	return "", false
}

// a2aTerminal: nothing more will happen to the task.
func a2aTerminal(state string) bool {
	switch state {
	case "completed", "failed", "canceled", "rejected":
		return true
	}
	return false
}

// a2aInterrupted: the task waits for the caller.
func a2aInterrupted(state string) bool {
	return state == "input-required" || state == "auth-required"
}
