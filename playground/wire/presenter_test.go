package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorilla/websocket"
)

// handshake is the MCP handshake and a call, as the lesson sends them
// to mcp-stdio.
var handshake = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`,
}

// sendHandshake sends frames from..to-1 of the handshake and returns
// every message the tab got until the answer to the last request.
func sendHandshake(t *testing.T, tab *websocket.Conn, from, to int) []string {
	t.Helper()
	var got []string
	for i := from; i < to; i++ {
		send(t, tab, Command{Op: "send", ID: int64(i + 1), Target: "mcp-stdio", Frame: handshake[i]})
		if i == 1 {
			// A notification has no answer: its "out" event is the end.
			got = append(got, readUntil(t, tab, func(ev Event) bool { return ev.Dir == "out" })...)
			continue
		}
		id := fmt.Sprintf(`"id":%d`, map[int]int{0: 1, 2: 2, 3: 3}[i])
		got = append(got, readUntil(t, tab, func(ev Event) bool { return ev.Dir == "in" && strings.Contains(ev.Text, id) })...)
	}
	return got
}

// jsonrpcID finds the id of a JSON-RPC answer.
var jsonrpcID = regexp.MustCompile(`"id":\d+`)

// rows are the transcript rows of messages: each frame sent, and the id
// of each answer.
func rows(t *testing.T, msgs []string) []string {
	t.Helper()
	var out []string
	for _, m := range msgs {
		var ev Event
		if err := json.Unmarshal([]byte(m), &ev); err != nil {
			t.Fatalf("message %s: %v", m, err)
		}
		switch {
		case ev.Op == "event" && ev.Dir == "out":
			out = append(out, "out "+strings.TrimSuffix(ev.Text, "\n"))
		case ev.Op == "event" && ev.Dir == "in":
			out = append(out, "in "+jsonrpcID.FindString(ev.Text))
		}
	}
	return out
}

// readStatus reads one message, which must be the status want.
func readStatus(t *testing.T, conn *websocket.Conn, want string) status {
	t.Helper()
	msg := readN(t, conn, 1)[0]
	var st status
	if err := json.Unmarshal([]byte(msg), &st); err != nil || st.Op != "status" || st.Status != want {
		t.Fatalf("got %s, want status %q", msg, want)
	}
	return st
}

// TestPresenterLateFollower: the presenter sends the MCP handshake, half
// before it presents and half after; a follower of ?watch=presenter that
// joins late gets "live" with the presenter's session, the presenter's
// transcript byte for byte (the four frames' rows in order), then its
// latest state, then what follows live; when the presenter's tab closes,
// "ended", then "waiting".
func TestPresenterLateFollower(t *testing.T) {
	_, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	id := readHello(t, tab).Session

	seen := sendHandshake(t, tab, 0, 2)
	send(t, tab, Command{Op: "present"})
	if got := readN(t, tab, 1)[0]; got != `{"op":"present","on":true}` {
		t.Fatalf("the tab's answer to present: %s", got)
	}
	seen = append(seen, sendHandshake(t, tab, 2, 4)...)
	send(t, tab, Command{Op: "state", State: json.RawMessage(`{"page":"/console/mcp","target":"mcp-stdio","row":1}`)})
	send(t, tab, Command{Op: "state", State: json.RawMessage(`{"page":"/console/mcp","target":"mcp-stdio","row":3}`)})

	follower := dialPath(t, srv, "?watch=presenter")
	if hl := readHello(t, follower); hl.Session != "" || !hl.Watching || !hl.Presenter || hl.Local {
		t.Errorf("follower's hello %+v: want no session, watching, presenter, not local", hl)
	}
	// The states were sent before the follower dialled, but the tab's
	// reader may not have handled them yet: the live status comes first
	// either way, then the transcript.
	if st := readStatus(t, follower, "live"); st.Session != id {
		t.Errorf("live names session %q, want the presenter's %q", st.Session, id)
	}
	got := readN(t, follower, len(seen))
	if diff := cmp.Diff(seen, got); diff != "" {
		t.Errorf("the late follower's history (-presenter +follower):\n%s", diff)
	}
	wantRows := []string{"out " + handshake[0], `in "id":1`, "out " + handshake[1], "out " + handshake[2], `in "id":2`, "out " + handshake[3], `in "id":3`}
	if diff := cmp.Diff(wantRows, rows(t, got)); diff != "" {
		t.Errorf("the late follower's rows (-want +got):\n%s", diff)
	}
	var last stateMessage
	for last.State == nil || !strings.Contains(string(last.State), `"row":3`) {
		msg := readN(t, follower, 1)[0]
		if err := json.Unmarshal([]byte(msg), &last); err != nil || last.Op != "state" {
			t.Fatalf("after the history: %s, want the state", msg)
		}
	}

	// Live: the next frame reaches the follower as the tab gets it.
	send(t, tab, Command{Op: "send", ID: 9, Target: "mcp-stdio", Frame: `{"jsonrpc":"2.0","id":9,"method":"ping"}`})
	live := readUntil(t, tab, func(ev Event) bool { return ev.Dir == "in" })
	if diff := cmp.Diff(live, readN(t, follower, len(live))); diff != "" {
		t.Errorf("live events (-presenter +follower):\n%s", diff)
	}

	// Nothing the follower sends is acted on.
	send(t, follower, Command{Op: "present", ID: 4})
	if ev := next(t, follower, func(ev Event) bool { return ev.Op == "error" }); ev.Message != "this tab follows the presenter; it cannot send" {
		t.Errorf("the follower's command answered %q", ev.Message)
	}

	// The tab closes: its child's exit may come first, then the end.
	tab.Close()
	readUntilStatus(t, follower, "ended")
	readStatus(t, follower, "waiting")
}

// readUntilStatus reads until the status want, past any events.
func readUntilStatus(t *testing.T, conn *websocket.Conn, want string) {
	t.Helper()
	msgs := readUntil(t, conn, func(ev Event) bool { return ev.Op == "status" })
	if last := msgs[len(msgs)-1]; !strings.Contains(last, `"status":"`+want+`"`) {
		t.Fatalf("got %s, want status %q", last, want)
	}
}

// TestPresenterChanges: a follower waits for a presenter, follows the
// first, then the tab that replaces it (which takes over: the first is
// told it no longer presents), and waits again when that one stops.
func TestPresenterChanges(t *testing.T) {
	_, srv := startHub(t, Targets{})
	follower := dialPath(t, srv, "?watch=presenter")
	readHello(t, follower)
	readStatus(t, follower, "waiting")

	a, b := dial(t, srv), dial(t, srv)
	idA, idB := readHello(t, a).Session, readHello(t, b).Session
	send(t, a, Command{Op: "present"})
	readN(t, a, 1)
	if st := readStatus(t, follower, "live"); st.Session != idA {
		t.Errorf("live names %q, want the first presenter %q", st.Session, idA)
	}
	send(t, a, Command{Op: "state", State: json.RawMessage(`{"frame":"a"}`)})
	if got := readN(t, follower, 1)[0]; got != `{"op":"state","state":{"frame":"a"}}` {
		t.Errorf("the state of a: %s", got)
	}

	send(t, b, Command{Op: "present"})
	readN(t, b, 1)
	if got := readN(t, a, 1)[0]; got != `{"op":"present","on":false}` {
		t.Errorf("the replaced presenter got %s, want present off", got)
	}
	if st := readStatus(t, follower, "live"); st.Session != idB {
		t.Errorf("live names %q, want the second presenter %q", st.Session, idB)
	}
	// The replaced tab's state is refused; the new one's goes through.
	send(t, a, Command{Op: "state", ID: 5, State: json.RawMessage(`{"frame":"old"}`)})
	if ev := next(t, a, func(ev Event) bool { return ev.Op == "error" }); !strings.Contains(ev.Message, "does not present") {
		t.Errorf("a's state after b took over: %q", ev.Message)
	}
	send(t, b, Command{Op: "state", State: json.RawMessage(`{"frame":"b"}`)})
	if got := readN(t, follower, 1)[0]; got != `{"op":"state","state":{"frame":"b"}}` {
		t.Errorf("the state of b: %s", got)
	}

	off := false
	send(t, b, Command{Op: "present", On: &off})
	readStatus(t, follower, "ended")
	readStatus(t, follower, "waiting")
	if got := readN(t, b, 1)[0]; got != `{"op":"present","on":false}` {
		t.Errorf("b after stopping: %s", got)
	}
}

// TestPresentRefusals: a tab from another machine cannot present; state
// is relayed only from the presenter, only as an object, and at most
// maxState bytes of it.
func TestPresentRefusals(t *testing.T) {
	_, remoteSrv := startHubAs(t, Targets{}, "192.0.2.7:4000")
	remote := dial(t, remoteSrv)
	if readHello(t, remote).Local {
		t.Fatal("the remote tab is local")
	}
	send(t, remote, Command{Op: "present", ID: 1})
	if ev := next(t, remote, func(ev Event) bool { return ev.Op == "error" }); ev.Message != "only a tab on the instructor's machine can present" {
		t.Errorf("a remote tab's present: %q", ev.Message)
	}
	follower := dialPath(t, remoteSrv, "?watch=presenter")
	readHello(t, follower)
	readStatus(t, follower, "waiting")

	_, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	readHello(t, tab)
	for _, tt := range []struct {
		present bool
		state   string
		want    string
	}{
		{false, `{"frame":"x"}`, `this tab does not present: send {"op":"present"} first`},
		{true, `"a string"`, `the page's state is a JSON object`},
		{true, `{"frame":"` + strings.Repeat("x", maxState) + `"}`, fmt.Sprintf("at most %d are relayed", maxState)},
	} {
		if tt.present {
			send(t, tab, Command{Op: "present"})
			readN(t, tab, 1)
		}
		send(t, tab, Command{Op: "state", ID: 2, State: json.RawMessage(tt.state)})
		if ev := next(t, tab, func(ev Event) bool { return ev.Op == "error" }); !strings.Contains(ev.Message, tt.want) {
			t.Errorf("state %.20s...: %q, want %q", tt.state, ev.Message, tt.want)
		}
	}
}

// dialSlow opens a follower's websocket whose socket takes in little:
// a tab that never reads fills it, and then its buffer at the hub.
func dialSlow(t *testing.T, url, origin string) *websocket.Conn {
	t.Helper()
	d := websocket.Dialer{NetDial: func(network, addr string) (net.Conn, error) {
		c, err := net.Dial(network, addr)
		if err == nil {
			c.(*net.TCPConn).SetReadBuffer(64 << 10)
		}
		return c, err
	}}
	conn, _, err := d.Dial(url, http.Header{"Origin": {origin}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestSlowFollowerDropped: a follower that never reads is dropped, and
// told why when it does read; the presenter and a follower that keeps up
// go on, none the slower: every state reaches the reading follower, and
// the presenter's frame is answered.
func TestSlowFollowerDropped(t *testing.T) {
	h, srv := startHub(t, Targets{})
	h.frameRate, h.frameBurst = benchFrameRate, benchFrameRate
	tab := dial(t, srv)
	readHello(t, tab)
	send(t, tab, Command{Op: "present"})
	readN(t, tab, 1)

	slow := dialSlow(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"?watch=presenter", srv.URL)
	fast := dialPath(t, srv, "?watch=presenter")
	waitFor(t, func() bool { return h.audience.count() == 2 })
	readHello(t, fast)
	readStatus(t, fast, "live")

	// Each state is big, so that the slow follower's socket fills after a
	// few; then its buffer at the hub fills, and it is dropped.
	big := `{"frame":"` + strings.Repeat("x", 8<<10) + `"}`
	states := 0
	fastDone := make(chan int)
	// Ends when the fast follower has read every state or its connection
	// fails (the test's end closes it).
	go func() {
		n := 0
		for {
			fast.SetReadDeadline(time.Now().Add(patience))
			_, b, err := fast.ReadMessage()
			if err != nil {
				fastDone <- n
				return
			}
			if strings.HasPrefix(string(b), `{"op":"state"`) {
				n++
			}
			if strings.HasPrefix(string(b), `{"op":"state","state":{"frame":"done"`) {
				fastDone <- n
				return
			}
		}
	}()
	for h.audience.count() == 2 {
		if states > 10*followerBuffer {
			t.Fatalf("the slow follower is still attached after %d states", states)
		}
		send(t, tab, Command{Op: "state", State: json.RawMessage(big)})
		states++
	}
	send(t, tab, Command{Op: "state", State: json.RawMessage(`{"frame":"done"}`)})
	states++
	if n := <-fastDone; n != states {
		t.Errorf("the fast follower got %d states of %d", n, states)
	}
	sendHandshake(t, tab, 0, 1)

	// The slow follower's connection ends: with the reason, if its
	// writer was free to say it; abruptly, if its socket stayed full for
	// writeWait (TestPumpSaysWhy checks the reason).
	slow.SetReadDeadline(time.Now().Add(patience))
	var err error
	for err == nil {
		_, _, err = slow.ReadMessage()
	}
	if !websocket.IsCloseError(err, websocket.CloseTryAgainLater, websocket.CloseAbnormalClosure) {
		t.Errorf("the slow follower's end: %v, want a close", err)
	}
}

// TestPumpSaysWhy: a follower dropped for falling behind is told why,
// in the close frame, before anything still waiting for it.
func TestPumpSaysWhy(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	fl := newFollower(cancel)
	fl.out <- []byte(`{"op":"status","status":"waiting"}`)
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		fl.cancel()
		pump(ctx, conn, fl.out, fl.ended)
		close(done)
	}))
	defer srv.Close()
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(patience))
	_, _, err = conn.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseTryAgainLater || ce.Text != errFellBehind.Error() {
		t.Errorf("the dropped follower read %v, want close 1013 with %q", err, errFellBehind)
	}
	<-done
}
