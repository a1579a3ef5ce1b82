package solutions

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEmbedded checks that every solution folder on disk is embedded,
// byte for byte.
func TestEmbedded(t *testing.T) {
	dirs, _ := filepath.Glob("*/main.go")
	if len(dirs) == 0 {
		t.Fatal("no solutions found")
	}
	for _, main := range dirs {
		id := filepath.Dir(main)
		sfs, ok := Files(id)
		if !ok {
			t.Errorf("%s is not embedded: name its folder in solutions.go's go:embed line", id)
			continue
		}
		fs.WalkDir(sfs, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			embedded, _ := fs.ReadFile(sfs, path)
			disk, err := os.ReadFile(filepath.Join(id, path))
			if err != nil || !bytes.Equal(embedded, disk) {
				t.Errorf("%s/%s differs from the disk (%v)", id, path, err)
			}
			return nil
		})
	}
	if _, ok := Files("nope"); ok {
		t.Error("a solution for an exercise that does not exist")
	}
}

// TestImports checks that solutions never import this module, and that
// the stdio exercises' solutions use the standard library only.
func TestImports(t *testing.T) {
	stdlibOnly := map[string]bool{"stdio-server": true, "mcp-server": true, "http-server": true, "schema-versions": true, "mcp-client": true, "mcp-dual": true, "a2a-client": true}
	files, _ := filepath.Glob("*/*.go")
	for _, path := range files {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(p, "/")
			switch {
			case strings.HasPrefix(p, "github.com/wirelab/wirelab"):
				t.Errorf("%s imports %s: solutions never import this module", path, p)
			case stdlibOnly[filepath.Dir(path)] && strings.Contains(first, "."):
				t.Errorf("%s imports %s, which is not in the standard library", path, p)
			}
		}
	}
}

// TestSame tells the reference solution from a copy with one byte
// changed, and from a folder with an extra file.
func TestSame(t *testing.T) {
	if !Same("stdio-server", "stdio-server") {
		t.Error("the solution on disk is not Same as the embedded one")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("stdio-server", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644)
	if !Same("stdio-server", dir) {
		t.Error("a copy is not Same")
	}
	os.WriteFile(filepath.Join(dir, "extra.go"), []byte("package main\n"), 0o644)
	if Same("stdio-server", dir) {
		t.Error("a copy with an extra file is Same")
	}
	os.Remove(filepath.Join(dir, "extra.go"))
	os.WriteFile(filepath.Join(dir, "main.go"), append(src, '\n'), 0o644)
	if Same("stdio-server", dir) {
		t.Error("a changed copy is Same")
	}
	if Same("stdio-server", filepath.Join(dir, "missing")) || Same("no-such-exercise", dir) {
		t.Error("a missing folder or exercise is Same")
	}
}
