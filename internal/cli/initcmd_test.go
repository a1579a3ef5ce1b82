package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// starterIDs returns the code exercises init writes a folder for, in
// the order of the course.
func starterIDs(t *testing.T) []string {
	t.Helper()
	var ids []string
	for _, e := range exercises.List() {
		if _, ok := exercises.Starter(e.ID); ok {
			ids = append(ids, e.ID)
		}
	}
	if len(ids) < 3 {
		t.Fatalf("%d exercises have starters: %q", len(ids), ids)
	}
	return ids
}

// filesUnder returns every file under dir, by slash-separated path, with
// its bytes.
func filesUnder(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestInitAdd: in a workspace that lacks two exercise folders, --add
// writes exactly those, keeps every other file byte for byte (an edited
// starter, a folder the learner emptied), and remembers the workspace.
func TestInitAdd(t *testing.T) {
	path := learner(t)
	ids := starterIDs(t)
	ws := t.TempDir()
	if code, _, stderr := run(t, "", "init", ws); code != 0 {
		t.Fatalf("init: exit %d, %s", code, stderr)
	}
	fresh := filesUnder(t, ws)
	// The learner's work: an edited starter, and a folder they emptied
	// (an exercise folder that exists is theirs, even without files).
	edited := filepath.Join(ws, ids[0], "main.go")
	if err := os.WriteFile(edited, []byte("package main // my work\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	emptied := filepath.Join(ws, ids[1])
	if err := os.RemoveAll(emptied); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(emptied, 0o755); err != nil {
		t.Fatal(err)
	}
	// Two exercises a newer wirelab added since.
	missing := []string{ids[2], ids[len(ids)-1]}
	for _, id := range missing {
		if err := os.RemoveAll(filepath.Join(ws, id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := progress.NewStore(path).Update(func(st *progress.State) error { st.Workspace = ""; return nil }); err != nil {
		t.Fatal(err)
	}
	before := filesUnder(t, ws)

	code, stdout, stderr := run(t, "", "init", "--add", ws)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	after := filesUnder(t, ws)
	for name, b := range after {
		id, _, _ := strings.Cut(name, "/")
		if id == missing[0] || id == missing[1] {
			if b != fresh[name] {
				t.Errorf("added %s is not the starter", name)
			}
		} else if b != before[name] {
			t.Errorf("%s changed:\n%s", name, b)
		}
	}
	for name := range fresh {
		if _, ok := after[name]; !ok && !strings.HasPrefix(name, ids[1]+"/") {
			t.Errorf("%s is missing after --add", name)
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("%s was removed", name)
		}
	}
	if entries, _ := os.ReadDir(emptied); len(entries) != 0 {
		t.Errorf("the emptied folder %s was written into: %v", ids[1], entries)
	}
	want := "added 2 exercises to the workspace in " + ws + ":\n"
	if !strings.HasPrefix(stdout, want) {
		t.Errorf("stdout does not start with %q:\n%s", want, stdout)
	}
	kept := fmt.Sprintf("kept the %d exercise folders already there as they are\n", len(ids)-2)
	if !strings.Contains(stdout, kept) || !strings.Contains(stdout, "wirelab grade "+missing[0]+"\n") {
		t.Errorf("stdout does not say %q, nor where to start:\n%s", kept, stdout)
	}
	for _, id := range ids {
		if listed := strings.Contains(stdout, "  "+id+string(filepath.Separator)+" "); listed != (id == missing[0] || id == missing[1]) {
			t.Errorf("%s listed: %v\n%s", id, listed, stdout)
		}
	}
	if strings.Contains(stdout, "go mod tidy") {
		t.Errorf("stdout speaks of go.mod, which is this wirelab's:\n%s", stdout)
	}
	if st, err := progress.NewStore(path).Load(); err != nil || st.Workspace != ws {
		t.Errorf("workspace remembered: %q, %v", st.Workspace, err)
	}
}

// TestInitAddKeepsGoMod: a workspace whose go.mod and go.sum are not the
// ones this wirelab writes keeps them, and the learner is told what to
// do if an added exercise does not build.
func TestInitAddKeepsGoMod(t *testing.T) {
	learner(t)
	ids := starterIDs(t)
	ws := t.TempDir()
	if code, _, stderr := run(t, "", "init", ws); code != 0 {
		t.Fatalf("init: exit %d, %s", code, stderr)
	}
	gomod, _ := exercises.ModuleFiles()
	older := string(gomod) + "\nrequire example.com/older v1.0.0\n"
	for _, tt := range []struct {
		name, gomod, gosum string
		note               string
	}{
		{"go.mod", older, "", "your go.mod differs from the one this wirelab writes, and was kept as it is: if an added\n"},
		{"go.mod and go.sum", older, "example.com/older v1.0.0 h1:x=\n", "your go.mod and go.sum differ from the ones this wirelab writes, and were kept as they are: if an added\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.WriteFile(filepath.Join(ws, "go.mod"), []byte(tt.gomod), 0o644)
			if tt.gosum != "" {
				os.WriteFile(filepath.Join(ws, "go.sum"), []byte(tt.gosum), 0o644)
			}
			os.RemoveAll(filepath.Join(ws, ids[0]))
			before := filesUnder(t, ws)

			code, stdout, stderr := run(t, "", "init", "--add", ws)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			after := filesUnder(t, ws)
			if after["go.mod"] != before["go.mod"] || after["go.sum"] != before["go.sum"] {
				t.Errorf("go.mod or go.sum changed:\n%s\n%s", after["go.mod"], after["go.sum"])
			}
			tidy := "exercise does not build, run `go mod tidy` in " + ws + " (or compare with a fresh `wirelab init` in an empty folder)\n"
			if !strings.Contains(stdout, tt.note+tidy) {
				t.Errorf("stdout lacks the note\n%s%s\nstdout:\n%s", tt.note, tidy, stdout)
			}
		})
	}
}

// TestInitAddNothingToAdd: a workspace with every exercise is left as it
// is, and says so, exit 0.
func TestInitAddNothingToAdd(t *testing.T) {
	learner(t)
	ids := starterIDs(t)
	ws := t.TempDir()
	if code, _, stderr := run(t, "", "init", ws); code != 0 {
		t.Fatalf("init: exit %d, %s", code, stderr)
	}
	before := filesUnder(t, ws)
	code, stdout, stderr := run(t, "", "init", ws, "--add")
	want := fmt.Sprintf("the workspace in %s already has every exercise (%d folders, kept as they are): nothing to add\n", ws, len(ids))
	if code != 0 || stderr != "" || stdout != want {
		t.Errorf("exit %d, stderr %q, stdout %q; want 0 and %q", code, stderr, stdout, want)
	}
	if diff := cmp.Diff(before, filesUnder(t, ws)); diff != "" {
		t.Errorf("the workspace changed (-before +after):\n%s", diff)
	}
}

// TestInitAddRefuses: --add into a folder that is not a workspace writes
// nothing, and says what the folder is instead.
func TestInitAddRefuses(t *testing.T) {
	for _, tt := range []struct {
		name  string
		gomod string // "" for none
		want  string
	}{
		{"empty", "", "is not a workspace: it has no go.mod; `wirelab init "},
		{"another module", "module example.com/mine\n\ngo 1.22\n", "is not a workspace: its go.mod is for module example.com/mine, and a workspace's says `module exercises`"},
		{"no module line", "go 1.22\n", "is not a workspace: its go.mod has no module line"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := learner(t)
			dir := t.TempDir()
			if tt.gomod != "" {
				os.WriteFile(filepath.Join(dir, "go.mod"), []byte(tt.gomod), 0o644)
			}
			before := filesUnder(t, dir)
			code, stdout, stderr := run(t, "", "init", "--add", dir)
			if code != exitFailure || stdout != "" || !strings.HasPrefix(stderr, "wirelab: "+dir+" "+tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, stdout, stderr, tt.want)
			}
			if diff := cmp.Diff(before, filesUnder(t, dir)); diff != "" {
				t.Errorf("the folder changed (-before +after):\n%s", diff)
			}
			if _, err := os.Stat(path); err == nil {
				t.Error("the progress file was written")
			}
		})
	}
	t.Run("does not exist", func(t *testing.T) {
		learner(t)
		dir := filepath.Join(t.TempDir(), "nowhere")
		code, _, stderr := run(t, "", "init", "--add", dir)
		if code != exitFailure || !strings.Contains(stderr, dir+" is not a workspace: it does not exist") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%s was made", dir)
		}
	})
}

// TestInitNamesAdd: plain init on a workspace refuses, writes nothing,
// and says how to add the exercises it lacks.
func TestInitNamesAdd(t *testing.T) {
	learner(t)
	ids := starterIDs(t)
	ws := t.TempDir()
	if code, _, stderr := run(t, "", "init", ws); code != 0 {
		t.Fatalf("init: exit %d, %s", code, stderr)
	}
	os.RemoveAll(filepath.Join(ws, ids[0]))
	before := filesUnder(t, ws)
	code, stdout, stderr := run(t, "", "init", ws)
	if code != exitFailure || stdout != "" || !strings.Contains(stderr, "init never overwrites files") || !strings.HasSuffix(stderr, "wirelab init --add "+ws+"\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if diff := cmp.Diff(before, filesUnder(t, ws)); diff != "" {
		t.Errorf("the workspace changed (-before +after):\n%s", diff)
	}
}

// TestInitListingAligned: in init's listing, and in --add's, every
// folder's files start in the same column, after the longest folder.
func TestInitListingAligned(t *testing.T) {
	learner(t)
	ids := starterIDs(t)
	longest := ""
	for _, id := range ids {
		if len(id) > len(longest) {
			longest = id
		}
	}
	ws := t.TempDir()
	_, initOut, _ := run(t, "", "init", ws)
	other := ids[0]
	if other == longest {
		other = ids[1]
	}
	os.RemoveAll(filepath.Join(ws, longest))
	os.RemoveAll(filepath.Join(ws, other))
	_, addOut, _ := run(t, "", "init", "--add", ws)
	for _, tt := range []struct {
		name, stdout string
		folders      int
	}{
		{"init", initOut, len(ids) + 1},
		{"init --add", addOut, 2},
	} {
		var column []int
		for _, line := range strings.Split(tt.stdout, "\n") {
			// A listing line: two spaces, a folder, spaces, the files.
			folder, files, ok := strings.Cut(strings.TrimPrefix(line, "  "), " ")
			if !strings.HasPrefix(line, "  ") || !ok || !(folder == "." || strings.HasSuffix(folder, string(filepath.Separator))) {
				continue
			}
			column = append(column, len(line)-len(strings.TrimLeft(files, " ")))
		}
		want := len("  " + longest + "/ ")
		if len(column) != tt.folders {
			t.Errorf("%s: %d listing lines, want %d:\n%s", tt.name, len(column), tt.folders, tt.stdout)
		}
		for _, c := range column {
			if c != want {
				t.Errorf("%s: files start in columns %v, want all %d:\n%s", tt.name, column, want, tt.stdout)
				break
			}
		}
	}
}

// TestInitAddCorruptProgress: --add, like init, stops at a progress file
// it cannot read, before it writes anything.
func TestInitAddCorruptProgress(t *testing.T) {
	path := learner(t)
	ws := t.TempDir()
	if code, _, stderr := run(t, "", "init", ws); code != 0 {
		t.Fatalf("init: exit %d, %s", code, stderr)
	}
	id := starterIDs(t)[0]
	os.RemoveAll(filepath.Join(ws, id))
	if err := os.WriteFile(path, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, want := progress.NewStore(path).Load()
	if want == nil {
		t.Fatal("the broken file loads")
	}
	code, stdout, stderr := run(t, "", "init", "--add", ws)
	if code != exitFailure || stdout != "" || stderr != "wirelab: "+want.Error()+"\n" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(ws, id)); err == nil {
		t.Errorf("%s was added", id)
	}
}
