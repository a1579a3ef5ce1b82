package loopback

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		host, origin string
		want         int // 0: allowed
	}{
		{"127.0.0.1:8018", "", 0},
		{"localhost:8018", "", 0},
		{"LOCALHOST", "", 0},
		{"[::1]:8018", "", 0},
		{"127.1.2.3", "", 0},
		{"127.0.0.1:8018", "http://127.0.0.1:8018", 0},
		{"127.0.0.1:8018", "http://localhost:3000", 0},
		{"attacker.example:8018", "", http.StatusMisdirectedRequest},
		{"127.0.0.1.nip.io", "", http.StatusMisdirectedRequest},
		{"10.0.0.5:8018", "", http.StatusMisdirectedRequest},
		{"127.0.0.1:8018", "https://attacker.example", http.StatusForbidden},
		{"127.0.0.1:8018", "null", http.StatusForbidden},
	} {
		r := httptest.NewRequest("POST", "/", nil)
		r.Host = tt.host
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		got := 0
		if ref := Check(r); ref != nil {
			got = ref.Status
			if ref.Reason == "" {
				t.Errorf("host %q origin %q: refusal without a reason", tt.host, tt.origin)
			}
		}
		if got != tt.want {
			t.Errorf("host %q origin %q: status %d, want %d", tt.host, tt.origin, got, tt.want)
		}
	}
}

func TestSite(t *testing.T) {
	lan := &Site{Hosts: []string{"192.168.1.5", "teacher-laptop"}}
	for _, tt := range []struct {
		site         *Site
		host, origin string
		want         int // 0: allowed
	}{
		{&Site{}, "127.0.0.1:8018", "", 0},
		{&Site{}, "localhost:8018", "http://localhost:8018", 0},
		{&Site{}, "127.0.0.1:8018", "HTTP://127.0.0.1:8018", 0},
		// Another port of this machine is another site.
		{&Site{}, "127.0.0.1:8018", "http://localhost:3000", http.StatusForbidden},
		{&Site{}, "127.0.0.1:8018", "http://127.0.0.1:3000", http.StatusForbidden},
		{&Site{}, "127.0.0.1:8018", "http://localhost:8018", http.StatusForbidden},
		{&Site{}, "127.0.0.1:8018", "https://127.0.0.1:8018", http.StatusForbidden},
		{&Site{}, "127.0.0.1:8018", "null", http.StatusForbidden},
		{&Site{}, "192.168.1.5:8018", "", http.StatusMisdirectedRequest},
		{&Site{}, "attacker.example:8018", "", http.StatusMisdirectedRequest},
		// Beyond loopback: the listening address is the site's too.
		{lan, "192.168.1.5:8018", "http://192.168.1.5:8018", 0},
		{lan, "TEACHER-LAPTOP:8018", "", 0},
		{lan, "127.0.0.1:8018", "", 0},
		{lan, "192.168.1.5:8018", "http://attacker.example", http.StatusForbidden},
		{lan, "192.168.1.6:8018", "", http.StatusMisdirectedRequest},
		{lan, "attacker.example", "", http.StatusMisdirectedRequest},
	} {
		r := httptest.NewRequest("POST", "/", nil)
		r.Host = tt.host
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		got := 0
		if ref := tt.site.Check(r); ref != nil {
			got = ref.Status
			if ref.Reason == "" {
				t.Errorf("host %q origin %q: refusal without a reason", tt.host, tt.origin)
			}
		}
		if got != tt.want {
			t.Errorf("%v host %q origin %q: status %d, want %d", tt.site.Hosts, tt.host, tt.origin, got, tt.want)
		}
	}
}
