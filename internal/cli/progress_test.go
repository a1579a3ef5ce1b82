package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/exercises/progress"
)

// TestCorruptProgress runs every command that needs progress with a
// progress file that cannot be read: each exits 1 with the store's one
// sentence (the file, and what to do), does nothing else, and leaves the
// file as it was.
func TestCorruptProgress(t *testing.T) {
	const broken = `{"version":1,"exercises":{"stdio-server":{"passed":tru`
	for _, tt := range []struct {
		name string
		args func(ws string) []string
	}{
		{"init", func(ws string) []string { return []string{"init", ws} }},
		{"grade", func(ws string) []string { return []string{"grade", "--dir", ws, "stdio-server"} }},
		{"hint", func(string) []string { return []string{"hint", "stdio-server"} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := learner(t)
			if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
				t.Fatal(err)
			}
			_, want := progress.NewStore(path).Load()
			if want == nil {
				t.Fatal("the broken file loads")
			}
			ws := filepath.Join(t.TempDir(), "course")

			code, stdout, stderr := run(t, "", tt.args(ws)...)
			if code != exitFailure || stderr != "wirelab: "+want.Error()+"\n" {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
			}
			if stdout != "" {
				t.Errorf("stdout %q: the command went on", stdout)
			}
			if _, err := os.Stat(ws); err == nil {
				t.Errorf("%s was written", ws)
			}
			if b, _ := os.ReadFile(path); string(b) != broken {
				t.Errorf("the progress file became %q", b)
			}
			if !strings.Contains(stderr, path) {
				t.Errorf("stderr does not name %s", path)
			}
		})
	}
}
