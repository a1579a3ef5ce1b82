package wire

import (
	"net/http/httptest"
	"testing"
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
