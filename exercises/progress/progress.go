// Package progress remembers, for one learner on one machine, which
// exercises they passed, how often a grade or check of one failed, how
// many hints they have seen, how they answered each lesson's questions,
// and where their workspace is. The
// command line and the playground share one file.
//
// The file is rewritten whole on every change, atomically: the new
// contents go to a temporary file in the same directory, are flushed to
// disk, and then renamed over the old file. A crash or a kill at any
// moment leaves either the old file or the new one, never half of each.
// A file that cannot be read is reported, never silently replaced, since
// replacing it would throw the learner's progress away. Temporary files
// that a writer killed halfway left behind are removed by the next
// update, once they are a minute old.
package progress

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// HomeEnv names the environment variable that, when set, is the
// directory holding the progress file instead of the user's config
// directory. Tests set it; so can a learner with two courses going.
const HomeEnv = "WIRELAB_HOME"

const (
	fileName = "progress.json"
	// tempPattern names the temporary files of writeAtomic, beside the
	// progress file.
	tempPattern = ".progress-*.tmp"
	// maxFile bounds the file read: the progress on every exercise and
	// every question of the course takes a few KiB, so a file of 1 MiB is
	// not one wirelab wrote.
	maxFile = 1 << 20
	// staleTemp is how old a temporary file must be before an update
	// takes it for one a killed writer left behind, and removes it. A
	// write lasts milliseconds (a few KiB and an fsync, seconds on a
	// very busy disk); a minute is far beyond that, and updates hold the
	// lock while they sweep, so a live writer is never robbed.
	staleTemp = time.Minute
	// formatVersion is the newest format this wirelab reads and writes.
	// A file with a newer version was written by a newer wirelab and is
	// not touched. Each format is the one before it with something added,
	// so a file of an older format loads as it is.
	formatVersion = failuresVersion
	// firstVersion is the first format: the workspace, and the passes,
	// hints and solutions seen of the exercises.
	firstVersion = 1
	// answersVersion added the answers to the lessons' questions
	// (Lessons).
	answersVersion = 2
	// failuresVersion added the failed grades and checks of an exercise
	// (Exercise.Failures and Exercise.LastFailure).
	failuresVersion = 3
)

// DefaultPath returns where the progress file lives:
// $WIRELAB_HOME/progress.json, or progress.json in a wirelab folder of
// the user's config directory (~/.config/wirelab on Linux).
func DefaultPath() (string, error) {
	if dir := os.Getenv(HomeEnv); dir != "" {
		return filepath.Join(dir, fileName), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding where to keep progress: %w (set %s to a directory)", err, HomeEnv)
	}
	return filepath.Join(dir, "wirelab", fileName), nil
}

// State is everything the file holds.
type State struct {
	Version int `json:"version"`
	// Workspace is the absolute path of the directory the last `wirelab
	// init` wrote, where `wirelab grade` looks by default.
	Workspace string `json:"workspace,omitempty"`
	// Exercises is keyed by exercise id.
	Exercises map[string]Exercise `json:"exercises,omitempty"`
	// Lessons is keyed by lesson slug: the answers to a lesson's
	// questions (format 2).
	Lessons map[string]Lesson `json:"lessons,omitempty"`
}

// Lesson is the progress on one lesson: the learner's answer to each of
// its questions, keyed by the question's number in the lesson, from 1
// ("1", "2", ...; JSON keys are strings).
type Lesson struct {
	Answers map[string]Answer `json:"answers,omitempty"`
}

// Answer is the learner's first answer to one question. Only the first
// counts: the page explains the right answer once a question is
// answered, so a second try would measure the explanation, not the
// learner.
type Answer struct {
	Choice int       `json:"choice"` // the choice picked, from 1
	Right  bool      `json:"right,omitempty"`
	At     time.Time `json:"at,omitzero"`
}

// Answers returns the learner's answers to a lesson's questions, keyed
// by the question's number; none yet is an empty map. The map is the
// state's own: a caller reads it.
func (s *State) Answers(lesson string) map[string]Answer {
	return s.Lessons[lesson].Answers
}

// Answer records the answer to question q (from 1) of a lesson, unless
// one is recorded already, and returns the answer that counts: the one
// recorded before, or this one, answered at now.
func (s *State) Answer(lesson string, q int, a Answer, now time.Time) Answer {
	key := strconv.Itoa(q)
	if old, ok := s.Lessons[lesson].Answers[key]; ok {
		return old
	}
	if s.Lessons == nil {
		s.Lessons = make(map[string]Lesson)
	}
	l := s.Lessons[lesson]
	if l.Answers == nil {
		l.Answers = make(map[string]Answer)
	}
	a.At = now.UTC().Truncate(time.Second)
	l.Answers[key] = a
	s.Lessons[lesson] = l
	return a
}

// Exercise is the progress on one exercise.
type Exercise struct {
	Passed     bool      `json:"passed,omitempty"`
	PassedAt   time.Time `json:"passed_at,omitzero"` // the first pass
	HintsShown int       `json:"hints_shown,omitempty"`
	// SolutionShown is set once the learner has asked to see the
	// reference solution before passing.
	SolutionShown bool `json:"solution_shown,omitempty"`
	// Failures counts the grades and checks that found the learner's
	// work wrong, before and after a pass alike (format 3).
	Failures int `json:"failures,omitempty"`
	// LastFailure is when the latest of them was (format 3).
	LastFailure time.Time `json:"last_failure,omitzero"`
}

// Exercise returns the progress on one exercise; none yet is the zero
// value.
func (s *State) Exercise(id string) Exercise {
	return s.Exercises[id]
}

// SetExercise replaces the progress on one exercise.
func (s *State) SetExercise(id string, e Exercise) {
	if s.Exercises == nil {
		s.Exercises = make(map[string]Exercise)
	}
	s.Exercises[id] = e
}

// Pass records that an exercise passed at now, keeping the time of the
// first pass.
func (s *State) Pass(id string, now time.Time) {
	e := s.Exercise(id)
	if !e.Passed {
		e.Passed, e.PassedAt = true, now.UTC().Truncate(time.Second)
	}
	s.SetExercise(id, e)
}

// Fail records that a grade or check of an exercise failed at now. The
// failures are counted after a pass too: the pass stands, and the count
// is the history of the learner's attempts.
func (s *State) Fail(id string, now time.Time) {
	e := s.Exercise(id)
	e.Failures++
	e.LastFailure = now.UTC().Truncate(time.Second)
	s.SetExercise(id, e)
}

// format is the lowest format that holds everything in the state:
// Update writes it, so that an older wirelab keeps reading the file for
// as long as the learner has done nothing that only a newer format can
// hold. A wirelab that reads format 1 only thus keeps reading the file
// of a learner who has answered no question and failed no grade.
func (s *State) format() int {
	for _, e := range s.Exercises {
		if e.Failures > 0 || !e.LastFailure.IsZero() {
			return failuresVersion
		}
	}
	if len(s.Lessons) > 0 {
		return answersVersion
	}
	return firstVersion
}

// CorruptError reports a progress file that exists but cannot be read as
// one. Nothing is written over it.
type CorruptError struct {
	Path string
	Err  error
}

// Error is the one sentence every place that needs progress shows, the
// command line and the pages alike: which file, what is wrong with it,
// and what the learner can do.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("the progress file %s cannot be read (%v), so progress can be neither shown nor saved; "+
		"it was left as it is. Repair it, or rename it (to %s.broken, say) to start over", e.Path, e.Err, filepath.Base(e.Path))
}

func (e *CorruptError) Unwrap() error { return e.Err }

// NewerError reports a progress file in a format newer than this wirelab
// reads: a newer wirelab wrote it. Nothing is written over it.
type NewerError struct {
	Path   string
	Format int // the file's format
	Reads  int // the format this wirelab reads
}

func (e *NewerError) Error() string {
	return fmt.Sprintf("progress file %s was written by a newer wirelab (format %d; this one reads %d): "+
		"update this wirelab (in its clone: git pull, then go install .), or set %s to another folder to keep a separate progress for it",
		e.Path, e.Format, e.Reads, HomeEnv)
}

// Store reads and updates one progress file.
type Store struct {
	path string

	// mu serializes Update within this process; lockFile does the same
	// between processes (the playground and a `wirelab grade` running
	// side by side), so that neither loses the other's change.
	mu sync.Mutex

	// rename is os.Rename; tests replace it to fail in the middle of a
	// write.
	rename func(oldpath, newpath string) error
}

// NewStore returns a store for the file at path. Nothing is read or
// created until it is used.
func NewStore(path string) *Store {
	return &Store{path: path, rename: os.Rename}
}

// Path returns the file's path.
func (s *Store) Path() string { return s.path }

// Load reads the file. A file that does not exist yet is an empty state,
// not an error; one that cannot be parsed is a *CorruptError.
func (s *Store) Load() (State, error) {
	b, err := s.read()
	if errors.Is(err, fs.ErrNotExist) {
		return State{Version: formatVersion}, nil
	}
	if err != nil {
		return State{}, err
	}
	var st State
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return State{}, &CorruptError{Path: s.path, Err: err}
	}
	if dec.More() {
		return State{}, &CorruptError{Path: s.path, Err: errors.New("text after the JSON object")}
	}
	switch {
	case st.Version == 0:
		return State{}, &CorruptError{Path: s.path, Err: errors.New(`no "version"`)}
	case st.Version > formatVersion:
		return State{}, &NewerError{Path: s.path, Format: st.Version, Reads: formatVersion}
	}
	return st, nil
}

// read returns the file's bytes. Only a regular file of at most maxFile
// bytes is read: a FIFO would wait for a writer, and a device such as
// /dev/zero never ends. Either is a *CorruptError, left as it is.
func (s *Store) read() ([]byte, error) {
	fi, err := os.Stat(s.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading progress: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, &CorruptError{Path: s.path, Err: errors.New("not a regular file")}
	}
	f, err := os.Open(s.path)
	if err != nil {
		return nil, fmt.Errorf("reading progress: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("reading progress: %w", err)
	}
	if len(b) > maxFile {
		return nil, &CorruptError{Path: s.path, Err: fmt.Errorf("larger than %d KiB, far more than progress takes", maxFile>>10)}
	}
	return b, nil
}

// Update reads the file, lets change modify the state, and writes the
// result atomically. If change returns an error, nothing is written.
func (s *Store) Update(change func(*State) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	unlock, err := lockFile(s.path + ".lock")
	if err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	defer unlock()
	s.sweep()

	st, err := s.Load()
	if err != nil {
		return err
	}
	if err := change(&st); err != nil {
		return err
	}
	st.Version = st.format()
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	if err := s.writeAtomic(append(b, '\n')); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	return nil
}

// sweep removes the temporary files that writers killed between
// creating and renaming them left beside the progress file. Failures are
// ignored: a leftover file costs a few KiB, and the next update tries
// again.
func (s *Store) sweep() {
	tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(s.path), tempPattern))
	for _, tmp := range tmps {
		if fi, err := os.Lstat(tmp); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleTemp {
			os.Remove(tmp)
		}
	}
}

// writeAtomic replaces the file with data so that a crash at any point
// leaves the old contents or the new ones. The temporary file is in the
// same directory because a rename is only atomic within one file system.
func (s *Store) writeAtomic(data []byte) (err error) {
	dir := filepath.Dir(s.path)
	tmp, err := os.CreateTemp(dir, tempPattern)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	// Sync before the rename: otherwise, after a power cut, the rename
	// may be on disk while the data is not, leaving an empty file.
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := s.rename(tmp.Name(), s.path); err != nil {
		return err
	}
	// Make the rename itself durable. Not every system can sync a
	// directory, and the data is safe either way, so errors are ignored.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
