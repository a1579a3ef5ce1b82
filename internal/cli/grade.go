package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/grade"
	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/solutions"
)

// watchEvery is how often --watch looks at the files' modification
// times: often enough to feel immediate after a save, rarely enough to
// cost nothing.
const watchEvery = 500 * time.Millisecond

// gradeOptions are grade's flags.
type gradeOptions struct {
	dir       string
	allStages bool
	json      bool
	watch     bool
	lang      grade.Lang // the language of the text report
}

// gradeCmd builds and grades code exercises: exit 0 when every stage of
// every exercise passed, 1 when one failed.
func gradeCmd(ctx context.Context, args []string, env Env) (int, error) {
	var o gradeOptions
	fs := flags("grade")
	fs.StringVar(&o.dir, "dir", "", "the folder holding one folder per exercise")
	fs.BoolVar(&o.allStages, "all-stages", false, "run every stage, even after a failure")
	fs.BoolVar(&o.json, "json", false, "print each report as one line of JSON")
	fs.BoolVar(&o.watch, "watch", false, "grade again whenever a .go file changes")
	lang := langFlag(fs, "language of the report (--json has both)")
	ids, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if err := checkLang(*lang); err != nil {
		return exitUsage, err
	}
	o.lang = grade.Lang(*lang)
	if len(ids) == 0 {
		return exitUsage, usageErrorf("grade needs an exercise id; code exercises: %s", codeIDs())
	}
	// Grade folders that a wirelab killed in the middle of a grade left
	// behind; a grade running elsewhere keeps its own (see grade.StaleAge).
	grade.RemoveStale()

	var graders []*grade.Grader
	for _, id := range ids {
		e, err := exerciseArg("grade", id)
		if err != nil {
			return exitUsage, err
		}
		if e.Kind != exercises.Code {
			return exitUsage, argumentErrorf("grade: %s is a frame exercise, done and checked in the playground's wire console (wirelab serve)", id)
		}
		g, ok := grade.For(id)
		if !ok {
			return exitUsage, fmt.Errorf("grade: %s has no grader yet", id)
		}
		graders = append(graders, g)
	}

	// A pass or a failure is recorded in the progress, and the workspace
	// is found there: a file that cannot be read stops the grade before
	// it builds.
	st, err := loadProgress()
	if err != nil {
		return exitFailure, err
	}
	base := o.dir
	if base == "" {
		base = workspace(st)
	}
	if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	dirs := make([]string, len(ids))
	for i, id := range ids {
		dirs[i] = exerciseDir(base, id)
	}

	if !o.watch {
		return gradeOnce(ctx, graders, dirs, o, env)
	}
	watching, again := "wirelab: watching %s for changes to .go files; Ctrl-C stops\n", "\n--- %s: a file changed; grading again\n\n"
	if o.lang == grade.Russian {
		watching, again = "wirelab: слежу за изменениями .go-файлов в %s; Ctrl-C останавливает\n", "\n--- %s: файл изменился; проверяю заново\n\n"
	}
	fmt.Fprintf(env.Stderr, watching, strings.Join(dirs, ", "))
	for {
		before := snapshot(dirs)
		code, err := gradeOnce(ctx, graders, dirs, o, env)
		if err != nil {
			// Progress that cannot be saved now cannot later either.
			return code, err
		}
		if ctx.Err() != nil {
			return code, nil
		}
		if !waitForChange(ctx, dirs, before) {
			return code, nil
		}
		if !o.json {
			fmt.Fprintf(env.Stdout, again, time.Now().Format("15:04:05"))
		}
	}
}

// exerciseDir is where an exercise's code is: base/<id>, or base itself
// when the learner is already in the exercise's folder.
func exerciseDir(base, id string) string {
	dir := filepath.Join(base, id)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) && filepath.Base(base) == id {
		return base
	}
	return dir
}

// gradeOnce grades every exercise asked for, printing each report as it
// goes, and records the passes and the failures. The error is progress
// that could not be saved.
func gradeOnce(ctx context.Context, graders []*grade.Grader, dirs []string, o gradeOptions, env Env) (int, error) {
	code := exitOK
	for i, g := range graders {
		opts := &grade.Options{AllStages: o.allStages}
		if !o.json {
			fmt.Fprintf(env.Stdout, "%s (%s)\n", g.Exercise, dirs[i])
			text := &grade.Text{W: env.Stdout, Total: len(g.Stages) + 1, Lang: o.lang}
			opts.OnStage = text.Stage
		}
		rep, err := grade.Run(ctx, g, dirs[i], opts)
		if o.json {
			b, jerr := json.Marshal(rep)
			if jerr != nil {
				return exitFailure, jerr
			}
			fmt.Fprintf(env.Stdout, "%s\n", b)
		} else {
			fmt.Fprint(env.Stdout, grade.SummaryText(o.lang, rep))
		}
		if err != nil { // interrupted: no verdict, nothing to record
			return exitFailure, nil
		}
		if !rep.Passed {
			code = exitFailure
		}
		if solutions.Same(g.Exercise, dirs[i]) {
			// The reference solution itself was graded: that proves the
			// grader, right or wrong, not the learner.
			continue
		}
		switch {
		case rep.Passed:
			err = updateProgress(func(st *progress.State) error {
				st.Pass(g.Exercise, time.Now())
				return nil
			})
			if err != nil {
				return exitFailure, fmt.Errorf("%s passed, but the pass is not recorded: %w", g.Exercise, err)
			}
		case attemptFailed(rep, dirs[i]):
			err = updateProgress(func(st *progress.State) error {
				st.Fail(g.Exercise, time.Now())
				return nil
			})
			if err != nil {
				return exitFailure, fmt.Errorf("%s failed, and the failure is not recorded either: %w", g.Exercise, err)
			}
		}
	}
	return code, nil
}

// attemptFailed reports whether a grade that did not pass found the
// learner's program in dir wrong: a stage failed. A stage that errored
// is a bug in the grader, not a verdict on the program, and a folder
// that is not there holds no attempt (the playground does not even
// grade one); neither counts as a failure in the progress.
func attemptFailed(rep *grade.Report, dir string) bool {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return false
	}
	return rep.Failed()
}

// snapshot records the modification time and size of every .go file
// (and go.mod) in the folders: what a save changes.
func snapshot(dirs []string) map[string]string {
	files := map[string]string{}
	for _, dir := range dirs {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() || !(strings.HasSuffix(e.Name(), ".go") || e.Name() == "go.mod") {
				continue
			}
			if fi, err := e.Info(); err == nil {
				files[filepath.Join(dir, e.Name())] = fmt.Sprintf("%d %d", fi.ModTime().UnixNano(), fi.Size())
			}
		}
	}
	return files
}

// waitForChange polls the folders until a file differs from before (it
// changed, appeared or went away), and returns false if ctx ends first.
func waitForChange(ctx context.Context, dirs []string, before map[string]string) bool {
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
		now := snapshot(dirs)
		if len(now) != len(before) {
			return true
		}
		for f, v := range now {
			if before[f] != v {
				return true
			}
		}
	}
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments, as in `wirelab grade stdio-server --watch`,
// and returns the positional ones. After "--" everything is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parse(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// Parse stops at the first argument that is not a flag, or just
		// after "--".
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// codeIDs lists the code exercises, for usage errors.
func codeIDs() string {
	var ids []string
	for _, e := range exercises.List() {
		if e.Kind == exercises.Code {
			ids = append(ids, e.ID)
		}
	}
	return strings.Join(ids, ", ")
}
