package cli

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/playground/wire"
)

// TestTapPlayground: `wirelab tap --playground URL -- wirelab server mcp`
// publishes every event it records to a running playground, the
// server's exit included, and the playground lists the tap as ended
// once the tap exits; with no playground there, the tap relays as ever
// and says so once on stderr.
func TestTapPlayground(t *testing.T) {
	h := wire.NewHub(wire.Targets{}, nil, nil)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ws/tap", h.ServeTap)
	srv := httptest.NewServer(mux)
	defer func() {
		srv.Close()
		h.Close()
	}()

	file := filepath.Join(t.TempDir(), "mcp.jsonl")
	code, stdout, stderr := exe(t, tapHandshake, "tap", "--record", file, "--playground", srv.URL, "--", wirelabBin, "server", "mcp")
	if code != 0 || strings.Count(stdout, "\n") != 3 {
		t.Fatalf("tap exit %d, stdout %q, want 0 and three answers\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "publishing to the playground at "+srv.URL) {
		t.Errorf("stderr does not say where the tap publishes:\n%s", stderr)
	}
	events := readEvents(t, file)
	deadline := time.Now().Add(tapWait)
	var taps []wire.TapInfo
	for taps = h.Taps(); len(taps) != 1 || taps[0].Ended.IsZero(); taps = h.Taps() {
		if time.Now().After(deadline) {
			t.Fatalf("the playground's taps: %+v, want one ended", taps)
		}
		time.Sleep(10 * time.Millisecond)
	}
	got := taps[0]
	if got.ID != "tap-1" || got.Protocol != "stdio" || got.Command != wirelabBin+" server mcp" || got.Events != len(events) {
		t.Errorf("the tap as listed: %+v, want tap-1, stdio, %q, %d events (all recorded)", got, wirelabBin+" server mcp", len(events))
	}

	// No playground: the relay is unchanged.
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	code, stdout2, stderr := exe(t, tapHandshake, "tap", "--quiet", "--playground", gone.URL, "--", wirelabBin, "server", "mcp")
	// The server answers calls concurrently: compare the answers, not
	// their order.
	if code != 0 || !slices.Equal(sortedLines(stdout2), sortedLines(stdout)) {
		t.Errorf("tap with no playground: exit %d, stdout %q, want 0 and %q", code, stdout2, stdout)
	}
	if n := strings.Count(stderr, "is not reachable"); n != 1 {
		t.Errorf("stderr says the playground is not reachable %d times, want once:\n%s", n, stderr)
	}
	if code, _, _ := exe(t, "", "tap", "--playground", "127.0.0.1:8018", "--", "true"); code != exitUsage {
		t.Errorf("tap --playground without http://: exit %d, want %d", code, exitUsage)
	}
}

func sortedLines(s string) []string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return lines
}
