package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/progress"
)

// initCmd writes the starter code of every code exercise into DIR, as a
// Go module of its own, so that a learner with only the wirelab binary
// (and Go) can work. It never overwrites a file: if any it would write
// exists, it writes nothing.
func initCmd(args []string, env Env) (int, error) {
	fs := flags("init")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	if fs.NArg() != 1 {
		return exitUsage, usageErrorf("init needs one directory, the workspace to write")
	}
	dir, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return exitFailure, err
	}
	// init remembers the workspace in the progress file: one that cannot
	// be read stops it before it writes anything, so that, once the file
	// is dealt with, the same command works.
	if _, err := loadProgress(); err != nil {
		return exitFailure, err
	}

	files, err := workspaceFiles()
	if err != nil {
		return exitFailure, fmt.Errorf("internal error: reading the starters: %w", err)
	}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)

	var existing []string
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			existing = append(existing, filepath.Join(dir, name))
		}
	}
	if len(existing) > 0 {
		return exitFailure, fmt.Errorf("init never overwrites files, and these exist already:\n  %s\nchoose another directory, or move them away", strings.Join(existing, "\n  "))
	}

	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return exitFailure, err
		}
		// O_EXCL: a file that appeared since the check above is still
		// not overwritten.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return exitFailure, err
		}
		_, werr := f.Write(files[name])
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return exitFailure, werr
		}
	}

	fmt.Fprintf(env.Stdout, "wrote a Go workspace in %s:\n", dir)
	byFolder := map[string][]string{}
	var folders []string
	for _, name := range names {
		folder, file := filepath.Split(name)
		if _, ok := byFolder[folder]; !ok {
			folders = append(folders, folder)
		}
		byFolder[folder] = append(byFolder[folder], file)
	}
	for _, folder := range folders {
		label := folder
		if label == "" {
			label = "."
		}
		fmt.Fprintf(env.Stdout, "  %-16s %s\n", label, strings.Join(byFolder[folder], " "))
	}
	// The first code exercise of the course, which has a starter since
	// workspaceFiles found some.
	first := ""
	for _, e := range exercises.List() {
		if _, ok := exercises.Starter(e.ID); ok {
			first = e.ID
			break
		}
	}
	fmt.Fprintf(env.Stdout, "Start with %s: read %s, then check your work from anywhere with\n  wirelab grade %s\n",
		first, filepath.Join(dir, first, "README.md"), first)
	// Everything wirelab prints, and every README, says `wirelab`: the
	// command `go install .` puts on the PATH. Whoever ran this as `go
	// run . init` may not have it yet, and is told how to get it here,
	// where the exercises start, rather than by a "command not found".
	if _, err := exec.LookPath("wirelab"); err != nil {
		fmt.Fprintf(env.Stdout, "wirelab is not on your PATH yet: run `go install .` once in your clone of wirelab\n(until then, `go run . grade %s` there does the same)\n", first)
	}

	err = updateProgress(func(st *progress.State) error {
		st.Workspace = dir
		return nil
	})
	if err != nil {
		// The files are written; only `wirelab grade` finding them
		// without --dir is lost.
		return exitFailure, fmt.Errorf("%w\nthe workspace was written, but is not remembered: grade with --dir %s", err, dir)
	}
	return exitOK, nil
}

// workspaceFiles returns every file init writes, by slash-separated
// path: go.mod and go.sum, and each code exercise's starter in a folder named after
// it.
func workspaceFiles() (map[string][]byte, error) {
	gomod, gosum := exercises.ModuleFiles()
	files := map[string][]byte{"go.mod": gomod, "go.sum": gosum}
	for _, e := range exercises.List() {
		sfs, ok := exercises.Starter(e.ID)
		if !ok {
			continue
		}
		err := fs.WalkDir(sfs, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(sfs, path)
			if err != nil {
				return err
			}
			files[filepath.Join(e.ID, filepath.FromSlash(path))] = b
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(files) == 1 {
		return nil, errors.New("no starter code is embedded")
	}
	return files, nil
}
