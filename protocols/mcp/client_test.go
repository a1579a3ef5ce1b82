package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// testWait bounds every wait in these tests for something that should
// happen at once, so that a bug fails the test instead of hanging it.
const testWait = 10 * time.Second

// connectPipes runs serve on one end of two pipes and connects a client
// to the other ends, over the stdio transport. serve must return when in
// ends, which Close causes by closing the client's end.
func connectPipes(t *testing.T, serve func(in *io.PipeReader, out *io.PipeWriter) error, opts *ClientOptions) *Client {
	t.Helper()
	inR, inW := io.Pipe()   // client -> server
	outR, outW := io.Pipe() // server -> client
	done := make(chan error, 1)
	// Ends when serve returns: when the client closes inW.
	go func() {
		err := serve(inR, outW)
		outW.Close()
		done <- err
	}()
	stop := func() error { return <-done }
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	c, err := connectStreams(ctx, outR, inW, opts, stop)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// pinLegacy returns opts with the revision pinned to LegacyVersion, for
// tests of the legacy era: without a pin the client speaks modern first.
func pinLegacy(opts *ClientOptions) *ClientOptions {
	pinned := ClientOptions{}
	if opts != nil {
		pinned = *opts
	}
	pinned.ProtocolVersion = LegacyVersion
	return &pinned
}

// connectOurs connects a client to this package's server, in-process.
func connectOurs(t *testing.T, srvOpts *ServerOptions, opts *ClientOptions) *Client {
	t.Helper()
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), srvOpts)
	return connectPipes(t, func(in *io.PipeReader, out *io.PipeWriter) error {
		return srv.ServeStdio(context.Background(), in, out)
	}, opts)
}

func TestClientAgainstOurServer(t *testing.T) {
	// A page size of 2 makes ListTools follow nextCursor.
	c := connectOurs(t, &ServerOptions{Version: "test", PageSize: 2}, pinLegacy(nil))
	ctx := context.Background()

	init := c.InitializeResult()
	if init.ProtocolVersion != LegacyVersion || init.ServerInfo.Name != "wirelab" || init.ServerInfo.Version != "test" {
		t.Errorf("initialize result = %+v, want revision %s from wirelab test", init, LegacyVersion)
	}

	list, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"word_count", "search", "deploy_service", "weather"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list: %q missing from %q", want, names)
		}
	}
	if len(names) <= 2 {
		t.Errorf("tools/list returned %d tools: only the first page", len(names))
	}

	res, err := c.CallTool(ctx, "word_count", json.RawMessage(`{"text":"read the wire"}`), false)
	if err != nil {
		t.Fatal(err)
	}
	want := CallToolResult{
		Content:           []Content{{Type: "text", Text: `{"words":3,"chars":13}`}},
		StructuredContent: json.RawMessage(`{"words":3,"chars":13}`),
	}
	if diff := cmp.Diff(want, res.CallToolResult); diff != "" {
		t.Errorf("word_count (-want +got):\n%s", diff)
	}

	_, err = c.CallTool(ctx, "weather", json.RawMessage(`{"city":"Oslo"}`), false)
	var te *ToolError
	if !errors.As(err, &te) || te.Tool != "weather" || !strings.Contains(te.Error(), "upstream") {
		t.Errorf("weather: err = %v, want a *ToolError about the upstream", err)
	}

	_, err = c.CallTool(ctx, "nope", json.RawMessage(`{}`), false)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown tool: err = %v, want a *jsonrpc.Error with code -32602", err)
	}
	if errors.As(err, &te) {
		t.Errorf("unknown tool: err = %v is a tool error; it is a protocol error", err)
	}

	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := c.CallTool(ctx, "word_count", json.RawMessage(`{"text":"closed"}`), false); err == nil || !strings.Contains(err.Error(), "the client is closed") {
		t.Errorf("a call after Close: err = %v, want one saying the client is closed", err)
	}
}

// TestConcurrentCalls: calls that overlap each get their own answer,
// matched by request id.
func TestConcurrentCalls(t *testing.T) {
	c := connectOurs(t, nil, nil)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		// Ends when the call returns.
		go func() {
			defer wg.Done()
			text := strings.Repeat("w ", i+1)
			args, _ := json.Marshal(map[string]string{"text": text})
			res, err := c.CallTool(context.Background(), "word_count", args, false)
			if err != nil {
				t.Error(err)
				return
			}
			if got, want := string(res.StructuredContent), fmt.Sprintf(`{"words":%d,"chars":%d}`, i+1, len(text)); got != want {
				t.Errorf("call %d: got %s, want %s", i, got, want)
			}
		}()
	}
	wg.Wait()
}

// notes records notifications, for OnNotification.
type notes struct {
	mu  sync.Mutex // guards got
	got []string   // "method params"
}

func (n *notes) add(method string, params json.RawMessage) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, method+" "+string(params))
}

func (n *notes) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.got)
}

func TestProgress(t *testing.T) {
	var n notes
	c := connectOurs(t, nil, pinLegacy(&ClientOptions{OnNotification: n.add}))
	args := json.RawMessage(`{"service":"api","env":"staging"}`)

	if _, err := c.CallTool(context.Background(), "deploy_service", args, false); err != nil {
		t.Fatal(err)
	}
	if got := n.list(); len(got) != 0 {
		t.Errorf("without progress, notifications arrived: %q", got)
	}

	if _, err := c.CallTool(context.Background(), "deploy_service", args, true); err != nil {
		t.Fatal(err)
	}
	// The notifications come before the answer on the same stream, so
	// they have all been delivered by the time CallTool returns. The
	// token is the request's id: 1 was initialize, 2 the first call.
	var got []ProgressParams
	for _, note := range n.list() {
		method, params, _ := strings.Cut(note, " ")
		if method != "notifications/progress" {
			t.Errorf("unexpected notification %s", note)
			continue
		}
		var p ProgressParams
		if err := json.Unmarshal([]byte(params), &p); err != nil {
			t.Fatal(err)
		}
		p.Message = ""
		got = append(got, p)
	}
	var want []ProgressParams
	for i := 1; i <= 4; i++ {
		want = append(want, ProgressParams{ProgressToken: json.RawMessage(`3`), Progress: float64(i), Total: 4})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("progress notifications (-want +got):\n%s", diff)
	}
}

// TestCancelOurServer cancels a deploy at its first progress report: the
// call returns ctx's error, and the session goes on.
func TestCancelOurServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := connectOurs(t, nil, &ClientOptions{OnNotification: func(string, json.RawMessage) { cancel() }})
	_, err := c.CallTool(ctx, "deploy_service", json.RawMessage(`{"service":"api","env":"staging"}`), true)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if _, err := c.CallTool(context.Background(), "word_count", json.RawMessage(`{"text":"still here"}`), false); err != nil {
		t.Errorf("a call after the cancelled one: %v", err)
	}
}

// fakePeer is a scripted server at the other end of the pipes: the
// test reads what the client wrote, and writes what a server would.
type fakePeer struct {
	t     *testing.T
	lines *stdio.LineReader
	out   io.Writer
}

// read returns the next line the client wrote.
func (f *fakePeer) read() string {
	line, err := f.lines.Next()
	if err != nil {
		f.t.Errorf("fake server: reading: %v", err)
		return ""
	}
	return string(line)
}

func (f *fakePeer) write(line string) {
	if _, err := io.WriteString(f.out, line+"\n"); err != nil {
		f.t.Errorf("fake server: writing: %v", err)
	}
}

// handshake plays the server's part of initialize.
func (f *fakePeer) handshake() {
	if got := f.read(); !strings.Contains(got, `"method":"initialize"`) {
		f.t.Errorf("fake server: first message %s, want initialize", got)
	}
	f.write(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}}`)
	if got, want := f.read(), `{"jsonrpc":"2.0","method":"notifications/initialized"}`; got != want {
		f.t.Errorf("fake server: after initialize got %s, want %s", got, want)
	}
}

// connectFake connects a client to a fake server running script. The
// script ends by returning; the client's Close waits for it.
func connectFake(t *testing.T, opts *ClientOptions, script func(f *fakePeer)) *Client {
	opts = pinLegacy(opts)
	return connectPipes(t, func(in *io.PipeReader, out *io.PipeWriter) error {
		f := &fakePeer{t: t, lines: stdio.NewLineReader(in, 0), out: out}
		f.handshake()
		script(f)
		io.Copy(io.Discard, in) // until Close
		return nil
	}, opts)
}

func TestCancelSendsNotification(t *testing.T) {
	cancelled := make(chan string, 1)
	c := connectFake(t, nil, func(f *fakePeer) {
		if got := f.read(); !strings.Contains(got, `"id":2,"method":"tools/call"`) {
			t.Errorf("fake server: got %s, want tools/call with id 2", got)
		}
		// No answer: the client gives up first.
		cancelled <- f.read()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err := c.CallTool(ctx, "deploy_service", json.RawMessage(`{"service":"api","env":"staging"}`), false)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
	var got struct {
		Method string
		Params CancelledParams
	}
	select {
	case line := <-cancelled:
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	case <-time.After(testWait):
		t.Fatal("no message after the call was abandoned")
	}
	if got.Method != "notifications/cancelled" || string(got.Params.RequestID) != "2" || got.Params.Reason == "" {
		t.Errorf("got %+v, want notifications/cancelled for request 2, with a reason", got)
	}
}

func TestServerRequests(t *testing.T) {
	notified := make(chan string, 1)
	answers := make(chan []string, 1)
	connectFake(t, &ClientOptions{OnNotification: func(m string, p json.RawMessage) { notified <- m + " " + string(p) }},
		func(f *fakePeer) {
			f.write(`{"jsonrpc":"2.0","id":"s1","method":"ping"}`)
			first := f.read()
			f.write(`{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{}}`)
			second := f.read()
			f.write(`this is a log line on stdout`)
			f.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`)
			answers <- []string{first, second}
		})
	want := []string{
		`{"jsonrpc":"2.0","id":"s1","result":{}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"method \"sampling/createMessage\" not found: this client declared no capabilities and answers only ping"}}`,
	}
	select {
	case got := <-answers:
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("answers to the server's requests (-want +got):\n%s", diff)
		}
	case <-time.After(testWait):
		t.Fatal("the client did not answer")
	}
	select {
	case got := <-notified:
		if want := `notifications/message {"level":"info","data":"hi"}`; got != want {
			t.Errorf("notification %s, want %s", got, want)
		}
	case <-time.After(testWait):
		t.Fatal("the notification did not reach OnNotification")
	}
}

// newSDKServer is an MCP server built with the official Go SDK: an
// independent implementation for this client to talk to. greet fails as a
// tool when the name is empty; chatty talks to the client before it
// answers: a progress report, if asked for, then a ping.
func newSDKServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "sdk-server", Version: "1.0"}, nil)
	type greetIn struct {
		Name string `json:"name"`
	}
	type greetOut struct {
		Greeting string `json:"greeting"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "greet", Description: "Say hello."},
		func(_ context.Context, _ *sdk.CallToolRequest, in greetIn) (*sdk.CallToolResult, greetOut, error) {
			if in.Name == "" {
				return nil, greetOut{}, errors.New("nobody to greet")
			}
			return nil, greetOut{Greeting: "hello, " + in.Name}, nil
		})
	type chattyOut struct {
		Pinged bool `json:"pinged"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "chatty", Description: "Report progress and ping the client."},
		func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, chattyOut, error) {
			if token := req.Params.GetProgressToken(); token != nil {
				p := &sdk.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 2, Message: "halfway"}
				if err := req.Session.NotifyProgress(ctx, p); err != nil {
					return nil, chattyOut{}, err
				}
			}
			if err := req.Session.Ping(ctx, nil); err != nil {
				return nil, chattyOut{}, fmt.Errorf("pinging the client: %w", err)
			}
			return nil, chattyOut{Pinged: true}, nil
		})
	return srv
}

func connectSDKStdio(t *testing.T, srv *sdk.Server, opts *ClientOptions) *Client {
	return connectPipes(t, func(in *io.PipeReader, out *io.PipeWriter) error {
		return srv.Run(context.Background(), &sdk.IOTransport{Reader: in, Writer: out})
	}, opts)
}

func connectSDKHTTP(opts sdk.StreamableHTTPOptions) func(*testing.T, *sdk.Server, *ClientOptions) *Client {
	return func(t *testing.T, srv *sdk.Server, copts *ClientOptions) *Client {
		h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &opts)
		ts := httptest.NewServer(h)
		t.Cleanup(ts.Close)
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		c, err := ConnectHTTP(ctx, ts.URL, copts)
		if err != nil {
			t.Fatalf("connecting: %v", err)
		}
		t.Cleanup(func() {
			if err := c.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}) // runs before ts.Close: cleanups run last first
		return c
	}
}

// TestClientAgainstSDK: this client and the official Go SDK's server, in
// both eras, over stdio and over Streamable HTTP in each of the SDK's
// modes. The SDK speaks 2026-07-28 too, so a client with no pinned
// revision stays modern; pinned to 2025-11-25, it opens a session.
func TestClientAgainstSDK(t *testing.T) {
	for _, tt := range []struct {
		name    string
		connect func(*testing.T, *sdk.Server, *ClientOptions) *Client
		pin     string // ClientOptions.ProtocolVersion
		want    string // the revision spoken
		// chatty: the server's own messages reach the client during a
		// call: a progress report, and a ping the client must answer.
		// Legacy only: 2026-07-28 has no ping.
		chatty bool
	}{
		{"stdio/legacy", connectSDKStdio, LegacyVersion, LegacyVersion, true},
		{"stdio/modern", connectSDKStdio, "", ModernVersion, false},
		{"http-sse/legacy", connectSDKHTTP(sdk.StreamableHTTPOptions{}), LegacyVersion, LegacyVersion, true},
		// The SDK's stateful handler lists only legacy revisions in
		// server/discover, so an unpinned client falls back at once.
		{"http-sse/unpinned", connectSDKHTTP(sdk.StreamableHTTPOptions{}), "", LegacyVersion, true},
		// With JSON answers the SDK sends its own messages on the GET
		// stream, which the client opens after initialize.
		{"http-json/legacy", connectSDKHTTP(sdk.StreamableHTTPOptions{JSONResponse: true}), LegacyVersion, LegacyVersion, false},
		{"http-json/unpinned", connectSDKHTTP(sdk.StreamableHTTPOptions{JSONResponse: true}), "", LegacyVersion, false},
		{"http-stateless/modern", connectSDKHTTP(sdk.StreamableHTTPOptions{Stateless: true}), "", ModernVersion, false},
		{"http-stateless/pinned", connectSDKHTTP(sdk.StreamableHTTPOptions{Stateless: true}), ModernVersion, ModernVersion, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var n notes
			c := tt.connect(t, newSDKServer(), &ClientOptions{OnNotification: n.add, ProtocolVersion: tt.pin})
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()

			if got := c.InitializeResult(); got.ProtocolVersion != tt.want || got.ServerInfo.Name != "sdk-server" || c.Modern() != (tt.want == ModernVersion) {
				t.Errorf("server = %+v, modern %v; want revision %s from sdk-server", got, c.Modern(), tt.want)
			}
			list, err := c.ListTools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list {
				names = append(names, tool.Name)
			}
			slices.Sort(names)
			if diff := cmp.Diff([]string{"chatty", "greet"}, names); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}

			res, err := c.CallTool(ctx, "greet", json.RawMessage(`{"name":"wire"}`), false)
			if err != nil {
				t.Fatal(err)
			}
			var out map[string]any
			if err := json.Unmarshal(res.StructuredContent, &out); err != nil {
				t.Fatalf("structuredContent %s: %v", res.StructuredContent, err)
			}
			if diff := cmp.Diff(map[string]any{"greeting": "hello, wire"}, out); diff != "" {
				t.Errorf("structuredContent (-want +got):\n%s", diff)
			}

			_, err = c.CallTool(ctx, "greet", json.RawMessage(`{"name":""}`), false)
			var te *ToolError
			if !errors.As(err, &te) || !strings.Contains(te.Error(), "nobody to greet") {
				t.Errorf("greet with no name: err = %v, want a *ToolError", err)
			}

			_, err = c.CallTool(ctx, "nope", json.RawMessage(`{}`), false)
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("unknown tool: err = %v, want a *jsonrpc.Error with code -32602", err)
			}

			if !tt.chatty {
				return
			}
			// The ping is answered (or the tool would fail), and the
			// progress report arrives with the request's id as token.
			res, err = c.CallTool(ctx, "chatty", json.RawMessage(`{}`), true)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.StructuredContent); got != `{"pinged":true}` {
				t.Errorf("chatty: structuredContent = %s", got)
			}
			token := 6 // initialize, tools/list, three calls, then this one
			if tt.pin == "" {
				token++ // the server/discover probe came first
			}
			want := []string{fmt.Sprintf(`notifications/progress {"progressToken":%d,"message":"halfway","progress":1,"total":2}`, token)}
			if diff := cmp.Diff(want, n.list()); diff != "" {
				t.Errorf("notifications (-want +got):\n%s", diff)
			}
		})
	}
}
