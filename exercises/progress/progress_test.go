package progress

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestDefaultPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(HomeEnv, dir)
	p, err := DefaultPath()
	if err != nil || p != filepath.Join(dir, "progress.json") {
		t.Errorf("DefaultPath() = %q, %v", p, err)
	}
	t.Setenv(HomeEnv, "")
	p, err = DefaultPath()
	if err == nil && !strings.HasSuffix(p, filepath.Join("wirelab", "progress.json")) {
		t.Errorf("DefaultPath() without %s = %q", HomeEnv, p)
	}
}

func TestRoundTrip(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "sub", "progress.json"))
	st, err := s.Load()
	if err != nil || len(st.Exercises) != 0 {
		t.Fatalf("a store with no file: %+v, %v", st, err)
	}
	when := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	err = s.Update(func(st *State) error {
		st.Workspace = "/home/learner/wirelab"
		st.SetExercise("stdio-server", Exercise{Passed: true, PassedAt: when})
		st.SetExercise("mcp-server", Exercise{HintsShown: 2})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err = s.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := State{Version: 1, Workspace: "/home/learner/wirelab", Exercises: map[string]Exercise{
		"stdio-server": {Passed: true, PassedAt: when},
		"mcp-server":   {HintsShown: 2},
	}}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if e := st.Exercise("nope"); e != (Exercise{}) {
		t.Errorf("an exercise never started: %+v", e)
	}
}

// TestChangeRefused checks that an error from the change writes nothing.
func TestChangeRefused(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "progress.json"))
	boom := errors.New("no")
	if err := s.Update(func(*State) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want the change's error", err)
	}
	if _, err := os.Stat(s.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written: %v", err)
	}
}

// TestInterruptedWrite makes the rename, the step that publishes a new
// file, fail: the old file must be left whole, and no temporary file
// behind. A crash at that moment leaves the same state.
func TestInterruptedWrite(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(filepath.Join(dir, "progress.json"))
	if err := s.Update(func(st *State) error { st.SetExercise("stdio-server", Exercise{Passed: true}); return nil }); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(s.Path())

	s.rename = func(oldpath, newpath string) error { return errors.New("power cut") }
	err := s.Update(func(st *State) error { st.SetExercise("mcp-server", Exercise{Passed: true}); return nil })
	if err == nil || !strings.Contains(err.Error(), "power cut") {
		t.Fatalf("Update = %v, want the rename's error", err)
	}
	after, _ := os.ReadFile(s.Path())
	if string(before) != string(after) {
		t.Errorf("the file changed:\nbefore %s\nafter %s", before, after)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestCorrupt checks that a file that cannot be read is reported, and
// never replaced by an update.
func TestCorrupt(t *testing.T) {
	for _, content := range []string{
		`{"version":1,"exercises":{"stdio-server":{"passed":tru`, // cut short by a crash of another program
		``,
		`{"version":1} trailing`,
		`{"exercises":{}}`,
		`{"version":1,"exercise":{}}`,
	} {
		path := filepath.Join(t.TempDir(), "progress.json")
		os.WriteFile(path, []byte(content), 0o600)
		s := NewStore(path)
		_, err := s.Load()
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.Path != path {
			t.Errorf("Load of %q = %v, want a *CorruptError", content, err)
		}
		err = s.Update(func(st *State) error { st.SetExercise("x", Exercise{Passed: true}); return nil })
		if !errors.As(err, &ce) {
			t.Errorf("Update of %q = %v, want a *CorruptError", content, err)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Errorf("the corrupt file was replaced by %s", b)
		}
	}
}

func TestNewerFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	os.WriteFile(path, []byte(`{"version":99}`), 0o600)
	if _, err := NewStore(path).Load(); err == nil || !strings.Contains(err.Error(), "newer wirelab") {
		t.Errorf("Load = %v, want a refusal", err)
	}
}

// TestConcurrentUpdates runs updates from two stores on one file, as the
// playground and a `wirelab hint` in a terminal would: none is lost.
func TestConcurrentUpdates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	a, b := NewStore(path), NewStore(path)
	var wg sync.WaitGroup
	for i := range 20 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.Update(func(st *State) error {
				e := st.Exercise("stdio-server")
				e.HintsShown++
				st.SetExercise("stdio-server", e)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	st, err := a.Load()
	if err != nil || st.Exercise("stdio-server").HintsShown != 20 {
		t.Errorf("after 20 updates: %+v, %v", st.Exercise("stdio-server"), err)
	}
}

// TestSweepTemporaryFiles leaves the temporary files of killed writers
// beside the progress file: an update removes those over a minute old,
// and keeps a fresh one, which a writer in another process may still be
// about to rename, and files that are not its own.
func TestSweepTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(filepath.Join(dir, "progress.json"))
	old := time.Now().Add(-staleTemp - time.Minute)
	for name, when := range map[string]time.Time{
		".progress-111.tmp": old,
		".progress-222.tmp": old,
		".progress-333.tmp": time.Now(),
		"notes.tmp":         old,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(`{"version":1,"exer`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, when, when); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Update(func(st *State) error { st.Workspace = "/ws"; return nil }); err != nil {
		t.Fatal(err)
	}
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "progress.json.lock" { // there on Unix only
			left = append(left, e.Name())
		}
	}
	want := []string{".progress-333.tmp", "notes.tmp", "progress.json"}
	if diff := cmp.Diff(want, left); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestCorruptMessage checks the sentence every place shows for a file
// that cannot be read: the file, and what to do with it.
func TestCorruptMessage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	os.WriteFile(path, []byte(`{"version":1,"exer`), 0o600)
	_, err := NewStore(path).Load()
	msg := fmt.Sprint(err)
	for _, want := range []string{path, "cannot be read", "unexpected EOF", "rename it", "progress.json.broken"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message does not say %q: %s", want, msg)
		}
	}
}

// TestAnswers records answers to a lesson's questions and reads them
// back: the first answer to a question is the one kept.
func TestAnswers(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "progress.json"))
	first := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	var kept Answer
	err := s.Update(func(st *State) error {
		st.Answer("stdio", 1, Answer{Choice: 2, Right: true}, first)
		st.Answer("stdio", 3, Answer{Choice: 1}, first)
		// A second answer to question 3, right this time, changes nothing.
		kept = st.Answer("stdio", 3, Answer{Choice: 2, Right: true}, first.Add(time.Minute))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Answer{Choice: 1, At: first}); kept != want {
		t.Errorf("the answer that counts = %+v, want the first, %+v", kept, want)
	}
	st, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Answer{"1": {Choice: 2, Right: true, At: first}, "3": {Choice: 1, At: first}}
	if diff := cmp.Diff(want, st.Answers("stdio")); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if st.Version != 2 {
		t.Errorf("a file with answers is format %d, want 2", st.Version)
	}
	if a := st.Answers("http"); len(a) != 0 {
		t.Errorf("a lesson never answered: %+v", a)
	}
}

// TestFormat1File loads a progress file as wirelab wrote it before the
// lessons' questions existed: it loads as it is, an update that records
// no answer keeps it at format 1 (which that older wirelab still reads),
// and the first answer makes it format 2 and keeps everything else.
func TestFormat1File(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	// Written as Update writes, keys sorted, so that the bytes can be
	// compared after an update.
	old := `{
  "version": 1,
  "workspace": "/home/learner/wirelab",
  "exercises": {
    "mcp-server": {
      "hints_shown": 2,
      "solution_shown": true
    },
    "stdio-server": {
      "passed": true,
      "passed_at": "2026-11-21T10:00:00Z"
    }
  }
}
`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewStore(path)
	st, err := s.Load()
	if err != nil {
		t.Fatalf("a format 1 file: %v", err)
	}
	wantExercises := map[string]Exercise{
		"stdio-server": {Passed: true, PassedAt: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)},
		"mcp-server":   {HintsShown: 2, SolutionShown: true},
	}
	if diff := cmp.Diff(wantExercises, st.Exercises); diff != "" {
		t.Errorf("exercises (-want +got):\n%s", diff)
	}

	if err := s.Update(func(st *State) error { st.Workspace = "/home/learner/wirelab"; return nil }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != old {
		t.Errorf("an update without answers rewrote the file as\n%s\nwant it as it was:\n%s", b, old)
	}

	if err := s.Update(func(st *State) error {
		st.Answer("stdio", 1, Answer{Choice: 1, Right: true}, time.Now())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st, err = s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if st.Version != 2 || len(st.Answers("stdio")) != 1 || st.Workspace != "/home/learner/wirelab" {
		t.Errorf("after the first answer: version %d, answers %+v, workspace %q", st.Version, st.Answers("stdio"), st.Workspace)
	}
	if diff := cmp.Diff(wantExercises, st.Exercises); diff != "" {
		t.Errorf("exercises after the first answer (-want +got):\n%s", diff)
	}
}

// TestFailures records failed grades: they are counted before a pass and
// after it, a pass keeps the count, and the latest failure's time is
// kept.
func TestFailures(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "progress.json"))
	first := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	err := s.Update(func(st *State) error {
		st.Fail("stdio-server", first)
		st.Fail("stdio-server", first.Add(time.Minute))
		st.Pass("stdio-server", first.Add(2*time.Minute))
		st.Fail("mcp-server", first.Add(3*time.Minute+500*time.Millisecond))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Exercise{
		"stdio-server": {Passed: true, PassedAt: first.Add(2 * time.Minute), Failures: 2, LastFailure: first.Add(time.Minute)},
		"mcp-server":   {Failures: 1, LastFailure: first.Add(3 * time.Minute)},
	}
	if diff := cmp.Diff(want, st.Exercises); diff != "" {
		t.Errorf("exercises (-want +got):\n%s", diff)
	}
	if st.Version != 3 {
		t.Errorf("a file with failures is format %d, want 3", st.Version)
	}

	// A failure after the pass is counted, and the pass stands.
	if err := s.Update(func(st *State) error { st.Fail("stdio-server", first.Add(time.Hour)); return nil }); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Load()
	if e := st.Exercise("stdio-server"); !e.Passed || e.Failures != 3 || !e.LastFailure.Equal(first.Add(time.Hour)) {
		t.Errorf("after a failure that follows the pass: %+v", e)
	}
}

// TestFormatWritten checks that Update writes the lowest format that
// holds the file's contents, so that an older wirelab reads every file
// that does not need a newer one.
func TestFormatWritten(t *testing.T) {
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name   string
		change func(st *State)
		want   int
	}{
		{"nothing", func(*State) {}, 1},
		{"passes and hints", func(st *State) {
			st.Pass("stdio-server", now)
			st.SetExercise("mcp-server", Exercise{HintsShown: 1, SolutionShown: true})
		}, 1},
		{"an answer", func(st *State) { st.Answer("stdio", 1, Answer{Choice: 1}, now) }, 2},
		{"a failure", func(st *State) { st.Fail("stdio-server", now) }, 3},
		{"a failure and an answer", func(st *State) {
			st.Answer("stdio", 1, Answer{Choice: 1}, now)
			st.Fail("stdio-server", now)
		}, 3},
		{"a failure, then a pass", func(st *State) {
			st.Fail("stdio-server", now)
			st.Pass("stdio-server", now)
		}, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "progress.json")
			if err := NewStore(path).Update(func(st *State) error { tt.change(st); return nil }); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// What an older wirelab reads first: the version, before any
			// field it might not know.
			var v struct{ Version int }
			if err := json.Unmarshal(b, &v); err != nil || v.Version != tt.want {
				t.Errorf("version %d (%v), want %d:\n%s", v.Version, err, tt.want, b)
			}
		})
	}
}

// TestFormat3File loads a file in format 3 as this wirelab writes it,
// and refuses one with a field no format has, in an exercise or at the
// top.
func TestFormat3File(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	const file = `{
  "version": 3,
  "exercises": {
    "stdio-server": {
      "hints_shown": 1,
      "failures": 4,
      "last_failure": "2026-11-26T09:00:00Z"
    }
  },
  "lessons": {
    "stdio": {
      "answers": {
        "1": {
          "choice": 2
        }
      }
    }
  }
}
`
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewStore(path)
	st, err := s.Load()
	if err != nil {
		t.Fatalf("a format 3 file: %v", err)
	}
	want := Exercise{HintsShown: 1, Failures: 4, LastFailure: time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)}
	if diff := cmp.Diff(want, st.Exercise("stdio-server")); diff != "" {
		t.Errorf("stdio-server (-want +got):\n%s", diff)
	}
	// Rewritten unchanged, it stays format 3, byte for byte.
	if err := s.Update(func(*State) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != file {
		t.Errorf("an update that changed nothing rewrote the file as\n%s\nwant it as it was:\n%s", b, file)
	}

	for _, unknown := range []string{
		`{"version":3,"exercises":{"stdio-server":{"failures":1,"failed_grades":2}}}`,
		`{"version":3,"attempts":{}}`,
	} {
		os.WriteFile(path, []byte(unknown), 0o600)
		var ce *CorruptError
		if _, err := NewStore(path).Load(); !errors.As(err, &ce) || !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("Load of %s = %v, want a *CorruptError for the unknown field", unknown, err)
		}
	}
}
