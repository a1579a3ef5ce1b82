package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/progress"
)

func TestInit(t *testing.T) {
	path := learner(t)
	ws := filepath.Join(t.TempDir(), "course")
	code, stdout, stderr := run(t, "", "init", ws)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "wrote a Go workspace in "+ws) || !strings.Contains(stdout, "wirelab grade stdio-server") {
		t.Errorf("stdout:\n%s", stdout)
	}
	wantMod, wantSum := exercises.ModuleFiles()
	gomod, _ := os.ReadFile(filepath.Join(ws, "go.mod"))
	gosum, _ := os.ReadFile(filepath.Join(ws, "go.sum"))
	if string(gomod) != string(wantMod) || string(gosum) != string(wantSum) || !strings.HasPrefix(string(gomod), "module exercises\n") {
		t.Errorf("go.mod:\n%s\ngo.sum:\n%s", gomod, gosum)
	}
	st, err := progress.NewStore(path).Load()
	if err != nil || st.Workspace != ws {
		t.Errorf("workspace remembered: %q, %v", st.Workspace, err)
	}

	// The workspace is a module of its own: it builds outside this
	// repository, without it, and its go.sum has every checksum the
	// starters need (-mod=readonly would refuse to add one).
	build := exec.Command("go", "vet", "-mod=readonly", "./...")
	build.Dir = ws
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("go vet in the workspace: %v\n%s", err, out)
	}
}

// TestInitSaysHowToInstall checks that init, which prints `wirelab
// grade`, says how to put wirelab on the PATH when it is not there, as
// after `go run . init`, and says nothing of it when it is.
func TestInitSaysHowToInstall(t *testing.T) {
	const note = "wirelab is not on your PATH yet: run `go install .` once in your clone of wirelab\n(until then, `go run . grade stdio-server` there does the same)\n"
	installed := t.TempDir()
	if err := os.WriteFile(filepath.Join(installed, "wirelab"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, path string
		want       bool
	}{
		{"not on the PATH", t.TempDir(), true},
		{"on the PATH", installed, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			learner(t)
			t.Setenv("PATH", tt.path)
			code, stdout, stderr := run(t, "", "init", filepath.Join(t.TempDir(), "work"))
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if got := strings.HasSuffix(stdout, "  wirelab grade stdio-server\n"+note); got != tt.want {
				t.Errorf("the note on installing: %v, want %v; stdout:\n%s", got, tt.want, stdout)
			}
			if !tt.want && strings.Contains(stdout, "go install") {
				t.Errorf("stdout speaks of installing what is installed:\n%s", stdout)
			}
		})
	}
}

// TestInitNeverOverwrites: with one of its files already there, init
// writes nothing at all.
func TestInitNeverOverwrites(t *testing.T) {
	learner(t)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "mcp-server"), 0o755)
	os.WriteFile(filepath.Join(ws, "mcp-server", "main.go"), []byte("my work"), 0o644)
	code, stdout, stderr := run(t, "", "init", ws)
	if code != exitFailure || stdout != "" || !strings.Contains(stderr, "init never overwrites files") || !strings.Contains(stderr, filepath.Join(ws, "mcp-server", "main.go")) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "mcp-server", "main.go")); string(b) != "my work" {
		t.Errorf("the learner's file was overwritten: %q", b)
	}
	if _, err := os.Stat(filepath.Join(ws, "go.mod")); err == nil {
		t.Error("go.mod was written although init refused")
	}
}
