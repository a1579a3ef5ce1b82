//go:build unix

package progress

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNotAProgressFile: a FIFO, a directory and a file far larger than
// progress takes are each a *CorruptError at once, for Load and Update,
// and are left as they are; none is waited on or read to its end.
func TestNotAProgressFile(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(path string) error
		says string
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }, "not a regular file"},
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }, "not a regular file"},
		{"huge", func(p string) error {
			return os.WriteFile(p, []byte(`{"version":1,"workspace":"`+strings.Repeat("x", maxFile)+`"}`), 0o600)
		}, "larger than 1024 KiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "progress.json")
			if err := tt.make(path); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Lstat(path)
			s := NewStore(path)
			_, err := s.Load()
			var ce *CorruptError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("Load = %v, want a *CorruptError saying %q", err, tt.says)
			}
			err = s.Update(func(st *State) error { st.SetExercise("x", Exercise{Passed: true}); return nil })
			if !errors.As(err, &ce) {
				t.Errorf("Update = %v, want a *CorruptError", err)
			}
			after, _ := os.Lstat(path)
			if before.Mode() != after.Mode() || before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()) {
				t.Errorf("the file was changed: %v %d, then %v %d", before.Mode(), before.Size(), after.Mode(), after.Size())
			}
		})
	}
}
