package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeServer is a tiny MCP server over Streamable HTTP. It gives the
// session id "s-1", answers notifications with 202, and answers
// tools/call with answer; with sse, every answer is an event stream
// that opens with an event without data and a log notification. It
// notes each request it gets, with the session headers.
type fakeServer struct {
	sse    bool
	answer string // the "result" or "error" member of tools/call's answer

	mu   sync.Mutex // guards seen
	seen []string
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.NewDecoder(r.Body).Decode(&msg)
	f.mu.Lock()
	f.seen = append(f.seen, fmt.Sprintf("%s %s session=%q version=%q accept=%q", r.Method, msg.Method,
		r.Header.Get("Mcp-Session-Id"), r.Header.Get("MCP-Protocol-Version"), r.Header.Get("Accept")))
	f.mu.Unlock()
	switch {
	case r.Method == http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
		return
	case msg.ID == nil:
		w.WriteHeader(http.StatusAccepted)
		return
	}
	member := f.answer
	if msg.Method == "initialize" {
		w.Header().Set("Mcp-Session-Id", "s-1")
		member = `"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}`
	}
	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,%s}`, msg.ID, member)
	if !f.sse {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintln(w, answer)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "id: 1\ndata:\n\n")
	fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n")
	fmt.Fprintf(w, "event: message\ndata: %s\n\n", answer)
}

func TestRun(t *testing.T) {
	const blocks = `"result":{"content":[{"type":"text","text":"one"},{"type":"image","data":"AA==","mimeType":"image/png"},{"type":"text","text":"two"}]}`
	for _, c := range []struct {
		name           string
		sse            bool
		answer         string
		code           int
		stdout, stderr string
	}{
		{"text blocks", false, blocks, 0, "one\ntwo\n", ""},
		{"text blocks over SSE", true, blocks, 0, "one\ntwo\n", ""},
		{"tool error", false, `"result":{"content":[{"type":"text","text":"it broke"}],"isError":true}`, 1, "", "it broke\n"},
		{"protocol error", true, `"error":{"code":-32602,"message":"unknown tool \"nope\""}`, 2, "",
			"mcp-client: tools/call: JSON-RPC error -32602: unknown tool \"nope\"\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeServer{sse: c.sse, answer: c.answer}
			srv := httptest.NewServer(f)
			defer srv.Close()
			var stdout, stderr strings.Builder
			code := run(t.Context(), &client{url: srv.URL}, "tool", nil, &stdout, &stderr)
			if code != c.code || stdout.String() != c.stdout || stderr.String() != c.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout.String(), stderr.String(), c.code, c.stdout, c.stderr)
			}
			const accept = `accept="application/json, text/event-stream"`
			want := []string{
				`POST initialize session="" version="" ` + accept,
				`POST notifications/initialized session="s-1" version="2025-11-25" ` + accept,
				`POST tools/call session="s-1" version="2025-11-25" ` + accept,
				`DELETE  session="s-1" version="2025-11-25" accept=""`,
			}
			if got := strings.Join(f.seen, "\n"); got != strings.Join(want, "\n") {
				t.Errorf("the server saw:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
			}
		})
	}
}

// TestRefused checks that an HTTP refusal is reported with its body,
// which says why, and exits with 2.
func TestRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}`, http.StatusNotAcceptable)
	}))
	defer srv.Close()
	var stdout, stderr strings.Builder
	code := run(t.Context(), &client{url: srv.URL}, "tool", nil, &stdout, &stderr)
	want := "mcp-client: initialize: HTTP 406 Not Acceptable: {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"no\"}}\n"
	if code != 2 || stdout.String() != "" || stderr.String() != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, \"\", %q", code, stdout.String(), stderr.String(), want)
	}
}

func TestToolArgs(t *testing.T) {
	args, err := toolArgs([]string{"word_count", "text=read the wire", "limit:=3", "tags:=[\"a\"]"})
	got, _ := json.Marshal(args)
	if want := `{"limit":3,"tags":["a"],"text":"read the wire"}`; err != nil || string(got) != want {
		t.Errorf("toolArgs = %s, %v; want %s", got, err, want)
	}
	for _, bad := range []string{"text", "=x", "n:=not-json"} {
		if _, err := toolArgs([]string{"tool", bad}); err == nil {
			t.Errorf("toolArgs accepted %q", bad)
		}
	}
}
