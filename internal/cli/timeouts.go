package cli

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"time"
)

// Timeouts of every HTTP server wirelab runs (the playground and the tool
// servers), so that a peer that trickles, stalls or idles cannot hold a
// connection, and the goroutine serving it, forever.
const (
	// readHeaderTimeout bounds the request line and headers: a client that
	// opens a connection and never finishes them is dropped.
	readHeaderTimeout = 10 * time.Second
	// bodyTimeout bounds the reading of a request body, once the headers
	// are in: bodies here are at most a few MiB, which even a slow link
	// sends in seconds, while a body trickled a byte a second never ends.
	bodyTimeout = 30 * time.Second
	// writeTimeout bounds each write of an answer (not the whole answer:
	// an SSE stream may stay open for minutes, but each of its events
	// must be taken by the peer within this time).
	writeTimeout = 30 * time.Second
	// idleTimeout closes a keep-alive connection with no request for this
	// long; clients reconnect in a millisecond on loopback.
	idleTimeout = 2 * time.Minute
)

// newHTTPServer is an http.Server for h with those timeouts. The server's
// own ReadTimeout and WriteTimeout would cover a whole request or answer,
// ending streams; and a read deadline left set after the body would
// cancel a streaming handler's context when it passes (net/http reads in
// the background to notice a peer that goes away). So the deadlines are
// set per request, by withTimeouts.
func newHTTPServer(h http.Handler) *http.Server {
	return timeouts{header: readHeaderTimeout, body: bodyTimeout, write: writeTimeout, idle: idleTimeout}.server(h)
}

// timeouts are the durations of newHTTPServer; tests make them short.
type timeouts struct{ header, body, write, idle time.Duration }

func (t timeouts) server(h http.Handler) *http.Server {
	return &http.Server{Handler: t.handler(h), ReadHeaderTimeout: t.header, IdleTimeout: t.idle}
}

// handler gives each request t.body to send its body, and each write of
// its answer t.write.
func (t timeouts) handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		var body *deadlineBody
		if r.Body != nil && r.Body != http.NoBody {
			rc.SetReadDeadline(time.Now().Add(t.body))
			body = &deadlineBody{ReadCloser: r.Body, rc: rc}
			r.Body = body
		}
		tw := &timedWriter{ResponseWriter: w, rc: rc, body: body, timeout: t.write}
		rc.SetWriteDeadline(time.Now().Add(t.write))
		h.ServeHTTP(tw, r)
		// net/http flushes what is left after the handler returns, maybe
		// long after its last write, and reads what is left of the body:
		// give each its own time.
		rc.SetWriteDeadline(time.Now().Add(t.write))
		if body != nil {
			rc.SetReadDeadline(time.Now().Add(t.body))
		}
	})
}

// deadlineBody lifts the body's read deadline once the body has been
// read to its end, or the handler has begun to answer (and so has read
// what it wanted of the body). Only the handler's goroutine uses it.
type deadlineBody struct {
	io.ReadCloser
	rc     *http.ResponseController
	lifted bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.lift()
	}
	return n, err
}

func (b *deadlineBody) lift() {
	if b != nil && !b.lifted {
		b.lifted = true
		b.rc.SetReadDeadline(time.Time{})
	}
}

// timedWriter moves the connection's write deadline to writeTimeout from
// now before each write and flush.
type timedWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	body    *deadlineBody // nil for a request without a body
	timeout time.Duration // of each write
}

func (w *timedWriter) extend() {
	w.body.lift()
	w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
}

func (w *timedWriter) WriteHeader(code int) {
	w.extend()
	w.ResponseWriter.WriteHeader(code)
}

func (w *timedWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

func (w *timedWriter) Flush() {
	w.extend()
	w.rc.Flush()
}

// Hijack hands the connection over (a websocket), with no deadline of
// ours left on it: the new owner sets its own.
func (w *timedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := w.rc.Hijack()
	if err == nil {
		conn.SetDeadline(time.Time{})
	}
	return conn, brw, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *timedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
