package grade

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Each grade builds the program into a folder of its own in the system's
// temporary directory, and Run removes that folder as the grade ends,
// however it ends: passed, failed, interrupted (its context canceled, as
// Ctrl-C does to `wirelab grade` and shutting down does to the
// playground's grade), or stopped by the grader's own error. The go
// command's work folder is put inside it (GOTMPDIR), so that a build
// killed halfway leaves nothing of its own either. Only a wirelab process
// that dies in the middle of a grade (kill -9, a power cut) leaves a
// folder behind, which RemoveStale removes later.

// folderPrefix starts the name of every grade folder.
const folderPrefix = "wirelab-grade-"

// StaleAge is how old a grade folder must be before RemoveStale takes it
// for a leftover. It is many times the longest a grade can run (BuildLimit
// plus every stage's limit and grace: minutes), so that a grade running in
// another wirelab process, a terminal beside the playground, never loses
// its program; and short enough that leftovers do not pile up for days.
const StaleAge = time.Hour

// newFolder makes the folder for one grade and returns it with the path
// the program is built to.
func newFolder() (dir, bin string, err error) {
	dir, err = os.MkdirTemp("", folderPrefix+"*")
	if err != nil {
		return "", "", err
	}
	bin = filepath.Join(dir, "program")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	return dir, bin, nil
}

// RemoveStale removes the grade folders that wirelab processes killed in
// the middle of a grade left in the temporary directory: those named
// wirelab-grade-*, not changed for StaleAge, and owned by this user (the
// directory may be shared, as /tmp is). It returns the folders removed.
// The command line and the playground call it as they start.
func RemoveStale() ([]string, error) {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), folderPrefix) || !e.IsDir() {
			continue // a symbolic link is not a folder here: it is never followed
		}
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < StaleAge || !ownedByUs(fi) {
			continue
		}
		path := filepath.Join(tmp, e.Name())
		if err := os.RemoveAll(path); err == nil {
			removed = append(removed, path)
		}
	}
	return removed, nil
}

// goEnv is the environment of go build: this process's, with the go
// command's own temporary files (its work folder, where the compiler and
// the linker write) inside the grade's folder.
func goEnv(folder string) []string {
	return append(os.Environ(), "GOTMPDIR="+folder)
}
