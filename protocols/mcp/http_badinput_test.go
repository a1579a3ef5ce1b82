package mcp

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The tests here send the HTTP transport what a careless or hostile
// client might, and check that each gets the refusal it should, from the
// layer that should give it.

// TestHTTPInitializeNotification: initialize without an id is refused
// with 400 and opens no session, so a flood of them cannot fill the
// session table (here of one) or the server's list of live sessions.
func TestHTTPInitializeNotification(t *testing.T) {
	h := newHandler(&HTTPOptions{MaxSessions: 1})
	defer h.Close()
	const notification = `{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for range 3 {
		w := send(h, "", notification)
		if w.Code != http.StatusBadRequest || w.Header().Get("Mcp-Session-Id") != "" ||
			!strings.Contains(w.Body.String(), `"code":-32600`) || !strings.Contains(w.Body.String(), "needs an id") {
			t.Fatalf("initialize as a notification: %d, Mcp-Session-Id %q: %s; want 400, no id, -32600 saying it needs an id",
				w.Code, w.Header().Get("Mcp-Session-Id"), w.Body)
		}
	}
	h.mu.Lock()
	open := len(h.sessions)
	h.mu.Unlock()
	h.srv.mu.Lock()
	live := len(h.srv.sessions)
	h.srv.mu.Unlock()
	if open != 0 || live != 0 {
		t.Fatalf("after initialize notifications: %d HTTP sessions, %d server sessions; want none", open, live)
	}
}

// TestHTTPWithoutSession: what a message without Mcp-Session-Id gets,
// by era. A notification of revision 2026-07-28 is accepted (that
// revision has no session to want); one of a session is missing its id.
func TestHTTPWithoutSession(t *testing.T) {
	const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	tests := []struct {
		name    string
		header  string // MCP-Protocol-Version
		body    string
		status  int
		message string // part of the error message; "" for no body
	}{
		{"modern notification, _meta and header", ModernVersion,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,` + modernMeta + `}}`, http.StatusAccepted, ""},
		{"modern notification, header only", ModernVersion,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, http.StatusAccepted, ""},
		{"modern notification, _meta only", "",
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,` + modernMeta + `}}`, http.StatusAccepted, ""},
		{"legacy notification", "",
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusBadRequest, "missing Mcp-Session-Id"},
		{"legacy notification, legacy header", LegacyVersion,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusBadRequest, "missing Mcp-Session-Id"},
		{"modern response", ModernVersion,
			`{"jsonrpc":"2.0","id":1,"result":{}}`, http.StatusBadRequest, "revision 2026-07-28 the server sends no requests"},
		{"legacy response", "",
			`{"jsonrpc":"2.0","id":1,"result":{}}`, http.StatusBadRequest, "missing Mcp-Session-Id"},
	}
	h := newHandler(nil)
	defer h.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, Endpoint, strings.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			if tt.header != "" {
				r.Header.Set("MCP-Protocol-Version", tt.header)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.message) || (tt.message == "" && w.Body.Len() > 0) {
				t.Errorf("got %d %q; want %d with %q", w.Code, w.Body, tt.status, tt.message)
			}
			if id := w.Header().Get("Mcp-Session-Id"); id != "" {
				t.Errorf("the answer opened session %q", id)
			}
		})
	}
}

// TestHTTPGetDeleteByEra: GET opens a session's stream and DELETE ends
// a session, both named by its id; a client of revision 2026-07-28,
// which has neither, gets 405 with Allow: POST; one that names no
// session and no revision has forgotten its id (400).
func TestHTTPGetDeleteByEra(t *testing.T) {
	h := newHandler(nil)
	defer h.Close()
	id := open(t, h)
	tests := []struct {
		method, name, session, version string
		status                         int
		allow                          string
	}{
		{http.MethodGet, "modern", "", ModernVersion, http.StatusMethodNotAllowed, "POST"},
		{http.MethodGet, "no session", "", "", http.StatusBadRequest, ""},
		{http.MethodDelete, "modern", "", ModernVersion, http.StatusMethodNotAllowed, "POST"},
		{http.MethodDelete, "no session", "", "", http.StatusBadRequest, ""},
		{http.MethodDelete, "session", id, LegacyVersion, http.StatusNoContent, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, Endpoint, nil)
			r.Header.Set("Accept", "text/event-stream")
			if tt.session != "" {
				r.Header.Set("Mcp-Session-Id", tt.session)
			}
			if tt.version != "" {
				r.Header.Set("MCP-Protocol-Version", tt.version)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.status || w.Header().Get("Allow") != tt.allow {
				t.Errorf("got %d, Allow %q: %s; want %d, Allow %q", w.Code, w.Header().Get("Allow"), w.Body, tt.status, tt.allow)
			}
			if tt.status == http.StatusMethodNotAllowed && !strings.Contains(w.Body.String(), "method "+tt.method+" not allowed") {
				t.Errorf("the answer does not name the method: %s", w.Body)
			}
		})
	}
}

// TestHTTPContentTypeCharset: JSON is UTF-8 (RFC 8259), so a charset
// parameter may say so, in any case, and may say nothing else.
func TestHTTPContentTypeCharset(t *testing.T) {
	h := newHandler(nil)
	defer h.Close()
	id := open(t, h)
	tests := []struct {
		contentType string
		status      int
	}{
		{"application/json", http.StatusOK},
		{"application/json; charset=utf-8", http.StatusOK},
		{"application/json; charset=UTF-8", http.StatusOK},
		{`application/json; charset="utf-8"`, http.StatusOK},
		{"application/json; charset=latin1", http.StatusUnsupportedMediaType},
		{"application/json; charset=utf-16", http.StatusUnsupportedMediaType},
		{"text/plain; charset=utf-8", http.StatusUnsupportedMediaType},
	}
	for _, tt := range tests {
		t.Run(tt.contentType, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, Endpoint, strings.NewReader(pingBody))
			r.Header.Set("Content-Type", tt.contentType)
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("Mcp-Session-Id", id)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.status {
				t.Errorf("got %d: %s; want %d", w.Code, w.Body, tt.status)
			}
		})
	}
}

// TestHTTPSessionIDBytes: a control character in a header never reaches
// the handler: Go's HTTP server refuses the request first, with its own
// plain-text 400 ("400 Bad Request"), as RFC 9110 allows (field values
// hold no control characters but tab). Other bytes a session id cannot
// hold (it is visible ASCII) do reach it, and name no session: 404, as
// for any unknown id.
func TestHTTPSessionIDBytes(t *testing.T) {
	h := newHandler(nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	tests := []struct {
		name, id    string
		status      int
		contentType string
	}{
		{"NUL", "ab\x00cd", http.StatusBadRequest, "text/plain; charset=utf-8"},
		{"control", "ab\x01cd", http.StatusBadRequest, "text/plain; charset=utf-8"},
		{"DEL", "ab\x7fcd", http.StatusBadRequest, "text/plain; charset=utf-8"},
		{"tab", "ab\tcd", http.StatusNotFound, "application/json"},
		{"not ASCII", "ab\xffcd", http.StatusNotFound, "application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A raw connection: Go's HTTP client would refuse to send
			// such a header at all.
			c, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"+
				"Content-Type: application/json\r\nMcp-Session-Id: %s\r\nContent-Length: %d\r\n\r\n%s", Endpoint, tt.id, len(pingBody), pingBody)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != tt.contentType {
				t.Errorf("got %d %s: %s; want %d %s", resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.status, tt.contentType)
			}
		})
	}
}
