package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wirelab/wirelab/protocols/tools"
)

// The tests here hold the session table to its promises: a flood of
// initialize calls cannot lock new clients out, a session in use is
// never ended under its client, an idle one goes after minutes, and a
// session the server ended says why. They call ServeHTTP directly, so
// that they can run in a synctest bubble.

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func newHandler(opts *HTTPOptions) *HTTPHandler {
	return NewServer(tools.New(nil), &ServerOptions{Version: "test"}).HTTPHandler(opts)
}

// send POSTs one message in a session ("" for none) and returns the
// recorded answer.
func send(h http.Handler, session, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, Endpoint, strings.NewReader(body))
	r.Host = "127.0.0.1:8021" // as a local client sends, for handlers with Loopback
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		r.Header.Set("Mcp-Session-Id", session)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// open starts a session and returns its id.
func open(t *testing.T, h http.Handler) string {
	t.Helper()
	w := send(h, "", initializeBody)
	id := w.Header().Get("Mcp-Session-Id")
	if w.Code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d, Mcp-Session-Id %q: %s", w.Code, id, w.Body)
	}
	return id
}

const pingBody = `{"jsonrpc":"2.0","id":2,"method":"ping"}`

// listen opens a session's GET stream, which stays open until the
// returned function is called.
func listen(h http.Handler, session string) (hangUp func()) {
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequestWithContext(ctx, http.MethodGet, Endpoint, nil)
	r.Header.Set("Accept", "text/event-stream")
	r.Header.Set("Mcp-Session-Id", session)
	done := make(chan struct{})
	// Ends when cancel ends the request, as a client hanging up does.
	go func() {
		defer close(done)
		h.ServeHTTP(httptest.NewRecorder(), r)
	}()
	return func() { cancel(); <-done }
}

// TestHTTPSessionFlood: DefaultMaxSessions initialize calls, none ever
// used again, do not lock anyone out: a new client gets a session and
// works in it, and the session that made room hears why on its next
// request.
func TestHTTPSessionFlood(t *testing.T) {
	h := newHandler(nil)
	defer h.Close()
	var flood []string
	for range DefaultMaxSessions {
		flood = append(flood, open(t, h))
	}
	fresh := open(t, h)
	if w := send(h, fresh, pingBody); w.Code != http.StatusOK {
		t.Errorf("ping in the new session: %d %s", w.Code, w.Body)
	}
	w := send(h, flood[0], pingBody)
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "to make room for a new session") {
		t.Errorf("the session that made room: %d %s, want 404 saying it made room", w.Code, w.Body)
	}
	if w := send(h, flood[1], pingBody); w.Code != http.StatusOK {
		t.Errorf("only one session should have made room: %d %s", w.Code, w.Body)
	}
}

// TestHTTPSessionLeastRecentlyUsed: the session ended to make room is
// the one unused longest, not the oldest.
func TestHTTPSessionLeastRecentlyUsed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHandler(&HTTPOptions{MaxSessions: 2})
		defer h.Close()
		a := open(t, h)
		time.Sleep(time.Second)
		b := open(t, h)
		time.Sleep(time.Second)
		send(h, a, pingBody) // a is now the one used last
		time.Sleep(time.Second)
		open(t, h)
		if w := send(h, a, pingBody); w.Code != http.StatusOK {
			t.Errorf("the session used last was ended: %d %s", w.Code, w.Body)
		}
		if w := send(h, b, pingBody); w.Code != http.StatusNotFound {
			t.Errorf("the session unused longest: %d %s, want 404", w.Code, w.Body)
		}
	})
}

// TestHTTPSessionBusy: sessions with an open GET stream are in use and
// are not ended to make room; with every session busy a new client gets
// 503 and no Retry-After, since nobody can know when one will be free.
// Once a stream ends, its session makes room.
func TestHTTPSessionBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHandler(&HTTPOptions{MaxSessions: 2})
		defer h.Close()
		a, b := open(t, h), open(t, h)
		hangUpA, hangUpB := listen(h, a), listen(h, b)
		defer hangUpB()
		synctest.Wait() // both streams are open

		w := send(h, "", initializeBody)
		if w.Code != http.StatusServiceUnavailable {
			t.Fatalf("initialize with every session busy: %d %s, want 503", w.Code, w.Body)
		}
		if ra, ok := w.Header()["Retry-After"]; ok {
			t.Errorf("Retry-After %q: nobody knows when a busy session ends", ra)
		}

		hangUpA()
		open(t, h)
		if w := send(h, a, pingBody); w.Code != http.StatusNotFound {
			t.Errorf("the session whose stream ended: %d %s, want 404", w.Code, w.Body)
		}
		if w := send(h, b, pingBody); w.Code != http.StatusOK {
			t.Errorf("the session still listening: %d %s", w.Code, w.Body)
		}
	})
}

// TestHTTPSessionIdle: a session unused for the idle time ends, and its
// next request says so; each request starts the idle time over, and a
// session with an open GET stream is never idle.
func TestHTTPSessionIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHandler(nil)
		defer h.Close()
		quiet, talking, listening := open(t, h), open(t, h), open(t, h)
		defer listen(h, listening)()
		synctest.Wait()

		time.Sleep(DefaultSessionIdle - time.Second)
		if w := send(h, talking, pingBody); w.Code != http.StatusOK {
			t.Errorf("a second before the idle time: %d %s", w.Code, w.Body)
		}
		time.Sleep(time.Second)
		w := send(h, quiet, pingBody)
		if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "after 10m0s without a request") {
			t.Errorf("a session idle for %v: %d %s, want 404 saying it was idle", DefaultSessionIdle, w.Code, w.Body)
		}
		if w := send(h, talking, pingBody); w.Code != http.StatusOK {
			t.Errorf("a session used %v ago: %d %s", time.Second, w.Code, w.Body)
		}

		time.Sleep(2 * DefaultSessionIdle)
		open(t, h) // a new session sweeps the idle ones
		if w := send(h, listening, pingBody); w.Code != http.StatusOK {
			t.Errorf("a session with its GET stream open: %d %s", w.Code, w.Body)
		}
		if w := send(h, talking, pingBody); w.Code != http.StatusNotFound {
			t.Errorf("a session idle for %v: %d %s, want 404", 2*DefaultSessionIdle, w.Code, w.Body)
		}
	})
}

// sendAs sends one request with a bearer token, in a session, by any
// HTTP method, and returns the recorded answer. The body is read only by
// POST. A GET comes with its context already ended, so that a stream the
// server opens ends at once instead of holding the test.
func sendAs(h http.Handler, token, method, session, body string) *httptest.ResponseRecorder {
	ctx := context.Background()
	if method == http.MethodGet {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		cancel()
	}
	r := httptest.NewRequestWithContext(ctx, method, Endpoint, strings.NewReader(body))
	r.Header.Set("Authorization", "Bearer "+token)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		r.Header.Set("Mcp-Session-Id", session)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestHTTPSessionBoundToCaller: a session answers only the caller that
// opened it. Another caller's request with its id, whatever the method,
// gets the 404 of an id never given out, word for word, and the session
// goes on for its owner. With static tokens each token is a caller; with
// OAuth a caller is the user and the application a token names, so a
// fresh token for the same pair (here one with a further scope) is the
// same caller, and one for another user or another application is not.
func TestHTTPSessionBoundToCaller(t *testing.T) {
	static, err := tools.ParseTokens([]string{"alice", "bob"})
	if err != nil {
		t.Fatal(err)
	}
	as := newKeyAS(t, testIssuer)
	oauth := testTokens(t, as)
	for _, tc := range []struct {
		name   string
		opts   *HTTPOptions
		owner  string   // opens the session
		same   []string // other tokens of the owner
		others []string // tokens of other callers
	}{
		{"static tokens", &HTTPOptions{Tokens: static}, "alice", nil, []string{"bob"}},
		{"oauth", &HTTPOptions{Verifier: newTestVerifier(as)}, oauth["good"], []string{oauth["deployer"]}, []string{oauth["other-user"], oauth["other-client"]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHandler(tc.opts)
			defer h.Close()
			w := sendAs(h, tc.owner, http.MethodPost, "", initializeBody)
			session := w.Header().Get("Mcp-Session-Id")
			if w.Code != http.StatusOK || session == "" {
				t.Fatalf("initialize: %d, Mcp-Session-Id %q: %s", w.Code, session, w.Body)
			}
			const never = "0123456789abcdef0123456789abcdef"
			unknown := sendAs(h, tc.owner, http.MethodPost, never, pingBody)
			if unknown.Code != http.StatusNotFound {
				t.Fatalf("an unknown session: %d, want 404: %s", unknown.Code, unknown.Body)
			}
			want := strings.ReplaceAll(unknown.Body.String(), never, session)
			for i, token := range tc.others {
				for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
					if w := sendAs(h, token, method, session, pingBody); w.Code != http.StatusNotFound || w.Body.String() != want {
						t.Errorf("%s by other caller %d: %d %s\nwant 404 %s", method, i, w.Code, w.Body, want)
					}
				}
			}
			for i, token := range append([]string{tc.owner}, tc.same...) {
				if w := sendAs(h, token, http.MethodPost, session, pingBody); w.Code != http.StatusOK {
					t.Errorf("ping by the owner (token %d): %d, want 200: %s", i, w.Code, w.Body)
				}
			}
		})
	}
}
