package grade

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tmpEntries lists what is in the temporary directory, which the test
// made its own with TMPDIR.
func tmpEntries(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// ownTempDir points the temporary directory at a fresh folder for the
// rest of the test, so that what a grade leaves there can be seen.
func ownTempDir(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	t.Setenv("TMP", dir) // Windows
	return dir
}

// waitFor polls until cond holds, and fails the test after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestInterruptMidBuild cancels a grade while go build runs, as Ctrl-C
// does: the grade folder goes, and so does the go command's own work
// folder, which is inside it.
func TestInterruptMidBuild(t *testing.T) {
	ownTempDir(t)
	// A program no earlier test built, so that go build has work to do
	// (compiling and linking) while the test cancels it.
	prog := t.TempDir()
	src := "package main\n\nconst unique = " + strconv.Quote(prog) + "\n\nfunc main() { println(unique) }\n"
	if err := os.WriteFile(filepath.Join(prog, "go.mod"), []byte("module interrupted\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prog, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	go func() { // ends when the grade does, which cancel below causes
		rep, err := Run(ctx, closesStdin(), prog, nil)
		done <- result{rep, err}
	}()
	// go build has begun once its work folder is in the grade's folder.
	var building bool
	waitFor(t, "go build to start", func() bool {
		work, _ := filepath.Glob(filepath.Join(os.TempDir(), folderPrefix+"*", "go-build*"))
		select {
		case r := <-done:
			t.Fatalf("the grade ended before go build was seen running: %+v, %v", r.rep.Stages[0], r.err)
		default:
		}
		building = len(work) > 0
		return building
	})
	cancel()
	r := <-done
	if !errors.Is(r.err, context.Canceled) || r.rep.Stages[0].Status != Canceled {
		t.Fatalf("Run = stage %+v, %v; want the build canceled", r.rep.Stages[0], r.err)
	}
	if left := tmpEntries(t); len(left) != 0 {
		t.Errorf("left in the temporary directory: %q", left)
	}
}

// TestInterruptMidRun cancels a grade while the program runs: the
// program and its child are killed, and the folder it was built in is
// removed.
func TestInterruptMidRun(t *testing.T) {
	ownTempDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var running []int
	g := &Grader{Exercise: "interrupted", Stages: []Stage{{Name: "runs", Limit: time.Minute, Run: func(t *T) error {
		p, err := t.Start()
		if err != nil {
			return err
		}
		// The program writes its pid and its child's once both run.
		for running == nil {
			select {
			case <-p.done:
				return Failf("the program exited: %s", p.exitStatus())
			case <-time.After(5 * time.Millisecond):
			}
			running = pids(p.errs.String())
		}
		cancel()
		_, err = p.Wait()
		return err
	}}}}
	rep, err := Run(ctx, g, "testdata/bad/hang", nil)
	if !errors.Is(err, context.Canceled) || rep.Stages[1].Status != Canceled {
		t.Fatalf("Run = stage %+v, %v; want the stage canceled", rep.Stages[1], err)
	}
	if len(running) != 2 {
		t.Fatalf("pids %v, want the program's and its child's", running)
	}
	for _, pid := range running {
		if !gone(pid) {
			t.Errorf("process %d is still running after the grade", pid)
		}
	}
	if left := tmpEntries(t); len(left) != 0 {
		t.Errorf("left in the temporary directory: %q", left)
	}
}

// TestRemoveStale leaves a fresh grade folder (one that a grade in
// another process may be using) and anything not a grade folder, and
// removes old ones.
func TestRemoveStale(t *testing.T) {
	tmp := ownTempDir(t)
	old := time.Now().Add(-StaleAge - time.Minute)
	mk := func(name string, age time.Time, dir bool) {
		t.Helper()
		path := filepath.Join(tmp, name)
		var err error
		if dir {
			err = os.MkdirAll(filepath.Join(path, "go-build1"), 0o700)
			if err == nil {
				err = os.WriteFile(filepath.Join(path, "program"), []byte("x"), 0o700)
			}
		} else {
			err = os.WriteFile(path, []byte("x"), 0o600)
		}
		if err == nil {
			err = os.Chtimes(path, age, age)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	mk("wirelab-grade-old", old, true)
	mk("wirelab-grade-fresh", time.Now(), true)
	mk("wirelab-grade-file", old, false)
	mk("other-old", old, true)
	if err := os.Symlink(filepath.Join(tmp, "other-old"), filepath.Join(tmp, "wirelab-grade-link")); err != nil {
		t.Fatal(err)
	}

	removed, err := RemoveStale()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{filepath.Join(tmp, "wirelab-grade-old")}, removed); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	want := []string{"other-old", "wirelab-grade-file", "wirelab-grade-fresh", "wirelab-grade-link"}
	if diff := cmp.Diff(want, tmpEntries(t)); diff != "" {
		t.Errorf("left (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(tmp, "other-old", "program")); err != nil {
		t.Errorf("the folder a link pointed to lost its files: %v", err)
	}
}

// TestStaleAgeOutlastsGrades checks that no grade can run as long as
// StaleAge, so that RemoveStale never takes a running grade's folder.
func TestStaleAgeOutlastsGrades(t *testing.T) {
	for _, id := range []string{"stdio-server", "http-server", "grpc-server", "schema-versions", "mcp-server", "mcp-client", "a2a-client"} {
		g, ok := For(id)
		if !ok {
			t.Fatalf("no grader for %s", id)
		}
		longest := BuildLimit + stageGrace
		for _, s := range g.Stages {
			limit := s.Limit
			if limit <= 0 {
				limit = DefaultLimit
			}
			longest += limit + stageGrace
		}
		if longest*4 > StaleAge {
			t.Errorf("a grade of %s may run %v, too close to StaleAge (%v)", id, longest, StaleAge)
		}
	}
}
