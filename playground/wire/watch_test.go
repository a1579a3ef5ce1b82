package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/tools"
)

// readUntil reads raw messages until one decodes to an event that
// matches, and returns them all, that one included.
func readUntil(t *testing.T, conn *websocket.Conn, match func(Event) bool) []string {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(patience))
	var msgs []string
	for {
		_, b, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("after %d messages %q: %v", len(msgs), msgs, err)
		}
		msgs = append(msgs, string(b))
		var ev Event
		if err := json.Unmarshal(b, &ev); err != nil {
			t.Fatalf("message %s: %v", b, err)
		}
		if match(ev) {
			return msgs
		}
	}
}

// readN reads n raw messages.
func readN(t testing.TB, conn *websocket.Conn, n int) []string {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(patience))
	msgs := make([]string, 0, n)
	for range n {
		_, b, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("after %d messages %q: %v", len(msgs), msgs, err)
		}
		msgs = append(msgs, string(b))
	}
	return msgs
}

// TestWatch: a follower of a session first sees, byte for byte, what the
// session's tab saw so far (its traffic and its refusals), then what it
// sees next, as it happens; it cannot send, and its refusals go to it
// alone; when the tab closes, the follower hears that the session ended
// and is closed.
func TestWatch(t *testing.T) {
	api := httptest.NewServer(httpjson.NewServer(tools.New(nil), nil))
	defer api.Close()
	_, srv := startHub(t, Targets{HTTPURL: api.URL})
	tab := dial(t, srv)
	id := readHello(t, tab).Session
	frame := "POST /execute HTTP/1.1\nContent-Type: application/json\n\n{\"name\":\"word_count\",\"args\":{\"text\":\"read the wire\"}}\n"

	send(t, tab, Command{Op: "send", ID: 1, Target: "http", Frame: frame})
	before := readUntil(t, tab, func(ev Event) bool { return ev.Kind == "end" })
	send(t, tab, Command{Op: "send", ID: 2, Target: "smtp"})
	before = append(before, readUntil(t, tab, func(ev Event) bool { return ev.Op == "error" })...)

	watcher := dialPath(t, srv, "?watch="+id)
	if hl := readHello(t, watcher); hl.Session != id || !hl.Watching || hl.Local {
		t.Errorf("follower's hello %+v: want session %s, watching, not local", hl, id)
	}
	if diff := cmp.Diff(before, readN(t, watcher, len(before))); diff != "" {
		t.Errorf("replay (-tab +follower):\n%s", diff)
	}

	send(t, tab, Command{Op: "send", ID: 3, Target: "http", Frame: frame})
	live := readUntil(t, tab, func(ev Event) bool { return ev.Kind == "end" })
	if diff := cmp.Diff(live, readN(t, watcher, len(live))); diff != "" {
		t.Errorf("live events (-tab +follower):\n%s", diff)
	}
	if !strings.Contains(strings.Join(live, "\n"), `\"words\":3`) {
		t.Errorf("the live exchange has no answer: %q", live)
	}

	send(t, watcher, Command{Op: "send", ID: 9, Target: "http", Frame: frame})
	ev := next(t, watcher, func(ev Event) bool { return ev.Op == "error" })
	if want := "this tab is watching session " + id + "; it cannot send"; ev.ID != 9 || ev.Message != want {
		t.Errorf("follower's send answered %+v, want id 9 and %q", ev, want)
	}
	// The tab's next message is the answer to its own next command, not
	// the follower's refusal.
	send(t, tab, Command{Op: "send", ID: 4, Target: "smtp"})
	if got := readN(t, tab, 1); !strings.Contains(got[0], `"id":4`) {
		t.Errorf("the tab got %s, want the refusal of its frame 4", got[0])
	}

	tab.Close()
	// The follower sees the refusal of frame 4 too, then the end.
	msgs := readUntil(t, watcher, func(ev Event) bool { return ev.Kind == "session-end" })
	var end Event
	json.Unmarshal([]byte(msgs[len(msgs)-1]), &end)
	if !strings.Contains(msgs[0], `"id":4`) {
		t.Errorf("the follower's next message %s, want the refusal of the tab's frame 4", msgs[0])
	}
	if end.Op != "event" || end.Dir != "note" || end.Text != "the session you were watching ended" {
		t.Errorf("session-end: %+v", end)
	}
	if _, _, err := watcher.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		t.Errorf("after session-end the follower read %v, want a normal close", err)
	}
	// The session is gone: watching it again is a 404.
	if status, body := dialStatus(t, srv, "?watch="+id, srv.URL); status != http.StatusNotFound || !strings.Contains(body, "no session") {
		t.Errorf("watching an ended session: %d %q, want 404", status, body)
	}
}

// dialStatus tries a websocket that must be refused, and returns the
// refusal's status and body.
func dialStatus(t *testing.T, srv *httptest.Server, suffix, origin string) (int, string) {
	t.Helper()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + suffix
	conn, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Origin": {origin}})
	if err == nil {
		conn.Close()
		t.Fatalf("%s: the websocket opened; want a refusal", suffix)
	}
	if resp == nil {
		t.Fatalf("%s: %v, and no response", suffix, err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestWatchRefusals: who may not watch, each said plainly and before
// the upgrade.
func TestWatchRefusals(t *testing.T) {
	_, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	id := readHello(t, tab).Session
	for _, tt := range []struct {
		suffix, origin string
		status         int
		want           string
	}{
		{"?watch=0123456789abcdef0123456789abcdef", srv.URL, http.StatusNotFound, `no session "0123456789abcdef0123456789abcdef" to watch`},
		{"?watch=", srv.URL, http.StatusNotFound, `no session "" to watch`},
		{"?watch=" + id, "https://attacker.example", http.StatusForbidden, "the page must come from this machine"},
	} {
		status, body := dialStatus(t, srv, tt.suffix, tt.origin)
		if status != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("%s from %s: %d %q, want %d and %q", tt.suffix, tt.origin, status, body, tt.status, tt.want)
		}
	}

	// A classroom of maxWatchers may follow; one more is refused.
	for range maxWatchers {
		readHello(t, dialPath(t, srv, "?watch="+id))
	}
	status, body := dialStatus(t, srv, "?watch="+id, srv.URL)
	if want := fmt.Sprintf("already has %d watchers", maxWatchers); status != http.StatusServiceUnavailable || !strings.Contains(body, want) {
		t.Errorf("watcher %d: %d %q, want 503 and %q", maxWatchers+1, status, body, want)
	}
}

// testFeed is a feed whose tab's channel holds everything, and which
// counts the drops of the tab.
func testFeed(presenter int) (*feed, chan []byte, *int) {
	ch := make(chan []byte, presenter)
	drops := new(int)
	return newFeed(ch, func() { *drops++ }), ch, drops
}

func newTestFollower() (*follower, *bool) {
	cancelled := new(bool)
	return &follower{out: make(chan []byte, 1+replayEvents+sendBuffer), ended: make(chan struct{}),
		cancel: func() { *cancelled = true }}, cancelled
}

func drain(ch chan []byte) []string {
	var got []string
	for {
		select {
		case b := <-ch:
			got = append(got, string(b))
		default:
			return got
		}
	}
}

// TestFeedReplay: a follower gets its hello, then the latest
// replayEvents events in order, then live ones; big events are
// forgotten sooner, by replayBytes, but the latest is always kept.
func TestFeedReplay(t *testing.T) {
	f, _, _ := testFeed(2000)
	for i := range replayEvents + 100 {
		f.publish([]byte(fmt.Sprint(i)))
	}
	fl, _ := newTestFollower()
	if err := f.attach(fl, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	f.publish([]byte("live"))
	want := []string{"hello"}
	for i := 100; i < replayEvents+100; i++ {
		want = append(want, fmt.Sprint(i))
	}
	want = append(want, "live")
	if diff := cmp.Diff(want, drain(fl.out)); diff != "" {
		t.Errorf("follower's messages (-want +got):\n%s", diff)
	}

	big, _, _ := testFeed(10)
	third := replayBytes/3 + 1
	for _, c := range "abc" {
		big.publish([]byte(strings.Repeat(string(c), third)))
	}
	fl, _ = newTestFollower()
	big.attach(fl, []byte("hello"))
	got := drain(fl.out)
	if len(got) != 3 || got[1][0] != 'b' || got[2][0] != 'c' {
		t.Errorf("replay of three events of a third of replayBytes each: %d messages; want hello, b, c", len(got))
	}
	huge, _, _ := testFeed(10)
	huge.publish(make([]byte, replayBytes+1))
	fl, _ = newTestFollower()
	huge.attach(fl, []byte("hello"))
	if got := drain(fl.out); len(got) != 2 {
		t.Errorf("an event over replayBytes: %d messages replayed; want hello and it", len(got))
	}
}

// TestFeedDropsSlowFollower: a follower that does not read is dropped
// once its buffer is full; the tab and a follower that keeps up are not
// held up or dropped.
func TestFeedDropsSlowFollower(t *testing.T) {
	total := replayEvents + sendBuffer + 10
	f, tab, drops := testFeed(total)
	slow, slowGone := newTestFollower()
	fast, fastGone := newTestFollower()
	f.attach(slow, []byte("hello"))
	f.attach(fast, []byte("hello"))
	var fastGot int
	for i := range total {
		f.publish([]byte(fmt.Sprint(i)))
		fastGot += len(drain(fast.out))
	}
	if !*slowGone || *fastGone || *drops != 0 {
		t.Errorf("slow dropped %v, fast dropped %v, tab dropped %d times; want only slow dropped", *slowGone, *fastGone, *drops)
	}
	if got := len(drain(tab)); got != total || fastGot != total+1 {
		t.Errorf("the tab got %d events and the fast follower %d messages; want %d and %d", got, fastGot, total, total+1)
	}
	if got := f.watchers(); got != 1 {
		t.Errorf("%d followers left, want 1", got)
	}
}

// TestFeedTabFallsBehind: a tab that does not read its events ends its
// session, as before followers existed.
func TestFeedTabFallsBehind(t *testing.T) {
	f, _, drops := testFeed(sendBuffer)
	for i := range sendBuffer + 1 {
		f.publish([]byte(fmt.Sprint(i)))
	}
	if *drops != 1 {
		t.Errorf("the tab was dropped %d times; want once, at event %d", *drops, sendBuffer+1)
	}
}

// TestFeedEnd: at the session's end every follower gets session-end as
// its last message; after that nothing is sent and no one attaches.
func TestFeedEnd(t *testing.T) {
	f, _, _ := testFeed(10)
	fl, _ := newTestFollower()
	f.attach(fl, []byte("hello"))
	f.publish([]byte("x"))
	f.end()
	f.publish([]byte("after"))
	select {
	case <-fl.ended:
	default:
		t.Fatal("ended is not closed")
	}
	got := drain(fl.out)
	if len(got) != 3 || !strings.Contains(got[2], `"kind":"session-end"`) {
		t.Errorf("follower got %q; want hello, x, session-end", got)
	}
	late, _ := newTestFollower()
	if err := f.attach(late, []byte("hello")); err != errSessionEnded {
		t.Errorf("attach after the end: %v, want errSessionEnded", err)
	}
}

// TestCloseEndsFollowers: closing the hub ends a session and its
// follower, and returns.
func TestCloseEndsFollowers(t *testing.T) {
	h, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	watcher := dialPath(t, srv, "?watch="+readHello(t, tab).Session)
	readHello(t, watcher)
	done := make(chan struct{})
	// Ends when close returns.
	go func() {
		h.Close()
		close(done)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("close did not return with a follower connected")
	}
	watcher.SetReadDeadline(time.Now().Add(patience))
	for {
		if _, _, err := watcher.ReadMessage(); err != nil {
			break // closed, as it should be
		}
	}
}
