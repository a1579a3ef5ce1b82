package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/playground"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestTapOpen: `wirelab tap open FILE --playground URL` opens a
// recording in a running playground and prints the address of the
// console that shows it; the playground lists it as a recording. A
// malformed file is refused before anything is sent, naming its line;
// a playground that is not there, or a server that is not one, is an
// error that says so.
func TestTapOpen(t *testing.T) {
	pg := playground.New(tools.New(nil), nil)
	srv := httptest.NewServer(pg)
	defer func() {
		srv.Close()
		pg.Close()
	}()
	taps := func() string {
		t.Helper()
		resp, err := http.Get(srv.URL + "/taps")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}

	good, err := filepath.Abs("../../exercises/find-the-defect/recording.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := exe(t, "", "tap", "open", good, "--playground", srv.URL)
	if code != 0 || stdout != srv.URL+"/console/mcp?watch=tap-1\n" {
		t.Fatalf("tap open: exit %d, stdout %q, want 0 and the MCP console following tap-1\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "is tap-1, read only; 9 messages; 1 error, 0 warnings") {
		t.Errorf("tap open's stderr does not sum up the check:\n%s", stderr)
	}
	if page := taps(); !strings.Contains(page, "recording.jsonl") || !strings.Contains(page, "recording, read only") {
		t.Errorf("/taps does not list the opened recording:\n%s", page)
	}

	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[1] = `{"seq":2,"kind":"line"` + "\n" // cut short
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o600)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	notPlayground := httptest.NewServer(http.NotFoundHandler())
	defer notPlayground.Close()

	for _, c := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"a malformed line", []string{bad, "--playground", srv.URL}, exitFailure, "bad.jsonl: recording line 2: unexpected end of JSON input"},
		{"no file", []string{filepath.Join(t.TempDir(), "none.jsonl"), "--playground", srv.URL}, exitFailure, "no such file"},
		{"no playground", []string{good, "--playground", gone.URL}, exitFailure, "no playground answers at " + gone.URL},
		{"not a playground", []string{good, "--playground", notPlayground.URL}, exitFailure, "404 Not Found, not a playground's answer"},
		{"not an http URL", []string{good, "--playground", "127.0.0.1:8018"}, exitUsage, "--playground must be http://HOST:PORT"},
		{"two files", []string{good, good}, exitUsage, "tap open takes one recording"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := exe(t, "", append([]string{"tap", "open"}, c.args...)...)
			if code != c.code || stdout != "" || !strings.Contains(stderr, c.says) {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d, nothing on stdout, and %q", code, stdout, stderr, c.code, c.says)
			}
		})
	}
	if page := taps(); strings.Contains(page, "tap-2") {
		t.Errorf("a refused recording was opened:\n%s", page)
	}
}
