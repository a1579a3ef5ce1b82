package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/grade"
	"github.com/wirelab/wirelab/exercises/progress"
)

// TestGradeSolutions grades the reference solutions of every code
// exercise, as the "done when" asks: everything passes. Passing
// them is not the learner's progress, so none is recorded; a learner's
// copy of a solution, changed by a byte, is.
func TestGradeSolutions(t *testing.T) {
	path := learner(t)
	var ids []string
	for _, e := range exercises.List() {
		if e.Kind == exercises.Code {
			ids = append(ids, e.ID)
		}
	}
	code, stdout, stderr := run(t, "", append([]string{"grade", "--dir", "../../solutions"}, ids...)...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	if n := strings.Count(stdout, "Passed: all "); n != len(ids) {
		t.Errorf("%d of %d exercises passed:\n%s", n, len(ids), stdout)
	}
	for _, want := range []string{"Passed: all 7 stages.\n", "Passed: all 10 stages.\n", "  ok    7. keeps stdout clean\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s", want, stdout)
		}
	}
	if st, err := progress.NewStore(path).Load(); err != nil || len(st.Exercises) != 0 {
		t.Errorf("progress after grading the reference solutions: %+v, %v; want none", st.Exercises, err)
	}

	ws := t.TempDir()
	gomod, gosum := exercises.ModuleFiles()
	os.WriteFile(filepath.Join(ws, "go.mod"), gomod, 0o644)
	os.WriteFile(filepath.Join(ws, "go.sum"), gosum, 0o644)
	src, err := os.ReadFile("../../solutions/stdio-server/main.go")
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(ws, "stdio-server"), 0o755)
	os.WriteFile(filepath.Join(ws, "stdio-server", "main.go"), append(src, "\n// Mine now.\n"...), 0o644)
	if code, stdout, _ := run(t, "", "grade", "--dir", ws, "stdio-server"); code != 0 {
		t.Fatalf("the learner's copy: exit %d:\n%s", code, stdout)
	}
	st, err := progress.NewStore(path).Load()
	if e := st.Exercise("stdio-server"); err != nil || !e.Passed || e.PassedAt.IsZero() {
		t.Errorf("stdio-server: progress %+v, %v; want passed", e, err)
	}
}

// TestGradeStarter grades the starter in the workspace init wrote, found
// without --dir, and shows the failure as a learner sees it.
func TestGradeStarter(t *testing.T) {
	path := learner(t)
	ws := filepath.Join(t.TempDir(), "ws")
	if code, _, stderr := run(t, "", "init", ws); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	code, stdout, _ := run(t, "", "grade", "stdio-server")
	want := "stdio-server (" + filepath.Join(ws, "stdio-server") + `)
  ok    1. builds
  FAIL  2. answers one call
        a word_count call without an id: the answer is not the one expected
        Sent:     {"name":"word_count","args":{"text":"read the wire"}}
        Expected: {"result":{"words":3,"chars":13}}
        Got:      {"error":{"code":"not_implemented","message":"this server does not answer requests yet"}}
                    ^ first difference
Not yet: stage 2 of 7, "answers one call", failed.
`
	if code != exitFailure {
		t.Errorf("exit %d, want 1", code)
	}
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if e := exerciseProgress(t, path, "stdio-server"); e.Passed || e.Failures != 1 || e.LastFailure.IsZero() {
		t.Errorf("after a failed grade: progress %+v, want one failure and no pass", e)
	}

	code, stdout, _ = run(t, "", "grade", "--json", "stdio-server", "--all-stages")
	var rep grade.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("not one line of JSON: %v\n%s", err, stdout)
	}
	if code != exitFailure || rep.Passed || rep.Dir != filepath.Join(ws, "stdio-server") || len(rep.Stages) != 7 || rep.Stages[1].Failure.Offset == nil {
		t.Errorf("exit %d, report %+v", code, rep)
	}
	if e := exerciseProgress(t, path, "stdio-server"); e.Failures != 2 {
		t.Errorf("after a second failed grade: progress %+v, want two failures", e)
	}
	// The list shows the failures where it showed "-".
	if _, stdout, _ := run(t, "", "exercises"); !hasRow(stdout, "stdio-server code stdio failed 2 A stdio tool server") {
		t.Errorf("wirelab exercises:\n%s", stdout)
	}
}

// TestGradeRussian grades the starter with --lang ru, and with
// $WIRELAB_LANG=ru: the report is in Russian, with the stages' English
// names beside their Russian as the README.ru.md lists them, and the
// bytes as they are. --json keeps the English and adds the Russian.
func TestGradeRussian(t *testing.T) {
	learner(t)
	ws := filepath.Join(t.TempDir(), "ws")
	if code, _, stderr := run(t, "", "init", ws); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	want := "stdio-server (" + filepath.Join(ws, "stdio-server") + `)
  ок      1. builds — собирается
  ОШИБКА  2. answers one call — отвечает на один вызов
          вызов word_count без id: ответ не тот, что ожидался
          Отправлено: {"name":"word_count","args":{"text":"read the wire"}}
          Ожидалось:  {"result":{"words":3,"chars":13}}
          Пришло:     {"error":{"code":"not_implemented","message":"this server does not answer requests yet"}}
                        ^ первое расхождение
Пока нет: этап 2 из 7, «answers one call — отвечает на один вызов», не пройден.
`
	code, stdout, _ := run(t, "", "grade", "--lang", "ru", "stdio-server")
	if code != exitFailure {
		t.Errorf("exit %d, want 1", code)
	}
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("--lang ru (-want +got):\n%s", diff)
	}

	t.Setenv("WIRELAB_LANG", "ru")
	code, stdout, _ = run(t, "", "grade", "--json", "stdio-server")
	var rep grade.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != exitFailure {
		t.Fatalf("exit %d, %v:\n%s", code, err, stdout)
	}
	s := rep.Stages[1]
	if s.Name != "answers one call" || s.NameRU != "отвечает на один вызов" || s.Failure == nil ||
		s.Failure.Summary != "a word_count call without an id: the answer is not the one expected" ||
		s.Failure.SummaryRU != "вызов word_count без id: ответ не тот, что ожидался" {
		t.Errorf("--json: stage %+v, failure %+v", s, s.Failure)
	}
	if code, _, stderr := run(t, "", "grade", "--lang", "de", "stdio-server"); code != exitUsage || !strings.Contains(stderr, "en and ru") {
		t.Errorf("--lang de: exit %d, stderr %q", code, stderr)
	}
}

// TestGradeFailureRecorded grades programs that do not build, which are
// quick to grade: a learner's is a failure in the progress; the
// reference solution's, copied unchanged, is nobody's, as its pass is;
// and a folder that is not there is no attempt.
func TestGradeFailureRecorded(t *testing.T) {
	path := learner(t)
	src, err := os.ReadFile("../../solutions/stdio-server/main.go")
	if err != nil {
		t.Fatal(err)
	}
	// No go.mod beside it: go build fails, the build stage with it.
	ws := t.TempDir()
	main := filepath.Join(ws, "stdio-server", "main.go")
	os.Mkdir(filepath.Dir(main), 0o755)
	os.WriteFile(main, src, 0o644)

	if code, stdout, _ := run(t, "", "grade", "--dir", ws, "stdio-server"); code != exitFailure || !strings.Contains(stdout, "FAIL  1. builds") {
		t.Fatalf("the solution without a module: exit %d:\n%s", code, stdout)
	}
	if st, err := progress.NewStore(path).Load(); err != nil || len(st.Exercises) != 0 {
		t.Errorf("progress after a failed grade of the reference solution: %+v, %v; want none", st.Exercises, err)
	}

	if code, stdout, _ := run(t, "", "grade", "--dir", t.TempDir(), "stdio-server"); code != exitFailure || !strings.Contains(stdout, "there is no folder") {
		t.Fatalf("no folder: exit %d:\n%s", code, stdout)
	}
	if st, err := progress.NewStore(path).Load(); err != nil || len(st.Exercises) != 0 {
		t.Errorf("progress after grading a folder that is not there: %+v, %v; want none", st.Exercises, err)
	}

	os.WriteFile(main, append(src, "\n// Mine now.\n"...), 0o644)
	if code, stdout, _ := run(t, "", "grade", "--dir", ws, "stdio-server"); code != exitFailure {
		t.Fatalf("the learner's copy without a module: exit %d:\n%s", code, stdout)
	}
	if e := exerciseProgress(t, path, "stdio-server"); e.Passed || e.Failures != 1 {
		t.Errorf("progress after the learner's failed grade: %+v, want one failure", e)
	}
}

// exerciseProgress reads one exercise's progress from the file at path.
func exerciseProgress(t *testing.T, path, id string) progress.Exercise {
	t.Helper()
	st, err := progress.NewStore(path).Load()
	if err != nil {
		t.Fatal(err)
	}
	return st.Exercise(id)
}

func TestGradeMissingFolder(t *testing.T) {
	learner(t)
	dir := t.TempDir()
	code, stdout, _ := run(t, "", "grade", "--dir", dir, "stdio-server")
	if code != exitFailure || !strings.Contains(stdout, "there is no folder") || !strings.Contains(stdout, filepath.Join(dir, "stdio-server")+"\n") || !strings.Contains(stdout, "wirelab init DIR") {
		t.Errorf("exit %d, stdout:\n%s", code, stdout)
	}
}

// TestGradeNoGrader asks for a code exercise whose grader is not written
// yet, while there is one.
func TestGradeNoGrader(t *testing.T) {
	learner(t)
	for _, e := range exercises.List() {
		if _, ok := grade.For(e.ID); e.Kind == exercises.Code && !ok {
			code, _, stderr := run(t, "", "grade", e.ID)
			if code != exitUsage || stderr != "wirelab: grade: "+e.ID+" has no grader yet\n" {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			return
		}
	}
	t.Skip("every code exercise has a grader")
}

func TestExerciseDir(t *testing.T) {
	base := t.TempDir()
	os.Mkdir(filepath.Join(base, "stdio-server"), 0o755)
	inside := filepath.Join(base, "stdio-server")
	for _, tt := range []struct{ base, id, want string }{
		{base, "stdio-server", inside},
		{inside, "stdio-server", inside}, // run from inside the exercise's folder
		{base, "mcp-server", filepath.Join(base, "mcp-server")},
	} {
		if got := exerciseDir(tt.base, tt.id); got != tt.want {
			t.Errorf("exerciseDir(%q, %q) = %q, want %q", tt.base, tt.id, got, tt.want)
		}
	}
}

func TestParseInterspersed(t *testing.T) {
	fs := flags("grade")
	asJSON := fs.Bool("json", false, "")
	dir := fs.String("dir", "", "")
	pos, err := parseInterspersed(fs, []string{"a", "--json", "b", "--dir", "d", "--", "--c"})
	if err != nil || !*asJSON || *dir != "d" {
		t.Fatalf("json %v, dir %q, err %v", *asJSON, *dir, err)
	}
	if diff := cmp.Diff([]string{"a", "b", "--c"}, pos); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestGradeWatch runs the real binary with --watch: it grades, grades
// again when a .go file changes, and ends on an interrupt.
func TestGradeWatch(t *testing.T) {
	learner(t)
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module exercises\n\ngo "+exercises.GoVersion+"\n"), 0o644)
	main := filepath.Join(ws, "stdio-server", "main.go")
	os.Mkdir(filepath.Dir(main), 0o755)
	// Programs that do not compile make the quickest grades.
	os.WriteFile(main, []byte("package main\n\nfunc main() { first() }\n"), 0o644)

	cmd := exec.Command(wirelabBin, "grade", "--watch", "stdio-server", "--dir", ws)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	lines := make(chan string)
	defer func() {
		cmd.Process.Kill()
		for range lines {
		}
		<-done
	}()
	// This goroutine ends when the process's stdout closes, at its exit.
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		done <- cmd.Wait()
	}()
	// waitFor reads lines until one contains s, and returns everything
	// read. It gives up after a minute: a limit, not a measurement.
	waitFor := func(s string) string {
		t.Helper()
		var seen []string
		timeout := time.After(time.Minute)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("output ended before %q:\n%s", s, strings.Join(seen, "\n"))
				}
				seen = append(seen, l)
				if strings.Contains(l, s) {
					return strings.Join(seen, "\n")
				}
			case <-timeout:
				t.Fatalf("no %q within a minute:\n%s", s, strings.Join(seen, "\n"))
			}
		}
	}
	if got := waitFor("Not yet: stage 1 of 7"); !strings.Contains(got, "undefined: first") {
		t.Errorf("first grade:\n%s", got)
	}
	os.WriteFile(main, []byte("package main\n\nfunc main() { second() }\n"), 0o644)
	// A later modification time, in case the file system's clock is
	// coarser than the two writes are apart.
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(main, later, later)
	if got := waitFor("Not yet: stage 1 of 7"); !strings.Contains(got, "a file changed; grading again") || !strings.Contains(got, "undefined: second") {
		t.Errorf("second grade:\n%s", got)
	}

	cmd.Process.Signal(syscall.SIGINT)
	for range lines {
	}
	err = <-done
	done <- err // for the deferred cleanup
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("after an interrupt: %v, want exit status 1 (the last grade failed)", err)
	}
}

// TestAttemptFailed: only a stage that failed is a verdict on the
// learner's program; a grader's own error, and a folder that is not
// there, are not.
func TestAttemptFailed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "main.go")
	os.WriteFile(file, []byte("package main\n"), 0o644)
	report := func(s ...grade.Status) *grade.Report {
		rep := &grade.Report{}
		for _, st := range s {
			rep.Stages = append(rep.Stages, grade.StageResult{Status: st})
		}
		return rep
	}
	for _, tt := range []struct {
		name string
		rep  *grade.Report
		dir  string
		want bool
	}{
		{"a stage failed", report(grade.Passed, grade.Failed, grade.Skipped), dir, true},
		{"the build failed", report(grade.Failed, grade.Skipped), dir, true},
		{"failed, then the grader erred (--all-stages)", report(grade.Passed, grade.Failed, grade.Errored), dir, true},
		{"the grader erred", report(grade.Errored, grade.Skipped), dir, false},
		{"no folder", report(grade.Failed, grade.Skipped), filepath.Join(dir, "nope"), false},
		{"a file, not a folder", report(grade.Failed, grade.Skipped), file, false},
	} {
		if got := attemptFailed(tt.rep, tt.dir); got != tt.want {
			t.Errorf("%s: attemptFailed = %v, want %v", tt.name, got, tt.want)
		}
	}
}
