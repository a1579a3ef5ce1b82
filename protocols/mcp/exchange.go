package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// exchange is one client request being handled, and what the server may
// say to the client while it runs: notifications about it (progress, log
// messages) and requests of its own (elicitation, sampling). Over HTTP
// these travel on the request's own SSE stream, so they reach the client
// that is waiting for this answer.
type exchange struct {
	id   jsonrpc.ID // the request's
	ss   *session
	send func(any) error // writes one message that belongs to this request
	who  caller          // who sent the request (auth.go)

	progressToken json.RawMessage // from the request's _meta; nil: no progress wanted

	// modern is the request's own view of the client in the modern era,
	// read from its _meta; nil in a legacy session, where the session
	// holds that view since initialize.
	modern *modernCall
}

// progress sends notifications/progress if the client asked for it by
// sending a progress token. The token is the client's, echoed exactly: 1
// and "1" are different tokens.
func (x *exchange) progress(done, total float64, msg string) {
	if len(x.progressToken) > 0 {
		x.notify("notifications/progress", ProgressParams{ProgressToken: x.progressToken, Progress: done, Total: total, Message: msg})
	}
}

// notify sends a notification. A failure means the client is gone, which
// the transport will see; there is no one to tell.
func (x *exchange) notify(method string, params any) {
	b, err := json.Marshal(params)
	if err != nil {
		return
	}
	_ = x.send(&jsonrpc.Request{Method: method, Params: b})
}

// errInputEnded is the answer to a request the server sends after the
// client's input ended: none can come.
var errInputEnded = errors.New("the client's input has ended, so it cannot answer")

// request sends a request to the client and waits for its answer. A
// JSON-RPC error from the client comes back as a *jsonrpc.Error.
func (x *exchange) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	ss := x.ss
	select {
	case <-ss.inputDone:
		return nil, errInputEnded
	default:
	}
	ss.mu.Lock()
	ss.lastID++
	id := jsonrpc.IntID(ss.lastID)
	answer := make(chan *jsonrpc.Response, 1)
	ss.pending[id] = answer
	ss.mu.Unlock()
	defer func() {
		ss.mu.Lock()
		delete(ss.pending, id)
		ss.mu.Unlock()
	}()

	if err := x.send(&jsonrpc.Request{ID: id, Method: method, Params: b}); err != nil {
		return nil, fmt.Errorf("sending %s: %w", method, err)
	}
	select {
	case r := <-answer:
		if r.Error != nil {
			return nil, r.Error
		}
		return r.Result, nil
	case <-ss.inputDone:
		return nil, errInputEnded
	case <-ctx.Done():
		// The client cancelled the request this one serves, or left. Tell
		// it to stop asking the user.
		x.notify("notifications/cancelled", CancelledParams{RequestID: json.RawMessage(id.String()), Reason: "the request it was for ended"})
		return nil, ctx.Err()
	}
}

// question is one thing the server needs from the client while it handles
// a request: a key of the server's choosing, and the request a legacy
// server would send (elicitation/create, sampling/createMessage,
// roots/list).
type question struct {
	key    string
	method string
	params any
}

// ask gets the client's answers to one or more questions, in order.
//
// In a legacy session the server sends each as a request of its own and
// waits. In the modern era the server sends nothing: an answer either came
// with this request (params.inputResponses, or carried over in
// requestState from an earlier round) or it did not, and then ask returns
// an *inputRequired error, which handleModern turns into an
// InputRequiredResult that lists every missing question. The client
// answers and sends the request again, and the handler runs again from
// the top, this time finding its answers.
func (x *exchange) ask(ctx context.Context, qs ...question) ([]json.RawMessage, error) {
	answers := make([]json.RawMessage, len(qs))
	if x.modern == nil {
		for i, q := range qs {
			a, err := x.request(ctx, q.method, q.params)
			if err != nil {
				return nil, err
			}
			answers[i] = a
		}
		return answers, nil
	}
	missing := &inputRequired{requests: make(map[string]InputRequest)}
	for i, q := range qs {
		if a, ok := x.modern.answers[q.key]; ok {
			answers[i] = a
			continue
		}
		b, err := json.Marshal(q.params)
		if err != nil {
			return nil, err
		}
		missing.requests[q.key] = InputRequest{Method: q.method, Params: b}
	}
	if len(missing.requests) > 0 {
		return nil, missing
	}
	return answers, nil
}

// logLevels are the levels of notifications/message, from the syslog
// severities of RFC 5424, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// log sends a log message if the client asked for messages of this level:
// with logging/setLevel in a legacy session, or in the request's _meta in
// the modern era. Until it asks, this server sends none.
func (x *exchange) log(level, logger string, data any) {
	i := slices.Index(logLevels, level)
	if x.modern != nil {
		// The modern era has no logging/setLevel: a request that wants
		// log messages names the level in its own _meta.
		if x.modern.logLevel >= 0 && i >= x.modern.logLevel {
			x.notify("notifications/message", LogParams{Level: level, Logger: logger, Data: data})
		}
		return
	}
	x.ss.mu.Lock()
	wanted := x.ss.logLevel >= 0 && i >= x.ss.logLevel
	x.ss.mu.Unlock()
	if wanted {
		x.notify("notifications/message", LogParams{Level: level, Logger: logger, Data: data})
	}
}

// clientCan reports whether the client declared a capability, in
// initialize or, in the modern era, in this request's _meta: the server
// must not ask what the client did not offer to answer.
func (x *exchange) clientCan(capability func(ClientCapabilities) json.RawMessage) bool {
	if x.modern != nil {
		return capability(x.modern.client) != nil
	}
	x.ss.mu.Lock()
	defer x.ss.mu.Unlock()
	return capability(x.ss.client) != nil
}

func (ss *session) setLevel(raw json.RawMessage) (any, error) {
	var p SetLevelParams
	if err := decodeParams("logging/setLevel", raw, &p); err != nil {
		return nil, err
	}
	i := slices.Index(logLevels, p.Level)
	if i < 0 {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: level %q is not one of %v", p.Level, logLevels)
	}
	ss.mu.Lock()
	ss.logLevel = i
	ss.mu.Unlock()
	return struct{}{}, nil
}
