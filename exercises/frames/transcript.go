package frames

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// A transcript is a flat list of events; the checks read it as the
// exchanges the learner made. Each exchange keeps seq, the index of the
// event that sent it, so that a check can ask "after that".

// line is one message sent to a stdio target, and the line that answered
// it.
type line struct {
	seq      int
	text     string // without the newline
	answered bool
	answer   string
}

// stdioLines pairs each line sent to target with its answer. A stdio
// server answers every non-blank line once, in order, so the nth answer
// belongs to the nth line; lines still waiting when the server exits
// (a restart) get none.
func stdioLines(events []Event, target string) []line {
	var lines []line
	var waiting []int // indexes into lines, oldest first
	for i, e := range events {
		if e.Op != "event" || e.Target != target {
			continue
		}
		switch {
		case e.Dir == "out" && e.Kind == "line":
			for _, l := range strings.Split(e.Text, "\n") {
				if strings.TrimSpace(l) == "" {
					continue // the server skips blank lines: they carry no request
				}
				waiting = append(waiting, len(lines))
				lines = append(lines, line{seq: i, text: strings.TrimSuffix(l, "\r")})
			}
		case e.Dir == "in" && e.Kind == "line":
			if len(waiting) == 0 {
				continue
			}
			l := &lines[waiting[0]]
			waiting = waiting[1:]
			l.answered, l.answer = true, strings.TrimSpace(e.Text)
		case e.Dir == "note" && e.Kind == "exit":
			waiting = nil
		}
	}
	return lines
}

// exchange is one HTTP request the playground sent for the learner, and
// its answer.
type exchange struct {
	seq     int
	id      int64
	target  string
	method  string // "" when the request could not be read
	path    string
	query   url.Values // the request target's query
	header  http.Header
	body    string
	status  int // 0 until the answer's head arrived
	rheader http.Header
	rbody   string
	refused string // the playground's refusal, if it gave one
}

// httpExchanges gathers the HTTP exchanges sent to target. Every event
// of an exchange carries the id of the frame, so they are grouped by it.
func httpExchanges(events []Event, target string) []exchange {
	var xs []exchange
	last := map[int64]int{} // frame id -> index into xs
	for i, e := range events {
		if e.Op == "error" {
			if j, ok := last[e.ID]; ok && e.ID != 0 && xs[j].refused == "" {
				xs[j].refused = e.Message
			}
			continue
		}
		if e.Op != "event" || e.Target != target {
			continue
		}
		switch {
		case e.Dir == "out" && e.Kind == "http-request":
			x := exchange{seq: i, id: e.ID, target: target, header: http.Header{}, rheader: http.Header{}}
			if req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(e.Text))); err == nil {
				body, _ := io.ReadAll(req.Body)
				x.method, x.path, x.query, x.header, x.body = req.Method, req.URL.Path, req.URL.Query(), req.Header, string(body)
			}
			last[e.ID] = len(xs)
			xs = append(xs, x)
		case e.Dir == "in" && e.Kind == "http-head":
			if j, ok := last[e.ID]; ok {
				xs[j].status, xs[j].rheader = readHead(e.Text)
			}
		case e.Dir == "in" && e.Kind == "http-body":
			if j, ok := last[e.ID]; ok {
				xs[j].rbody += e.Text
			}
		}
	}
	return xs
}

// readHead reads an http-head event: the status line, then the headers.
func readHead(text string) (int, http.Header) {
	h := http.Header{}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	status := 0
	if f := strings.Fields(lines[0]); len(f) >= 2 {
		status, _ = strconv.Atoi(f[1])
	}
	for _, l := range lines[1:] {
		if name, value, ok := strings.Cut(l, ":"); ok {
			h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
	}
	return status, h
}

// messages returns the JSON messages of an answer's body: the data of
// each Server-Sent Event for a stream, else the body itself.
func (x exchange) messages() []json.RawMessage {
	var out []json.RawMessage
	if strings.HasPrefix(x.rheader.Get("Content-Type"), "text/event-stream") {
		for _, l := range strings.Split(x.rbody, "\n") {
			if data, ok := strings.CutPrefix(strings.TrimSuffix(l, "\r"), "data:"); ok && json.Valid([]byte(strings.TrimSpace(data))) {
				out = append(out, json.RawMessage(strings.TrimSpace(data)))
			}
		}
		return out
	}
	if b := strings.TrimSpace(x.rbody); b != "" && json.Valid([]byte(b)) {
		out = append(out, json.RawMessage(b))
	}
	return out
}

// grpcCall is one call made on the grpc target, and how it ended.
type grpcCall struct {
	seq      int
	id       int64
	timeout  string // the frame's grpc-timeout, "" if it had none
	tool     string // the request's toolName
	answered bool
	status   string // "OK", "DEADLINE_EXCEEDED", ... as the playground shows it
	message  string // the status message
	trailers bool   // the server sent a grpc-status of its own
	refused  string // the playground's refusal, if it gave one
}

// callLine is the first line of a grpc event: the call and its status.
var callLine = regexp.MustCompile(`^call \S+ on stream \d+: ([A-Z_]+) \(\d+\)(?:: (.*))?`)

// grpcCalls gathers the calls made on the grpc target. A frame the
// playground refused before sending it (a grpc-timeout it cannot read)
// has no "out" event and is not a call: only its refusal shows.
func grpcCalls(events []Event) []grpcCall {
	var calls []grpcCall
	last := map[int64]int{}
	for i, e := range events {
		switch {
		case e.Op == "error" && e.ID != 0:
			j, ok := last[e.ID]
			if !ok {
				continue // a refusal of another target's frame, or of one that never went out
			}
			c := &calls[j]
			if !c.answered && c.refused == "" {
				c.refused = e.Message
				// The deadline may pass before the call leaves at all: then
				// the playground reports grpc-go's own error.
				if strings.Contains(e.Message, "DeadlineExceeded") {
					c.answered, c.status, c.message = true, "DEADLINE_EXCEEDED", e.Message
				}
			}
		case e.Op == "event" && e.Target == "grpc" && e.Dir == "out" && e.Kind == "grpc-call":
			c := grpcCall{seq: i, id: e.ID}
			c.timeout, c.tool = readGRPCFrame(e.Text)
			last[e.ID] = len(calls)
			calls = append(calls, c)
		case e.Op == "event" && e.Target == "grpc" && e.Dir == "in" && e.Kind == "grpc":
			j, ok := last[e.ID]
			if !ok {
				continue
			}
			first, _, _ := strings.Cut(e.Text, "\n")
			if m := callLine.FindStringSubmatch(first); m != nil {
				calls[j].answered, calls[j].status, calls[j].message = true, m[1], m[2]
			}
			calls[j].trailers = strings.Contains(e.Text, "\n    grpc-status: ")
		}
	}
	return calls
}

// readGRPCFrame reads a gRPC frame as the playground does (the method,
// header lines, then the JSON) and returns its grpc-timeout and the tool
// it calls.
func readGRPCFrame(frame string) (timeout, tool string) {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(frame, "\r\n", "\n")), "\n")
	rest := lines[1:]
	for len(rest) > 0 {
		name, value, ok := strings.Cut(rest[0], ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " {\"") {
			break
		}
		if strings.EqualFold(name, "grpc-timeout") {
			timeout = strings.TrimSpace(value)
		}
		rest = rest[1:]
	}
	var req struct {
		ToolName  string `json:"toolName"`
		ToolName2 string `json:"tool_name"` // ProtoJSON accepts the proto name too
	}
	json.Unmarshal([]byte(strings.Join(rest, "\n")), &req)
	if req.ToolName == "" {
		req.ToolName = req.ToolName2
	}
	return timeout, req.ToolName
}

// sentence is a message cut short and ended with a full stop, to go
// before another sentence.
func sentence(s string) string {
	s = short(s)
	if s != "" && !strings.ContainsAny(s[len(s)-1:], ".!?") && !strings.HasSuffix(s, "…") {
		s += "."
	}
	return s
}

// short cuts a message to a length that fits in a sentence.
func short(s string) string {
	const max = 160
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}
