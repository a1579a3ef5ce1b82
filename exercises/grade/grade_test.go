package grade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/wirelab/wirelab/exercises"
)

var update = flag.Bool("update", false, "rewrite testdata/<exercise>/*.golden from what the graders report now")

// gradeCase is one program graded against its exercise's grader, with
// the stage it must fail at ("" for a program that passes) and the hint
// it must get there.
type gradeCase struct {
	exercise, name, dir string
	failAt, hint        string
}

// gradeCases lists the reference solutions, the starters, and every
// deliberately broken variant, testdata/<exercise>/<variant>.txtar: each
// exercise's in the test file named after its grader.
func gradeCases() []gradeCase {
	var all []gradeCase
	for _, cases := range [][]gradeCase{
		stdioServerCases(), httpServerCases(), grpcServerCases(), schemaVersionsCases(),
		mcpServerCases(), mcpClientCases(), mcpDualCases(), mcpResourceServerCases(), findTheDefectCases(), a2aClientCases(),
		mcpSDKServerCases(), fixParseErrorCases(), fixBadToken401Cases(), fixUncheckedStatusCases(), fixAgentCardPathCases(), stdioClientCases(), fixSession404Cases(), mcpWaryClientCases(), fixInitializedCases(), fixIsErrorCases(),
	} {
		all = append(all, cases...)
	}
	return all
}

// TestGolden grades every solution, starter and broken variant, checks
// that each passes or fails where it should with the hint it should get,
// and compares the whole text report with testdata/<exercise>/<name>.golden,
// and the same report in Russian with <name>.ru.golden.
// Run with -update to rewrite the golden files.
func TestGolden(t *testing.T) {
	cases := gradeCases()
	listed := map[string]bool{}
	for _, c := range cases {
		listed[filepath.Join("testdata", c.exercise, c.name+".txtar")] = true
	}
	variants, _ := filepath.Glob("testdata/*-*/*.txtar")
	for _, v := range variants {
		if !listed[v] {
			t.Errorf("%s is not listed in gradeCases: say where it must fail", v)
		}
	}

	for _, c := range cases {
		t.Run(c.exercise+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			g, ok := For(c.exercise)
			if !ok {
				t.Fatalf("no grader for %s", c.exercise)
			}
			dir := c.dir
			if dir == "" {
				dir = variant(t, c.exercise, c.name)
			}
			rep, err := Run(context.Background(), g, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			rep.WriteText(&text, English)

			failed := failedStage(rep)
			switch {
			case c.failAt == "" && !rep.Passed:
				t.Errorf("did not pass:\n%s", text.String())
			case c.failAt != "" && failed == nil:
				t.Errorf("passed, want a failure at %q:\n%s", c.failAt, text.String())
			case c.failAt != "" && failed.Name != c.failAt:
				t.Errorf("failed at %q, want %q:\n%s", failed.Name, c.failAt, text.String())
			case c.failAt != "" && failed.Failure.Hint != c.hint:
				t.Errorf("hint %q, want %q:\n%s", failed.Failure.Hint, c.hint, text.String())
			}

			var ru bytes.Buffer
			rep.WriteText(&ru, Russian)
			for golden, got := range map[string]string{
				filepath.Join("testdata", c.exercise, c.name+".golden"):    text.String(),
				filepath.Join("testdata", c.exercise, c.name+".ru.golden"): ru.String(),
			} {
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("report differs from %s (-want +got):\n%s", golden, diff)
				}
			}
		})
	}
}

// variant writes a deliberately broken program: the exercise's reference
// solution with the edits of testdata/<exercise>/<name>.txtar, each an
// "old" section that must stand exactly once in the solution's files and
// the "new" one that replaces it. Built from the solution, a variant
// differs from it only where it is meant to, and follows it when it
// changes. It gets the go.mod and go.sum of a learner's workspace, so it
// builds the way a learner's program does.
func variant(t *testing.T, exercise, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", exercise, name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	soln := filepath.Join("..", "..", "solutions", exercise)
	entries, err := os.ReadDir(soln)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(soln, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	if len(ar.Files)%2 != 0 {
		t.Fatalf("%s.txtar: the sections come in pairs, old then new", name)
	}
	for i := 0; i < len(ar.Files); i += 2 {
		old, repl := ar.Files[i], ar.Files[i+1]
		if old.Name != "old" || repl.Name != "new" {
			t.Fatalf("%s.txtar: section %d is %q then %q, want old then new", name, i/2+1, old.Name, repl.Name)
		}
		where, n := "", 0
		for f, code := range files {
			if c := strings.Count(code, string(old.Data)); c > 0 {
				where, n = f, n+c
			}
		}
		if n != 1 {
			t.Fatalf("%s.txtar: edit %d's old text stands %d times in the solution, want once:\n%s", name, i/2+1, n, old.Data)
		}
		files[where] = strings.Replace(files[where], string(old.Data), string(repl.Data), 1)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, gosum := exercises.ModuleFiles()
	files["go.mod"], files["go.sum"] = string(gomod), string(gosum)
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func failedStage(r *Report) *StageResult {
	for i, s := range r.Stages {
		if s.Status != Passed && s.Status != Skipped {
			return &r.Stages[i]
		}
	}
	return nil
}

// TestAllStages runs every stage of a broken variant: the stages after
// the failure still run, and the score counts what passed.
func TestAllStages(t *testing.T) {
	var seen []string
	rep, err := Run(context.Background(), StdioServer(), variant(t, "stdio-server", "default-scanner"), &Options{
		AllStages: true,
		OnStage: func(i int, r StageResult) {
			seen = append(seen, fmt.Sprintf("%d %s", i, r.Status))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []Status
	for _, s := range rep.Stages {
		got = append(got, s.Status)
	}
	want := []Status{Passed, Passed, Passed, Passed, Passed, Failed, Passed}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	if rep.Passed || rep.Score != 6 {
		t.Errorf("passed %v, score %d; want false, 6", rep.Passed, rep.Score)
	}
	if !strings.HasPrefix(SummaryText(English, rep), "Score: 6 of 7 stages passed.") {
		t.Errorf("summary %q", SummaryText(English, rep))
	}
	// Each stage is reported twice, as it starts and as it ends.
	if len(seen) != 14 || seen[0] != "0 running" || seen[1] != "0 passed" || seen[11] != "5 failed" {
		t.Errorf("OnStage calls: %q", seen)
	}
}

// TestReportJSON checks the report's JSON form: what the playground and
// `wirelab grade --json` show.
func TestReportJSON(t *testing.T) {
	rep, err := Run(context.Background(), StdioServer(), variant(t, "stdio-server", "no-json-tags"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Exercise string `json:"exercise"`
		Passed   bool   `json:"passed"`
		Score    int    `json:"score"`
		Stages   []struct {
			Name    string `json:"name"`
			Status  string `json:"status"`
			LimitMS int64  `json:"limit_ms"`
			Failure *struct {
				Summary, Sent, Expected, Got, Hint string
				Offset                             *int
			} `json:"failure"`
		} `json:"stages"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	s := back.Stages[1]
	if back.Exercise != "stdio-server" || back.Passed || back.Score != 1 || s.Status != "failed" || s.LimitMS != DefaultLimit.Milliseconds() {
		t.Fatalf("report: %s", b)
	}
	f := s.Failure
	if f == nil || f.Offset == nil || *f.Offset != 2 || f.Got != `{"ID":null,"Result":{"Words":3,"Chars":13},"Error":null}` || f.Hint != HintJSONTags {
		t.Errorf("failure: %s", b)
	}
	if back.Stages[2].Status != "skipped" {
		t.Errorf("stage 3 is %s, want skipped", back.Stages[2].Status)
	}
}

// badLimit is the stage limit for programs that hang: short, since the
// test waits all of it.
// It is longer than newlineGrace, for the program without a newline.
const badLimit = 3 * time.Second

// TestBadPrograms grades programs that misbehave in ways a learner's
// first attempts do. Each must fail at a stage, within its limit, with a
// message that says what happened, and leave no process behind.
func TestBadPrograms(t *testing.T) {
	for _, c := range []struct {
		name    string
		grader  *Grader
		failAt  string
		summary string // a part of the failure's summary
		hint    string
	}{
		{"missing", StdioServer(), BuildStage, "there is no folder", HintNoDir},
		{"no-compile", StdioServer(), BuildStage, "the program does not build", ""},
		{"exits", StdioServer(), "answers one call", "exit status 3", ""},
		{"hang", StdioServer(), "answers one call", "no answer within 3s", ""},
		{"flood", StdioServer(), "answers one call", "more than 4 MiB on stdout without a newline", HintNoNewline},
		{"no-newline", StdioServer(), "answers one call", "without a newline", HintNoNewline},
		{"no-read", StdioServer(), "answers one call", "no answer within 3s", ""},
		{"no-read", sendsMiB(), "sends a MiB", "stopped reading its stdin", HintStopsReading},
		{"hang", closesStdin(), "waits for the end", "did not exit within 3s", HintEOF},
	} {
		t.Run(c.name+"/"+c.grader.Exercise, func(t *testing.T) {
			t.Parallel()
			rep, err := Run(context.Background(), c.grader, filepath.Join("testdata", "bad", c.name), &Options{MaxLimit: badLimit})
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			rep.WriteText(&text, English)
			f := failedStage(rep)
			switch {
			case f == nil:
				t.Fatalf("passed:\n%s", text.String())
			case f.Name != c.failAt || f.Status != Failed:
				t.Fatalf("stage %q %s, want %q failed:\n%s", f.Name, f.Status, c.failAt, text.String())
			case !strings.Contains(f.Failure.Summary, c.summary):
				t.Errorf("summary %q does not say %q", f.Failure.Summary, c.summary)
			case f.Failure.Hint != c.hint:
				t.Errorf("hint %q, want %q", f.Failure.Hint, c.hint)
			}
			if c.name == "no-compile" && !strings.Contains(f.Failure.Output, "undefined: answer") {
				t.Errorf("no compiler output in the failure:\n%s", text.String())
			}
			// The programs that hang report their process ids (and the
			// hanging one its child's) on stderr; all must be gone.
			for _, pid := range pids(f.Failure.Stderr) {
				if !gone(pid) {
					t.Errorf("process %d is still running after the grade", pid)
				}
			}
		})
	}
}

// sendsMiB is a grader whose one stage writes 1 MiB to the program.
func sendsMiB() *Grader {
	return &Grader{Exercise: "send", Stages: []Stage{{Name: "sends a MiB", Run: func(t *T) error {
		p, err := t.Start()
		if err != nil {
			return err
		}
		return p.Send(strings.Repeat("x", 1<<20))
	}}}}
}

// closesStdin is a grader whose one stage closes the program's stdin and
// waits for it to end cleanly.
func closesStdin() *Grader {
	return &Grader{Exercise: "close", Stages: []Stage{{Name: "waits for the end", Run: func(t *T) error {
		p, err := t.Start()
		if err != nil {
			return err
		}
		return p.ExpectEnd()
	}}}}
}

// pids finds the "pids N M" line the test programs write on stderr.
func pids(stderr string) []int {
	var out []int
	for _, line := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(line, "pids "); ok {
			for _, f := range strings.Fields(rest) {
				if n, err := strconv.Atoi(f); err == nil {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// gone reports whether a process has exited (a zombie waiting to be
// reaped by init counts as gone). A SIGKILL takes effect when the
// process is next scheduled, so this waits a little for it.
func gone(pid int) bool {
	if runtime.GOOS != "linux" {
		return true // no /proc to look in
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// The state follows the command name, which is in parentheses.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X') {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestGraderBugs checks that the grader's own failures are told apart
// from the program's: an error that is not a *Failure, and a panic.
func TestGraderBugs(t *testing.T) {
	g := &Grader{Exercise: "buggy", Stages: []Stage{
		{Name: "returns a plain error", Run: func(t *T) error { return errors.New("oops") }},
		{Name: "panics", Run: func(t *T) error { panic("boom") }},
	}}
	rep, err := Run(context.Background(), g, "testdata/bad/exits", &Options{AllStages: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"internal error in grader: oops", "internal error in grader: panic: boom"} {
		s := rep.Stages[i+1]
		if s.Status != Errored || s.Failure == nil || s.Failure.Summary != want {
			t.Errorf("stage %d: %s %+v, want error %q", i+2, s.Status, s.Failure, want)
		}
	}
	if !strings.Contains(SummaryText(English, rep), "bug in wirelab") {
		t.Errorf("summary %q", SummaryText(English, rep))
	}
}

// TestInterrupt checks that canceling a grade stops it at once, with
// the stage marked canceled rather than failed.
func TestInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g := &Grader{Exercise: "interrupted", Stages: []Stage{{Name: "waits", Run: func(t *T) error {
		p, err := t.Start()
		if err != nil {
			return err
		}
		cancel()
		_, err = p.ReadLine()
		return err
	}}}}
	rep, err := Run(ctx, g, "testdata/bad/no-read", nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if rep.Stages[1].Status != Canceled {
		t.Errorf("stage status %s, want canceled", rep.Stages[1].Status)
	}
	if SummaryText(English, rep) != "Interrupted.\n" {
		t.Errorf("summary %q", SummaryText(English, rep))
	}
}

// TestReportFailed: a grade is a failure when a stage failed; stages
// that passed, errored or never ran are not one.
func TestReportFailed(t *testing.T) {
	for _, tt := range []struct {
		stages []Status
		want   bool
	}{
		{nil, false},
		{[]Status{Passed, Passed}, false},
		{[]Status{Passed, Errored}, false},
		{[]Status{Passed, Failed, Skipped}, true},
	} {
		r := &Report{}
		for _, s := range tt.stages {
			r.Stages = append(r.Stages, StageResult{Status: s})
		}
		if got := r.Failed(); got != tt.want {
			t.Errorf("stages %v: Failed() = %v, want %v", tt.stages, got, tt.want)
		}
	}
}
