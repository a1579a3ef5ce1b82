package wire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// exchangeHTTP sends a raw HTTP/1.1 request, as the learner typed it, to
// the target's server, and reports the answer as it arrives: the raw
// bytes ("raw" events) and, beside them, the head, its lines as they came
// and in their order, and the body with any chunked framing removed
// ("http-head", "http-body"). A stream (SSE) arrives piece by piece, as
// the server flushes.
//
// The learner's typing is made into a valid request in three ways only,
// each said in a note: line ends become CRLF, a missing Host is added,
// and Content-Length is set to the body's length.
func (s *session) exchangeHTTP(ctx context.Context, c Command, base string) error {
	if base == "" {
		return say(noteNoServer, c.Target)
	}
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	raw, notes, err := rawRequest(c.Frame, u.Host)
	if err != nil {
		return err
	}
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return say(noteNotHTTP, err)
	}
	for _, n := range notes {
		s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "note", Kind: "fix", Text: n.in(s.lang)})
	}
	conn, err := s.dialHTTP(ctx, c, u) // custom_http.go: TCP, and TLS for https
	if err != nil {
		return err
	}
	defer conn.Close()
	// The exchange ends at its deadline or with the session: closing the
	// connection unblocks any read.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "out", Kind: "http-request", Text: string(raw), Size: len(raw)})
	if _, err := conn.Write(raw); err != nil {
		return say(noteSending, err)
	}
	// The head is read through a limit, as net/http's server reads a
	// request's: a server that never ends its head (no empty line, or
	// header lines without end) is stopped at maxHead, not read into
	// memory until it runs out. The body, shown as it comes, is not
	// held.
	head := &io.LimitedReader{R: conn, N: maxHead}
	rec := &recorder{r: head}
	flushRaw := func() {
		if b := rec.take(); len(b) > 0 {
			s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "in", Kind: "raw", Text: string(b), Size: len(b)})
		}
	}
	resp, err := http.ReadResponse(bufio.NewReader(rec), req)
	// ReadResponse has read the whole head through rec by the time it
	// returns, and perhaps some of the body after it.
	first := rec.take()
	if len(first) > 0 {
		s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "in", Kind: "raw", Text: string(first), Size: len(first)})
	}
	if err != nil && head.N <= 0 {
		return say(noteHeadTooLong, maxHead>>10)
	}
	if err != nil {
		return readError(ctx, noteReadingAnswer, err)
	}
	head.N = math.MaxInt64 // the body is not held: each piece is shown and let go
	defer resp.Body.Close()
	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "in", Kind: "http-head", Text: wireHead(first)})
	buf := make([]byte, 32<<10)
	for {
		if err := s.awaitRoom(ctx); err != nil {
			return readError(ctx, noteReadingBody, err)
		}
		n, err := resp.Body.Read(buf)
		flushRaw()
		if n > 0 {
			s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "in", Kind: "http-body", Text: string(buf[:n]), Size: n})
		}
		if errors.Is(err, io.EOF) {
			s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "note", Kind: "end", Text: s.say(noteAnswerComplete)})
			return nil
		}
		if err != nil {
			return readError(ctx, noteReadingBody, err)
		}
	}
}

// maxHead bounds the head of an answer: as much as net/http's server
// reads of a request's (http.DefaultMaxHeaderBytes), far more than any
// real head.
const maxHead = http.DefaultMaxHeaderBytes

// wireHead is the head at the start of raw, the bytes of an answer: the
// status line and the header lines as the server wrote them, in its
// order, each ended by "\n". resp.Header would not do: a map, it comes
// back sorted by name, and without Transfer-Encoding, which Go keeps
// apart.
func wireHead(raw []byte) string {
	// RFC 9112 section 2.2: a recipient may take a bare LF for a line's
	// end, and Go's reader does; the head ends at the first empty line.
	var lines []string
	for line := range strings.Lines(string(raw)) {
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" {
			break
		}
		lines = append(lines, line+"\n")
	}
	return strings.Join(lines, "")
}

// readError says why reading stopped: the deadline, or the connection.
// what is what was being read (noteReadingAnswer, noteReadingBody).
func readError(ctx context.Context, what noteKey, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return say(noteStoppedAfter, say(what), exchangeTimeout)
	}
	if ctx.Err() != nil {
		return nil // the session ended; nobody reads the error
	}
	return say(noteReadFailed, say(what), err)
}

// rawRequest makes the learner's text a request for host, and says what
// it changed.
func rawRequest(text, host string) ([]byte, []*notice, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	headText, body, _ := strings.Cut(text, "\n\n")
	lines := strings.Split(strings.TrimSpace(headText), "\n")
	if len(lines) == 0 || len(strings.Fields(lines[0])) != 3 || !strings.HasPrefix(strings.Fields(lines[0])[2], "HTTP/1.") {
		return nil, nil, say(noteRequestLine)
	}
	body = strings.TrimRight(body, "\n")
	var notes []*notice
	out := []string{lines[0]}
	hasHost, hasLength := false, false
	for _, l := range lines[1:] {
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			return nil, nil, say(noteNoColon, l)
		}
		switch {
		case strings.EqualFold(name, "Host"):
			hasHost = true
		case strings.EqualFold(name, "Content-Length"):
			hasLength = true
			if want := strconv.Itoa(len(body)); strings.TrimSpace(value) != want {
				notes = append(notes, say(noteFixedLength, strings.TrimSpace(value), want, want))
				l = name + ": " + want
			}
		}
		out = append(out, l)
	}
	if !hasHost {
		out = append(out[:1], append([]string{"Host: " + host}, out[1:]...)...)
		notes = append(notes, say(noteAddedHost, host))
	}
	if !hasLength && body != "" {
		out = append(out, "Content-Length: "+strconv.Itoa(len(body)))
		notes = append(notes, say(noteAddedLength, len(body)))
	}
	return []byte(strings.Join(out, "\r\n") + "\r\n\r\n" + body), notes, nil
}

// recorder keeps a copy of what is read through it, until taken.
type recorder struct {
	r   io.Reader
	mu  sync.Mutex // guards buf: the reader and take may be on different goroutines
	buf bytes.Buffer
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.mu.Lock()
	r.buf.Write(p[:n])
	r.mu.Unlock()
	return n, err
}

func (r *recorder) take() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := bytes.Clone(r.buf.Bytes())
	r.buf.Reset()
	return b
}
