package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// fakeHTTP is a scripted Streamable HTTP server. It answers initialize
// with a session id, accepts notifications and responses with 202
// (passing responses on to answers), and hands each other request to
// onCall. It records every HTTP request it gets.
type fakeHTTP struct {
	onCall  func(w http.ResponseWriter, r *http.Request, id jsonrpc.ID)
	answers chan string // the client's responses to the server's requests

	mu  sync.Mutex // guards got
	got []string   // one line per HTTP request: method, headers, body
}

const fakeSession = "sess-1"

func newFakeHTTP(onCall func(w http.ResponseWriter, r *http.Request, id jsonrpc.ID)) *fakeHTTP {
	return &fakeHTTP{onCall: onCall, answers: make(chan string, 10)}
}

func (f *fakeHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.got = append(f.got, fmt.Sprintf("%s session=%q version=%q auth=%q accept=%q type=%q %s",
		r.Method, r.Header.Get("Mcp-Session-Id"), r.Header.Get("Mcp-Protocol-Version"), r.Header.Get("Authorization"),
		r.Header.Get("Accept"), r.Header.Get("Content-Type"), body))
	f.mu.Unlock()
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	msg, _ := jsonrpc.Decode(body)
	switch m := msg.(type) {
	case *jsonrpc.Response:
		f.answers <- string(body)
		w.WriteHeader(http.StatusAccepted)
	case *jsonrpc.Request:
		switch {
		case m.IsNotification():
			w.WriteHeader(http.StatusAccepted)
		case m.Method == "initialize":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Mcp-Session-Id", fakeSession)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}}`, m.ID)
		default:
			f.onCall(w, r, m.ID)
		}
	default:
		http.Error(w, "not a message", http.StatusBadRequest)
	}
}

func (f *fakeHTTP) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

// connectHTTP connects a client to h, served by httptest, at path.
func connectHTTP(t *testing.T, h http.Handler, path string, opts *ClientOptions) (*Client, error) {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	c, err := ConnectHTTP(ctx, ts.URL+path, opts)
	if err == nil {
		t.Cleanup(func() { c.Close() }) // before ts.Close: cleanups run last first
	}
	return c, err
}

// TestHTTPEventStream: the answer to tools/call is an event stream that
// carries a progress notification and a ping before the result. The
// client hands the first to OnNotification, answers the second with a
// POST of its own, and returns the result. Every request carries the
// headers the transport requires.
func TestHTTPEventStream(t *testing.T) {
	var f *fakeHTTP
	f = newFakeHTTP(func(w http.ResponseWriter, r *http.Request, id jsonrpc.ID) {
		w.Header().Set("Content-Type", "text/event-stream")
		// A comment, a priming event (an id, no data), then a
		// notification split over two data lines, with CRLF line ends.
		fmt.Fprint(w, ": hello\n\nid: 0\ndata:\n\n")
		fmt.Fprintf(w, "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\r\n"+
			"data: \"params\":{\"progressToken\":%s,\"progress\":1,\"total\":2}}\r\n\r\n", id)
		fmt.Fprint(w, "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"p1\",\"method\":\"ping\"}\n\n")
		w.(http.Flusher).Flush()
		// A server that pings waits for the answer; so does this one.
		select {
		case <-f.answers:
		case <-r.Context().Done():
			return
		}
		fmt.Fprintf(w, "id: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n", id)
	})
	var n notes
	c, err := connectHTTP(t, f, "/", pinLegacy(&ClientOptions{Token: "s3cret", OnNotification: n.add}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(context.Background(), "slow", json.RawMessage(`{}`), true)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Content{{Type: "text", Text: "done"}}, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`notifications/progress {"progressToken":2,"progress":1,"total":2}`}, n.list()); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	const (
		first = `session="" version="" auth="Bearer s3cret" accept="application/json, text/event-stream" type="application/json" `
		later = `session="sess-1" version="2025-11-25" auth="Bearer s3cret" accept="application/json, text/event-stream" type="application/json" `
	)
	want := []string{
		"POST " + first + `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wirelab","version":"dev"}}}`,
		"POST " + later + `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`GET session="sess-1" version="2025-11-25" auth="Bearer s3cret" accept="text/event-stream" type="" `,
		"POST " + later + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":2}}}`,
		"POST " + later + `{"jsonrpc":"2.0","id":"p1","result":{}}`,
		`DELETE session="sess-1" version="2025-11-25" auth="Bearer s3cret" accept="" type="" `,
	}
	if diff := cmp.Diff(want, f.requests()); diff != "" {
		t.Errorf("HTTP requests (-want +got):\n%s", diff)
	}
}

// TestClientAgainstOurHTTPServer: this client and this package's server,
// over Streamable HTTP, in both eras.
func TestClientAgainstOurHTTPServer(t *testing.T) {
	for _, tt := range []struct{ pin, want string }{
		{LegacyVersion, LegacyVersion},
		{"", ModernVersion},
	} {
		t.Run(tt.want, func(t *testing.T) {
			srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"})
			h := srv.HTTPHandler(nil)
			t.Cleanup(h.Close)
			var n notes
			c, err := connectHTTP(t, h, Endpoint, &ClientOptions{OnNotification: n.add, ProtocolVersion: tt.pin})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if got := c.InitializeResult(); got.ProtocolVersion != tt.want || got.ServerInfo.Version != "test" {
				t.Errorf("server = %+v, want revision %s", got, tt.want)
			}
			if list, err := c.ListTools(ctx); err != nil || len(list) < 4 {
				t.Errorf("tools/list: %d tools, err %v", len(list), err)
			}
			// The token is the call's id: 1 was initialize or
			// server/discover, 2 tools/list.
			res, err := c.CallTool(ctx, "deploy_service", json.RawMessage(`{"service":"api","env":"staging"}`), true)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError || len(res.StructuredContent) == 0 {
				t.Errorf("deploy_service result = %+v", res)
			}
			if got := n.list(); len(got) != 4 || !strings.HasPrefix(got[3], `notifications/progress {"progressToken":3,"progress":4,"total":4`) {
				t.Errorf("notifications: %q, want 4 progress reports for token 3", got)
			}
			_, err = c.CallTool(ctx, "weather", json.RawMessage(`{"city":"Oslo"}`), false)
			var te *ToolError
			if !errors.As(err, &te) {
				t.Errorf("weather: err = %v, want a *ToolError", err)
			}
			_, err = c.CallTool(ctx, "nope", json.RawMessage(`{}`), false)
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("unknown tool: err = %v, want a *jsonrpc.Error with code -32602", err)
			}
			if err := c.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	t.Run("stale session", func(t *testing.T) {
		c, err := connectHTTP(t, newFakeHTTP(func(w http.ResponseWriter, _ *http.Request, _ jsonrpc.ID) {
			http.Error(w, "session not found", http.StatusNotFound)
		}), "/", nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.CallTool(context.Background(), "word_count", json.RawMessage(`{"text":"x"}`), false)
		var he *HTTPError
		if !errors.As(err, &he) || he.StatusCode != http.StatusNotFound || he.SessionID != fakeSession {
			t.Fatalf("err = %v, want an *HTTPError 404 for session %s", err, fakeSession)
		}
		if !strings.Contains(err.Error(), `no longer knows session "sess-1"`) {
			t.Errorf("error %q does not say the session is gone", err)
		}
	})
	t.Run("token needed", func(t *testing.T) {
		const challenge = `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`
		_, err := connectHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("WWW-Authenticate", challenge)
			w.WriteHeader(http.StatusUnauthorized)
		}), "/", nil)
		var he *HTTPError
		if !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized || he.WWWAuthenticate != challenge {
			t.Fatalf("err = %v, want an *HTTPError 401 with the challenge", err)
		}
		if !strings.Contains(err.Error(), challenge) {
			t.Errorf("error %q does not show the WWW-Authenticate header", err)
		}
	})
	t.Run("our server with tokens", func(t *testing.T) {
		tokens, err := tools.ParseTokens([]string{"s3cret"})
		if err != nil {
			t.Fatal(err)
		}
		h := NewServer(tools.New(nil), nil).HTTPHandler(&HTTPOptions{Tokens: tokens})
		t.Cleanup(h.Close)
		_, err = connectHTTP(t, h, Endpoint, nil)
		var he *HTTPError
		if !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized || !strings.Contains(he.WWWAuthenticate, "resource_metadata=") {
			t.Errorf("without a token: err = %v, want an *HTTPError 401 pointing at the resource metadata", err)
		}
		if _, err := connectHTTP(t, h, Endpoint, &ClientOptions{Token: "s3cret"}); err != nil {
			t.Errorf("with the token: %v", err)
		}
	})
	t.Run("stream without an answer", func(t *testing.T) {
		c, err := connectHTTP(t, newFakeHTTP(func(w http.ResponseWriter, _ *http.Request, _ jsonrpc.ID) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"bye\"}}\n\n")
		}), "/", pinLegacy(nil))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.CallTool(context.Background(), "word_count", json.RawMessage(`{"text":"x"}`), false)
		if err == nil || !strings.Contains(err.Error(), "ended before the response to request 2") {
			t.Errorf("err = %v, want the stream to have ended before the response", err)
		}
	})
}

func TestSSEReader(t *testing.T) {
	stream := ": a comment, to keep the connection alive\r\n" +
		"retry: 1000\r\n" +
		"id: 1\r\n" +
		"data:\r\n" +
		"\r\n" + // a priming event: an id, no data
		"event: message\n" +
		"data: {\"a\":\n" +
		"data:1}\n" +
		"\n" +
		"data: cut off by the end"
	r := &sseReader{lines: stdio.NewLineReader(strings.NewReader(stream), 0)}
	var got []sseEvent
	for {
		ev, err := r.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev)
	}
	want := []sseEvent{
		{id: "1"},
		{event: "message", data: "{\"a\":\n1}"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(sseEvent{})); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
