package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/tap"
)

// A console's session can be taken away as a recording, the file
// `wirelab tap --record` writes (package tap): it opens again in the
// playground (OpenRecording, /taps), `wirelab tap check` checks it, and
// `wirelab replay FILE --against COMMAND|URL` sends the learner's side of
// it to a fresh server and compares the answers.
//
// Export translates the events the session keeps for its followers, the
// inverse of the translator in tap.go. A recording is of one server, so
// one target is exported: the one the caller names, or the first the
// session sent to. From the host's side, as the tap sees it:
//
//   - a stdio target's frames are "out" lines (one per line of a
//     frame), its stdout "in" lines, its stderr "err" lines, and its
//     exit the exit event. A recording is of one process: when the
//     learner restarted the server, only its latest run that was sent
//     something is exported, and a note says how many runs were left
//     out.
//   - an HTTP target's exchanges are renumbered from 1 in the order
//     their requests went: the request's method, URL, headers and body,
//     the response's status and headers, its body whole or each SSE
//     event as it passed, and the end (or where it broke off).
//   - a gRPC target's calls are the HTTP/2 frames that crossed, both
//     ways, in order, as `wirelab tap --grpc` records them: h2-frame
//     events numbered by connection, the metadata's secrets masked in
//     their HPACK header blocks (tap.HeaderMasker; see export_grpc.go),
//     a reconnect and a call that could not be made as notes.
//
// Secrets in HTTP headers (Authorization, Cookie, ...) are masked as the
// tap masks them by default (tap.Recorder). Events older than the
// session's replay (replayEvents) are gone, and so are not in the file.

// ErrNothingToExport is wrapped by Export's error for a session that has
// not sent the target a frame.
var ErrNothingToExport = errors.New("nothing to export")

// Export returns the recording of what the session id exchanged with
// target (its "to" for a custom target); target "" means the first
// target the session sent to. The events are numbered and masked as a
// tap's recorder numbers and masks them.
func (h *Hub) Export(id, target, to string) ([]tap.Event, error) {
	kept, ok := h.Transcript(id)
	if !ok {
		return nil, noSession{say(noteNoSessionExport, id)}
	}
	evs := make([]Event, 0, len(kept))
	for _, b := range kept {
		var ev Event
		if json.Unmarshal(b, &ev) == nil {
			evs = append(evs, ev)
		}
	}
	// The target the caller names, or the first sent to; a custom
	// target's "to" as named, or else the first it was sent to (the A2A
	// console sends to the endpoint an agent's card names, not to the
	// card's URL the page shows).
	found := false
	for _, ev := range evs {
		if ev.Op == "event" && ev.Dir == "out" && ev.Target != "" && (target == "" || target == ev.Target && to == ev.To) {
			target, to, found = ev.Target, ev.To, true
			break
		}
	}
	for _, ev := range evs {
		if !found && ev.Op == "event" && ev.Dir == "out" && ev.Target == target {
			to, found = ev.To, true
		}
	}
	if target == "" {
		return nil, fmt.Errorf("%w: the session has sent no frame yet", ErrNothingToExport)
	}
	x := exporter{rec: tap.NewRecorder(nil)}
	switch {
	case isStdioTarget(target):
		argv, err := (&session{hub: h}).argv(childKey{target: target, to: to})
		if err != nil {
			return nil, err
		}
		err = x.stdio(evs, target, to, argv)
		return x.rec.Events(), err
	case strings.Contains(target, "grpc"):
		upstream := "grpc://" + h.targets.GRPCAddr
		if g, err := parseGRPCTo(to); err == nil && target == "custom-grpc" {
			upstream = "grpc://" + g.addr
			if g.tls {
				upstream = "grpcs://" + g.addr
			}
		}
		err := x.grpc(evs, target, to, upstream)
		return x.rec.Events(), err
	default:
		base := httpBase(h.targets, target, to)
		if base == "" {
			return nil, fmt.Errorf("%w: no server is known for target %q", ErrNothingToExport, target)
		}
		err := x.http(evs, target, to, base)
		return x.rec.Events(), err
	}
}

// isStdioTarget tells the targets whose server is a child of the tab.
func isStdioTarget(target string) bool {
	switch target {
	case "stdio", "mcp-stdio", "mcp-hostile", "custom-stdio":
		return true
	}
	return false
}

// httpBase is the URL of an HTTP target's server, as session.handle
// sends to it; for a custom-http target, the URL its "to" begins with.
func httpBase(t Targets, target, to string) string {
	switch target {
	case "http":
		return t.HTTPURL
	case "http-auth":
		return t.HTTPAuthURL
	case "mcp-http":
		return t.MCPURL
	case "a2a":
		return t.A2AURL
	case "oauth":
		return t.OAuthURL
	case "mcp-auth":
		return t.MCPAuthURL
	case "custom-http":
		if ht, err := parseHTTPTo(to); err == nil {
			return ht.url.String()
		}
	}
	return ""
}

// exporter writes one recording. The recorder numbers the events and
// masks their headers.
type exporter struct {
	rec *tap.Recorder
}

// add records e, stamped with its own time.
func (x *exporter) add(e tap.Event) { x.rec.Add(e) }

// start records the start event, at the time of the session's first
// event.
func (x *exporter) start(evs []Event, e tap.Event) {
	e.Kind, e.Format = tap.KindStart, tap.Format
	if len(evs) > 0 {
		e.T = at(evs[0])
	}
	x.add(e)
}

// at is when an event's bytes crossed; the zero time becomes now in the
// recorder.
func at(ev Event) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, ev.At)
	return t
}

// stdio exports the latest run of a stdio target's server that was sent
// something.
func (x *exporter) stdio(evs []Event, target, to string, argv []string) error {
	// Runs end at the server's exit note; the run that counts is the
	// last with an "out" line.
	var runs [][]Event
	var run []Event
	for _, ev := range evs {
		if ev.Op != "event" || ev.Target != target || ev.To != to {
			continue
		}
		run = append(run, ev)
		if ev.Dir == "note" && ev.Kind == "exit" {
			runs, run = append(runs, run), nil
		}
	}
	if len(run) > 0 {
		runs = append(runs, run)
	}
	chosen, left := -1, 0
	for i := len(runs) - 1; i >= 0; i-- {
		if sentSomething(runs[i]) {
			chosen = i
			break
		}
	}
	if chosen < 0 {
		return fmt.Errorf("%w: the session has sent %s no frame", ErrNothingToExport, target)
	}
	for i, r := range runs {
		if i != chosen && sentSomething(r) {
			left++
		}
	}
	x.start(runs[chosen], tap.Event{Command: argv})
	if left > 0 {
		x.add(tap.Event{T: at(runs[chosen][0]), Kind: tap.KindNote,
			Data: fmt.Sprintf("the server was restarted in this session: %d earlier %s left out, as a recording holds one server process", left, plural(left, "run is", "runs are"))})
	}
	for _, ev := range runs[chosen] {
		t := at(ev)
		switch {
		case ev.Kind == "line" && ev.Dir == "out":
			// A frame may hold several lines, each one message.
			for line := range strings.Lines(ev.Text) {
				x.add(lineEvent(t, tap.Out, line))
			}
		case ev.Kind == "line" && ev.Dir == "in":
			x.add(lineEvent(t, tap.In, ev.Text))
		case ev.Kind == "stderr":
			x.add(lineEvent(t, tap.Err, ev.Text))
		case ev.Kind == "exit":
			e := tap.Event{T: t, Kind: tap.KindExit, Data: ev.Text}
			if m := exitStatus.FindStringSubmatch(ev.Text); m != nil {
				code, _ := strconv.Atoi(m[1])
				e.ExitCode = &code
			}
			x.add(e)
		}
	}
	return nil
}

// exitStatus finds the status in an exit note ("... (exit status 2)").
var exitStatus = regexp.MustCompile(`exit status (\d+)`)

func sentSomething(run []Event) bool {
	for _, ev := range run {
		if ev.Dir == "out" && ev.Kind == "line" {
			return true
		}
	}
	return false
}

// lineEvent is one line as the tap records it: without its newline,
// noEOL when it had none.
func lineEvent(t time.Time, dir, text string) tap.Event {
	data, eol := strings.CutSuffix(text, "\n")
	return tap.Event{T: t, Dir: dir, Kind: tap.KindLine, Data: data, Size: len(data), NoEOL: !eol}
}

// httpExport is one exchange of an HTTP target, as its events come.
type httpExport struct {
	n     int          // its number in the recording
	sse   bool         // its answer is an event stream
	body  bytes.Buffer // the body so far, or the current SSE event
	ended bool
}

// http exports an HTTP target's exchanges, in the order of the
// session's events.
func (x *exporter) http(evs []Event, target, to, base string) error {
	upstream, scheme := base, "http"
	if strings.HasPrefix(base, "https://") {
		scheme = "https"
	}
	exchanges := map[int64]*httpExport{} // by the page's command id
	var started bool
	for _, ev := range evs {
		if ev.Op == "error" {
			if xe := exchanges[ev.ID]; xe != nil && !xe.ended {
				x.endExchange(xe, time.Time{}, "the exchange failed: "+ev.Message)
			}
			continue
		}
		if ev.Op != "event" || ev.Target != target || ev.To != to {
			continue
		}
		t := at(ev)
		if ev.Kind == "http-request" {
			if !started {
				x.start(evs, tap.Event{Upstream: upstream})
				started = true
			}
			req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(ev.Text)))
			if err != nil {
				continue // the engine sent only what it could read; this cannot happen
			}
			body, _ := readAllString(req)
			xe := &httpExport{n: len(exchanges) + 1}
			exchanges[ev.ID] = xe
			e := tap.Event{T: t, Dir: tap.Out, Kind: tap.KindHTTPRequest, Exchange: xe.n, Method: req.Method,
				URL: scheme + "://" + req.Host + req.URL.RequestURI(), Header: req.Header}
			if body != "" {
				e.Data, e.Size = body, len(body)
			}
			x.add(e)
			continue
		}
		xe := exchanges[ev.ID]
		if xe == nil || xe.ended {
			continue
		}
		switch ev.Kind {
		case "http-head":
			status, header := parseHead(ev.Text)
			mt, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
			xe.sse = mt == "text/event-stream"
			x.add(tap.Event{T: t, Dir: tap.In, Kind: tap.KindHTTPResponse, Exchange: xe.n, Status: status, Header: header})
		case "http-body":
			x.takeBody(xe, t, ev.Text)
		case "end":
			x.endExchange(xe, t, "")
		case "tls":
			x.add(tap.Event{T: t, Kind: tap.KindNote, Exchange: xe.n, Data: ev.Text})
		}
	}
	if !started {
		return fmt.Errorf("%w: the session has sent %s no request", ErrNothingToExport, target)
	}
	return nil
}

// takeBody adds a piece of an answer's body; in an event stream, each
// event is recorded once the blank line that ends it has come, as the
// tap records it.
func (x *exporter) takeBody(xe *httpExport, t time.Time, text string) {
	if !xe.sse {
		xe.body.WriteString(text)
		return
	}
	for line := range strings.Lines(text) {
		xe.body.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			continue
		}
		b := bytes.TrimRight(xe.body.Bytes(), "\r")
		if bytes.HasSuffix(b, []byte("\n")) {
			b = bytes.TrimRight(b[:len(b)-1], "\r")
			if len(b) == 0 || b[len(b)-1] == '\n' {
				x.sseEvent(xe, t, false)
			}
		}
	}
}

// sseEvent records the SSE event the body holds, if it is not blank.
func (x *exporter) sseEvent(xe *httpExport, t time.Time, cut bool) {
	text := strings.TrimRight(xe.body.String(), "\r\n")
	if text != "" {
		x.add(tap.Event{T: t, Dir: tap.In, Kind: tap.KindSSEEvent, Exchange: xe.n, Data: text, Size: xe.body.Len(), NoEOL: cut})
	}
	xe.body.Reset()
}

// endExchange records the end of an exchange's body: what of it is left,
// then the end, with broke saying why it broke off ("" at its end).
func (x *exporter) endExchange(xe *httpExport, t time.Time, broke string) {
	xe.ended = true
	cut := broke != ""
	switch {
	case xe.sse && strings.TrimSpace(xe.body.String()) != "":
		x.sseEvent(xe, t, cut)
	case !xe.sse && xe.body.Len() > 0:
		x.add(tap.Event{T: t, Dir: tap.In, Kind: tap.KindHTTPBody, Exchange: xe.n, Data: xe.body.String(), Size: xe.body.Len(), NoEOL: cut})
	}
	x.add(tap.Event{T: t, Dir: tap.In, Kind: tap.KindHTTPEnd, Exchange: xe.n, Data: broke})
}

// parseHead reads an "http-head" event's text: the status line and the
// header lines, as the server wrote them.
func parseHead(head string) (int, http.Header) {
	raw := strings.ReplaceAll(strings.TrimRight(head, "\n"), "\n", "\r\n") + "\r\n\r\n"
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), nil)
	if err != nil {
		return 0, nil
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// readAllString reads a parsed request's body.
func readAllString(req *http.Request) (string, error) {
	b, err := io.ReadAll(req.Body)
	return string(b), err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
