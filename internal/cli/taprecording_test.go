//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTapReadsRegularFilesOnly: every command that reads a recording
// refuses a FIFO, which would wait for a writer, and a directory, naming
// the file and what a recording is, instead of hanging or reading on.
func TestTapReadsRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{fifo, dir} {
		for _, args := range [][]string{
			{"tap", "check", file},
			{"tap", "export", "--har", file},
			{"tap", "open", file, "--playground", "http://127.0.0.1:1"},
			{"replay", file, "--against", "http://127.0.0.1:1"},
		} {
			t.Run(filepath.Base(file)+" "+strings.Join(args[:2], " "), func(t *testing.T) {
				type result struct {
					code           int
					stdout, stderr string
				}
				done := make(chan result, 1)
				go func() {
					code, stdout, stderr := run(t, "", args...)
					done <- result{code, stdout, stderr}
				}()
				var r result
				select {
				case r = <-done:
				case <-time.After(time.Minute):
					// The command waits for the FIFO's writer: be one, so
					// that it ends, and let the message say what it did.
					if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
						w.Close()
					}
					r = <-done
				}
				if r.code != exitFailure || !strings.Contains(r.stderr, file+" is not a regular file but a "+map[string]string{fifo: "named pipe", dir: "directory"}[file]) {
					t.Errorf("exit %d, stderr %q", r.code, r.stderr)
				}
			})
		}
	}
}
