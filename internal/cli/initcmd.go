package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/progress"
	"golang.org/x/mod/modfile"
)

// initCmd writes the starter code of every code exercise into DIR, as a
// Go module of its own, so that a learner with only the wirelab binary
// (and Go) can work. It never overwrites a file: if any it would write
// exists, it writes nothing. With --add, DIR is a workspace init wrote
// before, perhaps with an older wirelab, and init writes only the
// exercise folders it lacks.
func initCmd(args []string, env Env) (int, error) {
	fs := flags("init")
	add := fs.Bool("add", false, "add to the workspace DIR the exercise folders it lacks, keeping everything in it")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		return exitUsage, usageErrorf("init needs one directory, the workspace to write")
	}
	dir, err := filepath.Abs(pos[0])
	if err != nil {
		return exitFailure, err
	}
	// init remembers the workspace in the progress file: one that cannot
	// be read stops it before it writes anything, so that, once the file
	// is dealt with, the same command works.
	if _, err := loadProgress(); err != nil {
		return exitFailure, err
	}

	ws, err := embeddedStarters()
	if err != nil {
		return exitFailure, fmt.Errorf("internal error: reading the starters: %w", err)
	}
	if *add {
		err = addExercises(dir, ws, env.Stdout)
	} else {
		err = writeWorkspace(dir, ws, env.Stdout)
	}
	if err != nil {
		return exitFailure, err
	}

	err = updateProgress(func(st *progress.State) error {
		st.Workspace = dir
		return nil
	})
	if err != nil {
		// The files are written; only `wirelab grade` finding them
		// without --dir is lost.
		done := "the workspace was written"
		if *add {
			done = "the workspace is as said above"
		}
		return exitFailure, fmt.Errorf("%w\n%s, but is not remembered: grade with --dir %s", err, done, dir)
	}
	return exitOK, nil
}

// starters is what init writes into a workspace: go.mod and go.sum, and
// one folder of starter code per code exercise, named after the exercise.
type starters struct {
	gomod, gosum []byte
	folders      []starterFolder // in the order of the course
}

// A starterFolder is one code exercise's starter code.
type starterFolder struct {
	id    string
	files map[string][]byte // by path inside the folder
}

// embeddedStarters returns the starters this wirelab writes.
func embeddedStarters() (starters, error) {
	ws := starters{}
	ws.gomod, ws.gosum = exercises.ModuleFiles()
	for _, e := range exercises.List() {
		sfs, ok := exercises.Starter(e.ID)
		if !ok {
			continue
		}
		folder := starterFolder{id: e.ID, files: map[string][]byte{}}
		err := fs.WalkDir(sfs, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(sfs, path)
			if err != nil {
				return err
			}
			folder.files[filepath.FromSlash(path)] = b
			return nil
		})
		if err != nil {
			return starters{}, err
		}
		ws.folders = append(ws.folders, folder)
	}
	if len(ws.folders) == 0 {
		return starters{}, errors.New("no starter code is embedded")
	}
	if modulePath(ws.gomod) == "" {
		return starters{}, errors.New("the embedded go.mod has no module line")
	}
	return ws, nil
}

// paths returns the folder's files by their paths inside the workspace.
func (f starterFolder) paths() map[string][]byte {
	files := map[string][]byte{}
	for name, b := range f.files {
		files[filepath.Join(f.id, name)] = b
	}
	return files
}

// writeWorkspace writes the whole workspace into dir, or, if any of its
// files exists already, nothing at all.
func writeWorkspace(dir string, ws starters, out io.Writer) error {
	files := map[string][]byte{"go.mod": ws.gomod, "go.sum": ws.gosum}
	for _, f := range ws.folders {
		for name, b := range f.paths() {
			files[name] = b
		}
	}
	var existing []string
	for _, name := range sortedNames(files) {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			existing = append(existing, filepath.Join(dir, name))
		}
	}
	if len(existing) > 0 {
		if isWorkspace(dir, ws) == nil {
			// A workspace made by an older wirelab lacks the newer
			// exercises, and its learner wants those, not a list of
			// the files they wrote.
			return fmt.Errorf("%s is a workspace already, and init never overwrites files;\nto add the exercises it lacks, keeping everything in it: wirelab init --add %s", dir, dir)
		}
		return fmt.Errorf("init never overwrites files, and these exist already:\n  %s\nchoose another directory, or move them away", strings.Join(existing, "\n  "))
	}
	if err := writeFiles(dir, files); err != nil {
		return err
	}

	fmt.Fprintf(out, "wrote a Go workspace in %s:\n", dir)
	listFiles(out, files)
	first := ws.folders[0].id
	startWith(out, dir, first)
	// Everything wirelab prints, and every README, says `wirelab`: the
	// command `go install .` puts on the PATH. Whoever ran this as `go
	// run . init` may not have it yet, and is told how to get it here,
	// where the exercises start, rather than by a "command not found".
	if _, err := exec.LookPath("wirelab"); err != nil {
		fmt.Fprintf(out, "wirelab is not on your PATH yet: run `go install .` once in your clone of wirelab\n(until then, `go run . grade %s` there does the same)\n", first)
	}
	return nil
}

// addExercises writes into the workspace dir the folder of each code
// exercise it has no folder for. A folder that exists, even with only
// some of the starter's files, is the learner's work and is kept as it
// is; so are go.mod and go.sum.
func addExercises(dir string, ws starters, out io.Writer) error {
	if err := isWorkspace(dir, ws); err != nil {
		return err
	}
	var added []starterFolder
	kept := 0
	for _, f := range ws.folders {
		_, err := os.Lstat(filepath.Join(dir, f.id))
		switch {
		case err == nil:
			kept++
		case errors.Is(err, fs.ErrNotExist):
			added = append(added, f)
		default:
			return err
		}
	}
	if len(added) == 0 {
		fmt.Fprintf(out, "the workspace in %s already has every exercise (%s, kept as they are): nothing to add\n", dir, count(kept, "folder", "folders"))
		return nil
	}

	files := map[string][]byte{}
	for _, f := range added {
		// Mkdir, unlike MkdirAll, fails on a folder that appeared since
		// the check above: it is not written into.
		if err := os.Mkdir(filepath.Join(dir, f.id), 0o755); err != nil {
			return err
		}
		for name, b := range f.paths() {
			files[name] = b
		}
	}
	if err := writeFiles(dir, files); err != nil {
		return err
	}

	fmt.Fprintf(out, "added %s to the workspace in %s:\n", count(len(added), "exercise", "exercises"), dir)
	listFiles(out, files)
	if kept > 0 {
		fmt.Fprintf(out, "kept the %s already there as they are\n", count(kept, "exercise folder", "exercise folders"))
	}
	// go.mod and go.sum may be older than the added starters, which
	// may then need a module the workspace does not require yet.
	var differ []string
	for _, f := range []struct {
		name string
		want []byte
	}{{"go.mod", ws.gomod}, {"go.sum", ws.gosum}} {
		if b, err := os.ReadFile(filepath.Join(dir, f.name)); err != nil || !bytes.Equal(b, f.want) {
			differ = append(differ, f.name)
		}
	}
	switch len(differ) {
	case 1:
		fmt.Fprintf(out, "your %s differs from the one this wirelab writes, and was kept as it is: if an added\n", differ[0])
	case 2:
		fmt.Fprintf(out, "your go.mod and go.sum differ from the ones this wirelab writes, and were kept as they are: if an added\n")
	}
	if len(differ) > 0 {
		fmt.Fprintf(out, "exercise does not build, run `go mod tidy` in %s (or compare with a fresh `wirelab init` in an empty folder)\n", dir)
	}
	startWith(out, dir, added[0].id)
	return nil
}

// startWith points to the exercise to begin with, and how to grade it.
func startWith(out io.Writer, dir, id string) {
	fmt.Fprintf(out, "Start with %s: read %s, then check your work from anywhere with\n  wirelab grade %s\n",
		id, filepath.Join(dir, id, "README.md"), id)
}

// isWorkspace returns nil if dir holds a go.mod for the module init
// writes, and otherwise an error saying what dir is instead.
func isWorkspace(dir string, ws starters) error {
	want := modulePath(ws.gomod)
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(dir); serr != nil {
			return fmt.Errorf("%s is not a workspace: it does not exist; `wirelab init %s` writes one", dir, dir)
		}
		return fmt.Errorf("%s is not a workspace: it has no go.mod; `wirelab init %s` writes a new workspace there", dir, dir)
	case err != nil:
		return fmt.Errorf("reading the workspace's go.mod: %w", err)
	}
	switch got := modulePath(gomod); got {
	case want:
		return nil
	case "":
		return fmt.Errorf("%s is not a workspace: its go.mod has no module line, and a workspace's says `module %s`", dir, want)
	default:
		return fmt.Errorf("%s is not a workspace: its go.mod is for module %s, and a workspace's says `module %s`", dir, got, want)
	}
}

// modulePath returns the module path a go.mod declares, or "" if it has
// no module line.
func modulePath(gomod []byte) string { return modfile.ModulePath(gomod) }

// writeFiles writes files into dir, each by its path inside it, making
// the folders they need.
func writeFiles(dir string, files map[string][]byte) error {
	for _, name := range sortedNames(files) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		// O_EXCL: a file that appeared since the caller looked is still
		// not overwritten.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, werr := f.Write(files[name])
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	return nil
}

// listFiles prints files, one folder a line: the folder, then its files,
// the lists lined up in one column.
func listFiles(out io.Writer, files map[string][]byte) {
	byFolder := map[string][]string{}
	var folders []string
	width := 0
	for _, name := range sortedNames(files) {
		folder, file := filepath.Split(name)
		if folder == "" {
			folder = "."
		}
		if _, ok := byFolder[folder]; !ok {
			folders = append(folders, folder)
			width = max(width, len(folder))
		}
		byFolder[folder] = append(byFolder[folder], file)
	}
	// "." sorts before every exercise's folder: go.mod and go.sum come
	// first.
	sort.Strings(folders)
	for _, folder := range folders {
		fmt.Fprintf(out, "  %-*s %s\n", width, folder, strings.Join(byFolder[folder], " "))
	}
}

// sortedNames returns the keys of files, sorted.
func sortedNames(files map[string][]byte) []string {
	return slices.Sorted(maps.Keys(files))
}
