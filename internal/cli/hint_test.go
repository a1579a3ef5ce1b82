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

	// In Russian, every line is: the hint, and the words around it.
	ru, _ := exercises.ByID("frames-mcp-version")
	n := len(ru.Hints.In("ru"))
	code, stdout, _ = run(t, "", "hint", "--lang", "ru", "frames-mcp-version")
	want := fmt.Sprintf("Подсказка 1 из %d к frames-mcp-version:\n%s\n(следующая — снова `wirelab hint --lang ru frames-mcp-version`)\n", n, ru.Hints.In("ru")[0])
	if code != 0 || !strings.Contains(stdout, "Отправьте initialize") || stdout != want {
		t.Errorf("in Russian: exit %d, stdout:\n%s\nwant:\n%s", code, stdout, want)
	}
	for range n {
		code, stdout, _ = run(t, "", "hint", "--lang", "ru", "frames-mcp-version")
	}
	if want := fmt.Sprintf("Все подсказки к frames-mcp-version (%d):\n1. ", n); code != 0 || !strings.HasPrefix(stdout, want) || strings.Contains(stdout, "hints for") {
		t.Errorf("all in Russian: exit %d, stdout:\n%s\nwant it to start with %q", code, stdout, want)
	}
	code, stdout, _ = run(t, "", "hint", "--lang", "ru", "stdio-server")
	if want := "Эталонное решение — в solutions/stdio-server репозитория wirelab.\n"; code != 0 || !strings.HasSuffix(stdout, want) {
		t.Errorf("a solved code exercise in Russian: exit %d, stdout:\n%s\nwant it to end with %q", code, stdout, want)
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
