package wire

import (
	"context"
	"errors"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/tools"
)

// collect reads a subscription until it closes.
func collect(t *testing.T, events <-chan []byte) []string {
	t.Helper()
	var got []string
	timeout := time.After(patience) // a guard against hanging, not a measurement
	for {
		select {
		case b, ok := <-events:
			if !ok {
				return got
			}
			got = append(got, string(b))
		case <-timeout:
			t.Fatalf("the subscription is still open after %v; so far %q", patience, got)
		}
	}
}

// TestSubscribe: a subscriber from outside a websocket (what a recorder
// or a relay to other machines uses) gets what the session's tab got, the
// replay and then the live events, byte for byte, and its channel closes
// after the session-end note; an unknown id is ErrNoSession; a subscriber
// that stops early leaves nothing running.
func TestSubscribe(t *testing.T) {
	api := httptest.NewServer(httpjson.NewServer(tools.New(nil), nil))
	defer api.Close()
	h, srv := startHub(t, Targets{HTTPURL: api.URL})
	tab := dial(t, srv)
	id := readHello(t, tab).Session
	frame := "POST /execute HTTP/1.1\nContent-Type: application/json\n\n{\"name\":\"word_count\",\"args\":{\"text\":\"read the wire\"}}\n"

	send(t, tab, Command{Op: "send", ID: 1, Target: "http", Frame: frame})
	seen := readUntil(t, tab, func(ev Event) bool { return ev.Kind == "end" })
	events, err := h.Subscribe(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	early, err := h.Subscribe(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	send(t, tab, Command{Op: "send", ID: 2, Target: "http", Frame: frame})
	seen = append(seen, readUntil(t, tab, func(ev Event) bool { return ev.Kind == "end" })...)
	tab.Close()

	got := collect(t, events)
	if len(got) == 0 || !strings.Contains(got[len(got)-1], `"kind":"session-end"`) {
		t.Fatalf("the subscription did not end with session-end: %q", got)
	}
	if diff := cmp.Diff(seen, got[:len(got)-1]); diff != "" {
		t.Errorf("the subscriber's events (-tab +subscriber):\n%s", diff)
	}
	collect(t, early)

	if _, err := h.Subscribe(context.Background(), id); !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), id) {
		t.Errorf("subscribing to an ended session: %v, want ErrNoSession naming it", err)
	}

	// A subscriber that cancels early: its channel closes, and its
	// goroutine is gone.
	tab2 := dial(t, srv)
	id2 := readHello(t, tab2).Session
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	sub, err := h.Subscribe(ctx, id2)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	collect(t, sub)
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before })
}
