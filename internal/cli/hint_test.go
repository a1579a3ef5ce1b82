package cli

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/progress"
)

func TestHint(t *testing.T) {
	path := learner(t)
	e, _ := exercises.ByID("stdio-server")
	for i, h := range e.Hints.EN {
		code, stdout, stderr := run(t, "", "hint", "stdio-server")
		want := fmt.Sprintf("Hint %d of 3 for stdio-server:\n%s\n", i+1, h)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, want) {
			t.Fatalf("hint %d: exit %d, stderr %q, stdout:\n%s", i+1, code, stderr, stdout)
		}
		st, _ := progress.NewStore(path).Load()
		if n := st.Exercise("stdio-server").HintsShown; n != i+1 {
			t.Errorf("after hint %d, %d hints recorded", i+1, n)
		}
	}
	// Once all are shown, all are shown again, and the count stays.
	code, stdout, _ := run(t, "", "hint", "stdio-server")
	if code != 0 || !strings.HasPrefix(stdout, "All 3 hints for stdio-server:\n1. ") || !strings.Contains(stdout, "solutions/stdio-server") {
		t.Errorf("exit %d, stdout:\n%s", code, stdout)
	}
	st, _ := progress.NewStore(path).Load()
	if n := st.Exercise("stdio-server").HintsShown; n != 3 {
		t.Errorf("%d hints recorded, want 3", n)
	}

	code, stdout, _ = run(t, "", "hint", "--lang", "ru", "frames-mcp-version")
	if code != 0 || !strings.Contains(stdout, "Отправьте initialize") {
		t.Errorf("in Russian: exit %d, stdout:\n%s", code, stdout)
	}
}

// TestHintCorruptProgress: hints are counted in the progress file, so a
// file that cannot be read is reported, and left alone.
func TestHintCorruptProgress(t *testing.T) {
	path := learner(t)
	os.WriteFile(path, []byte("not json"), 0o600)
	code, stdout, stderr := run(t, "", "hint", "stdio-server")
	if code != exitFailure || stdout != "" || !strings.Contains(stderr, "cannot be read") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != "not json" {
		t.Errorf("the file was changed: %s", b)
	}
}
