package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/stdio"
)

// modernFake is a scripted 2026-07-28 server over HTTP: it answers
// server/discover, and hands every other request to onCall with its
// headers and params. It records each request as "METHOD id".
type modernFake struct {
	onCall func(h http.Header, method string, params json.RawMessage) string // the result

	mu  sync.Mutex // guards got
	got []string
}

func (f *modernFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	msg, _ := jsonrpc.Decode(body)
	req, ok := msg.(*jsonrpc.Request)
	if r.Method != http.MethodPost || !ok {
		http.Error(w, "POST a request", http.StatusMethodNotAllowed)
		return
	}
	f.mu.Lock()
	f.got = append(f.got, req.Method+" "+req.ID.String())
	f.mu.Unlock()
	result := `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fake","version":"1"}}}`
	if req.Method != "server/discover" {
		result = f.onCall(r.Header, req.Method, req.Params)
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
}

func (f *modernFake) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

func connectModernFake(t *testing.T, f *modernFake, opts *ClientOptions) *Client {
	t.Helper()
	c, err := connectHTTP(t, f, "/mcp", opts)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Modern() || c.InitializeResult().ServerInfo.Name != "fake" {
		t.Fatalf("connected modern=%v to %+v, want the modern fake", c.Modern(), c.InitializeResult())
	}
	return c
}

// TestHeaderMirroring: over modern HTTP every POST names its revision,
// method and target in headers, arguments a tool marks with x-mcp-header
// travel as Mcp-Param-* (unsafe values in the base64 sentinel, nulls
// left out), and a tool with a broken annotation is left out of the list
// with a warning.
func TestHeaderMirroring(t *testing.T) {
	const tools = `{"resultType":"complete","tools":[
		{"name":"sql ü","inputSchema":{"type":"object","properties":{
			"region":{"type":"string","x-mcp-header":"Region"},
			"note":{"type":"string","x-mcp-header":"Note"},
			"odd":{"type":"string","x-mcp-header":"Odd"},
			"limit":{"type":"integer","x-mcp-header":"Limit"},
			"dry":{"type":"boolean","x-mcp-header":"Dry"},
			"gone":{"type":"string","x-mcp-header":"Gone"},
			"where":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
			"query":{"type":"string"}}}},
		{"name":"bad","inputSchema":{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","x-mcp-header":"Tag"}}}}}]}`
	var headers http.Header
	f := &modernFake{onCall: func(h http.Header, method string, _ json.RawMessage) string {
		if method == "tools/list" {
			return tools
		}
		headers = h.Clone()
		return `{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`
	}}
	var warnings []string
	c := connectModernFake(t, f, &ClientOptions{OnWarning: func(w string) { warnings = append(warnings, w) }})
	ctx := context.Background()

	list, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Name != "sql ü" {
		t.Errorf("tools/list kept %v, want only the valid tool", list)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `tool "bad" left out: x-mcp-header "Tag" is not on a property reachable through properties alone`) {
		t.Errorf("warnings %q, want one about the tool left out", warnings)
	}
	args := `{"region":"us-west1","note":" padded ","odd":"=?base64?literal?=","limit":42,"dry":false,"gone":null,"where":{"zone":"b"},"query":"SELECT 1"}`
	if _, err := c.CallTool(ctx, "sql ü", json.RawMessage(args), false); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Mcp-Protocol-Version": "2026-07-28",
		"Mcp-Method":           "tools/call",
		"Mcp-Name":             "=?base64?c3FsIMO8?=",
		"Mcp-Param-Region":     "us-west1",
		"Mcp-Param-Note":       "=?base64?IHBhZGRlZCA=?=",
		"Mcp-Param-Odd":        "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
		"Mcp-Param-Limit":      "42",
		"Mcp-Param-Dry":        "false",
		"Mcp-Param-Zone":       "b",
	}
	got := make(map[string]string)
	for k := range headers {
		if strings.HasPrefix(k, "Mcp-") {
			got[k] = headers.Get(k)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Mcp-* headers (-want +got):\n%s", diff)
	}
	if _, err := c.CallTool(ctx, "bad", json.RawMessage(`{}`), false); err == nil || !strings.Contains(err.Error(), "left out of tools/list") {
		t.Errorf("calling the tool left out: err = %v", err)
	}
	if diff := cmp.Diff([]string{"server/discover 1", "tools/list 2", "tools/call 3"}, f.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestEncodeHeaderValue(t *testing.T) {
	// The specification's own examples, and a tab.
	for in, want := range map[string]string{
		"us-west1":           "us-west1",
		"Hello, 世界":          "=?base64?SGVsbG8sIOS4lueVjA==?=",
		" padded ":           "=?base64?IHBhZGRlZCA=?=",
		"line1\nline2":       "=?base64?bGluZTEKbGluZTI=?=",
		"=?base64?literal?=": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
		"a\tb":               "=?base64?YQli?=",
		"us west 1":          "us west 1",
		"":                   "",
	} {
		if got := encodeHeaderValue(in); got != want {
			t.Errorf("encodeHeaderValue(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestContentKept: a block this package does not model (a resource_link,
// with annotations) survives CallTool whole, in Raw and when the result
// is encoded again.
func TestContentKept(t *testing.T) {
	const result = `{"resultType":"complete","content":[{"type":"resource_link","uri":"file:///notes.md","name":"notes","description":"My notes","mimeType":"text/markdown","annotations":{"audience":["user"],"priority":0.5}}],"_meta":{"x.example/trace":"abc"}}`
	f := &modernFake{onCall: func(_ http.Header, method string, _ json.RawMessage) string {
		if method == "tools/list" {
			return `{"tools":[{"name":"link","inputSchema":{"type":"object"}}]}`
		}
		return result
	}}
	c := connectModernFake(t, f, nil)
	res, err := c.CallTool(context.Background(), "link", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Raw) != result {
		t.Errorf("Raw = %s, want the result as sent", res.Raw)
	}
	if b, _ := json.Marshal(res); string(b) != result {
		t.Errorf("encoded again: %s", b)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "resource_link" {
		t.Errorf("decoded content = %+v", res.Content)
	}
}

// modernPeer plays a modern server over stdio: it answers the probe, then
// runs script on the requests that follow.
func connectModernPeer(t *testing.T, opts *ClientOptions, script func(f *fakePeer)) *Client {
	return connectPipes(t, func(in *io.PipeReader, out *io.PipeWriter) error {
		f := &fakePeer{t: t, lines: stdio.NewLineReader(in, 0), out: out}
		var probe struct{ ID json.RawMessage }
		if err := json.Unmarshal([]byte(f.read()), &probe); err != nil {
			t.Errorf("fake server: the probe: %v", err)
		}
		f.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}`, probe.ID))
		script(f)
		io.Copy(io.Discard, in) // until Close
		return nil
	}, opts)
}

// callParams is what the fake reads of a request.
type callParams struct {
	ID     int64
	Method string
	Params struct {
		Name           string
		InputResponses map[string]ElicitResult
		RequestState   *string
		Meta           map[string]json.RawMessage `json:"_meta"`
	}
}

// TestInputRequired: an input_required result is answered through
// Elicit and the request sent again with a new id, the same params, the
// answers under the same keys, and requestState echoed exactly, or left
// out when the server sent none; round after round, until complete.
func TestInputRequired(t *testing.T) {
	seen := make(chan []callParams, 1)
	var asked []string
	opts := &ClientOptions{Elicit: func(_ context.Context, p ElicitParams) (ElicitResult, error) {
		asked = append(asked, p.Message)
		return ElicitResult{Action: "accept", Content: json.RawMessage(`{"ok":true}`)}, nil
	}}
	c := connectModernPeer(t, opts, func(f *fakePeer) {
		var calls []callParams
		for _, answer := range []string{
			`{"resultType":"input_required","inputRequests":{"q1":{"method":"elicitation/create","params":{"message":"first?","requestedSchema":{"type":"object"}}}},"requestState":"s\u00e9\"1"}`,
			`{"resultType":"input_required","inputRequests":{"q2":{"method":"elicitation/create","params":{"message":"second?","requestedSchema":{"type":"object"}}}}}`,
			`{"resultType":"complete","content":[{"type":"text","text":"done"}]}`,
		} {
			var p callParams
			if err := json.Unmarshal([]byte(f.read()), &p); err != nil {
				t.Errorf("fake server: %v", err)
			}
			calls = append(calls, p)
			f.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, p.ID, answer))
		}
		seen <- calls
	})
	res, err := c.CallTool(context.Background(), "deploy", json.RawMessage(`{"env":"production"}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Content[0].Text != "done" {
		t.Errorf("result %s", res.Raw)
	}
	calls := <-seen
	if diff := cmp.Diff([]string{"first?", "second?"}, asked); diff != "" {
		t.Errorf("questions asked (-want +got):\n%s", diff)
	}
	state := `sé"1`
	accept := ElicitResult{Action: "accept", Content: json.RawMessage(`{"ok":true}`)}
	type round struct {
		ID        int64
		Responses map[string]ElicitResult
		State     *string
	}
	var got []round
	for _, p := range calls {
		if p.Method != "tools/call" || p.Params.Name != "deploy" || string(p.Params.Meta[MetaProtocolVersion]) != `"2026-07-28"` {
			t.Errorf("round %+v: not the same tools/call", p)
		}
		got = append(got, round{p.ID, p.Params.InputResponses, p.Params.RequestState})
	}
	want := []round{
		{2, nil, nil},
		{3, map[string]ElicitResult{"q1": accept}, &state},
		{4, map[string]ElicitResult{"q2": accept}, nil}, // no requestState this time: none is sent
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rounds (-want +got):\n%s", diff)
	}
}

// TestInputRequiredBound: a server that always wants more input gets
// maxInputRounds requests, then the call fails.
func TestInputRequiredBound(t *testing.T) {
	rounds := make(chan int, 1)
	c := connectModernPeer(t, nil, func(f *fakePeer) {
		n := 0
		for {
			line := f.read()
			var p callParams
			if json.Unmarshal([]byte(line), &p) != nil || p.Method != "tools/call" {
				break // Close, or something else
			}
			n++
			f.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"input_required","requestState":"again"}}`, p.ID))
			if n == maxInputRounds {
				break
			}
		}
		rounds <- n
	})
	_, err := c.CallTool(context.Background(), "loop", nil, false)
	if err == nil || !strings.Contains(err.Error(), "still wants input") {
		t.Errorf("err = %v, want the loop to stop", err)
	}
	if n := <-rounds; n != maxInputRounds {
		t.Errorf("%d requests, want %d", n, maxInputRounds)
	}
}

// TestFallbackToLegacy: a 2025-11-25 server refuses the modern probe,
// and the client opens a session at once, over HTTP (a 400 with no
// modern error in the body) and over stdio (an error answer).
func TestFallbackToLegacy(t *testing.T) {
	t.Run("http", func(t *testing.T) {
		f := newFakeHTTP(func(w http.ResponseWriter, _ *http.Request, _ jsonrpc.ID) {
			http.Error(w, "Bad Request: no session", http.StatusBadRequest)
		})
		c, err := connectHTTP(t, f, "/", nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Modern() || c.InitializeResult().ProtocolVersion != LegacyVersion {
			t.Errorf("modern %v, %+v: want a 2025-11-25 session", c.Modern(), c.InitializeResult())
		}
		var methods []string
		for _, r := range f.requests() {
			_, body, _ := strings.Cut(r, `"method":"`)
			method, _, _ := strings.Cut(body, `"`)
			methods = append(methods, strings.Fields(r)[0]+" "+method)
		}
		want := []string{"POST server/discover", "POST initialize", "POST notifications/initialized", "GET "}
		if diff := cmp.Diff(want, methods); diff != "" {
			t.Errorf("requests (-want +got):\n%s", diff)
		}
	})
	t.Run("stdio", func(t *testing.T) {
		// A deadline shorter than probeTimeout: falling back only after
		// the probe timed out would fail the connect.
		ctx, cancel := context.WithTimeout(context.Background(), probeTimeout/2)
		defer cancel()
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		// Ends when the client closes inW.
		go func() {
			f := &fakePeer{t: t, lines: stdio.NewLineReader(inR, 0), out: outW}
			if got := f.read(); !strings.Contains(got, `"method":"server/discover"`) {
				t.Errorf("first message %s, want the probe", got)
			}
			f.write(`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"not initialized"}}`)
			if got := f.read(); !strings.Contains(got, `"id":2,"method":"initialize"`) {
				t.Errorf("after the refusal %s, want initialize", got)
			}
			f.write(`{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"0"}}}`)
			f.read() // notifications/initialized
			io.Copy(io.Discard, inR)
			outW.Close()
			done <- nil
		}()
		c, err := connectStreams(ctx, outR, inW, nil, func() error { return <-done })
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if c.Modern() || c.InitializeResult().ServerInfo.Name != "old" {
			t.Errorf("modern %v, %+v: want a session with the old server", c.Modern(), c.InitializeResult())
		}
	})
}

// TestResumeLegacyStream: a 2025-11-25 response stream that ends before
// the response is resumed with a GET carrying Last-Event-ID, after the
// server's retry.
func TestResumeLegacyStream(t *testing.T) {
	var mu sync.Mutex // guards lastEventIDs
	var lastEventIDs []string
	f := newFakeHTTP(func(w http.ResponseWriter, _ *http.Request, id jsonrpc.ID) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: call-1\nretry: 1\ndata:\n\n") // then the connection closes
	})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			f.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		lastEventIDs = append(lastEventIDs, r.Header.Get("Last-Event-ID"))
		mu.Unlock()
		if r.Header.Get("Last-Event-ID") == "" {
			http.Error(w, "no stream here", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: call-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"resumed\"}]}}\n\n")
	})
	ts := httptest.NewServer(h)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	c, err := ConnectHTTP(ctx, ts.URL, pinLegacy(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "slow", json.RawMessage(`{}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Content[0].Text != "resumed" {
		t.Errorf("result %s", res.Raw)
	}
	mu.Lock()
	defer mu.Unlock()
	// The first GET is the listening stream, opened after initialize.
	if diff := cmp.Diff([]string{"", "call-1"}, lastEventIDs); diff != "" {
		t.Errorf("Last-Event-ID of each GET (-want +got):\n%s", diff)
	}
}
