package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorilla/websocket"
)

// floodCap bounds the commands a flooding follower sends before the test
// gives up on its being dropped. Its refusals (some 90 bytes each) first
// fill the sockets between the hub and the follower, a few MiB on
// loopback, then the follower's followerBuffer at the hub; a million
// refusals are many times both.
const floodCap = 1_000_000

// The presenter sends a state every floodPerState of the flooder's
// commands, floodStates of them: at the last, the flooder's buffer at
// the hub holds at most floodStates*(floodPerState+1) messages, fewer
// than followerBuffer, so no state can be what fills it. Only the
// flooder's own refusals can get it dropped.
const (
	floodPerState = 100
	floodStates   = (followerBuffer - 1) / (floodPerState + 1)
)

// floodPerRead is how many commands the flooder sends for each message
// it reads: its refusals come in floodPerRead times faster than it takes
// them, and pile up.
const floodPerRead = 8

// TestFollowerFlood: a follower of the presenter that sends commands as
// fast as it can and reads far less than it is sent is refused each one into its own
// bounded buffer, and dropped when that is full, with the reason; it is
// never waited on. Meanwhile the presenter's states, sent between the
// flooder's commands, reach a follower that reads, every one and in
// order, then the presenter's frame is answered and its events reach
// that follower as they reach the presenter's tab.
func TestFollowerFlood(t *testing.T) {
	h, srv := startHub(t, Targets{})
	h.frameRate, h.frameBurst = benchFrameRate, benchFrameRate
	tab := dial(t, srv)
	readHello(t, tab)
	send(t, tab, Command{Op: "present"})
	readN(t, tab, 1)

	flooder := dialSlow(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"?watch=presenter", srv.URL)
	reader := dialPath(t, srv, "?watch=presenter")
	waitFor(t, func() bool { return h.audience.count() == 2 })
	readHello(t, reader)
	readStatus(t, reader, "live")

	// The reader reads on its own, as a page does, until the presenter's
	// last state or a failure (the test's end closes its connection).
	got := make(chan []string, 1)
	// Ends at the "done" state or when the reader's connection fails.
	go func() {
		var msgs []string
		defer func() { got <- msgs }()
		for {
			reader.SetReadDeadline(time.Now().Add(patience))
			_, b, err := reader.ReadMessage()
			if err != nil {
				msgs = append(msgs, "read: "+err.Error())
				return
			}
			msgs = append(msgs, string(b))
			if string(b) == `{"op":"state","state":{"n":"done"}}` {
				return
			}
		}
	}()

	// The flood, and the presenter's states between its commands, until
	// the hub drops the flooder: the audience is then the reader alone.
	flood := []byte(`{"op":"send","id":1,"target":"mcp-stdio","frame":"{}"}`)
	var want []string
	sent, read := 0, 0
	for h.audience.count() == 2 {
		if sent == floodCap {
			t.Fatalf("the flooder still follows after %d commands, though it reads one message in %d: its refusals must fill its buffer and get it dropped", sent, floodPerRead)
		}
		// A write that blocks means the hub stopped reading the flooder,
		// which it does only if a refusal waits on the flooder: a guard,
		// not a measurement. A write that fails is the hub closing the
		// flooder's connection, which it does once it has dropped it.
		flooder.SetWriteDeadline(time.Now().Add(patience))
		if err := flooder.WriteMessage(websocket.TextMessage, flood); err != nil {
			if h.audience.count() < 2 {
				break
			}
			t.Fatalf("the flooder's command %d: %v, and the flooder still follows", sent+1, err)
		}
		sent++
		// The flooder reads a little, now and then, as a page busy
		// sending would: its socket never stays full, which would stall
		// the flood in TCP rather than at the hub.
		if sent%floodPerRead == 0 {
			flooder.SetReadDeadline(time.Now().Add(patience))
			if _, _, err := flooder.ReadMessage(); err != nil {
				if h.audience.count() < 2 {
					break
				}
				t.Fatalf("the flooder's read after %d commands: %v, and the flooder still follows", sent, err)
			}
			read++
		}
		if sent%floodPerState == 0 && len(want) < floodStates {
			state := fmt.Sprintf(`{"n":%d}`, len(want)+1)
			send(t, tab, Command{Op: "state", State: json.RawMessage(state)})
			want = append(want, `{"op":"state","state":`+state+`}`)
		}
	}
	if len(want) != floodStates {
		t.Fatalf("the flooder was dropped after %d commands, before the presenter's %d states: it cannot have filled its buffer", sent, floodStates)
	}
	t.Logf("the flooder was dropped after %d commands; %d states were sent during the flood", sent, len(want))

	// The presenter goes on: its frame is answered, and the reader gets
	// what its tab got.
	want = append(want, sendHandshake(t, tab, 0, 1)...)
	send(t, tab, Command{Op: "state", State: json.RawMessage(`{"n":"done"}`)})
	want = append(want, `{"op":"state","state":{"n":"done"}}`)
	if diff := cmp.Diff(want, <-got); diff != "" {
		t.Errorf("what the reading follower got (-presenter +follower):\n%s", diff)
	}

	// The flooder, reading all at last, finds some of what it was sent,
	// then its connection's end: close 1013 with the reason, if the
	// hub's writer could say it; 1006 if its write failed first; or a
	// reset, since the hub closes a socket that still holds unread
	// commands, and TCP then resets the connection, which throws away
	// what the flooder had not read, the close frame too
	// (TestPumpSaysWhy checks the reason).
	flooder.SetReadDeadline(time.Now().Add(patience))
	var err error
	for err == nil {
		if _, _, err = flooder.ReadMessage(); err == nil {
			read++
		}
	}
	if !websocket.IsCloseError(err, websocket.CloseTryAgainLater, websocket.CloseAbnormalClosure) && !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("the flooder's end, after %d messages: %v, want close 1013, 1006 or a reset", read, err)
	}
	if read >= sent {
		t.Errorf("the flooder read %d messages for its %d commands: it was dropped, yet every command was answered", read, sent)
	}
}

// TestFollowerOversizedMessage: a follower that sends one message past
// the read limit (a frame and its envelope) is cut off at the limit, not
// read to the end; the presenter and its other follower go on.
func TestFollowerOversizedMessage(t *testing.T) {
	h, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	readHello(t, tab)
	send(t, tab, Command{Op: "present"})
	readN(t, tab, 1)
	big := dialPath(t, srv, "?watch=presenter")
	reader := dialPath(t, srv, "?watch=presenter")
	waitFor(t, func() bool { return h.audience.count() == 2 })
	readHello(t, reader)
	readStatus(t, reader, "live")

	huge := `{"op":"send","id":1,"target":"mcp-stdio","frame":"` + strings.Repeat("x", 2*maxFrame) + `"}`
	// The hub may close the connection before all of it is written.
	big.SetWriteDeadline(time.Now().Add(patience))
	big.WriteMessage(websocket.TextMessage, []byte(huge))
	waitFor(t, func() bool { return h.audience.count() == 1 })

	send(t, tab, Command{Op: "state", State: json.RawMessage(`{"n":1}`)})
	if got := readN(t, reader, 1)[0]; got != `{"op":"state","state":{"n":1}}` {
		t.Errorf("the other follower got %s, want the state", got)
	}
}

// TestThousandFollowers: maxAudience tabs (more than a thousand) follow
// one presenter over loopback websockets, and each gets the presenter's
// state; one more is refused before the upgrade, saying why.
func TestThousandFollowers(t *testing.T) {
	if testing.Short() {
		t.Skip("opens more than two thousand sockets")
	}
	// Each follower is two sockets in this process, its end and the hub's.
	raiseFileLimit(t, 2*maxAudience+256)
	h, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	id := readHello(t, tab).Session
	send(t, tab, Command{Op: "present"})
	readN(t, tab, 1)

	followers := make([]*websocket.Conn, maxAudience)
	for i := range followers {
		followers[i] = dialPath(t, srv, "?watch=presenter")
	}
	if n := h.audience.count(); n != maxAudience {
		t.Fatalf("%d followers attached, want %d", n, maxAudience)
	}
	status, body := dialStatus(t, srv, "?watch=presenter", srv.URL)
	want := fmt.Sprintf("cannot watch: %d tabs already follow the presenter here, the most there may be", maxAudience)
	if status != http.StatusServiceUnavailable || strings.TrimSpace(body) != want {
		t.Errorf("follower %d: %d %q, want 503 %q", maxAudience+1, status, body, want)
	}

	send(t, tab, Command{Op: "state", State: json.RawMessage(`{"page":"/console/mcp"}`)})
	live := fmt.Sprintf(`{"op":"status","status":"live","session":%q}`, id)
	hello := `{"op":"hello","session":"","local":false,"watching":true,"presenter":true}`
	for i, conn := range followers {
		msgs := readN(t, conn, 3)
		if diff := cmp.Diff([]string{hello, live, `{"op":"state","state":{"page":"/console/mcp"}}`}, msgs); diff != "" {
			t.Fatalf("follower %d of %d (-want +got):\n%s", i+1, maxAudience, diff)
		}
	}
}

// raiseFileLimit makes sure this process may open n files, raising its
// soft limit as far as the hard one for the test, or skips the test.
func raiseFileLimit(t *testing.T, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skipf("reading the open files limit: %v", err)
	}
	if lim.Cur >= n {
		return
	}
	if lim.Max < n {
		t.Skipf("the open files limit is %d at most (ulimit -Hn); this test needs %d", lim.Max, n)
	}
	old := lim
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skipf("raising the open files limit to %d: %v", n, err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })
}
