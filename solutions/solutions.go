package solutions

import (
	"bytes"
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// files holds every solution's folder. Each is named here, as go:embed
// takes no pattern for "every folder"; TestEmbedded fails when one on
// disk is missing.
//
//go:embed stdio-server http-server grpc-server schema-versions mcp-server mcp-client mcp-dual mcp-resource-server find-the-defect a2a-client mcp-sdk-server fix-parse-error fix-bad-token-401 fix-unchecked-status fix-agent-card-path stdio-client fix-session-404 mcp-wary-client fix-initialized fix-is-error
var files embed.FS

// Files returns the reference solution of an exercise, its files at the
// root of the returned file system, or false if it has none yet. The
// playground shows it to a learner who passed, or who asked to see it.
func Files(id string) (fs.FS, bool) {
	if _, err := fs.Stat(files, id+"/main.go"); err != nil {
		return nil, false
	}
	sub, err := fs.Sub(files, id)
	if err != nil {
		return nil, false
	}
	return sub, true
}

// Same reports whether dir holds exactly the reference solution of an
// exercise: the same Go files (tests aside), byte for byte. Grading it
// proves the grader right, not the learner, so it is not progress.
func Same(id, dir string) bool {
	sol, ok := Files(id)
	if !ok {
		return false
	}
	want := map[string][]byte{}
	fs.WalkDir(sol, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isCode(p) {
			want[p], _ = fs.ReadFile(sol, p)
		}
		return nil
	})
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() || !isCode(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if w, ok := want[e.Name()]; !ok || err != nil || !bytes.Equal(b, w) {
			return false
		}
		n++
	}
	return n == len(want)
}

func isCode(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}
