package mcp

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// fuzzPatience bounds how long one fuzz input may keep the server busy.
// It is a guard against a server that hangs, not a claim about speed:
// an input is answered in microseconds.
const fuzzPatience = 10 * time.Second

// fuzzPing is the request sent after the fuzz input, and its answer: the
// session must still serve.
const (
	fuzzPing       = `{"jsonrpc":"2.0","id":"after-fuzz","method":"ping"}`
	fuzzPingAnswer = `{"jsonrpc":"2.0","id":"after-fuzz","result":{}}`
)

// wireLines are the client's messages of every stdio transcript: the
// "-> " lines of the wire sections.
func wireLines(f *testing.F) [][]string {
	var out [][]string
	for _, tf := range transcript.Glob(f, "testdata/*.txtar") {
		var lines []string
		for _, l := range strings.Split(string(tf.Section(f, "wire")), "\n") {
			if m, ok := strings.CutPrefix(l, "-> "); ok {
				lines = append(lines, m)
			}
		}
		out = append(out, lines)
	}
	return out
}

// FuzzServeStdio writes any bytes to a stdio session, then a ping, and
// closes stdin. The session must return, must answer every request that
// has an id exactly once with that id (at most once if the input cancels
// something), must answer every line it cannot read with an error, must
// write only JSON-RPC messages, and must answer the ping. Seeds: the
// client side of every golden transcript, whole and message by message.
func FuzzServeStdio(f *testing.F) {
	for _, lines := range wireLines(f) {
		f.Add([]byte(strings.Join(lines, "\n")))
		for _, l := range lines {
			f.Add([]byte(l))
		}
	}
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Nanosecond}), &ServerOptions{Version: "test"})
	f.Fuzz(func(t *testing.T, input []byte) {
		in := append(append(bytes.Clone(input), '\n'), fuzzPing+"\n"...)
		var out bytes.Buffer
		done := make(chan error, 1)
		// Ends when the session has answered everything after stdin ends.
		go func() { done <- srv.ServeStdio(context.Background(), bytes.NewReader(in), &out) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("ServeStdio: %v", err)
			}
		case <-time.After(fuzzPatience):
			t.Fatalf("ServeStdio did not return within %v of its input ending", fuzzPatience)
		}

		// What the input asks for: one answer per request with an id,
		// and per line that is not a message, keyed by the id's text.
		want := map[string]int{}
		cancels := false
		for _, line := range bytes.Split(in, []byte("\n")) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			switch m, reject := jsonrpc.Decode(line); {
			case reject != nil:
				want[reject.ID.String()]++
			case isRequest(m):
				want[m.(*jsonrpc.Request).ID.String()]++
			case isNotification(m, "notifications/cancelled"):
				cancels = true
			}
		}
		got := map[string]int{}
		pinged := false
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			m, reject := jsonrpc.Decode(line)
			if reject != nil {
				t.Fatalf("the server wrote a line that is not a JSON-RPC message: %s", line)
			}
			if r, ok := m.(*jsonrpc.Response); ok {
				got[r.ID.String()]++
			}
			pinged = pinged || string(line) == fuzzPingAnswer
		}
		for id, n := range got {
			if n > want[id] {
				t.Errorf("%d answers with id %s, to %d requests", n, id, want[id])
			}
		}
		for id, n := range want {
			if got[id] < n && !cancels {
				t.Errorf("%d answers with id %s, to %d requests", got[id], id, n)
			}
		}
		if !pinged {
			t.Errorf("the ping after the fuzz input was not answered; the server wrote:\n%s", out.Bytes())
		}
	})
}

func isRequest(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && !r.IsNotification()
}

func isNotification(m jsonrpc.Message, method string) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && r.IsNotification() && r.Method == method
}

// fuzzPost is a POST in the session, SESSION standing for its id, with a
// body to fill in.
const fuzzPost = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:8021\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMcp-Session-Id: SESSION\r\n\r\n"

// FuzzHTTPHandler sends one raw HTTP request, any bytes, to the
// Streamable HTTP handler in the middle of a session ("SESSION" in the
// input stands for the session's id), then a ping in that session. The
// handler must not panic or hang; must answer with JSON or SSE that holds
// only JSON-RPC messages; must answer a request that has an id with
// exactly one response with that id; and must still serve the session,
// unless the input was a DELETE that ended it, when the ping gets 404
// and a new session can start. Seeds: the requests of the HTTP golden
// transcripts, and every client message of the stdio ones as a POST.
func FuzzHTTPHandler(f *testing.F) {
	for _, tf := range transcript.Glob(f, "testdata/http/*.txtar") {
		reqs, _ := transcript.SplitHTTP(f, tf.Section(f, "client"), false)
		for _, r := range reqs {
			f.Add(r.Wire)
		}
	}
	for _, lines := range wireLines(f) {
		for _, l := range lines {
			f.Add([]byte(fuzzPost + l))
		}
	}
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Nanosecond}), &ServerOptions{Version: "test"})
	f.Fuzz(func(t *testing.T, wire []byte) {
		head, body, ok := bytes.Cut(wire, []byte("\r\n\r\n"))
		if !ok {
			return
		}
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(append(head, "\r\n\r\n"...))))
		if err != nil {
			return // net/http would not have called the handler
		}
		h := srv.HTTPHandler(&HTTPOptions{Loopback: true})
		defer h.Close()
		session := open(t, h)
		send(h, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

		for k, vs := range r.Header {
			for i := range vs {
				vs[i] = strings.ReplaceAll(vs[i], "SESSION", session)
			}
			r.Header[k] = vs
		}
		// The body is everything after the head, whatever Content-Length
		// says, so that the fuzzer need not keep the two in step.
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		r.RemoteAddr = "127.0.0.1:50000"
		patience := fuzzPatience
		listen := bytes.Contains(body, []byte("subscriptions/listen"))
		if listen {
			// A listen stream stays open until its client leaves: leave
			// after a moment.
			patience = 50 * time.Millisecond
		}
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r.WithContext(ctx))
		if ctx.Err() != nil && !listen {
			t.Fatalf("the handler took more than %v", fuzzPatience)
		}
		if listen {
			return // what it sent before the client left is all there is
		}

		answers := answersIn(t, w)
		if r.Method == http.MethodPost && w.Code/100 == 2 {
			// Taken: a request gets 200 and one response with its id;
			// a notification or a response gets 202 and no body.
			switch m, reject := jsonrpc.Decode(body); {
			case reject != nil:
				t.Errorf("a body that is no JSON-RPC message got %d, want 400: %s", w.Code, w.Body)
			case isRequest(m):
				id := m.(*jsonrpc.Request).ID.String()
				n := 0
				for _, a := range answers {
					if resp, ok := a.(*jsonrpc.Response); ok {
						n++
						if resp.ID.String() != id {
							t.Errorf("the answer to request %s has id %s", id, resp.ID)
						}
					}
				}
				if w.Code != http.StatusOK || n != 1 {
					t.Errorf("request %s got %d with %d responses, want 200 with 1", id, w.Code, n)
				}
			case w.Code != http.StatusAccepted || w.Body.Len() > 0:
				t.Errorf("a notification or response got %d %s, want 202 and no body", w.Code, w.Body)
			}
		}

		ended := r.Method == http.MethodDelete && w.Code == http.StatusNoContent
		ping := send(h, session, fuzzPing)
		switch {
		case ended && ping.Code != http.StatusNotFound:
			t.Errorf("a ping in the session the input ended: %d %s, want 404", ping.Code, ping.Body)
		case ended:
			open(t, h) // a new session starts
		case ping.Code != http.StatusOK || strings.TrimSpace(ping.Body.String()) != fuzzPingAnswer:
			t.Errorf("the ping after the fuzz input: %d %s", ping.Code, ping.Body)
		}
	})
}

// answersIn reads the messages of an answer: one JSON body or an SSE
// stream of them. Any other body fails the test.
func answersIn(t *testing.T, w *httptest.ResponseRecorder) []jsonrpc.Message {
	t.Helper()
	if w.Body.Len() == 0 {
		return nil
	}
	mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
	var datas [][]byte
	switch mt {
	case "application/json":
		datas = [][]byte{w.Body.Bytes()}
	case "text/event-stream":
		for _, line := range strings.Split(w.Body.String(), "\n") {
			// An event with an id and no data primes a resumable stream.
			if d, ok := strings.CutPrefix(line, "data: "); ok && d != "" {
				datas = append(datas, []byte(d))
			}
		}
	default:
		t.Fatalf("a %d answer of type %q: %s", w.Code, mt, w.Body)
	}
	var out []jsonrpc.Message
	for _, d := range datas {
		m, reject := jsonrpc.Decode(bytes.TrimSpace(d))
		if reject != nil {
			t.Fatalf("a %d answer holds something that is not a JSON-RPC message: %s", w.Code, d)
		}
		out = append(out, m)
	}
	return out
}
