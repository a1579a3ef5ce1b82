package mcp

// The official Go SDK's client against this package's server: a second,
// independent implementation of the client side, so that the server is
// not only tested by code written with the same understanding of the
// spec. Every cell of the matrix (stdio or Streamable HTTP; the revision
// pinned, or the SDK left to its default) runs the same session.

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
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdkjsonrpc "github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wirelab/wirelab/protocols/tools"
)

// interopWait bounds every wait in these tests for something that should
// happen at once, so that a bug fails the test instead of hanging it.
const interopWait = 10 * time.Second

// interopConnect starts this package's server on one transport and
// connects client to it. It returns the session and a function to call
// after the session is closed, which reports whether the server let go
// of it. wire records what went over the transport.
type interopConnect func(t *testing.T, client *sdk.Client, opts *sdk.ClientSessionOptions, wire *interopWire) (cs *sdk.ClientSession, released func() error)

// TestInteropSDKClient: in every cell the SDK's client completes the
// handshake, lists and calls tools (a result, a tool error, a protocol
// error), reads a resource, fills in a prompt, sees progress, answers an
// elicitation both ways and pings; when it closes the session, the
// server lets go and no goroutine is left behind.
func TestInteropSDKClient(t *testing.T) {
	transports := []struct {
		name    string
		connect interopConnect
	}{
		{"stdio", interopStdio},
		{"http", interopHTTP},
	}
	versions := []struct {
		name string
		opts *sdk.ClientSessionOptions
		// modern: the SDK speaks 2026-07-28, which has no session and
		// no ping.
		modern bool
	}{
		{"pinned", &sdk.ClientSessionOptions{ProtocolVersion: LegacyVersion}, false},
		{"default", nil, true},
	}
	for _, tr := range transports {
		for _, v := range versions {
			t.Run(tr.name+"/"+v.name, func(t *testing.T) {
				interopNoLeaks(t)
				ctx, cancel := context.WithTimeout(context.Background(), interopWait)
				defer cancel()

				user := &interopUser{answers: make(chan *sdk.ElicitResult, 1), asked: make(chan *sdk.ElicitParams, 4)}
				progress := make(chan *sdk.ProgressNotificationParams, 16)
				client := sdk.NewClient(&sdk.Implementation{Name: "sdk-interop", Version: "1"}, &sdk.ClientOptions{
					ElicitationHandler: user.elicit,
					ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
						select {
						case progress <- req.Params:
						default: // more than the test reads; it only needs one
						}
					},
				})
				var wire interopWire
				cs, released := tr.connect(t, client, v.opts, &wire)

				t.Run("handshake", func(t *testing.T) { interopHandshake(t, cs, &wire, v.modern) })
				t.Run("tools", func(t *testing.T) { interopTools(ctx, t, cs) })
				t.Run("resources", func(t *testing.T) { interopResources(ctx, t, cs) })
				t.Run("prompts", func(t *testing.T) { interopPrompts(ctx, t, cs) })
				t.Run("progress", func(t *testing.T) { interopProgress(ctx, t, cs, progress) })
				t.Run("elicitation", func(t *testing.T) { interopElicitation(ctx, t, cs, user) })
				t.Run("ping", func(t *testing.T) {
					if v.modern {
						t.Skip("2026-07-28 has no ping: there is no session to keep alive")
					}
					if err := cs.Ping(ctx, nil); err != nil {
						t.Fatalf("ping: %v", err)
					}
				})

				if err := cs.Close(); err != nil {
					t.Errorf("closing the session: %v", err)
				}
				if err := released(); err != nil {
					t.Errorf("after the client closed its session: %v", err)
				}
			})
		}
	}
}

// interopHandshake checks how the client opened. Pinned to 2025-11-25,
// it sends initialize first and agrees on that revision. By default the
// SDK speaks 2026-07-28: it sends server/discover, this server answers it
// with the revisions it speaks, and no initialize follows: every later
// request carries its own _meta.
func interopHandshake(t *testing.T, cs *sdk.ClientSession, wire *interopWire, modern bool) {
	sent := wire.requests()
	var methods []string
	for _, m := range sent {
		methods = append(methods, m.Method)
	}
	if !modern {
		init := cs.InitializeResult()
		if init.ProtocolVersion != LegacyVersion {
			t.Errorf("negotiated protocolVersion = %q, want %q", init.ProtocolVersion, LegacyVersion)
		}
		if init.ServerInfo == nil || init.ServerInfo.Name != "wirelab" {
			t.Errorf("serverInfo = %+v, want name wirelab", init.ServerInfo)
		}
		if len(methods) == 0 || methods[0] != "initialize" {
			t.Fatalf("the client opened with %q, want initialize first\nwire:\n%s", methods, wire)
		}
		if got := sent[0].protocolVersion(); got != LegacyVersion {
			t.Errorf("initialize asked for protocolVersion %q, want %q", got, LegacyVersion)
		}
		return
	}
	if len(methods) == 0 || methods[0] != "server/discover" {
		t.Fatalf("the client opened with %q, want server/discover first\nwire:\n%s", methods, wire)
	}
	if slices.Contains(methods, "initialize") {
		t.Errorf("the client sent initialize after server/discover succeeded: %q\nwire:\n%s", methods, wire)
	}
	discover := sent[0]
	if got := discover.metaVersion(); got != ModernVersion {
		t.Errorf("server/discover carried _meta protocolVersion %q, want %s", got, ModernVersion)
	}
	answer, ok := wire.answerTo(discover)
	if !ok {
		t.Fatalf("server/discover (id %s) got no answer with its id\nwire:\n%s", discover.ID, wire)
	}
	var res DiscoverResult
	if answer.Error != nil || json.Unmarshal(answer.Result, &res) != nil || !slices.Contains(res.SupportedVersions, ModernVersion) {
		t.Errorf("server/discover was answered with %s, want a result whose supportedVersions has %s", answer.raw, ModernVersion)
	}
	for _, m := range sent[1:] {
		if m.metaVersion() != ModernVersion {
			t.Errorf("%s carried _meta protocolVersion %q, want %s on every request", m.Method, m.metaVersion(), ModernVersion)
		}
	}
}

// interopTools lists the tools and calls each kind: one that works, one
// that fails as a tool (isError), and one that does not exist (a protocol
// error).
func interopTools(ctx context.Context, t *testing.T, cs *sdk.ClientSession) {
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"deploy_service", "search", "weather", "word_count"}, names); diff != "" {
		t.Errorf("tools/list names (-want +got):\n%s", diff)
	}
	i := slices.IndexFunc(list.Tools, func(tool *sdk.Tool) bool { return tool.Name == "word_count" })
	if i >= 0 {
		wc := list.Tools[i]
		if got := interopSchemaProperties(t, wc.InputSchema); !slices.Equal(got, []string{"text"}) {
			t.Errorf("word_count inputSchema properties = %q, want [text]", got)
		}
		if got := interopSchemaProperties(t, wc.OutputSchema); !slices.Equal(got, []string{"chars", "words"}) {
			t.Errorf("word_count outputSchema properties = %q, want [chars words]", got)
		}
	}

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "word_count", Arguments: map[string]any{"text": "read the wire"}})
	if err != nil {
		t.Fatalf("tools/call word_count: %v", err)
	}
	if res.IsError {
		t.Errorf("word_count: isError is true: %s", interopText(res.Content))
	}
	// The SDK decodes JSON numbers as float64.
	if diff := cmp.Diff(map[string]any{"words": 3.0, "chars": 13.0}, res.StructuredContent); diff != "" {
		t.Errorf("word_count structuredContent (-want +got):\n%s", diff)
	}

	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "weather", Arguments: map[string]any{"city": "Oslo"}})
	if err != nil {
		t.Fatalf("tools/call weather: %v, want a result with isError (a tool failure is not a protocol error)", err)
	}
	if !res.IsError || !strings.Contains(interopText(res.Content), "upstream") {
		t.Errorf("weather: isError %v, text %q; want isError true and a text about the upstream", res.IsError, interopText(res.Content))
	}

	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "nope", Arguments: map[string]any{}})
	var rpcErr *sdkjsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != sdkjsonrpc.CodeInvalidParams {
		t.Errorf("tools/call nope: err = %v, want a JSON-RPC error with code -32602", err)
	}
}

// interopResources lists the resources and reads a note.
func interopResources(ctx context.Context, t *testing.T, cs *sdk.ClientSession) {
	const uri = "wirelab://notes/mcp"
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	for _, want := range []string{uri, deployLogURI} {
		if !slices.Contains(uris, want) {
			t.Errorf("resources/list: %s missing from %q", want, uris)
		}
	}

	read, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("resources/read %s: %v", uri, err)
	}
	if len(read.Contents) != 1 {
		t.Fatalf("resources/read %s: %d contents, want 1", uri, len(read.Contents))
	}
	c := read.Contents[0]
	if c.URI != uri || c.MIMEType != "text/markdown" || !strings.HasPrefix(c.Text, "# ") {
		t.Errorf("resources/read %s = {uri %q, mimeType %q, text %.40q}, want the markdown note", uri, c.URI, c.MIMEType, c.Text)
	}
}

// interopPrompts fills in a prompt: a question, then the note attached as
// an embedded resource.
func interopPrompts(ctx context.Context, t *testing.T, cs *sdk.ClientSession) {
	got, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "explain", Arguments: map[string]string{"topic": "mcp"}})
	if err != nil {
		t.Fatalf("prompts/get explain: %v", err)
	}
	if len(got.Messages) != 2 {
		t.Fatalf("prompts/get explain: %d messages, want 2 (the question, the note)", len(got.Messages))
	}
	if text, ok := got.Messages[0].Content.(*sdk.TextContent); !ok || !strings.Contains(text.Text, "mcp") {
		t.Errorf("first message = %#v, want text about mcp", got.Messages[0].Content)
	}
	if res, ok := got.Messages[1].Content.(*sdk.EmbeddedResource); !ok || res.Resource == nil || res.Resource.URI != "wirelab://notes/mcp" {
		t.Errorf("second message = %#v, want the note wirelab://notes/mcp embedded", got.Messages[1].Content)
	}
}

// interopProgress calls the slow tool with a progress token; the SDK
// hands the notifications to its handler.
func interopProgress(ctx context.Context, t *testing.T, cs *sdk.ClientSession, progress <-chan *sdk.ProgressNotificationParams) {
	params := &sdk.CallToolParams{Name: "deploy_service", Arguments: map[string]any{"service": "api", "env": "staging"}}
	params.SetProgressToken("interop-deploy")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("tools/call deploy_service: %v", err)
	}
	if res.IsError {
		t.Fatalf("deploy_service staging: isError: %s", interopText(res.Content))
	}
	// The SDK delivers a response at once but queues notifications for
	// its handlers, so the first one may arrive just after the result.
	select {
	case p := <-progress:
		if p.ProgressToken != "interop-deploy" || p.Progress <= 0 {
			t.Errorf("notifications/progress = %+v, want token interop-deploy and progress > 0", p)
		}
	case <-ctx.Done():
		t.Fatal("deploy_service with a progress token: the SDK's progress handler was never called")
	}
}

// interopElicitation deploys to production: the server asks the user
// (elicitation/create) first, and a yes runs the tool, a no does not.
func interopElicitation(ctx context.Context, t *testing.T, cs *sdk.ClientSession, user *interopUser) {
	for _, tt := range []struct {
		answer      *sdk.ElicitResult
		wantIsError bool
	}{
		{&sdk.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, false},
		{&sdk.ElicitResult{Action: "decline"}, true},
	} {
		t.Run(tt.answer.Action, func(t *testing.T) {
			user.answers <- tt.answer
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "deploy_service", Arguments: map[string]any{"service": "api", "env": "production"}})
			if err != nil {
				t.Fatalf("tools/call deploy_service production: %v", err)
			}
			select {
			case q := <-user.asked:
				if !strings.Contains(q.Message, "deploy:production") {
					t.Errorf("elicitation/create message = %q, want it to name the deploy:production permission", q.Message)
				}
			default:
				t.Fatal("deploy_service production ran without elicitation/create reaching the SDK's handler")
			}
			if res.IsError != tt.wantIsError {
				t.Errorf("after %s: isError = %v, want %v (text %q)", tt.answer.Action, res.IsError, tt.wantIsError, interopText(res.Content))
			}
		})
	}
}

// interopUser answers elicitation/create the way the test says, and
// keeps the questions.
type interopUser struct {
	answers chan *sdk.ElicitResult // the answer to the next question, put there before the call
	asked   chan *sdk.ElicitParams // the questions, in order
}

func (u *interopUser) elicit(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	select {
	case u.asked <- req.Params:
	default:
	}
	select {
	case a := <-u.answers:
		return a, nil
	default:
		return nil, errors.New("interop test: a question nobody expected")
	}
}

// interopText joins the text blocks of a result.
func interopText(content []sdk.Content) string {
	var parts []string
	for _, c := range content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// interopSchemaProperties returns the sorted property names of an object
// schema, as the SDK decoded it.
func interopSchemaProperties(t *testing.T, schema any) []string {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatalf("schema %v: %v", schema, err)
	}
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil || s.Type != "object" {
		t.Errorf("schema %s is not an object schema", b)
	}
	var names []string
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// interopStdio runs the server in-process on two pipes and hands their
// other ends to the SDK's IOTransport: the same bytes as a child process's
// stdin and stdout, without the process.
func interopStdio(t *testing.T, client *sdk.Client, opts *sdk.ClientSessionOptions, wire *interopWire) (*sdk.ClientSession, func() error) {
	t.Helper()
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"})
	inR, inW := io.Pipe()   // client -> server: its stdin
	outR, outW := io.Pipe() // server -> client: its stdout
	served := make(chan error, 1)
	// Ends when ServeStdio returns: at EOF on inR, when the client closes
	// inW. The recorder comes before the pipe in both directions, so that
	// a message is recorded before the other side can read it: the pipe's
	// Write returns only once the client has read the answer, and by then
	// the client may already be asking what the wire holds.
	go func() {
		err := srv.ServeStdio(context.Background(), io.TeeReader(inR, wire.sent()), io.MultiWriter(wire.answered(), outW))
		outW.Close()
		served <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), interopWait)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, opts)
	if err != nil {
		inW.Close()
		outR.Close()
		<-served
		t.Fatalf("connecting over stdio: %v\nwire:\n%s", err, wire)
	}
	released := func() error {
		select {
		case err := <-served:
			if err != nil {
				return fmt.Errorf("ServeStdio returned %w, want nil at EOF", err)
			}
			return nil
		case <-time.After(interopWait):
			return errors.New("ServeStdio has not returned: closing the client's side of the pipes did not end the session")
		}
	}
	return cs, released
}

// interopHTTP serves the Streamable HTTP handler with httptest and
// connects the SDK's streamable client transport to it.
func interopHTTP(t *testing.T, client *sdk.Client, opts *sdk.ClientSessionOptions, wire *interopWire) (*sdk.ClientSession, func() error) {
	t.Helper()
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"})
	h := srv.HTTPHandler(&HTTPOptions{Loopback: true})
	ts := httptest.NewServer(h)
	// A transport of its own, so that its idle connections can be closed
	// at the end and are not mistaken for a leak.
	transport := &http.Transport{}
	t.Cleanup(func() {
		h.Close()
		ts.Close()
		transport.CloseIdleConnections()
	})
	ctx, cancel := context.WithTimeout(context.Background(), interopWait)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{
		Endpoint:   ts.URL + Endpoint,
		HTTPClient: &http.Client{Transport: &interopRecorder{base: transport, wire: wire}},
		MaxRetries: -1, // a dropped stream is a failure here, not something to retry
	}, opts)
	if err != nil {
		t.Fatalf("connecting over HTTP: %v\nwire:\n%s", err, wire)
	}
	released := func() error {
		// The SDK's Close sends DELETE and waits for its answer.
		h.mu.Lock()
		defer h.mu.Unlock()
		if n := len(h.sessions); n != 0 {
			return fmt.Errorf("%d session(s) still open on the server: no DELETE arrived", n)
		}
		return nil
	}
	return cs, released
}
