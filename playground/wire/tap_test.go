package wire

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/internal/tap"
)

// serveTaps serves h's /ws and /ws/tap on a loopback httptest server,
// every peer seen as remoteAddr when it is not "".
func serveTaps(t *testing.T, h *Hub, remoteAddr string) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ws", h.ServeWS)
	mux.HandleFunc("GET /ws/tap", h.ServeTap)
	var handler http.Handler = mux
	if remoteAddr != "" {
		handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.RemoteAddr = remoteAddr
			mux.ServeHTTP(w, r)
		})
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return srv
}

// row is what a test compares of a console event.
type row struct{ Target, To, Dir, Kind, Text string }

// TestTapLive: a stdio tap of `sh -c 'cat; echo oops >&2'` publishes to
// the playground while it runs; a tab watching tap-1 gets, in order, the
// tap's note, each line the host sent and the server echoed, the
// server's stderr and its exit, then the session's end when the tap
// stops; the list of taps shows it live, then ended, with its count.
func TestTapLive(t *testing.T) {
	h := newTestHub(t, Targets{})
	srv := serveTaps(t, h, "")

	rec := tap.NewRecorder(nil)
	reports := make(chan error, 16)
	pub, err := Publish(srv.URL, "echo", rec, &PublishOptions{Report: func(err error) { reports <- err }})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	if err := <-reports; err != nil {
		t.Fatalf("the publisher's first report: %v, want connected", err)
	}
	waitFor(t, func() bool { _, ok := h.Transcript("tap-1"); return ok })
	watcher := dialPath(t, srv, "/ws?watch=tap-1")
	if hl := readHello(t, watcher); hl.Session != "tap-1" || !hl.Watching {
		t.Errorf("hello %+v: want session tap-1, watching", hl)
	}

	argv := []string{"sh", "-c", "cat; echo oops >&2"}
	var stdout, stderr bytes.Buffer
	s := &tap.Stdio{Argv: argv, Stdin: strings.NewReader("{\"id\":1}\n{\"id\":2}\n"), Stdout: &stdout, Stderr: &stderr, Recorder: rec}
	if code, err := s.Run(context.Background()); code != 0 || err != nil {
		t.Fatalf("the tapped server: exit %d, %v", code, err)
	}
	pub.Close()

	to := "sh -c 'cat; echo oops >&2'"
	var got []row
	for {
		ev := next(t, watcher, func(Event) bool { return true })
		got = append(got, row{ev.Target, ev.To, ev.Dir, ev.Kind, ev.Text})
		if ev.Kind == "session-end" {
			break
		}
	}
	// cat echoes each line as it comes, so an echo may pass the next
	// line the host sends: compare each direction in its own order.
	// The findings that follow the lines (they are not JSON-RPC) are
	// TestTapLiveFindings' business.
	byDir := map[string][]row{}
	var rows []row
	for _, r := range got {
		if r.Kind != "finding" {
			byDir[r.Dir] = append(byDir[r.Dir], r)
			rows = append(rows, r)
		}
	}
	got = rows
	want := map[string][]row{
		"out": {{"custom-stdio", to, "out", "line", `{"id":1}`}, {"custom-stdio", to, "out", "line", `{"id":2}`}},
		"in":  {{"custom-stdio", to, "in", "line", `{"id":1}`}, {"custom-stdio", to, "in", "line", `{"id":2}`}},
		"err": {{"custom-stdio", to, "err", "stderr", "oops"}},
		"note": {
			{"custom-stdio", to, "note", "tap", "the tap relays " + to + "; what it sees comes here as it happens"},
			{"custom-stdio", to, "note", "exit", "the server exited: exit status 0"},
			{"", "", "note", "session-end", "the session you were watching ended"},
		},
	}
	if diff := cmp.Diff(want, byDir); diff != "" {
		t.Errorf("the watcher's rows (-want +got):\n%s", diff)
	}
	if got[0].Kind != "tap" || got[len(got)-2].Kind != "exit" {
		t.Errorf("rows %v: want the tap's note first and the exit last before the end", got)
	}

	waitFor(t, func() bool { l := h.Taps(); return len(l) == 1 && !l[0].Ended.IsZero() })
	l := h.Taps()[0]
	if l.ID != "tap-1" || l.Name != "echo" || l.Protocol != "stdio" || l.Command != to || l.Events != len(rec.Events()) {
		t.Errorf("the list of taps: %+v, want tap-1, echo, stdio, %s, %d events", l, to, len(rec.Events()))
	}
}

// TestTapHTTPEvents: an HTTP tap's exchange comes as the console's HTTP
// events: the request as it crossed, the answer's head (raw, then
// parsed), each SSE event as a piece of body, and the end.
func TestTapHTTPEvents(t *testing.T) {
	tr := translator{}
	var got []row
	for _, e := range []tap.Event{
		{Kind: tap.KindStart, Upstream: "http://127.0.0.1:9/mcp"},
		{Kind: tap.KindHTTPRequest, Dir: tap.Out, Exchange: 1, Method: "POST", URL: "http://127.0.0.1:8030/mcp?x=1",
			Header: http.Header{"Content-Type": {"application/json"}}, Data: `{"id":1}`},
		{Kind: tap.KindHTTPResponse, Dir: tap.In, Exchange: 1, Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}},
		{Kind: tap.KindSSEEvent, Dir: tap.In, Exchange: 1, Data: "data: {\"id\":1}"},
		{Kind: tap.KindHTTPEnd, Dir: tap.In, Exchange: 1},
	} {
		for _, ev := range tr.events(e) {
			if ev.Kind != "tap" && ev.ID != 1 {
				t.Errorf("%s event has id %d, want the exchange's, 1", ev.Kind, ev.ID)
			}
			got = append(got, row{ev.Target, ev.To, ev.Dir, ev.Kind, ev.Text})
		}
	}
	up := "http://127.0.0.1:9/mcp"
	want := []row{
		{"custom-http", up, "note", "tap", "the tap relays " + up + "; what it sees comes here as it happens"},
		{"custom-http", up, "out", "http-request", "POST /mcp?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8030\r\nContent-Type: application/json\r\n\r\n{\"id\":1}"},
		{"custom-http", up, "in", "raw", "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"},
		{"custom-http", up, "in", "http-head", "HTTP/1.1 200 OK\nContent-Type: text/event-stream"},
		{"custom-http", up, "in", "http-body", "data: {\"id\":1}\n\n"},
		{"custom-http", up, "note", "end", "the answer is complete"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestTapRefusals: a peer on another machine, and a page of another
// site, cannot publish a tap; nothing is listed.
func TestTapRefusals(t *testing.T) {
	h := newTestHub(t, Targets{})
	remote := serveTaps(t, h, "203.0.113.7:4444")
	if status, body := dialStatus(t, remote, "/ws/tap?name=x", remote.URL); status != http.StatusForbidden {
		t.Errorf("a tap from another machine: %d %s, want 403", status, body)
	}
	local := serveTaps(t, newTestHub(t, Targets{}), "")
	if status, body := dialStatus(t, local, "/ws/tap?name=x", "http://evil.example"); status != http.StatusForbidden {
		t.Errorf("a tap with another site's Origin: %d %s, want 403", status, body)
	}
	if l := h.Taps(); len(l) != 0 {
		t.Errorf("taps listed after refusals: %+v", l)
	}
}

// TestPublishBadURL: the playground's URL must be http://HOST:PORT.
func TestPublishBadURL(t *testing.T) {
	for _, u := range []string{"", "ws://127.0.0.1:1", "127.0.0.1:8018", "https://x"} {
		if p, err := Publish(u, "x", tap.NewRecorder(nil), nil); err == nil {
			p.Close()
			t.Errorf("Publish(%q): no error", u)
		}
	}
}
