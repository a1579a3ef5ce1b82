package wire

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// TestIsLocalPeer: only a loopback peer that forwards for nobody is this
// machine; a proxy on this machine (a classroom's load balancer or TLS
// terminator) relays another machine's request, and says so.
func TestIsLocalPeer(t *testing.T) {
	for _, tt := range []struct {
		remote, header string
		want           bool
	}{
		{"127.0.0.1:50000", "", true},
		{"[::1]:50000", "", true},
		{"192.0.2.7:50000", "", false},
		{"127.0.0.1:50000", "Forwarded", false},
		{"127.0.0.1:50000", "X-Forwarded-For", false},
		{"127.0.0.1:50000", "X-Forwarded-Host", false},
		{"127.0.0.1:50000", "X-Real-IP", false},
		{"not an address", "", false},
	} {
		r := httptest.NewRequest("GET", "/ws", nil)
		r.RemoteAddr = tt.remote
		if tt.header != "" {
			r.Header.Set(tt.header, "192.0.2.7")
		}
		if got := IsLocalPeer(r); got != tt.want {
			t.Errorf("peer %s with %q: local %v, want %v", tt.remote, tt.header, got, tt.want)
		}
	}
}

// TestRemoteTabsLeaveRoomForThisMachine: other machines' tabs (here
// through a proxy on this machine, which makes them other machines'),
// maxSessions of them, do not keep this machine's tab out; one more of
// theirs is refused with 503.
func TestRemoteTabsLeaveRoomForThisMachine(t *testing.T) {
	_, srv := startHub(t, Targets{})
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	remote := http.Header{"Origin": {srv.URL}, "X-Forwarded-For": {"192.0.2.7"}}
	for i := range maxSessions {
		conn, resp, err := websocket.DefaultDialer.Dial(url, remote)
		if err != nil {
			t.Fatalf("remote tab %d: %v (%v)", i+1, err, resp)
		}
		t.Cleanup(func() { conn.Close() })
		readHello(t, conn)
	}
	if _, resp, err := websocket.DefaultDialer.Dial(url, remote); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("remote tab %d: %v, want 503", maxSessions+1, err)
	}
	readHello(t, dial(t, srv)) // this machine's
}

// TestBurstToAChild: a whole burst of frames, as fast as the rate limit
// lets a tab send them, goes to a stdio server that reads its stdin:
// none is refused as if the server were not reading, and each is
// answered.
func TestBurstToAChild(t *testing.T) {
	_, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	readHello(t, conn)
	for i := range frameBurst {
		send(t, conn, Command{Op: "send", ID: int64(i + 1), Target: "stdio", Frame: `{"name":"word_count","args":{"text":"x"}}`})
	}
	answers := 0
	for answers < frameBurst {
		ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" || (ev.Dir == "in" && ev.Kind == "line") })
		if ev.Op == "error" {
			t.Fatalf("frame %d refused: %s", ev.ID, ev.Message)
		}
		answers++
	}
}
