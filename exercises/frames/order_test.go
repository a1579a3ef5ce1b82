package frames

import (
	"fmt"
	"strings"
	"testing"
)

// Transcripts built by hand, for the orderings a recording would not
// show: steps done in the wrong order, a restart in the middle, answers
// matched to the wrong request.

func out(target string, id int64, text string) Event {
	return Event{Op: "event", ID: id, Target: target, Dir: "out", Kind: "line", Text: text + "\n"}
}

func in(target, text string) Event {
	return Event{Op: "event", Target: target, Dir: "in", Kind: "line", Text: text + "\n"}
}

func exited(target string) Event {
	return Event{Op: "event", Target: target, Dir: "note", Kind: "exit", Text: "the server's stdout closed: it exited"}
}

// exchangeEvents is one HTTP exchange as the hub reports it: the request,
// the head, the body, the end.
func exchangeEvents(target string, id int64, head, body, status string, respHeaders ...string) []Event {
	req := strings.ReplaceAll(head, "\n", "\r\n") + "\r\n\r\n" + body
	if body != "" {
		req = strings.ReplaceAll(head, "\n", "\r\n") + fmt.Sprintf("\r\nContent-Length: %d\r\n\r\n", len(body)) + body
	}
	resp := "HTTP/1.1 " + status + "\n"
	for _, h := range respHeaders {
		resp += h + "\r\n"
	}
	return []Event{
		{Op: "event", ID: id, Target: target, Dir: "out", Kind: "http-request", Text: req},
		{Op: "event", ID: id, Target: target, Dir: "in", Kind: "http-head", Text: resp},
		{Op: "event", ID: id, Target: target, Dir: "in", Kind: "http-body", Text: `{}`},
		{Op: "event", ID: id, Target: target, Dir: "note", Kind: "end"},
	}
}

func deployCall(id int64, auth, status string) []Event {
	head := "POST /execute HTTP/1.1\nHost: 127.0.0.1:1\nContent-Type: application/json"
	if auth != "" {
		head += "\nAuthorization: Bearer " + auth
	}
	return exchangeEvents("http-auth", id, head, `{"name":"deploy_service","args":{"service":"api","env":"production"}}`, status)
}

func grpcCallEvents(id int64, timeout, status string) []Event {
	frame := "tools.v1.ToolServer/ExecuteTool\ngrpc-timeout: " + timeout + "\n{\"toolName\":\"deploy_service\",\"arguments\":\"e30=\"}"
	return []Event{
		{Op: "event", ID: id, Target: "grpc", Dir: "out", Kind: "grpc-call", Text: frame},
		{Op: "event", ID: id, Target: "grpc", Dir: "in", Kind: "grpc", Text: "call /tools.v1.ToolServer/ExecuteTool on stream 1: " + status + "\n\n-> HEADERS stream=1\n"},
	}
}

func join(parts ...any) []Event {
	var evs []Event
	for _, p := range parts {
		switch p := p.(type) {
		case Event:
			evs = append(evs, p)
		case []Event:
			evs = append(evs, p...)
		}
	}
	return evs
}

const (
	initReq     = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initFuture  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initResult  = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"wirelab","version":"test"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listReq     = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	listResult  = `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"word_count"}]}}`
	callReq     = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"a b"}}}`
	callResult  = `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"words\":2}"}]}}`
	weatherReq  = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"weather","arguments":{"city":"Oslo"}}}`
	weatherRes  = `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"weather failed"}],"isError":true}}`
	nopeReq     = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}`
	nopeRes     = `{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid params: unknown tool \"nope\""}}`
)

func TestOrderings(t *testing.T) {
	const (
		parseError = `{"error":{"code":"parse_error","message":"request is not valid JSON"}}`
		nameKey    = `{"id":1,"Name":"word_count","Args":{"text":"a"}}`
		nameError  = `{"id":1,"error":{"code":"invalid_request","message":"unknown keys"}}`
		goodCall   = `{"id":2,"name":"word_count","args":{"text":"a b"}}`
		goodResult = `{"id":2,"result":{"words":2,"chars":3}}`
		mcp        = "mcp-stdio"
	)
	msgSend := func(id int64, body string) []Event {
		return exchangeEvents("a2a", id, "POST / HTTP/1.1\nHost: 127.0.0.1:1\nContent-Type: application/json\nA2A-Version: 1.0", body, "200 OK", "Content-Type: application/json")
	}
	a2aEvents := func(id int64, body, answer string) []Event {
		evs := msgSend(id, body)
		evs[2].Text = answer
		return evs
	}
	card := exchangeEvents("a2a", 1, "GET /.well-known/agent-card.json HTTP/1.1\nHost: 127.0.0.1:1", "", "200 OK", "Content-Type: application/json")
	ask := a2aEvents(2, `{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"deploy api"}]}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"task":{"id":"T1","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"parts":[{"text":"Where?"}]}}}}}`)
	answerWorking := a2aEvents(3, `{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"staging"}],"taskId":"T1"}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"task":{"id":"T1","status":{"state":"TASK_STATE_WORKING"}}}}`)
	getCompleted := a2aEvents(4, `{"jsonrpc":"2.0","id":4,"method":"GetTask","params":{"id":"T1"}}`,
		`{"jsonrpc":"2.0","id":4,"result":{"id":"T1","status":{"state":"TASK_STATE_COMPLETED"}}}`)
	otherCompleted := a2aEvents(3, `{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"count a b"}]}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"task":{"id":"T2","status":{"state":"TASK_STATE_COMPLETED"}}}}`)

	tests := []struct {
		name   string
		id     string
		events []Event
		failAt int    // the first step not done, -1 for none
		detail string // a piece of that step's English detail
	}{
		{"stdio: bad lines in either order", "frames-stdio-errors", join(
			out("stdio", 1, nameKey), in("stdio", nameError), out("stdio", 2, "hello"), in("stdio", parseError),
			out("stdio", 3, goodCall), in("stdio", goodResult)), -1, ""},
		{"stdio: a good call before the bad lines does not count", "frames-stdio-errors", join(
			out("stdio", 1, goodCall), in("stdio", goodResult), out("stdio", 2, "hello"), in("stdio", parseError),
			out("stdio", 3, nameKey), in("stdio", nameError)), 2, "No word_count call since the bad lines"},
		{"stdio: two lines in one frame, two answers", "frames-stdio-errors", join(
			out("stdio", 1, "hello\n"+nameKey), in("stdio", parseError), in("stdio", nameError),
			out("stdio", 2, goodCall), in("stdio", goodResult)), -1, ""},
		{"stdio: after a restart, the new server's answer is not the old line's", "frames-stdio-errors", join(
			out("stdio", 1, "hello"), exited("stdio"), out("stdio", 2, goodCall), in("stdio", goodResult)), 0, "no answer yet"},

		{"http-auth: 403 before the 401 does not count", "frames-http-auth", join(
			deployCall(1, "reader", "403 Forbidden"), deployCall(2, "", "401 Unauthorized"), deployCall(3, "ops", "200 OK")), 1, `The token "ops" carries deploy:production`},
		{"http-auth: a 401 for a bad token is not the first step", "frames-http-auth", join(
			deployCall(1, "guessed", "401 Unauthorized")), 0, "did send Authorization"},

		{"grpc: success first, then the deadline: no second success", "frames-grpc-deadline", join(
			grpcCallEvents(1, "10S", "OK (0)"), grpcCallEvents(2, "1m", "DEADLINE_EXCEEDED (4): context deadline exceeded")), 1, "No deploy_service call since"},
		{"grpc: a deadline that passed before the call left counts", "frames-grpc-deadline", join(
			grpcCallEvents(1, "1n", "")[0], Event{Op: "error", ID: 1, Message: "gRPC call: rpc error: code = DeadlineExceeded desc = context deadline exceeded"},
			grpcCallEvents(2, "10S", "OK (0)")), -1, ""},

		{"mcp: notifications/initialized before initialize does not count", "frames-mcp-handshake", join(
			out(mcp, 1, initialized), out(mcp, 2, initReq), in(mcp, initResult), out(mcp, 3, listReq), in(mcp, listResult)), 1, "no notifications/initialized"},
		{"mcp: a restart between initialize and initialized splits the session", "frames-mcp-handshake", join(
			out(mcp, 1, initReq), in(mcp, initResult), exited(mcp), out(mcp, 2, initialized), out(mcp, 3, listReq)), 1, "another session"},
		{"mcp: a notification with an id is a request", "frames-mcp-handshake", join(
			out(mcp, 1, initReq), in(mcp, initResult), out(mcp, 2, `{"jsonrpc":"2.0","id":9,"method":"notifications/initialized"}`)), 1, "carries an id"},
		{"mcp: answers matched by id, not by order", "frames-mcp-handshake", join(
			out(mcp, 1, initReq), in(mcp, initResult), out(mcp, 2, initialized), out(mcp, 3, listReq), out(mcp, 4, callReq),
			in(mcp, callResult), in(mcp, listResult)), -1, ""},

		{"mcp errors: the protocol error first is fine", "frames-mcp-errors", join(
			out(mcp, 1, initReq), in(mcp, initResult), out(mcp, 2, initialized), out(mcp, 3, nopeReq), in(mcp, nopeRes),
			out(mcp, 4, weatherReq), in(mcp, weatherRes)), -1, ""},
		{"mcp errors: errors before the handshake do not count", "frames-mcp-errors", join(
			out(mcp, 1, nopeReq), in(mcp, nopeRes), out(mcp, 2, initReq), in(mcp, initResult), out(mcp, 3, initialized),
			out(mcp, 4, weatherReq), in(mcp, weatherRes)), 2, "A protocol error means the request itself is wrong"},

		{"mcp version: a later session that negotiates counts", "frames-mcp-version", join(
			out(mcp, 1, initReq), in(mcp, initResult), exited(mcp), out(mcp, 2, initFuture), in(mcp, initResult), out(mcp, 3, initialized)), -1, ""},
		{"mcp version: initialized must follow the negotiation", "frames-mcp-version", join(
			out(mcp, 1, initFuture), in(mcp, initResult)), 1, "no notifications/initialized"},

		{"a2a: completed seen later with GetTask counts", "frames-a2a-task", join(card, ask, answerWorking, getCompleted), -1, ""},
		{"a2a: a message before the card does not count", "frames-a2a-task", join(ask, card, answerWorking, getCompleted), 1, "No message sent since the card"},
		{"a2a: another task completing is not the asked one", "frames-a2a-task", join(card, ask, otherCompleted), 2, "without a taskId"},
		{"a2a: the answer in the task, but not completed yet", "frames-a2a-task", join(card, ask, answerWorking), 2, "is working now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Check(tt.id, tt.events)
			if err != nil {
				t.Fatal(err)
			}
			got := firstNotDone(r)
			if got != tt.failAt {
				t.Fatalf("first step not done: %d, want %d\n%s", got, tt.failAt, describe(r))
			}
			if got >= 0 && !strings.Contains(r.Steps[got].Detail.EN, tt.detail) {
				t.Errorf("step %d detail %q lacks %q", got, r.Steps[got].Detail.EN, tt.detail)
			}
			checkText(t, r)
		})
	}
}
