package frames

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// message is one JSON-RPC request or notification the learner sent, and
// what answered it.
type message struct {
	seq     int
	target  string
	session string // the MCP session it belongs to (see mcpMessages)
	method  string
	id      string // the id as raw JSON; "" for a notification
	params  json.RawMessage

	answered bool
	result   json.RawMessage // set for a result
	err      *rpcError       // set for a JSON-RPC error
	status   int             // the HTTP status over HTTP; 0 over stdio
	replies  []json.RawMessage
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// envelope is any JSON-RPC message, read loosely.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// readEnvelopes reads one JSON-RPC message, or a batch of them.
func readEnvelopes(b []byte) []envelope {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var batch []envelope
		if json.Unmarshal(b, &batch) != nil {
			return nil
		}
		return batch
	}
	var e envelope
	if json.Unmarshal(b, &e) != nil {
		return nil
	}
	return []envelope{e}
}

// idKey is an id as raw JSON, without spaces; "" for none or null.
func idKey(id json.RawMessage) string {
	var v any
	if len(id) == 0 || json.Unmarshal(id, &v) != nil || v == nil {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return ""
	}
	return b.String()
}

// answer gives m the reply that carries its id.
func (m *message) answer(e envelope) {
	m.answered, m.result, m.err = true, e.Result, e.Error
}

// mcpMessages reads the JSON-RPC messages the learner sent to the MCP
// targets, with their answers, in the order they were sent. A session
// over stdio is one run of the child (a restart starts another); over
// HTTP it is the Mcp-Session-Id the answer to initialize gave.
func mcpMessages(events []Event) []message {
	var msgs []message
	run := 0
	for i, e := range events {
		if e.Op != "event" || e.Target != "mcp-stdio" {
			continue
		}
		session := fmt.Sprintf("stdio-%d", run)
		switch {
		case e.Dir == "out" && e.Kind == "line":
			for _, l := range strings.Split(e.Text, "\n") {
				for _, env := range readEnvelopes([]byte(l)) {
					if env.Method != "" {
						msgs = append(msgs, message{seq: i, target: e.Target, session: session, method: env.Method, id: idKey(env.ID), params: env.Params})
					}
				}
			}
		case e.Dir == "in" && e.Kind == "line":
			for _, env := range readEnvelopes([]byte(e.Text)) {
				if env.Method != "" || idKey(env.ID) == "" {
					continue // the server's own request or notification, or an answer to no id
				}
				if m := pending(msgs, session, idKey(env.ID)); m != nil {
					m.answer(env)
				}
			}
		case e.Dir == "note" && e.Kind == "exit":
			run++
		}
	}
	for _, x := range httpExchanges(events, "mcp-http") {
		msgs = append(msgs, rpcOverHTTP(x, x.header.Get("Mcp-Session-Id"))...)
	}
	sortBySeq(msgs)
	return msgs
}

// rpcOverHTTP reads the JSON-RPC messages of one HTTP exchange. session
// is the exchange's MCP session; initialize gets the one its answer
// opens.
func rpcOverHTTP(x exchange, session string) []message {
	var msgs []message
	for _, env := range readEnvelopes([]byte(x.body)) {
		if env.Method == "" {
			continue // the learner answering a request of the server's
		}
		m := message{seq: x.seq, target: x.target, session: session, method: env.Method, id: idKey(env.ID), params: env.Params, status: x.status}
		if m.method == "initialize" && x.rheader.Get("Mcp-Session-Id") != "" {
			m.session = x.rheader.Get("Mcp-Session-Id")
		}
		m.replies = x.messages()
		switch {
		case m.id == "":
			// A notification has no reply; 202 Accepted is its answer.
			m.answered = x.status == 202
		default:
			for _, r := range readAll(m.replies) {
				if r.Method == "" && idKey(r.ID) == m.id {
					m.answer(r)
				}
			}
		}
		if !m.answered && x.status >= 400 {
			// Refused before JSON-RPC: the HTTP error carries the reason.
			for _, r := range readAll(m.replies) {
				if r.Error != nil {
					m.answer(r)
				}
			}
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func readAll(raw []json.RawMessage) []envelope {
	var out []envelope
	for _, r := range raw {
		out = append(out, readEnvelopes(r)...)
	}
	return out
}

// pending is the latest unanswered request with this id in the session.
func pending(msgs []message, session, id string) *message {
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := &msgs[i]; m.session == session && m.id == id && !m.answered {
			return m
		}
	}
	return nil
}

// sortBySeq orders messages by when they were sent; messages of one
// event keep their order.
func sortBySeq(msgs []message) {
	for i := 1; i < len(msgs); i++ {
		for j := i; j > 0 && msgs[j].seq < msgs[j-1].seq; j-- {
			msgs[j], msgs[j-1] = msgs[j-1], msgs[j]
		}
	}
}

// isError reports whether a tools/call result says the tool failed.
func (m message) isError() bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(m.result, &r) == nil && r.IsError
}

// param reads one string parameter of the request.
func (m message) param(name string) string {
	var p map[string]json.RawMessage
	var s string
	if json.Unmarshal(m.params, &p) == nil {
		json.Unmarshal(p[name], &s)
	}
	return s
}

// resultString reads one string member of the result.
func (m message) resultString(name string) string {
	var r map[string]json.RawMessage
	var s string
	if json.Unmarshal(m.result, &r) == nil {
		json.Unmarshal(r[name], &s)
	}
	return s
}

// describe names, in a few words, the answer the message got: "initialize
// got %s", "Ответ на initialize: %s".
func (m message) describe() exercises.Text {
	switch {
	case m.err != nil:
		return text("a JSON-RPC error %d (%s)", "ошибка JSON-RPC %d (%s)", m.err.Code, short(m.err.Message))
	case m.result != nil && m.isError():
		return text("a result with isError: true", "result с isError: true")
	case m.result != nil:
		return text("a result", "result")
	case m.id == "" && m.status == 202:
		return text("202 Accepted", "202 Accepted")
	case m.status != 0:
		return text("HTTP %d", "HTTP %d", m.status)
	}
	return text("no answer yet", "пока нет")
}
