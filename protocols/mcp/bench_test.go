package mcp

// How fast this package's server answers tools/call, next to the
// official Go SDK's server doing the same work. Both are driven by the
// same hand-rolled client, which writes the request's bytes and reads
// the answer's, so that only the server differs:
//
//	go test -run '^$' -bench ToolsCall -benchtime 2s -count 6 ./protocols/mcp | tee new.txt
//	benchstat new.txt
//
// Each era is measured: 2025-11-25, a session opened once with
// initialize, and 2026-07-28, where every call stands alone and carries
// its _meta (and, over HTTP, its Mcp-Method and Mcp-Name headers).
//
// BenchmarkToolsCall/<era>/<transport>/<server> is one round trip per op;
// BenchmarkToolsCallRatio times both servers in both eras in the same
// run, in alternating batches so that they share the machine's noise, and
// reports how many times longer one takes than another (lower is better
// for the first): modern/legacy for each server, wirelab/sdk in each era.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wirelab/wirelab/protocols/tools"
)

// The messages the benchmark client sends, and what it expects back.
const (
	benchInitialize  = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
	benchInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	// benchCall is a tools/call without its id, which comes first.
	benchCall = `,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`
	// benchModernCall is the same call in 2026-07-28: it carries its own
	// revision and capabilities.
	benchModernCall = `,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
)

// benchEras are the two eras, by name: false is 2025-11-25, true 2026-07-28.
var benchEras = []struct {
	name   string
	modern bool
}{{"2025-11-25", false}, {"2026-07-28", true}}

// benchWant is in every correct answer to benchCall, from either server.
// Apart: the SDK writes structuredContent's members in sorted order.
// (Inside the text block the same members are escaped, \"words\":3, so
// they do not match.)
var benchWant = [][]byte{[]byte(`"structuredContent":{`), []byte(`"words":3`), []byte(`"chars":13`)}

// benchWait bounds the wait for a server to stop at the end of a
// benchmark, so that one that does not stop fails instead of hanging.
const benchWait = 10 * time.Second

// benchRatioBatch is how many calls go to one server before the other
// has its turn in BenchmarkToolsCallRatio: enough that switching costs
// nothing measurable, few enough that both see the same moments of noise.
const benchRatioBatch = 50

// benchServer is one of the two servers compared. Each can serve both
// transports.
type benchServer struct {
	name string
	// stdio serves one session until in ends.
	stdio func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error
	// http returns a Streamable HTTP handler for an era; stop ends its
	// sessions.
	http func(modern bool) (h http.Handler, stop func())
}

var benchServers = []benchServer{{
	name: "wirelab",
	stdio: func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return benchWirelab().ServeStdio(ctx, in, out)
	},
	http: func(bool) (http.Handler, func()) {
		h := benchWirelab().HTTPHandler(&HTTPOptions{Loopback: true})
		return h, h.Close
	},
}, {
	name: "sdk",
	stdio: func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return benchSDK().Run(ctx, &sdk.IOTransport{Reader: in, Writer: out})
	},
	http: func(modern bool) (http.Handler, func()) {
		// The SDK serves 2026-07-28 over HTTP in its stateless mode.
		srv := benchSDK()
		return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
			&sdk.StreamableHTTPOptions{Stateless: modern}), func() {}
	},
}}

func benchWirelab() *Server {
	return NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "bench"})
}

// benchSDK is an SDK server with a word_count that does what the
// catalogue's does: the SDK derives the same schemas from the structs,
// validates input and output against them, and answers with the output
// as structuredContent and as a text block.
func benchSDK() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "sdk-bench", Version: "1"}, nil)
	type in struct {
		Text string `json:"text" jsonschema:"The text to count."`
	}
	type out struct {
		Words int `json:"words"`
		Chars int `json:"chars"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "word_count", Description: "Count the words and characters in a text."},
		func(_ context.Context, _ *sdk.CallToolRequest, args in) (*sdk.CallToolResult, out, error) {
			return nil, out{Words: len(strings.Fields(args.Text)), Chars: utf8.RuneCountInString(args.Text)}, nil
		})
	return srv
}

// benchConn carries one message to the server and returns the answer,
// or nil for a notification, which has none.
type benchConn interface {
	send(msg []byte, notification bool) ([]byte, error)
}

// benchClient is the raw JSON-RPC client both servers are measured with.
type benchClient struct {
	conn   benchConn
	modern bool // 2026-07-28: no handshake, _meta on every call
	id     int64
	buf    []byte // the request being built, reused
}

// handshake opens the session; in 2026-07-28 there is none to open.
func (c *benchClient) handshake() error {
	if c.modern {
		return nil
	}
	answer, err := c.conn.send([]byte(benchInitialize), false)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if !bytes.Contains(answer, []byte(`"protocolVersion":"2025-11-25"`)) {
		return fmt.Errorf("initialize answered %s", answer)
	}
	if _, err := c.conn.send([]byte(benchInitialized), true); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

// call makes one tools/call round trip, each with a new id.
func (c *benchClient) call() error {
	c.id++
	c.buf = append(c.buf[:0], `{"jsonrpc":"2.0","id":`...)
	c.buf = strconv.AppendInt(c.buf, c.id, 10)
	if c.modern {
		c.buf = append(c.buf, benchModernCall...)
	} else {
		c.buf = append(c.buf, benchCall...)
	}
	answer, err := c.conn.send(c.buf, false)
	if err != nil {
		return fmt.Errorf("tools/call: %w", err)
	}
	for _, want := range benchWant {
		if !bytes.Contains(answer, want) {
			return fmt.Errorf("tools/call word_count answered %s, want %s in it", answer, want)
		}
	}
	return nil
}

// benchTransport connects a benchClient to a server over one transport,
// handshake done; b.Cleanup ends the session and the server.
type benchTransport struct {
	name string
	dial func(b *testing.B, srv benchServer, modern bool) *benchClient
}

var benchTransports = []benchTransport{{"stdio", benchDialStdio}, {"http", benchDialHTTP}}

// BenchmarkToolsCall: one op is one tools/call round trip, after the
// handshake; the allocations are the client's, the transport's and the
// server's together, the first two the same for both servers.
func BenchmarkToolsCall(b *testing.B) {
	for _, era := range benchEras {
		for _, tr := range benchTransports {
			for _, srv := range benchServers {
				b.Run(era.name+"/"+tr.name+"/"+srv.name, func(b *testing.B) {
					c := tr.dial(b, srv, era.modern)
					b.ReportAllocs()
					for b.Loop() {
						if err := c.call(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkToolsCallRatio: one op is one call to each server in each era,
// four calls. Besides the ratios it reports each one's own time per call.
func BenchmarkToolsCallRatio(b *testing.B) {
	type contender struct {
		name   string
		client *benchClient
		took   time.Duration
	}
	for _, tr := range benchTransports {
		b.Run(tr.name, func(b *testing.B) {
			var cs []*contender
			for _, era := range benchEras {
				for _, srv := range benchServers {
					cs = append(cs, &contender{name: srv.name + "-" + era.name, client: tr.dial(b, srv, era.modern)})
				}
			}
			b.ResetTimer()
			for done, turn := 0, 0; done < b.N; turn++ {
				n := min(benchRatioBatch, b.N-done)
				// Each goes first in turn, so that none always runs just
				// after the switch.
				for k := range cs {
					c := cs[(k+turn)%len(cs)]
					start := time.Now()
					for range n {
						if err := c.client.call(); err != nil {
							b.Fatal(err)
						}
					}
					c.took += time.Since(start)
				}
				done += n
			}
			ratio := func(a, b *contender) float64 { return float64(a.took) / float64(b.took) }
			wl, sdkLegacy, wm, sdkModern := cs[0], cs[1], cs[2], cs[3]
			b.ReportMetric(ratio(wm, wl), "wirelab-modern/legacy")
			b.ReportMetric(ratio(sdkModern, sdkLegacy), "sdk-modern/legacy")
			b.ReportMetric(ratio(wl, sdkLegacy), "wirelab/sdk-2025-11-25")
			b.ReportMetric(ratio(wm, sdkModern), "wirelab/sdk-2026-07-28")
			for _, c := range cs {
				b.ReportMetric(float64(c.took.Nanoseconds())/float64(b.N), c.name+"-ns/call")
			}
		})
	}
}

// benchStdio is a session over two pipes, as with a child process.
type benchStdio struct {
	w    io.Writer     // the server's stdin
	r    *bufio.Reader // the server's stdout
	line []byte        // the message being written, with its newline
}

func (c *benchStdio) send(msg []byte, notification bool) ([]byte, error) {
	c.line = append(append(c.line[:0], msg...), '\n')
	if _, err := c.w.Write(c.line); err != nil {
		return nil, err
	}
	if notification {
		return nil, nil
	}
	// Valid until the next read, which is after the caller has looked.
	return c.r.ReadSlice('\n')
}

func benchDialStdio(b *testing.B, srv benchServer, modern bool) *benchClient {
	b.Helper()
	inR, inW := io.Pipe()   // client -> server
	outR, outW := io.Pipe() // server -> client
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	// Ends when the server returns: when inW closes at cleanup, or, if
	// the server does not notice that, when ctx is cancelled.
	go func() {
		err := srv.stdio(ctx, inR, outW)
		outW.Close()
		served <- err
	}()
	b.Cleanup(func() {
		inW.Close()
		select {
		case err := <-served:
			if err != nil && !errors.Is(err, io.EOF) {
				b.Errorf("%s: the stdio server returned %v", srv.name, err)
			}
		case <-time.After(benchWait):
			b.Errorf("%s: the stdio server did not return when its stdin closed", srv.name)
			cancel()
			<-served
		}
		cancel()
		outR.Close()
	})
	c := &benchClient{conn: &benchStdio{w: inW, r: bufio.NewReaderSize(outR, 64<<10)}, modern: modern}
	if err := c.handshake(); err != nil {
		b.Fatalf("%s over stdio: %v", srv.name, err)
	}
	return c
}

// benchHTTP is a session over Streamable HTTP: one POST per message, on a
// kept-alive connection.
type benchHTTP struct {
	client  *http.Client
	url     string
	modern  bool   // 2026-07-28: the headers that mirror the body, no session
	session string // Mcp-Session-Id, from the answer to initialize
}

func (c *benchHTTP) send(msg []byte, notification bool) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
		req.Header.Set("MCP-Protocol-Version", LegacyVersion)
	}
	if c.modern {
		req.Header.Set("MCP-Protocol-Version", ModernVersion)
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "word_count")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	// Read to the end, so that the connection can be used again.
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if c.session == "" {
		c.session = resp.Header.Get("Mcp-Session-Id")
	}
	want := http.StatusOK
	if notification {
		want = http.StatusAccepted
	}
	if resp.StatusCode != want {
		return nil, fmt.Errorf("%s, want %d: %s", resp.Status, want, body)
	}
	if notification {
		return nil, nil
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		return body, nil
	}
	// An SSE answer ends with the response; anything before it (here,
	// nothing) belongs to the request too.
	var last []byte
	for line := range bytes.Lines(body) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok && len(bytes.TrimSpace(data)) > 0 {
			last = data
		}
	}
	return last, nil
}

// close ends the session with DELETE.
func (c *benchHTTP) close() error {
	req, err := http.NewRequest(http.MethodDelete, c.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Mcp-Session-Id", c.session)
	req.Header.Set("MCP-Protocol-Version", LegacyVersion)
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("DELETE: %s", resp.Status)
	}
	return nil
}

func benchDialHTTP(b *testing.B, srv benchServer, modern bool) *benchClient {
	b.Helper()
	h, stop := srv.http(modern)
	ts := httptest.NewServer(h)
	transport := &http.Transport{}
	conn := &benchHTTP{client: &http.Client{Transport: transport}, url: ts.URL + Endpoint, modern: modern}
	b.Cleanup(func() {
		if conn.session != "" {
			if err := conn.close(); err != nil {
				b.Errorf("%s: %v", srv.name, err)
			}
		}
		stop()
		ts.Close()
		transport.CloseIdleConnections()
	})
	c := &benchClient{conn: conn, modern: modern}
	if err := c.handshake(); err != nil {
		b.Fatalf("%s over HTTP: %v", srv.name, err)
	}
	if !modern && conn.session == "" {
		b.Fatalf("%s over HTTP: initialize was answered without an Mcp-Session-Id", srv.name)
	}
	return c
}
