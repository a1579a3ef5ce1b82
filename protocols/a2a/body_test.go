package a2a_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/trickle"
	"github.com/wirelab/wirelab/protocols/a2a"
)

// bodyReadTimeout is the read deadline of the servers below: short, so
// that a trickled body passes it quickly. Nothing is measured against it.
const bodyReadTimeout = 200 * time.Millisecond

// rawConn is a connection to an agent whose http.Server gives each
// request bodyReadTimeout to arrive, body included.
func rawConn(t *testing.T) net.Conn {
	t.Helper()
	srv := a2a.NewServer(nil)
	ts := httptest.NewUnstartedServer(srv)
	ts.Config.ReadTimeout = bodyReadTimeout
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestTrickledRequest: a body still arriving when the read deadline
// passes gets 408 with a JSON-RPC error and Connection: close, not the
// empty 200 that net/http sends for a handler that writes nothing.
func TestTrickledRequest(t *testing.T) {
	conn := rawConn(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"sent one byte at a time"}}`
	resp, got, err := trickle.Post(conn, "POST / HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n", body, 20*time.Millisecond)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	if resp.StatusCode != http.StatusRequestTimeout || !resp.Close {
		t.Errorf("status %d, Connection: close %v; want 408 and close", resp.StatusCode, resp.Close)
	}
	r := tckDecodeReply(t, got)
	if r.Error == nil || r.Error.Code != -32600 || !strings.HasPrefix(r.Error.Message, "the request did not arrive in time: ") {
		t.Errorf("body %s, want a -32600 error saying the request did not arrive in time", got)
	}
}

// TestDeclaredTooLarge: a Content-Length over the limit is refused with
// 413 at once; a client that asked "Expect: 100-continue" is never told
// to go on.
func TestDeclaredTooLarge(t *testing.T) {
	conn := rawConn(t)
	io.WriteString(conn, "POST / HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\n"+
		"Content-Length: 21474836480\r\nExpect: 100-continue\r\n\r\n")
	br := bufio.NewReader(conn)
	status, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if status != "HTTP/1.1 413 Request Entity Too Large\r\n" {
		t.Fatalf("first line %q; want 413 before anything else (no 100 Continue)", status)
	}
	resp, err := http.ReadResponse(bufio.NewReader(io.MultiReader(strings.NewReader(status), br)), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	r := tckDecodeReply(t, got)
	want := "the request is 21474836480 bytes (Content-Length), longer than the 1048576 this agent reads"
	if r.Error == nil || r.Error.Code != -32600 || r.Error.Message != want || !resp.Close {
		t.Errorf("Connection: close %v; body %s\nwant a -32600 error %q", resp.Close, got, want)
	}
}
