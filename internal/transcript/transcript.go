// Package transcript reads and rewrites golden wire transcripts.
//
// A transcript is a txtar file in a protocol's testdata/. Its comment
// opens with one line saying what the exchange proves; further comment
// lines of the form "key: value" are options for the test that replays it.
// Its sections hold bytes exactly as they cross the wire: "client" what
// the client sends, "server" what the server answers. A test replays the
// client section against the real server and compares the answer with the
// server section; run with -update, it rewrites the server section instead.
package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// File is one transcript.
type File struct {
	Path    string
	Name    string // the file name without directory or .txtar
	archive *txtar.Archive
}

// Glob loads every transcript matching pattern, failing the test if there
// are none: a replay test that finds nothing to replay must not pass.
func Glob(t testing.TB, pattern string) []*File {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts match %s: %v", pattern, err)
	}
	files := make([]*File, len(paths))
	for i, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = &File{Path: p, Name: strings.TrimSuffix(filepath.Base(p), ".txtar"), archive: ar}
	}
	return files
}

// Section returns a section's bytes, failing the test if it is missing.
func (f *File) Section(t testing.TB, name string) []byte {
	t.Helper()
	for _, s := range f.archive.Files {
		if s.Name == name {
			return s.Data
		}
	}
	t.Fatalf("%s has no %q section", f.Path, name)
	return nil
}

// Option returns the value of a "key: value" comment line, or "".
func (f *File) Option(key string) string {
	for _, line := range strings.Split(string(f.archive.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Rewrite replaces a section (adding it if missing) and saves the file.
func (f *File) Rewrite(t testing.TB, name string, data []byte) {
	t.Helper()
	found := false
	for i := range f.archive.Files {
		if f.archive.Files[i].Name == name {
			f.archive.Files[i].Data, found = data, true
		}
	}
	if !found {
		f.archive.Files = append(f.archive.Files, txtar.File{Name: name, Data: data})
	}
	if err := os.WriteFile(f.Path, txtar.Format(f.archive), 0o644); err != nil {
		t.Fatal(err)
	}
}
