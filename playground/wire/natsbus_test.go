package wire

import (
	"encoding/json"
	"net"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	natsserver "github.com/nats-io/nats-server/v2/server"
)

// startNATS runs a NATS server in this process, on a free loopback
// port, until the test ends, and returns its URL. maxPayload, if not 0,
// is its max_payload: a small one makes the bus send messages in parts.
func startNATS(t testing.TB, maxPayload int32) string {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true, MaxPayload: maxPayload})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	})
	if !ns.ReadyForConnections(patience) {
		t.Fatal("the NATS server did not start")
	}
	return ns.ClientURL()
}

// startNATSHub serves a hub of room "test" on its own connection to the
// NATS server at url, as a playground process of its own would.
func startNATSHub(t testing.TB, url string) (*Hub, *httptest.Server) {
	t.Helper()
	bus, err := NewNATSBus(url)
	if err != nil {
		t.Fatal(err)
	}
	h := newRoomHub(t, &HubOptions{Bus: bus, Room: "test"})
	srv := serveHub(t, h, "")
	t.Cleanup(bus.Close) // after the hub closes: cleanups run last first
	return h, srv
}

// TestNATSTwoHubs: a presenter on one playground is followed from two
// others that share its NATS server: the one that was running follows
// live, the one that starts late catches up by asking for the history;
// both see the four frames' rows in order, byte for byte as the
// presenter's tab got them, then its state, then "ended" when it goes.
// The server's max_payload is small, so that the longer messages (the
// tools/list answer, the state) cross in parts.
func TestNATSTwoHubs(t *testing.T) {
	url := startNATS(t, 2048)
	_, srvA := startNATSHub(t, url)
	_, srvB := startNATSHub(t, url)

	early := dialPath(t, srvB, "?watch=presenter")
	readHello(t, early)
	readStatus(t, early, "waiting")

	tab := dial(t, srvA)
	id := readHello(t, tab).Session
	seen := sendHandshake(t, tab, 0, 2)
	send(t, tab, Command{Op: "present"})
	readN(t, tab, 1)
	seen = append(seen, sendHandshake(t, tab, 2, 4)...)
	state := `{"page":"/console/mcp","frame":"` + strings.Repeat("y", 5000) + `"}`
	send(t, tab, Command{Op: "state", State: json.RawMessage(state)})
	wantState := `{"op":"state","state":` + state + `}`

	if st := readStatus(t, early, "live"); st.Session != id {
		t.Errorf("live on hub B names %q, want %q", st.Session, id)
	}
	if diff := cmp.Diff(seen, readN(t, early, len(seen))); diff != "" {
		t.Errorf("hub B's follower (-presenter +follower):\n%s", diff)
	}
	if got := readN(t, early, 1)[0]; got != wantState {
		t.Errorf("hub B's follower got %.80s, want the state", got)
	}

	// A playground that starts now asks the room for the history.
	_, srvC := startNATSHub(t, url)
	var late []string
	waitFor(t, func() bool {
		c := dialPath(t, srvC, "?watch=presenter")
		defer c.Close()
		readHello(t, c)
		msgs := readN(t, c, 1)
		if !strings.Contains(msgs[0], `"live"`) {
			return false // the answer is on its way
		}
		late = readN(t, c, len(seen)+1)
		return true
	})
	if diff := cmp.Diff(append(seen, wantState), late); diff != "" {
		t.Errorf("hub C's late follower (-presenter +follower):\n%s", diff)
	}

	tab.Close()
	readUntilStatus(t, early, "ended")
	readStatus(t, early, "waiting")
}

// TestAssembleParts: a message in parts is whole at its last part; a
// part that is lost, or one out of place, drops the message, and the
// next one assembles.
func TestAssembleParts(t *testing.T) {
	partial := map[string]*assembly{}
	for _, tt := range []struct {
		id, part, data string
		want           string // the whole message, when this part completes one
	}{
		{"p.1", "1/3", "ab", ""},
		{"p.1", "2/3", "cd", ""},
		{"q.1", "1/1", "other", "other"}, // another publisher, in between
		{"p.1", "3/3", "ef", "abcdef"},
		{"p.2", "1/3", "gh", ""},
		{"p.2", "3/3", "kl", ""}, // 2/3 was lost
		{"p.3", "2/2", "mn", ""}, // no start
		{"p.4", "1/2", "op", ""},
		{"p.4", "2/2", "qr", "opqr"},
		{"p.5", "1/99", "x", ""}, // more parts than maxParts
	} {
		got, ok := assemble(partial, tt.id, tt.part, []byte(tt.data))
		if string(got) != tt.want || ok != (tt.want != "") {
			t.Errorf("part %s %s: %q %v, want %q", tt.id, tt.part, got, ok, tt.want)
		}
	}
}

// lossyBus is an in-process bus that loses the messages on the room's
// presenter subject whose numbers are in lose, as a slow NATS
// subscription may.
type lossyBus struct {
	Bus
	mu   sync.Mutex // guards n
	n    int
	lose map[int]bool
}

func (b *lossyBus) Publish(subject string, msg []byte) error {
	if strings.HasSuffix(subject, "."+subjectPresenter) {
		b.mu.Lock()
		b.n++
		lost := b.lose[b.n]
		b.mu.Unlock()
		if lost {
			return nil
		}
	}
	return b.Bus.Publish(subject, msg)
}

// TestReceiverMendsGap: a message of the presentation lost on the bus
// is noticed at the next one; the hub asks for the history and its
// followers get "live" again with the whole transcript, then what
// follows.
func TestReceiverMendsGap(t *testing.T) {
	bus := &lossyBus{Bus: NewLocalBus(), lose: map[int]bool{4: true}}
	h := newRoomHub(t, &HubOptions{Bus: bus})
	srv := serveHub(t, h, "")
	follower := dialPath(t, srv, "?watch=presenter")
	readHello(t, follower)
	readStatus(t, follower, "waiting")

	tab := dial(t, srv)
	readHello(t, tab)
	send(t, tab, Command{Op: "present"}) // message 1: live
	readN(t, tab, 1)
	seen := sendHandshake(t, tab, 0, 1) // messages 2, 3: out and in
	readStatus(t, follower, "live")
	if diff := cmp.Diff(seen, readN(t, follower, len(seen))); diff != "" {
		t.Errorf("before the gap (-presenter +follower):\n%s", diff)
	}
	// Message 4, the notification's "out", is lost; 5 shows the gap.
	seen = append(seen, sendHandshake(t, tab, 1, 3)...)
	readStatus(t, follower, "live")
	if diff := cmp.Diff(seen, readN(t, follower, len(seen))); diff != "" {
		t.Errorf("after the gap, the history anew (-presenter +follower):\n%s", diff)
	}
	live := sendHandshake(t, tab, 3, 4)
	if diff := cmp.Diff(live, readN(t, follower, len(live))); diff != "" {
		t.Errorf("after the mend (-presenter +follower):\n%s", diff)
	}
}

// newRoomHub makes a hub of the room opts say, whose stdio targets run
// the test binary.
func newRoomHub(t testing.TB, opts *HubOptions) *Hub {
	t.Setenv(childEnv, "1")
	return NewHub(Targets{Executable: os.Args[0]}, nil, opts)
}

// syncBuffer is a bytes.Buffer that NATS's callbacks may write while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestNATSReport: a playground whose NATS server goes away says so, and
// says when it is back; closing the bus itself says nothing.
func TestNATSReport(t *testing.T) {
	opts := &natsserver.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true}
	ns, err := natsserver.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	if !ns.ReadyForConnections(patience) {
		t.Fatal("the NATS server did not start")
	}
	port := ns.Addr().(*net.TCPAddr).Port
	bus, err := NewNATSBus(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	var said syncBuffer
	bus.Report(&said)
	ns.Shutdown()
	ns.WaitForShutdown()
	waitFor(t, func() bool { return strings.Contains(said.String(), "lost the NATS server at") })

	opts.Port = port
	again, err := natsserver.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	again.Start()
	defer func() {
		again.Shutdown()
		again.WaitForShutdown()
	}()
	waitFor(t, func() bool { return strings.Contains(said.String(), "is back") })
	bus.Close()
	waitFor(t, func() bool { return bus.conn.IsClosed() })
	if n := strings.Count(said.String(), "lost the NATS server"); n != 1 {
		t.Errorf("said %q; want one loss, none for closing", said.String())
	}
}
