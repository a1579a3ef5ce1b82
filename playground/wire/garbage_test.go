package wire

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestGarbageClosesWith1007: a tab or a follower that sends a message
// that is not a JSON command is closed with 1007 and a reason, not with
// the 1001 ("going away") of a playground that shuts down.
func TestGarbageClosesWith1007(t *testing.T) {
	_, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	id := readHello(t, tab).Session
	watcher := dialPath(t, srv, "?watch="+id)
	readHello(t, watcher)
	// The follower first: closing the tab ends its session, and with it
	// the follower's connection (1000).
	for _, c := range []struct {
		name string
		conn *websocket.Conn
	}{{"follower", watcher}, {"tab", tab}} {
		name, conn := c.name, c.conn
		if err := conn.WriteMessage(websocket.TextMessage, []byte("{not json")); err != nil {
			t.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(patience))
		var err error
		for err == nil {
			_, _, err = conn.ReadMessage()
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.CloseInvalidFramePayloadData || !strings.Contains(ce.Text, "not a command") {
			t.Errorf("%s: closed with %v, want 1007 saying it is not a command", name, err)
		}
	}
}

// TestFollowerMessageLimit: a follower's message is at most
// followerMaxMessage, far less than a tab's frame may be: one past it
// closes the follower with 1009, and the presenter's tab goes on.
func TestFollowerMessageLimit(t *testing.T) {
	_, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	id := readHello(t, tab).Session
	watcher := dialPath(t, srv, "?watch="+id)
	readHello(t, watcher)
	big := `{"op":"send","id":1,"target":"stdio","frame":"` + strings.Repeat("x", followerMaxMessage) + `"}`
	if len(big) > maxFrame {
		t.Fatalf("the message (%d bytes) is too big for a tab too", len(big))
	}
	watcher.SetWriteDeadline(time.Now().Add(patience))
	watcher.WriteMessage(websocket.TextMessage, []byte(big)) // the hub may close before all of it is written
	watcher.SetReadDeadline(time.Now().Add(patience))
	var err error
	for err == nil {
		_, _, err = watcher.ReadMessage()
	}
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Errorf("the follower was closed with %v, want 1009", err)
	}
	send(t, tab, Command{Op: "send", ID: 2, Target: "stdio", Frame: `{"id":1,"name":"word_count","args":{"text":"read the wire"}}`})
	next(t, tab, func(ev Event) bool { return ev.Kind == "line" && ev.Dir == "in" })
}
