package grade

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/exercises"
)

// httpServerCases are the http-server programs TestGolden grades.
func httpServerCases() []gradeCase {
	return []gradeCase{
		{"http-server", "solution", "../../solutions/http-server", "", ""},
		{"http-server", "starter", "../http-server", "answers one call", ""},
		{"http-server", "header-after-writeheader", "", "answers one call", HintHeadersAfterWriteHeader},
		{"http-server", "accepts-get", "", "allows only POST", hintHTTPPostOnly},
		{"http-server", "mux-method-pattern", "", "allows only POST", HintPlainText},
		{"http-server", "forbidden-without-token", "", "refuses callers without a valid token", hintHTTP401},
		{"http-server", "no-challenge", "", "refuses callers without a valid token", hintHTTPChallenge},
		{"http-server", "trims-prefix", "", "refuses callers without a valid token", hintHTTPBearerPrefix},
		{"http-server", "decodes-before-auth", "", "refuses callers without a valid token", hintHTTPAuthFirst},
		{"http-server", "unauthorized-for-scope", "", "forbids what a token may not do", hintHTTP403},
	}
}

// TestHTTPHandlerPanic grades a server whose handler panics on one call
// (it reads the first scope of a token that has none). net/http recovers
// and closes the connection; the failure must name the panic and give
// its hint. It is not a golden test because the trace on stderr holds
// addresses and ports that change from run to run.
func TestHTTPHandlerPanic(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../solutions/http-server/main.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	for _, edit := range [][2]string{
		{`!slices.Contains(scopes, scopeDeploy)`, `scopes[0] != scopeDeploy`},
		{"\t\"slices\"\n", ""},
	} {
		if strings.Count(code, edit[0]) != 1 {
			t.Fatalf("%q does not stand once in the solution", edit[0])
		}
		code = strings.Replace(code, edit[0], edit[1], 1)
	}
	dir := t.TempDir()
	gomod, gosum := exercises.ModuleFiles()
	for name, text := range map[string]string{
		"main.go": code,
		"go.mod":  string(gomod),
		"go.sum":  string(gosum),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Run(context.Background(), HTTPServer(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	rep.WriteText(&text, English)
	t.Log(text.String())
	f := failedStage(rep)
	switch {
	case f == nil:
		t.Fatal("passed")
	case f.Name != "forbids what a token may not do" || f.Failure == nil:
		t.Fatalf("stage %q %s, want a failure at %q: %+v", f.Name, f.Status, "forbids what a token may not do", f.Failure)
	case !strings.Contains(f.Failure.Summary, "the handler panicked (runtime error: index out of range"):
		t.Errorf("summary %q does not name the panic", f.Failure.Summary)
	case f.Failure.Hint != HintHandlerPanic:
		t.Errorf("hint %q, want HintHandlerPanic", f.Failure.Hint)
	case !strings.Contains(f.Failure.Stderr, "goroutine"):
		t.Errorf("no trace in the failure's stderr: %q", f.Failure.Stderr)
	}
}
