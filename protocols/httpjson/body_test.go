package httpjson

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/internal/trickle"
)

// testReadTimeout is the read deadline of the servers below: short, so
// that a trickled body passes it quickly. Nothing is measured against it.
const testReadTimeout = 200 * time.Millisecond

// startWithReadTimeout serves srv on a real TCP listener whose
// connections have testReadTimeout to send a request, body included.
func startWithReadTimeout(t *testing.T, srv *Server) string {
	t.Helper()
	ts := httptest.NewUnstartedServer(srv)
	ts.Config.ReadTimeout = testReadTimeout
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.Listener.Addr().String()
}

// dial opens a raw connection, closed when the test ends.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestTrickledBody: a body that is still arriving when the read deadline
// passes gets 408 with a JSON error and Connection: close, not the empty
// 200 that net/http sends for a handler that writes nothing; the log
// records the 408, not a client that went away.
func TestTrickledBody(t *testing.T) {
	var log bytes.Buffer
	var logMu sync.Mutex // guards log: the server writes it, the test reads it
	srv := NewServer(testCatalogue(), &ServerOptions{Log: testLogger(&lockedWriter{w: &log, mu: &logMu})})
	conn := dial(t, startWithReadTimeout(t, srv))

	body := `{"name":"word_count","args":{"text":"a body sent one byte at a time"}}`
	resp, got, err := trickle.Post(conn, "POST /execute HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\n", body, 20*time.Millisecond)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	if resp.StatusCode != http.StatusRequestTimeout || !resp.Close {
		t.Errorf("status %d, Connection: close %v; want 408 and close", resp.StatusCode, resp.Close)
	}
	if !strings.HasPrefix(string(got), `{"error":{"code":"request_timeout","message":"request body did not arrive in time: `) ||
		!strings.HasSuffix(string(got), ` of its 70 bytes came before the server stopped waiting; send the whole body at once"}}`+"\n") {
		t.Errorf("body %s", got)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if diff := cmp.Diff("level=INFO msg=request method=POST path=/execute status=408 code=request_timeout\n", log.String()); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
}

// TestClientGoneMidBody: a client that closes the connection halfway
// through its body is not answered; the log says it went away.
func TestClientGoneMidBody(t *testing.T) {
	var log bytes.Buffer
	var logMu sync.Mutex
	logged := make(chan struct{})
	srv := NewServer(testCatalogue(), &ServerOptions{Log: testLogger(&lockedWriter{w: &log, mu: &logMu, wrote: logged})})
	conn := dial(t, startWithReadTimeout(t, srv))
	io.WriteString(conn, "POST /execute HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{\"name\":")
	conn.Close()
	<-logged
	logMu.Lock()
	defer logMu.Unlock()
	want := "level=INFO msg=\"client went away before the answer; nothing sent\" method=POST path=/execute status=0 code=canceled\n"
	if diff := cmp.Diff(want, log.String()); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
}

// TestDeclaredTooLarge: a Content-Length over the limit is refused with
// 413 at once, before the body is read; a client that asked "Expect:
// 100-continue" is never told to go on, so it never sends 20 GiB.
func TestDeclaredTooLarge(t *testing.T) {
	conn := dial(t, startWithReadTimeout(t, NewServer(testCatalogue(), nil)))
	io.WriteString(conn, "POST /execute HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\n"+
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
	want := `{"error":{"code":"too_large","message":"request body is 21474836480 bytes (Content-Length), longer than the 1048576 this server reads"}}` + "\n"
	if diff := cmp.Diff(want, string(got)); diff != "" || !resp.Close {
		t.Errorf("Connection: close %v; body mismatch (-want +got):\n%s", resp.Close, diff)
	}
}

// lockedWriter writes under a mutex, and closes wrote after its first
// write when wrote is set.
type lockedWriter struct {
	w     io.Writer
	mu    *sync.Mutex
	wrote chan struct{}
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote != nil {
		defer close(l.wrote)
		l.wrote = nil
	}
	return l.w.Write(p)
}

// TestChunkedTooLarge: a body that declares no length (chunked) is cut
// off at the limit as it is read.
func TestChunkedTooLarge(t *testing.T) {
	r := execRequest(t, context.Background(), "", `{"name":"word_count","args":{"text":"longer than sixty-four bytes, in chunks"}}`)
	r.ContentLength = -1 // as a chunked request arrives
	w := httptest.NewRecorder()
	NewServer(testCatalogue(), &ServerOptions{MaxBody: 64}).ServeHTTP(w, r)
	want := `{"error":{"code":"too_large","message":"request body is longer than 64 bytes"}}` + "\n"
	if diff := cmp.Diff(want, w.Body.String()); w.Code != http.StatusRequestEntityTooLarge || diff != "" {
		t.Errorf("status %d; body mismatch (-want +got):\n%s", w.Code, diff)
	}
}
