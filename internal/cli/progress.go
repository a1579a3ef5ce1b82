package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/wirelab/wirelab/exercises/progress"
)

// openProgress returns the learner's progress store, at
// $WIRELAB_HOME/progress.json or in the user's config directory.
func openProgress() (*progress.Store, error) {
	path, err := progress.DefaultPath()
	if err != nil {
		return nil, err
	}
	return progress.NewStore(path), nil
}

// loadProgress reads the learner's progress. A file that cannot be read
// is an error for the caller to report; it is never replaced.
func loadProgress() (progress.State, error) {
	s, err := openProgress()
	if err != nil {
		return progress.State{}, err
	}
	return s.Load()
}

// updateProgress changes the learner's progress, atomically.
func updateProgress(change func(*progress.State) error) error {
	s, err := openProgress()
	if err != nil {
		return err
	}
	return s.Update(change)
}

// warnProgress reports progress that could not be saved, without failing
// the command that did its real job (a grade, an init).
func warnProgress(w io.Writer, err error) {
	fmt.Fprintf(w, "wirelab: your progress was not saved: %v\n", err)
}

// workspace returns the directory `wirelab grade` looks in when --dir is
// not given: the one the last `wirelab init` wrote, if it still exists,
// and otherwise the current directory.
func workspace() string {
	st, err := loadProgress()
	if err == nil && st.Workspace != "" {
		if fi, err := os.Stat(st.Workspace); err == nil && fi.IsDir() {
			return st.Workspace
		}
	}
	return "."
}
