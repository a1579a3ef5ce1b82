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
	for name, conn := range map[string]*websocket.Conn{"follower": watcher, "tab": tab} {
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

// TestFollowerCommandsRateLimited: a follower, whose commands are only
// ever refused, is answered at most followerRate times a second, so a
// follower sending without pause does not get an answer to each.
func TestFollowerCommandsRateLimited(t *testing.T) {
	_, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	id := readHello(t, tab).Session
	watcher := dialPath(t, srv, "?watch="+id)
	readHello(t, watcher)
	const sent = 1000
	for i := range sent {
		send(t, watcher, Command{Op: "send", ID: int64(i + 1), Target: "stdio", Frame: "{}"})
	}
	answered := 0
	for {
		// A wait for answers still to come, not a measure of speed.
		watcher.SetReadDeadline(time.Now().Add(2 * time.Second))
		var ev Event
		if err := watcher.ReadJSON(&ev); err != nil {
			break
		}
		if ev.Op == "error" {
			answered++
		}
	}
	if answered == 0 || answered >= sent {
		t.Errorf("%d of %d commands were answered; want some, and far from all", answered, sent)
	}
}
