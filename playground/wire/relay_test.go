package wire

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFollowRemote: a student's playground relays the instructor's
// presenter from another playground (two hubs, each on its own loopback
// server): a tab watching "instructor" sees the handshake's rows in
// order, byte for byte, and the state; when the connection breaks, it
// is told "reconnecting", and the relay comes back with the history;
// when the relay stops, the tab hears "ended" and is closed.
func TestFollowRemote(t *testing.T) {
	instructor, cut := serveCuttable(t, newTestHub(t, Targets{}))
	student, srv := startHub(t, Targets{})

	if status, _ := dialStatus(t, srv, "?watch=instructor", srv.URL); status != http.StatusNotFound {
		t.Errorf("watching instructor with no relay: %d, want 404", status)
	}

	tab := dial(t, instructor)
	readHello(t, tab)
	send(t, tab, Command{Op: "present"})
	readN(t, tab, 1)
	seen := sendHandshake(t, tab, 0, 4)
	send(t, tab, Command{Op: "state", State: json.RawMessage(`{"frame":"try me"}`)})

	ctx, cancel := context.WithCancel(context.Background())
	reports := make(chan RelayReport, 16)
	relayDone := make(chan error, 1)
	wsURL := "ws" + strings.TrimPrefix(instructor.URL, "http") + "?watch=presenter"
	// Ends when ctx is cancelled, below, or the student's hub closes.
	go func() { relayDone <- student.FollowRemote(ctx, wsURL, nil, func(r RelayReport) { reports <- r }) }()
	defer func() {
		cancel()
		<-relayDone
	}()
	if r := <-reports; !r.Connected {
		t.Fatalf("the relay's first report: %+v, want connected", r)
	}

	waitFor(t, func() bool { return student.audienceOf(watchInstructor) != nil })
	watcher := dialPath(t, srv, "?watch=instructor")
	if hl := readHello(t, watcher); hl.Session != "instructor" || !hl.Presenter || !hl.Watching {
		t.Errorf("hello %+v: want session instructor, presenter, watching", hl)
	}
	wantState := `{"op":"state","state":{"frame":"try me"}}`
	catchUp := func(what string) {
		t.Helper()
		// Perhaps "reconnecting" first, while the relay connects.
		for {
			if st := readN(t, watcher, 1)[0]; strings.Contains(st, `"status":"live"`) {
				break
			} else if !strings.Contains(st, `"status":"reconnecting"`) {
				t.Fatalf("%s: got %s, want reconnecting or live", what, st)
			}
		}
		if diff := cmp.Diff(append(seen, wantState), readN(t, watcher, len(seen)+1)); diff != "" {
			t.Errorf("%s (-instructor's tab +student's tab):\n%s", what, diff)
		}
	}
	catchUp("the relayed presenter")

	// The connection breaks: the tab is told, and the relay catches up.
	cut(tab.LocalAddr())
	readStatus(t, watcher, "reconnecting")
	if r := <-reports; r.Connected || r.Err == nil {
		t.Errorf("report after the break: %+v, want an error", r)
	}
	if r := <-reports; !r.Connected {
		t.Errorf("report after the wait: %+v, want connected", r)
	}
	catchUp("after reconnecting")

	tab.Close()
	readUntilStatus(t, watcher, "ended")
	readStatus(t, watcher, "waiting")

	cancel()
	if err := <-relayDone; err != nil {
		t.Errorf("FollowRemote returned %v", err)
	}
	readStatus(t, watcher, "ended")
	if _, _, err := watcher.ReadMessage(); err == nil {
		t.Error("the tab is still open after the relay stopped")
	}
	relayDone <- nil // for the deferred wait
}

// serveCuttable serves h on a loopback server until the test ends, and
// returns with it a function that breaks every websocket the server has
// open but the one from keep, as a network that fails would.
func serveCuttable(t *testing.T, h *Hub) (*httptest.Server, func(keep net.Addr)) {
	var mu sync.Mutex // guards conns
	var conns []net.Conn
	srv := httptest.NewUnstartedServer(http.HandlerFunc(h.ServeWS))
	srv.Config.ConnState = func(c net.Conn, state http.ConnState) {
		if state == http.StateHijacked {
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return srv, func(keep net.Addr) {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			if c.RemoteAddr().String() != keep.String() {
				c.Close()
			}
		}
	}
}

// TestFollowRemoteNewHeader: the header is read at each dial, and report
// runs between dials, so a report may mend it: a cookie refused with
// 401 (the instructor's playground restarted), replaced by a fresh one,
// gets the relay in.
func TestFollowRemoteNewHeader(t *testing.T) {
	instructor := newTestHub(t, Targets{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Cookie") != "follower=fresh" {
			http.Error(w, "join the classroom first", http.StatusUnauthorized)
			return
		}
		instructor.ServeWS(w, r)
	}))
	t.Cleanup(srv.Close)
	student, _ := startHub(t, Targets{})
	header := http.Header{"Cookie": {"follower=stale"}}
	ctx, cancel := context.WithCancel(context.Background())
	reports := make(chan RelayReport, 16)
	relayDone := make(chan error, 1)
	// Ends when ctx is cancelled, below.
	go func() {
		relayDone <- student.FollowRemote(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws?watch=presenter", header, func(r RelayReport) {
			if r.Err != nil && strings.Contains(r.Err.Error(), "401") {
				header.Set("Cookie", "follower=fresh") // joined again
			}
			reports <- r
		})
	}()
	defer func() {
		cancel()
		<-relayDone
	}()
	first := <-reports
	if first.Err == nil || !strings.Contains(first.Err.Error(), "401") {
		t.Fatalf("the first report: %+v, want the stale cookie refused", first)
	}
	if r := <-reports; !r.Connected {
		t.Errorf("after the cookie was mended: %+v, want connected", r)
	}
}
