package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/tapcheck"
)

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 requests"}, {1, "1 request"}, {2, "2 requests"}} {
		if got := count(tt.n, "request", "requests"); got != tt.want {
			t.Errorf("count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestSummaryLine(t *testing.T) {
	r := &tapcheck.Report{
		Messages: make([]tapcheck.Message, 1),
		Findings: []tapcheck.Finding{{Severity: tapcheck.SeverityError}, {Severity: tapcheck.SeverityNote}, {Severity: tapcheck.SeverityNote}},
	}
	if got, want := summaryLine(r), "1 message; 1 error, 0 warnings, 2 notes"; got != want {
		t.Errorf("summaryLine = %q, want %q", got, want)
	}
}

// TestReplayNamesAMessageWithoutMethodOrID: a recorded line that is
// JSON but neither a request, a response nor a notification is named as
// such in the replay's diff, and one difference is one.
func TestReplayNamesAMessageWithoutMethodOrID(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rec.jsonl")
	rec := `{"seq":1,"t":"2026-01-01T00:00:00Z","kind":"start","command":["wirelab","server","mcp"],"format":"wirelab-tap/1"}
{"seq":2,"t":"2026-01-01T00:00:00Z","dir":"out","kind":"line","data":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"}
{"seq":3,"t":"2026-01-01T00:00:00Z","dir":"in","kind":"line","data":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"}
{"seq":4,"t":"2026-01-01T00:00:00Z","dir":"in","kind":"line","data":"{\"jsonrpc\":\"2.0\",\"result\":{}}"}
{"seq":5,"t":"2026-01-01T00:00:00Z","kind":"exit","data":"exit status 0","exitCode":0}
`
	if err := os.WriteFile(file, []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := exe(t, "", "replay", file, "--against", wirelabBin+" server mcp", "--wait", "300ms")
	for _, want := range []string{
		"event 4: server->host message with neither method nor id (number 1): missing from the replay\n",
		"replay: 1 difference from ",
	} {
		if code != exitToolError || !strings.Contains(out, want) {
			t.Errorf("replay: exit %d, want 1 and %q in:\n%s%s", code, want, out, stderr)
		}
	}
}

// TestNewerProgress: a progress file from a newer wirelab stops the
// commands that need it with a sentence that says what to do.
func TestNewerProgress(t *testing.T) {
	path := learner(t)
	if err := os.WriteFile(path, []byte(`{"version":99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, "", "hint", "stdio-server")
	want := "wirelab: progress file " + path + " was written by a newer wirelab (format 99; this one reads 3): " +
		"update this wirelab (in its clone: git pull, then go install .), or set WIRELAB_HOME to another folder to keep a separate progress for it\n"
	if code != exitFailure || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", code, stdout, stderr, want)
	}
}
