package wire

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/reflect/protoregistry"

	grpcwire "github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// exchangeGRPC makes one gRPC call. The frame's first line is the method
// ("tools.v1.ToolServer/ExecuteTool"); header lines may follow, sent as
// the call's metadata ("authorization: Bearer reader"), with
// "grpc-timeout: 50m" setting the call's deadline in gRPC's own notation;
// the rest is the request as JSON. The answer is every HTTP/2 frame of
// the call, with the gRPC messages and trailers decoded (package
// grpctool/wire).
func (s *session) exchangeGRPC(ctx context.Context, c Command, addr string) error {
	if addr == "" {
		return say(noteNoServer, "gRPC")
	}
	return s.callGRPC(ctx, c, addr, func() (*grpcDial, error) { return &grpcDial{addr: addr}, nil })
}

// grpcDial is how a tab reaches one gRPC server: its address, how the
// connection is secured, and where the descriptors come from.
type grpcDial struct {
	addr  string
	creds *watchedCreds        // nil: plaintext, as the playground's own server is
	files *protoregistry.Files // nil: ask the server by reflection
	// custom says the server is the learner's: each new connection is
	// then announced with how it is secured (watchedCreds.says).
	custom bool
}

// callGRPC makes the call of c's frame on the tab's client for key,
// which dial describes when the client is made.
func (s *session) callGRPC(ctx context.Context, c Command, key string, dial func() (*grpcDial, error)) error {
	call, err := parseGRPCFrame(c.Frame)
	if err != nil {
		return err
	}
	kept, err := s.grpcClient(key, dial)
	if err != nil {
		return err
	}
	if kept == nil {
		return nil // the session has ended; nobody reads an answer
	}
	// The frame as typed has no size: it is not what crosses. The bytes
	// that do come with the capture, below.
	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "out", Kind: "grpc-call", Text: c.Frame})
	ex, err := kept.client.Capture(ctx, call.method, []byte(call.body), &grpcwire.Options{Timeout: call.timeout, Metadata: call.md, Files: kept.dial.files})
	if err != nil {
		return say(noteGRPCCall, explainCallError(err, kept.dial))
	}
	if kept.dial.custom && ex.EarlierCalls == 0 {
		s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "note", Kind: "security", Text: kept.dial.creds.saying(kept.dial.addr).in(s.lang)})
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
	mu      sync.Mutex    // guards clients and closed
	clients []*grpcClient // least recently used first
	closed  bool          // the session has ended: no more clients
}

// grpcClient is a kept client, the key it is kept by (the address of
// the playground's own server, or a custom target's "to"), and how it was
// made.
type grpcClient struct {
	key    string
	client *grpcwire.Client
	dial   *grpcDial
}

// grpcClient returns the tab's client for key, made on first use as dial
// describes; nil once the session has ended.
func (s *session) grpcClient(key string, dial func() (*grpcDial, error)) (*grpcClient, error) {
	g := &s.grpc
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil, nil
	}
	for i, c := range g.clients {
		if c.key == key {
			g.clients = append(append(g.clients[:i:i], g.clients[i+1:]...), c)
			return c, nil
		}
	}
	d, err := dial()
	if err != nil {
		return nil, err
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
	var creds credentials.TransportCredentials // nil: plaintext
	if d.creds != nil {
		creds = d.creds
	}
	c := &grpcClient{key: key, client: grpcwire.NewClient(d.addr, creds), dial: d}
	g.clients = append(g.clients, c)
	return c, nil
}

// dropGRPCClient closes the tab's kept client for key, if there is one:
// the tab's "restart" of a gRPC target. The next call dials afresh and
// asks reflection again (or reads the .proto files again), as a new
// client would.
func (s *session) dropGRPCClient(key string) {
	g := &s.grpc
	g.mu.Lock()
	var old *grpcwire.Client
	for i, c := range g.clients {
		if c.key == key {
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
	bad := say(noteGRPCTimeout, v)
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
