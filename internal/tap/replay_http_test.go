package tap

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestReplayWhereTheTapSent: a host pointed at the tap's bare address
// reached the upstream's endpoint (the tap sends "/" there); its
// recording replays against the server's address with or without that
// path, each request going where the tap sent it.
func TestReplayWhereTheTapSent(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			http.Error(w, "no such path "+r.URL.Path, http.StatusNotFound)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer upstream.Close()
	rec := NewRecorder(nil)
	p, err := NewProxy(upstream.URL+"/mcp", rec, &ProxyOptions{Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	rec.Add(Event{Kind: KindStart, Format: Format, Upstream: p.Upstream()})
	front := httptest.NewServer(p)
	defer front.Close()
	for _, path := range []string{"/", "/mcp"} {
		resp, err := http.Post(front.URL+path, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("through the tap at %s: %d", path, resp.StatusCode)
		}
	}
	// The tap records an exchange's end once the host has read the
	// answer to its end, a moment after the host has it.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		ends := 0
		for _, e := range rec.Events() {
			if e.Kind == KindHTTPEnd {
				ends++
			}
		}
		if ends == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tap recorded the end of %d exchanges of 2", ends)
		}
	}
	for _, against := range []string{upstream.URL, upstream.URL + "/", upstream.URL + "/mcp"} {
		diffs, err := ReplayHTTP(context.Background(), rec.Events(), against, 0, "", nil)
		if err != nil || len(diffs) != 0 {
			t.Errorf("replay --against %s: %v, %d differences: %+v", against, err, len(diffs), diffs)
		}
	}
}

// TestDestination: where a recorded request is replayed.
func TestDestination(t *testing.T) {
	for _, tt := range []struct {
		against, upstreamPath, recorded, want string
	}{
		{"http://s:1", "/mcp", "/", "http://s:1/mcp"},
		{"http://s:1", "/mcp", "/mcp", "http://s:1/mcp"},
		{"http://s:1", "/mcp", "/.well-known/oauth-protected-resource", "http://s:1/.well-known/oauth-protected-resource"},
		{"http://s:1/v2/mcp", "/mcp", "/", "http://s:1/v2/mcp"},
		{"http://s:1/v2/mcp", "/mcp", "/mcp?x=1", "http://s:1/v2/mcp?x=1"},
		{"http://s:1/v2/mcp", "/mcp", "/mcpx", "http://s:1/mcpx"},
		{"http://s:1/a2a", "", "/", "http://s:1/a2a"},
		{"http://s:1", "", "/execute", "http://s:1/execute"},
	} {
		target, _ := url.Parse(tt.against)
		d := &destination{target: target, upstreamPath: tt.upstreamPath}
		got, err := d.url(tt.recorded)
		if err != nil || got.String() != tt.want {
			t.Errorf("against %s, upstream path %q, recorded %s: %v %v; want %s", tt.against, tt.upstreamPath, tt.recorded, got, err, tt.want)
		}
	}
}
