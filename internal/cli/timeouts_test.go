package cli

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// short are timeouts a test can wait out.
var short = timeouts{header: 200 * time.Millisecond, body: 200 * time.Millisecond, write: 200 * time.Millisecond, idle: 200 * time.Millisecond}

// serveShort serves h with short timeouts on a loopback port until the
// test ends.
func serveShort(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := short.server(h)
	go srv.Serve(ln) // ends at Close below
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// closedWithin reads from conn until it is closed, and fails if that
// takes longer than patience: a guard, not a measurement.
func closedWithin(t *testing.T, conn net.Conn, patience time.Duration) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(patience))
	_, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %v", patience)
	}
}

// TestTrickledBodyIsCut: a body sent a byte at a time is cut off after the
// body timeout; the handler's read fails.
func TestTrickledBodyIsCut(t *testing.T) {
	readErr := make(chan error, 1)
	addr := serveShort(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		readErr <- err
	}))
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
	// Ends when a write fails: the server closed the connection.
	go func() {
		for {
			if _, err := conn.Write([]byte("x")); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	select {
	case err := <-readErr:
		if err == nil {
			t.Fatal("the trickled body was read to its end")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler still reads the trickled body")
	}
	closedWithin(t, conn, 10*time.Second)
}

// TestIdleAndSilentConnectionsClose: a connection that never sends its
// headers, and a keep-alive connection with no next request, are closed.
func TestIdleAndSilentConnectionsClose(t *testing.T) {
	addr := serveShort(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	closedWithin(t, silent, 10*time.Second)

	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("answer %v, %v", resp, err)
	}
	closedWithin(t, idle, 10*time.Second)
}

// TestStreamsOutliveTheTimeouts: a stream whose events come further apart
// than every timeout, after a POST body, is neither cut nor cancelled; a
// write deadline passing between events does not fail the next write.
func TestStreamsOutliveTheTimeouts(t *testing.T) {
	const events = 4
	gap := 2 * short.write
	addr := serveShort(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range events {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(gap):
			}
			fmt.Fprintf(w, "data: %d\n\n", i)
			w.(http.Flusher).Flush()
		}
	}))
	resp, err := http.Post("http://"+addr, "application/json", strings.NewReader(`{"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the stream broke after %q: %v", b, err)
	}
	if got := strings.Count(string(b), "data: "); got != events {
		t.Errorf("the stream carried %d events, want %d: %q", got, events, b)
	}
}
