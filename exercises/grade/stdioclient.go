package grade

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// StdioClient grades the stdio-client exercise: a program that starts a
// stdio tool server (protocols/stdio's wire) and makes many calls on it,
//
//	stdio-client SERVER [ARG...] < calls
//
// one call a line of stdin (word_count {"text":"..."}), printing each
// call's result on a line of stdout, in the order of the calls. The
// grader is the server (stdiopeer.go): it counts the processes started,
// answers out of order, sends a long line, and watches how it is
// stopped.
func StdioClient() *Grader {
	return &Grader{
		Exercise: "stdio-client",
		Stages: []Stage{
			// The first stage builds the grader's server too.
			{Name: "makes a call", Run: stdioCallsOnce, Limit: time.Minute},
			{Name: "starts the server once", Run: stdioOneProcess},
			{Name: "matches answers by id", Run: stdioOutOfOrder},
			{Name: "reads a 100 KiB answer", Run: stdioLongAnswer},
			{Name: "stops the server cleanly", Run: stdioStopsServer},
		},
	}
}

const (
	hintStdioOneProcess = `Start the server once, before the first call, and write every call to the same stdin: a process per call pays a start each time (far more with go run or an interpreter) and loses whatever the server keeps between calls.`
	hintStdioByID       = `The server answered in its own order, as an MCP server may. Give each call its own id, and put each answer in the place of the call whose id it carries, not in the order the answers come.`
	hintStdioPipeline   = `Write every call before waiting for an answer: the server works on them together and answers each when it is done. A client that waits for each answer before sending the next call never has two in flight, and cannot use ids for what they are for.`
	hintStdioStop       = `When the calls are done, close the server's stdin (the end of input is how a client says it is done), then cmd.Wait() for it to exit: a program that exits first leaves its server running, an orphan.`
	hintStdioCloseFirst = `cmd.Wait waits for the server to exit, and the server waits for more input until its stdin is closed: close the pipe from StdinPipe first, then Wait.`
	hintStdioKill       = `Killing the server stops it in the middle of whatever it was doing. Close its stdin and wait: it finishes and exits by itself, and only one that does not exit after a while needs a signal.`
	hintStdioNoID       = `Every call needs an id: the answer carries it back, and it is how the program knows which call an answer belongs to.`
)

// stdioKeys are the keys a request may have on this wire.
var stdioKeys = map[string]bool{"id": true, "name": true, "args": true, "version": true}

// stdioAnswer answers one request line as protocols/stdio's server does,
// for the tools the stages call: word_count, and search, whose result is
// long. A request with keys the wire does not have is refused, as the
// real server refuses it.
func stdioAnswer(line string) string {
	var req map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &req); err != nil {
		return `{"error":{"code":"parse_error","message":"request is not valid JSON"}}`
	}
	id := string(req["id"])
	withID := func(rest string) string {
		if id == "" {
			return "{" + rest + "}"
		}
		return `{"id":` + id + "," + rest + "}"
	}
	var unknown []string
	for k := range req {
		if !stdioKeys[k] {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return withID(`"error":{"code":"invalid_request","message":"unknown keys ` + strings.ReplaceAll(strings.Join(unknown, ", "), `"`, `\"`) + `; a request has only the lowercase keys id, name, args, version"}`)
	}
	var name string
	json.Unmarshal(req["name"], &name)
	var args struct {
		Text  string `json:"text"`
		Query string `json:"query"`
	}
	json.Unmarshal(req["args"], &args)
	switch name {
	case "word_count":
		return withID(fmt.Sprintf(`"result":{"words":%d,"chars":%d}`, len(strings.Fields(args.Text)), len([]rune(args.Text))))
	case "search":
		return withID(`"result":` + stdioSearchResult(args.Query))
	}
	return withID(`"error":{"code":"unknown_tool","message":"no tool named ` + strconv.Quote(name)[1:len(strconv.Quote(name))-1] + `"}`)
}

// stdioSearchResult is a search result of a little over 100 KiB: more
// than bufio.Scanner reads by default, well under a 1 MiB limit.
func stdioSearchResult(query string) string {
	var b strings.Builder
	b.WriteString(`{"query":` + strconv.Quote(query) + `,"results":[`)
	for i := range 400 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"doc-%03d","title":"On the wire, part %d","snippet":"%s"}`, i, i, strings.Repeat("the wire carries one message a line ", 6))
	}
	b.WriteString("]}")
	return b.String()
}

// stdioServeInOrder is a server that answers each request as it comes.
func stdioServeInOrder(s *peerSession) {
	for {
		line, ok := s.next(DefaultLimit)
		if !ok {
			s.drain(DefaultLimit)
			return
		}
		s.send(stdioAnswer(line))
	}
}

// stdioClientRun is what one run of the program did.
type stdioClientRun struct {
	calls    []string
	code     int
	stdout   string
	stderr   string
	sessions []*peerSession
	// orphan: when the program exited, a server it started was still
	// running.
	orphan bool
}

// stdioClientStart runs the program once on calls, against a server
// that behaves as serve says, and waits for it to exit.
func stdioClientStart(t *T, serve func(*peerSession), calls ...string) (*stdioClientRun, error) {
	peer, err := newStdioPeer(t, serve)
	if err != nil {
		return nil, err
	}
	defer peer.shutdown()
	r := &stdioClientRun{calls: calls}
	p, err := t.Start(peer.command()...)
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		if err := p.Send(c); err != nil {
			return nil, About(err, "writing the calls", r.sent())
		}
	}
	p.CloseStdin()
	r.code, err = p.Wait()
	r.sessions = peer.started()
	if err != nil {
		var f *Failure
		if errors.As(err, &f) {
			f.Sent = r.sent()
			for _, s := range r.sessions {
				if requests, eof, _, _ := s.state(); !eof && len(requests) == len(calls) {
					f.addf("; every call was answered, and the server's stdin is still open")
					f.Hint = hintStdioCloseFirst
				}
			}
		}
		return nil, err
	}
	for _, s := range r.sessions {
		if _, _, gone, exited := s.state(); exited.IsZero() && !gone {
			r.orphan = true
		}
	}
	out, err := p.Output()
	if err != nil {
		return nil, err
	}
	r.stdout, r.stderr = string(out), p.Stderr()
	return r, nil
}

// sent is the run's input, as the report shows it.
func (r *stdioClientRun) sent() string {
	return shorten("command line: SERVER; stdin: " + strings.Join(r.calls, " | "))
}

// checkOutput checks the exit status and stdout, and the requests.
func (r *stdioClientRun) checkOutput(want ...string) error {
	if len(r.sessions) == 0 {
		f := Failf("the program exited with status %d without starting the server it was given", r.code)
		f.Sent, f.Stderr = r.sent(), lastLines(r.stderr, stderrLines)
		return f
	}
	for _, s := range r.sessions {
		requests, _, _, _ := s.state()
		for _, line := range requests {
			var req map[string]json.RawMessage
			if json.Unmarshal([]byte(line), &req) != nil {
				continue
			}
			keys := make([]string, 0, len(req))
			for k := range req {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if !stdioKeys[k] {
					f := Failf("the server got a request with the key %q, which this wire does not have", k)
					f.Sent, f.Got, f.Hint = r.sent(), shorten(line), HintJSONTags
					return f
				}
			}
			if req["id"] == nil {
				f := Failf("the server got a request without an id")
				f.Sent, f.Got, f.Hint = r.sent(), shorten(line), hintStdioNoID
				return f
			}
		}
	}
	wantOut := strings.Join(want, "\n") + "\n"
	if r.code != 0 || r.stdout != wantOut {
		f := Failf("the program exited with status %d, and its stdout is not the results in the order of the calls", r.code)
		if r.stdout == wantOut {
			f.restatef("the calls worked, and the program exited with status %d", r.code)
		}
		f.Sent, f.Stderr = r.sent(), lastLines(r.stderr, stderrLines)
		f.setDiff([]byte(wantOut), []byte(r.stdout), firstDiff([]byte(wantOut), []byte(r.stdout)))
		return f
	}
	return nil
}

func stdioCallsOnce(t *T) error {
	r, err := stdioClientStart(t, stdioServeInOrder, `word_count {"text":"read the wire"}`)
	if err != nil {
		return err
	}
	return r.checkOutput(`{"words":3,"chars":13}`)
}

func stdioOneProcess(t *T) error {
	r, err := stdioClientStart(t, stdioServeInOrder,
		`word_count {"text":"one"}`, `word_count {"text":"two words"}`, `word_count {"text":"and three words"}`)
	if err != nil {
		return err
	}
	if n := len(r.sessions); n > 1 {
		f := Failf("the program started the server %d times for %d calls", n, len(r.calls))
		f.Sent, f.Hint = r.sent(), hintStdioOneProcess
		return f
	}
	return r.checkOutput(`{"words":1,"chars":3}`, `{"words":2,"chars":9}`, `{"words":3,"chars":15}`)
}

// stdioOutOfOrder's server answers once it has every call, last first.
func stdioOutOfOrder(t *T) error {
	calls := []string{`word_count {"text":"a"}`, `word_count {"text":"b c"}`, `word_count {"text":"d e f"}`, `word_count {"text":"g h i j"}`}
	stalled := false
	serve := func(s *peerSession) {
		var held []string
		for len(held) < len(calls) {
			line, ok := s.next(answerGrace)
			if !ok {
				break
			}
			held = append(held, line)
		}
		if len(held) < len(calls) {
			stalled = true // the program waits for an answer before its next call
			stdioServeInOrderHeld(s, held)
			return
		}
		for _, i := range []int{2, 0, 3, 1} {
			s.send(stdioAnswer(held[i]))
		}
		s.drain(DefaultLimit)
	}
	r, err := stdioClientStart(t, serve, calls...)
	if err != nil {
		return err
	}
	if len(r.sessions) > 1 {
		f := Failf("the program started the server %d times for %d calls", len(r.sessions), len(calls))
		f.Sent, f.Hint = r.sent(), hintStdioOneProcess
		return f
	}
	err = r.checkOutput(`{"words":1,"chars":1}`, `{"words":2,"chars":3}`, `{"words":3,"chars":5}`, `{"words":4,"chars":7}`)
	var f *Failure
	switch {
	case stalled && err == nil:
		f = Failf("the program sent one call and waited for its answer before sending the next; the server answers when it has all %d", len(calls))
		f.Sent, f.Hint = r.sent(), hintStdioPipeline
		return f
	case errors.As(err, &f) && f.Hint == "":
		About(f, "the server answered the calls in the order 3, 1, 4, 2", "")
		f.Hint = hintStdioByID
	}
	return err
}

// stdioServeInOrderHeld answers the requests held so far, then goes on
// as stdioServeInOrder.
func stdioServeInOrderHeld(s *peerSession, held []string) {
	for _, line := range held {
		s.send(stdioAnswer(line))
	}
	stdioServeInOrder(s)
}

func stdioLongAnswer(t *T) error {
	r, err := stdioClientStart(t, stdioServeInOrder, `search {"query":"wire"}`, `word_count {"text":"after the long line"}`)
	if err != nil {
		return WithHint(err, HintScanner)
	}
	return WithHint(r.checkOutput(stdioSearchResult("wire"), `{"words":4,"chars":19}`), HintScanner)
}

func stdioStopsServer(t *T) error {
	r, err := stdioClientStart(t, stdioServeInOrder, `word_count {"text":"one"}`, `word_count {"text":"two words"}`)
	if err != nil {
		return err
	}
	if err := r.checkOutput(`{"words":1,"chars":3}`, `{"words":2,"chars":9}`); err != nil {
		return err
	}
	for _, s := range r.sessions {
		_, eof, gone, _ := s.state()
		var f *Failure
		switch {
		case gone && !eof:
			f = Failf("the program killed its server instead of closing its stdin")
			f.Hint = hintStdioKill
		case r.orphan:
			f = Failf("the program exited while its server was still running: it did not wait for the server to exit")
			f.Hint = hintStdioStop
		default:
			continue
		}
		f.Sent = r.sent()
		return f
	}
	return nil
}
