package wire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/metadata"

	grpcwire "github.com/wirelab/wirelab/protocols/grpctool/wire"
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
		return fmt.Errorf("no %s server runs in this playground", c.Target)
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
		return fmt.Errorf("not an HTTP request: %v", err)
	}
	for _, n := range notes {
		s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "note", Kind: "fix", Text: n})
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80") // a URL without a port means http's own
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("connecting to %s: %v", addr, err)
	}
	defer conn.Close()
	// The exchange ends at its deadline or with the session: closing the
	// connection unblocks any read.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "out", Kind: "http-request", Text: string(raw), Size: len(raw)})
	if _, err := conn.Write(raw); err != nil {
		return fmt.Errorf("sending: %v", err)
	}
	rec := &recorder{r: conn}
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
	if err != nil {
		return readError(ctx, "reading the answer", err)
	}
	defer resp.Body.Close()
	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "in", Kind: "http-head", Text: wireHead(first)})
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		flushRaw()
		if n > 0 {
			s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "in", Kind: "http-body", Text: string(buf[:n]), Size: n})
		}
		if errors.Is(err, io.EOF) {
			s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "note", Kind: "end", Text: "the answer is complete"})
			return nil
		}
		if err != nil {
			return readError(ctx, "reading the body", err)
		}
	}
}

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
func readError(ctx context.Context, what string, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s: stopped after %v (a stream stays open until the server ends it)", what, exchangeTimeout)
	}
	if ctx.Err() != nil {
		return nil // the session ended; nobody reads the error
	}
	return fmt.Errorf("%s: %v", what, err)
}

// rawRequest makes the learner's text a request for host, and says what
// it changed.
func rawRequest(text, host string) ([]byte, []string, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	headText, body, _ := strings.Cut(text, "\n\n")
	lines := strings.Split(strings.TrimSpace(headText), "\n")
	if len(lines) == 0 || len(strings.Fields(lines[0])) != 3 || !strings.HasPrefix(strings.Fields(lines[0])[2], "HTTP/1.") {
		return nil, nil, fmt.Errorf(`an HTTP frame starts with a request line such as "POST /mcp HTTP/1.1"`)
	}
	body = strings.TrimRight(body, "\n")
	var notes []string
	out := []string{lines[0]}
	hasHost, hasLength := false, false
	for _, l := range lines[1:] {
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			return nil, nil, fmt.Errorf("header line %q has no colon", l)
		}
		switch {
		case strings.EqualFold(name, "Host"):
			hasHost = true
		case strings.EqualFold(name, "Content-Length"):
			hasLength = true
			if want := strconv.Itoa(len(body)); strings.TrimSpace(value) != want {
				notes = append(notes, fmt.Sprintf("Content-Length was %s; the body is %s bytes, so it was set to %s", strings.TrimSpace(value), want, want))
				l = name + ": " + want
			}
		}
		out = append(out, l)
	}
	if !hasHost {
		out = append(out[:1], append([]string{"Host: " + host}, out[1:]...)...)
		notes = append(notes, "added Host: "+host+" (HTTP/1.1 requires it)")
	}
	if !hasLength && body != "" {
		out = append(out, "Content-Length: "+strconv.Itoa(len(body)))
		notes = append(notes, fmt.Sprintf("added Content-Length: %d, the body's length", len(body)))
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

// exchangeGRPC makes one gRPC call. The frame's first line is the method
// ("tools.v1.ToolServer/ExecuteTool"); header lines may follow, sent as
// the call's metadata ("authorization: Bearer reader"), with
// "grpc-timeout: 50m" setting the call's deadline in gRPC's own notation;
// the rest is the request as JSON. The answer is every HTTP/2 frame of
// the call, with the gRPC messages and trailers decoded (package
// grpctool/wire).
func (s *session) exchangeGRPC(ctx context.Context, c Command, addr string) error {
	if addr == "" {
		return fmt.Errorf("no gRPC server runs in this playground")
	}
	call, err := parseGRPCFrame(c.Frame)
	if err != nil {
		return err
	}
	client := s.grpcClient(addr)
	if client == nil {
		return nil // the session has ended; nobody reads an answer
	}
	// The frame as typed has no size: it is not what crosses. The bytes
	// that do come with the capture, below.
	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "out", Kind: "grpc-call", Text: c.Frame})
	ex, err := client.Capture(ctx, call.method, []byte(call.body), &grpcwire.Options{Timeout: call.timeout, Metadata: call.md})
	if err != nil {
		return fmt.Errorf("gRPC call: %v", err)
	}
	var text bytes.Buffer
	ex.Format(&text)
	frames, in := http2Frames(ex.Frames)
	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "in", Kind: "grpc", Text: text.String(), Size: in, Frames: frames})
	return nil
}

// HTTP2Frame is one HTTP/2 frame of a gRPC call as the page gets it: who
// sent it, its type and stream, and every byte of it, the 9-byte header
// first. The client's connection preface, which opens a new connection
// and is not a frame, comes as one of type "PREFACE".
type HTTP2Frame struct {
	Dir    string `json:"dir"`              // "out" from the playground's client, "in" from the server
	Type   string `json:"type"`             // RFC 9113's name: "HEADERS", "DATA", "SETTINGS", ...
	Stream uint32 `json:"stream,omitempty"` // 0, and so absent, for the connection's own frames
	Bytes  []byte `json:"bytes"`            // base64 in JSON
	Cut    int    `json:"cut,omitempty"`    // bytes of the frame left out past maxGRPCBytes
}

// maxGRPCBytes bounds the bytes of frames one gRPC event carries to the
// page: a call's messages may be megabytes, and the page keeps every
// event. The annotated dump beside them is short either way.
const maxGRPCBytes = 1 << 20

// http2Frames makes a capture's frames the page's, in the order they
// crossed, and counts the bytes the server sent, all of them.
func http2Frames(frames []grpcwire.Frame) (out []HTTP2Frame, in int) {
	left := maxGRPCBytes
	for _, f := range frames {
		dir := "out"
		if f.Dir == grpcwire.ServerToClient {
			dir, in = "in", in+len(f.Bytes)
		}
		b := f.Bytes[:min(len(f.Bytes), left)]
		left -= len(b)
		out = append(out, HTTP2Frame{Dir: dir, Type: f.Type, Stream: f.StreamID, Bytes: b, Cut: len(f.Bytes) - len(b)})
	}
	return out, in
}

// maxGRPCClients bounds the gRPC connections one tab keeps open: a
// learner trying one custom-grpc address after another does not pile
// them up. The playground's own server and a learner's fit easily.
const maxGRPCClients = 4

// grpcClients are a tab's gRPC clients, one per server address. Each
// keeps its connection and the server's descriptors between the tab's
// calls, as a real client would, so that a call's time on the wire is the
// call's, not a dial's and reflection's as well. A client starts over by
// itself when its connection breaks or a call fails (grpcwire.Client); all
// of them close when the session ends.
type grpcClients struct {
	mu      sync.Mutex   // guards clients and closed
	clients []grpcClient // least recently used first
	closed  bool         // the session has ended: no more clients
}

// grpcClient is a kept client and the address it calls.
type grpcClient struct {
	addr   string
	client *grpcwire.Client
}

// grpcClient returns the tab's client for addr, made on first use; nil
// once the session has ended.
func (s *session) grpcClient(addr string) *grpcwire.Client {
	g := &s.grpc
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil
	}
	if g.clients == nil {
		// The caller is an exchange, which s.wg counts, so the count is
		// above zero here and session.run's Wait sees this one too. The
		// function runs when the session's context ends.
		s.wg.Add(1)
		context.AfterFunc(s.ctx, func() {
			defer s.wg.Done()
			g.mu.Lock()
			clients := g.clients
			g.clients, g.closed = nil, true
			g.mu.Unlock()
			for _, c := range clients {
				// Waits for a call under way, which the session's end
				// has cancelled.
				c.client.Close()
			}
		})
	}
	for i, c := range g.clients {
		if c.addr == addr {
			g.clients = append(append(g.clients[:i:i], g.clients[i+1:]...), c)
			return c.client
		}
	}
	if len(g.clients) >= maxGRPCClients {
		old := g.clients[0].client
		g.clients = g.clients[1:]
		s.wg.Add(1)
		// Close waits for a call under way on the old client, which
		// ends at its deadline or with the session; this exchange does
		// not wait for it.
		go func() {
			defer s.wg.Done()
			old.Close()
		}()
	}
	c := grpcwire.NewClient(addr, nil)
	g.clients = append(g.clients, grpcClient{addr, c})
	return c
}

// dropGRPCClient closes the tab's kept client for addr, if there is one:
// the tab's "restart" of a gRPC target. The next call dials afresh and
// asks reflection again, as a new client would.
func (s *session) dropGRPCClient(addr string) {
	g := &s.grpc
	g.mu.Lock()
	var old *grpcwire.Client
	for i, c := range g.clients {
		if c.addr == addr {
			old = c.client
			g.clients = append(g.clients[:i:i], g.clients[i+1:]...)
			break
		}
	}
	g.mu.Unlock()
	if old != nil {
		old.Close() // waits for a call under way, which ends at its deadline
	}
}

// grpcCall is a gRPC frame, read.
type grpcCall struct {
	method  string
	md      metadata.MD
	timeout time.Duration
	body    string
}

// parseGRPCFrame reads a gRPC frame: the method, header lines, the JSON.
func parseGRPCFrame(frame string) (grpcCall, error) {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(frame, "\r\n", "\n")), "\n")
	call := grpcCall{method: strings.TrimSpace(lines[0]), md: metadata.MD{}, timeout: exchangeTimeout}
	rest := lines[1:]
	for len(rest) > 0 {
		name, value, ok := strings.Cut(rest[0], ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " {\"") {
			break
		}
		value = strings.TrimSpace(value)
		if strings.EqualFold(name, "grpc-timeout") {
			d, err := parseGRPCTimeout(value)
			if err != nil {
				return grpcCall{}, err
			}
			call.timeout = min(d, exchangeTimeout)
		} else {
			call.md.Append(strings.ToLower(name), value)
		}
		rest = rest[1:]
	}
	call.body = strings.Join(rest, "\n")
	return call, nil
}

// parseGRPCTimeout reads a grpc-timeout value as gRPC writes it on the
// wire: at most 8 digits and a unit, H, M, S, m (milliseconds), u or n.
func parseGRPCTimeout(v string) (time.Duration, error) {
	units := map[byte]time.Duration{'H': time.Hour, 'M': time.Minute, 'S': time.Second, 'm': time.Millisecond, 'u': time.Microsecond, 'n': time.Nanosecond}
	bad := fmt.Errorf("grpc-timeout %q: gRPC writes a deadline as up to 8 digits and a unit, H, M, S, m, u or n, such as 50m for 50 milliseconds", v)
	if len(v) < 2 || len(v) > 9 {
		return 0, bad
	}
	unit, ok := units[v[len(v)-1]]
	n, err := strconv.ParseInt(v[:len(v)-1], 10, 64)
	if !ok || err != nil || n < 0 {
		return 0, bad
	}
	return time.Duration(n) * unit, nil
}
