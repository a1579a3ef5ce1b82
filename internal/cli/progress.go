package cli

import (
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

// The commands that need progress (init, grade, hint) fail, with exit
// status 1, when the progress file cannot be read or saved, and say so
// in the store's own words: *progress.CorruptError names the file and
// what to do with it, the same sentence the pages show.

// workspace returns the directory `wirelab grade` looks in when --dir is
// not given: the one the last `wirelab init` wrote (st.Workspace), if it
// still exists, and otherwise the current directory.
func workspace(st progress.State) string {
	if st.Workspace != "" {
		if fi, err := os.Stat(st.Workspace); err == nil && fi.IsDir() {
			return st.Workspace
		}
	}
	return "."
}
