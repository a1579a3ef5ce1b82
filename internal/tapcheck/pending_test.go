package tapcheck

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/tap"
)

// exited is the exit event of a stdio server, at event seq.
func exited(seq int, status string, code int) tap.Event {
	return tap.Event{Seq: seq, Kind: tap.KindExit, Data: status, ExitCode: &code}
}

// numbered makes a recording of events, numbering them from 2 after the
// start event.
func numbered(events ...tap.Event) []tap.Event {
	out := []tap.Event{{Seq: 1, Kind: tap.KindStart, Format: tap.Format}}
	for i, e := range events {
		e.Seq = i + 2
		out = append(out, e)
	}
	return out
}

// The parts of an HTTP exchange n, for numbered.
func post(n int, header http.Header, body string) tap.Event {
	h := http.Header{"Content-Type": {"application/json"}}
	for k, v := range header {
		h[k] = v
	}
	return tap.Event{Kind: tap.KindHTTPRequest, Dir: tap.Out, Exchange: n, Method: "POST", Header: h, Data: body, Size: len(body)}
}

func get(n int, header http.Header) tap.Event {
	return tap.Event{Kind: tap.KindHTTPRequest, Dir: tap.Out, Exchange: n, Method: "GET", Header: header}
}

func head(n, status int, contentType string) tap.Event {
	return tap.Event{Kind: tap.KindHTTPResponse, Dir: tap.In, Exchange: n, Status: status, Header: http.Header{"Content-Type": {contentType}}}
}

func sse(n int, event string) tap.Event {
	return tap.Event{Kind: tap.KindSSEEvent, Dir: tap.In, Exchange: n, Data: event, Size: len(event)}
}

func end(n int, why string) tap.Event {
	return tap.Event{Kind: tap.KindHTTPEnd, Dir: tap.In, Exchange: n, Data: why}
}

// findings lists a report's findings as "code@event: detail".
func findings(r *Report) []string {
	var got []string
	for _, f := range r.Findings {
		got = append(got, fmt.Sprintf("%s@%d: %s", f.Code, f.Event, f.Detail))
	}
	return got
}

// matchPrefixes fails t unless got has as many lines as want, each
// starting with its want.
func matchPrefixes(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d:\n%s\nwant it to start with\n%s", i, got[i], want[i])
		}
	}
}

// TestUnanswered: a request still waiting when nothing can answer it is
// found, with how the server or its exchange ended; one answered,
// cancelled or refused is not.
func TestUnanswered(t *testing.T) {
	const (
		notified = `> {"jsonrpc":"2.0","method":"notifications/initialized"}`
		call     = `> {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wc"}}`
		answer   = `< {"jsonrpc":"2.0","id":3,"result":{"content":[]}}`
		cancel   = `> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"user"}}`
		roots    = `< {"jsonrpc":"2.0","id":0,"method":"roots/list"}`
		rootsOK  = `> {"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`
		listen   = `> {"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modern + `}}`
	)
	stdio := func(exit tap.Event, lines ...string) []tap.Event {
		events := stdioEvents(lines...)
		exit.Seq = len(events) + 1
		return append(events, exit)
	}
	killed := exited(0, "signal: killed", 137)
	clean := exited(0, "exit status 0", 0)

	session := http.Header{"Mcp-Session-Id": {"s1"}, "Mcp-Protocol-Version": {"2025-11-25"}}
	handshake := []tap.Event{post(1, nil, initialize[2:]), head(1, 200, "application/json"),
		{Kind: tap.KindHTTPBody, Dir: tap.In, Exchange: 1, Data: initialized[2:]}, end(1, "")}
	handshake[1].Header.Set("Mcp-Session-Id", "s1")
	inSession := func(events ...tap.Event) []tap.Event {
		return numbered(append(append([]tap.Event(nil), handshake...), events...)...)
	}
	progress := `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}`
	modernCall := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wc",` + modern + `}}`
	modernHeader := http.Header{"Mcp-Protocol-Version": {"2026-07-28"}}

	tests := []struct {
		name   string
		events []tap.Event
		want   []string // "code@event: detail prefix"
	}{
		// stdio: the server's exit ends every request of the pipe.
		{"a call the server was killed in", stdio(killed, initialize, initialized, notified, call),
			[]string{"unanswered@5: host request tools/call id 3: the server exited (event 6: signal: killed, exit code 137) without answering"}},
		{"a call the server exited in", stdio(clean, initialize, initialized, notified, call),
			[]string{"unanswered@5: host request tools/call id 3: the server exited (event 6: exit status 0) without answering"}},
		{"a clean session and exit", stdio(clean, initialize, initialized, notified, call, answer), nil},
		{"a call cancelled", stdio(killed, initialize, initialized, notified, call, cancel), nil},
		{"a call cancelled and answered all the same", stdio(clean, initialize, initialized, notified, call, cancel, answer), nil},
		{"a server's request the host did not answer", stdio(clean, initialize, initialized, notified, roots),
			[]string{"pending-at-end@5: server request roots/list id 0: the server exited (event 6: exit status 0) before the host answered"}},
		{"a server's request answered", stdio(clean, initialize, initialized, notified, roots, rootsOK), nil},
		{"a recording that stops", stdioEvents(initialize, initialized, notified, call),
			[]string{"pending-at-end@5: host request tools/call id 3: no answer by the end of the recording"}},
		{"a subscription is a stream, not a call", stdio(killed, listen), nil},

		// HTTP: by how the exchange that carried the request ended.
		{"a stream the upstream broke", inSession(post(2, session, call[2:]), head(2, 200, "text/event-stream"), sse(2, progress),
			end(2, "the body broke off: unexpected EOF")),
			[]string{"unanswered@6: host request tools/call id 3: exchange 2 broke off (event 9: the body broke off: unexpected EOF) without the answer"}},
		{"an upstream that did not answer", inSession(post(2, session, call[2:]),
			tap.Event{Kind: tap.KindNote, Dir: tap.In, Exchange: 2, Data: "wirelab tap: the upstream did not answer: refused"},
			tap.Event{Kind: tap.KindHTTPResponse, Dir: tap.In, Exchange: 2, Status: 502, Data: "wirelab tap: the upstream did not answer: refused"}),
			[]string{"relay-broken@7", "relay-broken@8", "unanswered@6: host request tools/call id 3: exchange 2 broke off (event 7: wirelab tap: the upstream did not answer"}},
		{"a request answered with 202 and no body", inSession(post(2, session, call[2:]), head(2, 202, ""), end(2, "")),
			[]string{"unanswered@6: host request tools/call id 3: exchange 2 ended (event 8) without the answer"}},
		{"a stream that ends without the answer", inSession(post(2, session, call[2:]), head(2, 200, "text/event-stream"), sse(2, progress), end(2, "")),
			[]string{"unanswered@6: host request tools/call id 3: exchange 2 ended (event 9) without the answer"}},
		{"a host that left, in a session", inSession(post(2, session, call[2:]), head(2, 200, "text/event-stream"), sse(2, progress),
			end(2, "the body broke off: closed before its end")),
			[]string{"pending-at-end@6: host request tools/call id 3: the host left exchange 2 (event 9: the body broke off: closed before its end)"}},
		{"a host that left before the answer's head", inSession(post(2, session, call[2:]),
			tap.Event{Kind: tap.KindNote, Dir: tap.Out, Exchange: 2, Data: "the host went away before the answer: context canceled"}),
			[]string{"relay-broken@7", "pending-at-end@6: host request tools/call id 3: the host left exchange 2 (event 7: the host went away"}},
		{"a 2026-07-28 host that closes its stream cancels", numbered(post(2, modernHeader, modernCall), head(2, 200, "text/event-stream"),
			end(2, "the body broke off: closed before its end")), nil},
		{"a 2026-07-28 stream the upstream broke", numbered(post(2, modernHeader, modernCall), head(2, 200, "text/event-stream"),
			end(2, "the body broke off: unexpected EOF")),
			[]string{"unanswered@2: host request tools/call id 3: exchange 2 broke off (event 4: the body broke off: unexpected EOF)"}},
		{"a stream closed to be resumed, and resumed", inSession(post(2, session, call[2:]), head(2, 200, "text/event-stream"),
			sse(2, "id: e1\ndata: "), end(2, ""),
			get(3, http.Header{"Mcp-Session-Id": {"s1"}, "Last-Event-Id": {"e1"}}), head(3, 200, "text/event-stream"), sse(3, "id: e2\ndata: "+answer[2:])), nil},
		{"a stream closed to be resumed, and never resumed", inSession(post(2, session, call[2:]), head(2, 200, "text/event-stream"),
			sse(2, "id: e1\ndata: "), end(2, "")),
			[]string{"pending-at-end@6: host request tools/call id 3: the server closed the stream of exchange 2 (event 9) before the answer"}},
		{"a request refused with an HTTP status", inSession(post(2, session, call[2:]), head(2, 401, "text/plain"), end(2, "")), nil},
		{"a request refused by the tap", inSession(post(2, session, call[2:]),
			tap.Event{Kind: tap.KindNote, Dir: tap.In, Exchange: 2, Refused: true, Data: "refused by the tap: Host"}),
			[]string{"tap-refused@7"}},
		{"a stream still open at the end", inSession(post(2, session, call[2:]), head(2, 200, "text/event-stream"), sse(2, progress)),
			[]string{"pending-at-end@6: host request tools/call id 3: exchange 2 is still open at the end of the recording"}},
		{"a server's request on a stream, answered in a POST", inSession(post(2, session, call[2:]), head(2, 200, "text/event-stream"),
			sse(2, "data: "+roots[2:]), post(3, session, rootsOK[2:]), head(3, 202, ""), end(3, ""), sse(2, "data: "+answer[2:]), end(2, "")), nil},
		{"a server's request on a stream, never answered", inSession(post(2, session, call[2:]), head(2, 200, "text/event-stream"),
			sse(2, "data: "+roots[2:])),
			[]string{"pending-at-end@6: host request tools/call id 3: exchange 2 is still open", "pending-at-end@8: server request roots/list id 0: no answer by the end of the recording"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			matchPrefixes(t, findings(Check(tt.events)), tt.want)
		})
	}
}

// TestVersions: an answer to initialize that names no revision with
// sessions is an error, amended when the host goes on in it; another
// revision than the one asked for, once the host goes on in it, a note.
// Lists of supported versions name revisions only.
func TestVersions(t *testing.T) {
	asking := func(v string) string {
		return `> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`
	}
	answering := func(v string) string {
		return `< {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"` + v + `","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`
	}
	const notified = `> {"jsonrpc":"2.0","method":"notifications/initialized"}`
	discover := `> {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modern + `}}`
	discovered := func(versions string) string {
		return `< {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","supportedVersions":` + versions + `,"capabilities":{}}}`
	}
	unsupported := func(versions string) string {
		return `< {"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":` + versions + `,"requested":"1900-01-01"}}}`
	}
	tests := []struct {
		name  string
		lines []string
		want  []string // "code@event: detail prefix"
	}{
		{"the revision asked for", []string{asking("2025-11-25"), answering("2025-11-25"), notified}, nil},
		{"a made-up version, and a host that goes on", []string{asking("2025-11-25"), answering("1999-01-01"), notified},
			[]string{`version-unknown@3: initialize answered with protocolVersion "1999-01-01", which is no MCP revision; the host went on in it (event 4) instead of disconnecting`}},
		{"a made-up version, and a host that disconnects", []string{asking("2025-11-25"), answering("1999-01-01")},
			[]string{`version-unknown@3: initialize answered with protocolVersion "1999-01-01", which is no MCP revision`}},
		{"an echo of what the host asked for", []string{asking("2099-01-01"), answering("2099-01-01"), notified},
			[]string{`version-unknown@3: initialize answered with protocolVersion "2099-01-01", which is no MCP revision (the host's own, echoed); the host went on`}},
		{"a revision without sessions", []string{asking("2025-11-25"), answering("2026-07-28")},
			[]string{`version-unknown@3: initialize answered with protocolVersion "2026-07-28", a revision that has no initialize`}},
		{"another revision, and a host that goes on", []string{asking("2025-11-25"), answering("2025-06-18"), notified},
			[]string{`version-changed@3: the host asked for 2025-11-25, the server answered 2025-06-18, and the host went on in it (event 4)`}},
		{"another revision, and a host that disconnects", []string{asking("2025-11-25"), answering("2025-06-18")}, nil},
		{"another revision, and a host that asks again", []string{asking("2025-11-25"), answering("2025-06-18"),
			`> {"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`,
			`< {"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`}, nil},
		{"a version the host made up, answered with a revision", []string{asking("2099-01-01"), answering("2025-11-25"), notified},
			[]string{`version-changed@3: the host asked for 2099-01-01, the server answered 2025-11-25`}},
		{"server/discover lists revisions", []string{discover, discovered(`["2026-07-28","2025-11-25"]`)}, nil},
		{"server/discover lists what is no revision", []string{discover, discovered(`["2026-07-28","1.0","latest"]`)},
			[]string{`version-unknown@3: server/discover lists in supportedVersions "1.0", "latest", which are no MCP revisions`}},
		{"an unsupported version refused with a list of revisions", []string{discover, unsupported(`["2026-07-28"]`)}, nil},
		{"an unsupported version refused with what is no revision", []string{discover, unsupported(`["2026-07-28","v2"]`)},
			[]string{`version-unknown@3: error -32022 lists in supported "v2", which is no MCP revision`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			matchPrefixes(t, findings(Check(stdioEvents(tt.lines...))), tt.want)
		})
	}
}
