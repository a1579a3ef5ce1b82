package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/progress"
)

// learner gives a test a learner of its own: an empty WIRELAB_HOME, so
// that progress is read from and written to a temporary directory, never
// the user's. It returns the progress file's path.
func learner(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv(progress.HomeEnv, home)
	return filepath.Join(home, "progress.json")
}

func TestExercisesList(t *testing.T) {
	path := learner(t)
	progress.NewStore(path).Update(func(st *progress.State) error {
		st.SetExercise("stdio-server", progress.Exercise{Passed: true})
		st.SetExercise("mcp-server", progress.Exercise{HintsShown: 1})
		return nil
	})
	code, stdout, stderr := run(t, "", "exercises")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != len(exercises.List())+1 || strings.Join(strings.Fields(lines[0]), " ") != "ID KIND LESSON PROGRESS TITLE" {
		t.Fatalf("stdout:\n%s", stdout)
	}
	for _, want := range []string{
		"stdio-server code stdio passed A stdio tool server",
		"mcp-server code mcp-by-hand hint 1/3 An MCP server over stdio, by hand",
		"frames-mcp-handshake frame mcp-by-hand - The MCP handshake by hand",
	} {
		if !hasRow(stdout, want) {
			t.Errorf("no line %q in:\n%s", want, stdout)
		}
	}

	code, stdout, _ = run(t, "", "exercises", "--lang", "ru")
	if code != 0 || !strings.Contains(stdout, "Сервер инструментов на stdio") {
		t.Errorf("--lang ru: exit %d:\n%s", code, stdout)
	}
	// $WIRELAB_LANG sets the default; --lang still wins.
	t.Setenv("WIRELAB_LANG", "ru")
	if code, stdout, _ = run(t, "", "exercises"); code != 0 || !strings.Contains(stdout, "Сервер инструментов на stdio") || !strings.Contains(stdout, "ПРОГРЕСС") || !strings.Contains(stdout, "пройдено") {
		t.Errorf("WIRELAB_LANG=ru: exit %d:\n%s", code, stdout)
	}
	if code, stdout, _ = run(t, "", "exercises", "--lang", "en"); code != 0 || strings.Contains(stdout, "Сервер инструментов на stdio") {
		t.Errorf("WIRELAB_LANG=ru --lang en: exit %d:\n%s", code, stdout)
	}
}

// hasRow reports whether a line of a table printed by tabwriter reads
// want, with each run of spaces between its words as one space.
func hasRow(table, want string) bool {
	for _, l := range strings.Split(table, "\n") {
		if strings.Join(strings.Fields(l), " ") == want {
			return true
		}
	}
	return false
}

// TestProgressWord sums up the ways a learner can be at an exercise:
// everything but a pass is listed, shortest first, in either language.
func TestProgressWord(t *testing.T) {
	for _, tt := range []struct {
		p        *progress.Exercise
		want, ru string
	}{
		{nil, "?", "?"},
		{&progress.Exercise{}, "-", "-"},
		{&progress.Exercise{Passed: true, Failures: 4, HintsShown: 2}, "passed", "пройдено"},
		{&progress.Exercise{Failures: 3}, "failed 3", "неудач: 3"},
		{&progress.Exercise{HintsShown: 2}, "hint 2/4", "подсказки 2/4"},
		{&progress.Exercise{SolutionShown: true}, "solution seen", "решение открыто"},
		{&progress.Exercise{Failures: 1, HintsShown: 4, SolutionShown: true}, "failed 1, hint 4/4, solution seen", "неудач: 1, подсказки 4/4, решение открыто"},
	} {
		e := exerciseEntry{Hints: 4, Progress: tt.p}
		if got := progressWord(e, "en"); got != tt.want {
			t.Errorf("progressWord(%+v, en) = %q, want %q", tt.p, got, tt.want)
		}
		if got := progressWord(e, "ru"); got != tt.ru {
			t.Errorf("progressWord(%+v, ru) = %q, want %q", tt.p, got, tt.ru)
		}
	}
}

func TestExercisesJSON(t *testing.T) {
	learner(t)
	code, stdout, _ := run(t, "", "exercises", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var list []struct {
		ID       string
		Kind     string
		Lesson   string
		Title    struct{ EN, RU string }
		Hints    int
		Progress *struct {
			Passed     bool `json:"passed"`
			HintsShown int  `json:"hints_shown"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if len(list) != len(exercises.List()) {
		t.Fatalf("%d exercises, want %d", len(list), len(exercises.List()))
	}
	e := list[1]
	if e.ID != "stdio-server" || e.Kind != "code" || e.Lesson != "stdio" || e.Title.RU == "" || e.Hints != 3 || e.Progress == nil || e.Progress.Passed {
		t.Errorf("entry: %+v", e)
	}
}

// TestExercisesCorruptProgress: the list is still shown, without
// progress, and the broken file is reported and left alone.
func TestExercisesCorruptProgress(t *testing.T) {
	path := learner(t)
	os.WriteFile(path, []byte(`{"version":1,"exerc`), 0o600)
	code, stdout, stderr := run(t, "", "exercises")
	if code != exitFailure || !strings.Contains(stderr, "cannot be read") || !strings.Contains(stderr, path) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "stdio-server") || !strings.Contains(stdout, " ? ") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"version":1,"exerc` {
		t.Errorf("the file was changed: %s", b)
	}
}

// TestExerciseCommandsUsage checks the command lines of the wrong shape
// (a flag that does not exist, an argument missing or too many): their
// one line, then the usage.
func TestExerciseCommandsUsage(t *testing.T) {
	learner(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"exercises", "extra"}, `wirelab: exercises takes no arguments, got "extra"`},
		{[]string{"exercises", "--lang", "fr"}, `wirelab: --lang "fr": the course is in en and ru`},
		{[]string{"grade"}, `wirelab: grade needs an exercise id; code exercises: stdio-server, stdio-client, http-server, fix-bad-token-401, fix-unchecked-status, grpc-server, schema-versions, fix-parse-error, mcp-server, mcp-client, fix-initialized, fix-is-error, fix-session-404, mcp-dual, mcp-resource-server, find-the-defect, mcp-wary-client, a2a-client, fix-agent-card-path, mcp-sdk-server`},
		{[]string{"grade", "stdio-server", "--dirr", "x"}, `wirelab: grade: flag provided but not defined: -dirr`},
		{[]string{"init"}, `wirelab: init needs one directory, the workspace to write`},
		{[]string{"init", "a", "b"}, `wirelab: init needs one directory, the workspace to write`},
		{[]string{"hint"}, `wirelab: hint needs one exercise id`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			first, rest, _ := strings.Cut(stderr, "\n")
			if code != exitUsage || stdout != "" || first != tt.want || !strings.Contains(rest, "Usage:") {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and first line\n%s", code, stdout, stderr, tt.want)
			}
		})
	}
}

// TestExerciseCommandsWrongID checks an exercise id that names no
// exercise, or one the command does not take: the one line that says
// what to do, exit 2, and no usage to bury it.
func TestExerciseCommandsWrongID(t *testing.T) {
	learner(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"grade", "nope"}, "wirelab: grade: unknown exercise \"nope\"; `wirelab exercises` lists them\n"},
		{[]string{"grade", "stdio-server", "nope"}, "wirelab: grade: unknown exercise \"nope\"; `wirelab exercises` lists them\n"},
		{[]string{"grade", "frames-mcp-handshake"}, "wirelab: grade: frames-mcp-handshake is a frame exercise, done and checked in the playground's wire console (wirelab serve)\n"},
		{[]string{"hint", "nope"}, "wirelab: hint: unknown exercise \"nope\"; `wirelab exercises` lists them\n"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			if code != exitUsage || stdout != "" {
				t.Errorf("exit %d, stdout %q; want exit 2 and nothing on stdout", code, stdout)
			}
			if diff := cmp.Diff(tt.want, stderr); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}
