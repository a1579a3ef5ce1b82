package tapcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// Requests left waiting. JSON-RPC 2.0, section 5: "When a rpc call is
// made, the Server MUST reply with a Response, except for in the case of
// Notifications"; MCP holds both sides to it. A request waits in its
// conversation until an answer with its id comes. What still waits is
// judged when nothing can answer it any more: on stdio when the server
// exits, over HTTP at the end of the recording (a 2025-11-25 session may
// answer on a resumed stream, in another exchange), by how the exchange
// that carried it ended.

// exchangeEnd is how an HTTP exchange ended, as far as the recording
// shows.
type exchangeEnd struct {
	event int    // the event that ended it; 0 while it is open
	why   string // the tap's words for a break; "" for a clean end
	// broke: the upstream broke off, or did not answer at all. hostLeft:
	// the host went away before the answer. refused: the tap, or the
	// server with an HTTP error status, refused the request; the status
	// is its answer.
	broke, hostLeft, refused bool
	// resumable: an event of its stream carried an id, so that in
	// 2025-11-25 the server may close the connection and the host resume
	// the stream with GET and Last-Event-ID, in another exchange.
	resumable bool
}

// endOf returns what is known of how exchange n ended.
func (c *checker) endOf(n int) *exchangeEnd {
	if c.ends == nil {
		c.ends = map[int]*exchangeEnd{}
	}
	x := c.ends[n]
	if x == nil {
		x = &exchangeEnd{}
		c.ends[n] = x
	}
	return x
}

// ended notes the event that ended an exchange, the first one only: a
// body cut off is followed by the end that says why.
func (x *exchangeEnd) ended(event int, why string) {
	if x.event == 0 {
		x.event = event
	}
	if x.why == "" {
		x.why = why
	}
}

// httpEnd takes the end of a response body. The tap words a break as
// "the body broke off: ..." (internal/tap/http.go); the break is the
// host's when the proxy closed the body because the host went away
// ("closed before its end") or its request was canceled.
func (c *checker) httpEnd(e tap.Event) {
	x := c.endOf(e.Exchange)
	x.ended(e.Seq, e.Data)
	switch {
	case e.Data == "":
	case strings.Contains(e.Data, "closed before its end") || strings.Contains(e.Data, "context canceled"):
		x.hostLeft, x.broke = true, false
	default:
		x.broke = true
	}
}

// isResumable reports whether an event of a stream sets an id: the
// SSE field "id:" on a line of its own.
func isResumable(event []byte) bool {
	for _, line := range bytes.Split(event, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("id:")); ok && len(bytes.TrimSpace(v)) > 0 {
			return true
		}
	}
	return false
}

// cancel takes notifications/cancelled: the request it names waits no
// more. Either side cancels its own requests; in 2026-07-28 the server
// also ends the host's subscriptions/listen with it. A late answer is
// still matched to the request, as the specification expects the race.
func (c *checker) cancel(e tap.Event, params json.RawMessage, cv *conversation) {
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID.IsZero() {
		return
	}
	id := p.RequestID.String()
	other := tap.In
	if e.Dir == tap.In {
		other = tap.Out
	}
	if req, ok := cv.pending[e.Dir][id]; ok {
		req.cancelled = true
	} else if req, ok := cv.pending[other][id]; ok && req.method == "subscriptions/listen" {
		req.cancelled = true
	}
}

// waiting returns the requests of cv still waiting for an answer, in the
// order they were sent. A cancelled request waits no more, and neither
// does subscriptions/listen: it is a stream, not a call, answered only
// when the server ends it gracefully, and the end of the transport ends
// it too.
func waiting(cv *conversation) []*request {
	var out []*request
	for _, dir := range []string{tap.Out, tap.In} {
		for _, req := range cv.pending[dir] {
			if !req.cancelled && req.method != "subscriptions/listen" {
				out = append(out, req)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].event < out[j].event })
	return out
}

// exit takes the stdio server's exit: no request of the pipe can be
// answered any more. The host's requests were left unanswered by the
// server; the server's own were cut short by its own end.
func (c *checker) exit(e tap.Event) {
	cv := c.convs["stdio"]
	if cv == nil {
		return
	}
	how := e.Data
	if e.ExitCode != nil && !strings.HasPrefix(how, "exit status") {
		how = strings.TrimPrefix(fmt.Sprintf("%s, exit code %d", how, *e.ExitCode), ", ")
	}
	for _, req := range waiting(cv) {
		if req.dir == tap.Out {
			c.find("unanswered", req.event, "%s: the server exited (event %d: %s) without answering", "%s: сервер завершился (событие %d: %s), не ответив",
				req.named(), e.Seq, phrase{how, strings.ReplaceAll(how, "exit code", "код выхода")})
		} else {
			c.find("pending-at-end", req.event, "%s: the server exited (event %d: %s) before the host answered", "%s: сервер завершился (событие %d: %s) раньше, чем хост ответил",
				req.named(), e.Seq, phrase{how, strings.ReplaceAll(how, "exit code", "код выхода")})
		}
		delete(cv.pending[req.dir], req.id)
	}
}

// unanswered judges, at the end of the recording, every request still
// waiting: a host request by how the HTTP exchange that carried it
// ended, anything else as a request the recording stops waiting for.
func (c *checker) unanswered() {
	var all []*request
	seen := map[*conversation]bool{}
	for _, cv := range c.convs {
		// A session is filed under its exchange and its id both.
		if !seen[cv] {
			seen[cv] = true
			all = append(all, waiting(cv)...)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].event < all[j].event })
	for _, req := range all {
		x := c.ends[req.exchange]
		switch {
		case req.dir == tap.In || req.exchange == 0:
			c.find("pending-at-end", req.event, "%s: no answer by the end of the recording", "%s: к концу записи ответа нет", req.named())
		case x == nil || x.event == 0:
			c.find("pending-at-end", req.event, "%s: exchange %d is still open at the end of the recording", "%s: обмен %d к концу записи ещё не закончен", req.named(), req.exchange)
		case x.refused:
			// Refused at the HTTP level: the status is the answer.
		case x.hostLeft && req.era == EraModern:
			// 2026-07-28: "Closing the SSE response stream is the
			// cancellation signal."
		case x.hostLeft:
			c.find("pending-at-end", req.event, "%s: the host left exchange %d (%s), and no answer came by the end of the recording",
				"%s: хост ушёл из обмена %d (%s), и к концу записи ответа нет", req.named(), req.exchange, x.at())
		case x.broke:
			c.find("unanswered", req.event, "%s: exchange %d broke off (%s) without the answer",
				"%s: обмен %d оборвался (%s) без ответа", req.named(), req.exchange, x.at())
		case x.resumable && req.era != EraModern:
			c.find("pending-at-end", req.event, "%s: the server closed the stream of exchange %d (event %d) before the answer, as it may when the stream can be resumed; no answer came by the end of the recording",
				"%s: сервер закрыл поток обмена %d (событие %d) до ответа, как можно, если поток возобновляем; к концу записи ответа нет", req.named(), req.exchange, x.event)
		default:
			c.find("unanswered", req.event, "%s: exchange %d ended (event %d) without the answer",
				"%s: обмен %d закончился (событие %d) без ответа", req.named(), req.exchange, x.event)
		}
	}
}

// at names the event that ended an exchange, and the tap's words for
// the break, if it had any.
func (x *exchangeEnd) at() phrase {
	p := phrase{fmt.Sprintf("event %d", x.event), fmt.Sprintf("событие %d", x.event)}
	if x.why != "" {
		p.en += ": " + x.why
		p.ru += ": " + x.why
	}
	return p
}

// named names a request in a finding: "host request tools/call id 3",
// "запрос хоста tools/call id 3".
func (r *request) named() phrase {
	side := sideOf(r.dir)
	return phrase{fmt.Sprintf("%s request %s id %s", side.en, r.method, r.id), fmt.Sprintf("запрос %s %s id %s", side.ru, r.method, r.id)}
}
