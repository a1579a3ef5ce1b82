package mcp

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/trickle"
	"github.com/wirelab/wirelab/protocols/tools"
)

// rawHTTPConn is a connection to an MCP server whose http.Server gives
// each request 200 ms to arrive, body included: short, so that a body
// sent a byte at a time passes it quickly. Nothing is measured against it.
func rawHTTPConn(t *testing.T) net.Conn {
	t.Helper()
	h := NewServer(tools.New(nil), &ServerOptions{Version: "test"}).HTTPHandler(nil)
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ReadTimeout = 200 * time.Millisecond
	ts.Start()
	t.Cleanup(func() { h.Close(); ts.Close() })
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestHTTPTrickledBody: a body still arriving when the read deadline
// passes gets 408 with a JSON-RPC error and Connection: close, not the
// empty 200 net/http sends for a handler that writes nothing.
func TestHTTPTrickledBody(t *testing.T) {
	conn := rawHTTPConn(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"slow","version":"1"}}}`
	resp, got, err := trickle.Post(conn, "POST "+Endpoint+" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n", body, 20*time.Millisecond)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	var r struct {
		Error struct {
			Code    int
			Message string
		}
	}
	json.Unmarshal(got, &r)
	if resp.StatusCode != http.StatusRequestTimeout || !resp.Close || r.Error.Code != -32600 || !strings.HasPrefix(r.Error.Message, "the message did not arrive in time") {
		t.Errorf("%d, Connection: close %v, %s; want 408, close and -32600 saying the message did not arrive in time", resp.StatusCode, resp.Close, got)
	}
}

// TestHTTPDeclaredTooLarge: a Content-Length over MaxBody is refused with
// 413 before any of the body is read: a client that asked "Expect:
// 100-continue" is never told to go on.
func TestHTTPDeclaredTooLarge(t *testing.T) {
	conn := rawHTTPConn(t)
	io.WriteString(conn, "POST "+Endpoint+" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Content-Length: 21474836480\r\nExpect: 100-continue\r\n\r\n")
	br := bufio.NewReader(conn)
	status, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if status != "HTTP/1.1 413 Request Entity Too Large\r\n" {
		t.Fatalf("first line %q; want 413 before anything else (no 100 Continue)", status)
	}
}
