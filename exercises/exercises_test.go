package exercises

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

	"github.com/google/go-cmp/cmp"
)

func TestCatalogue(t *testing.T) {
	lessons := map[string]bool{"stdio": true, "http": true, "grpc-production": true, "versions": true, "mcp-by-hand": true, "mcp-clients": true, "mcp-stateless": true, "mcp-authorization": true, "debugging-a-real-host": true, "mcp-security": true, "a2a": true, "mcp": true, "mcp-transports": true, "choosing": true}
	seen := map[string]bool{}
	kinds := map[Kind]int{}
	for _, e := range List() {
		switch {
		case seen[e.ID]:
			t.Errorf("%s: listed twice", e.ID)
		case e.Kind != Code && e.Kind != Frame:
			t.Errorf("%s: kind %q", e.ID, e.Kind)
		case !lessons[e.Lesson]:
			t.Errorf("%s: unknown lesson %q", e.ID, e.Lesson)
		case e.Title.EN == "" || e.Title.RU == "":
			t.Errorf("%s: a title is missing: %+v", e.ID, e.Title)
		case len(e.Hints.EN) < 2 || len(e.Hints.EN) > 3 || len(e.Hints.RU) != len(e.Hints.EN):
			t.Errorf("%s: %d English and %d Russian hints, want 2 or 3 of each", e.ID, len(e.Hints.EN), len(e.Hints.RU))
		case (e.Kind == Frame) != strings.HasPrefix(e.ID, "frames-"):
			t.Errorf("%s: frame exercises, and only they, have ids starting with frames-", e.ID)
		}
		seen[e.ID] = true
		kinds[e.Kind]++
		if got, ok := ByID(e.ID); !ok || got.ID != e.ID {
			t.Errorf("ByID(%q) = %v, %v", e.ID, got.ID, ok)
		}
	}
	if kinds[Code] != 20 || kinds[Frame] != 10 {
		t.Errorf("%d code and %d frame exercises, want 20 and 10", kinds[Code], kinds[Frame])
	}
	if _, ok := ByID("nope"); ok {
		t.Error("ByID found an exercise that does not exist")
	}
}

func TestInstructions(t *testing.T) {
	for _, e := range List() {
		if _, err := os.Stat(e.ID); err != nil {
			continue // not written yet
		}
		for _, lang := range []string{"en", "ru"} {
			text, err := Instructions(e.ID, lang)
			if err != nil {
				t.Errorf("%s in %s: %v", e.ID, lang, err)
				continue
			}
			name := "README.md"
			if lang == "ru" {
				name = "README.ru.md"
			}
			disk, err := os.ReadFile(filepath.Join(e.ID, name))
			if err != nil || text != string(disk) {
				t.Errorf("%s in %s: not %s/%s (%v)", e.ID, lang, e.ID, name, err)
			}
		}
	}
	for _, id := range []string{"stdio-server", "mcp-server"} {
		en, _ := Instructions(id, "en")
		ru, _ := Instructions(id, "ru")
		if !strings.HasPrefix(en, "# ") || !strings.HasPrefix(ru, "# ") || en == ru {
			t.Errorf("%s: instructions missing or not translated", id)
		}
	}
	if _, err := Instructions("nope", "en"); err == nil {
		t.Error("instructions for an exercise that does not exist")
	}
}

// TestStartersEmbedded checks that every code exercise with a folder on
// disk is in the embedded starters, byte for byte: a folder added
// without adding it to the go:embed line would be missing from
// `wirelab init`.
func TestStartersEmbedded(t *testing.T) {
	for _, e := range List() {
		_, err := os.Stat(filepath.Join(e.ID, "main.go"))
		onDisk := err == nil
		sfs, ok := Starter(e.ID)
		switch {
		case e.Kind == Frame && ok:
			t.Errorf("%s: a frame exercise has starter code", e.ID)
			continue
		case onDisk != ok:
			t.Errorf("%s: starter on disk %v, embedded %v: name its folder in content.go's go:embed line", e.ID, onDisk, ok)
			continue
		case !ok:
			continue
		}
		fs.WalkDir(sfs, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			embedded, _ := fs.ReadFile(sfs, path)
			disk, err := os.ReadFile(filepath.Join(e.ID, path))
			if err != nil || !bytes.Equal(embedded, disk) {
				t.Errorf("%s/%s differs from the disk (%v)", e.ID, path, err)
			}
			return nil
		})
	}
}

// TestStarterImports checks that no starter imports this module's
// packages, so that a workspace written by `wirelab init` builds without
// it, and that the stdio exercises, which need nothing else, import only
// the standard library; whatever else a starter imports, the workspace's
// go.mod must require.
func TestStarterImports(t *testing.T) {
	stdlibOnly := map[string]bool{"stdio-server": true, "mcp-server": true, "http-server": true, "schema-versions": true, "mcp-client": true, "mcp-dual": true, "find-the-defect": true, "a2a-client": true}
	files, _ := filepath.Glob("*/*.go")
	for _, path := range files {
		id := filepath.Dir(path)
		if e, ok := ByID(id); !ok || e.Kind != Code {
			continue // the grader and the progress store are not starter code
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(p, "/")
			switch {
			case p == "github.com/wirelab/wirelab" || strings.HasPrefix(p, "github.com/wirelab/wirelab/"):
				t.Errorf("%s imports %s: starters never import this module", path, p)
			case stdlibOnly[id] && strings.Contains(first, "."):
				t.Errorf("%s imports %s, which is not in the standard library", path, p)
			case strings.Contains(first, ".") && !required(p):
				t.Errorf("%s imports %s, whose module the workspace's go.mod does not require", path, p)
			}
		}
	}
}

// required reports whether the workspace's go.mod requires the module
// that package path p belongs to.
func required(p string) bool {
	gomod, _ := ModuleFiles()
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && (p == f[0] || strings.HasPrefix(p, f[0]+"/")) {
			return true
		}
	}
	return false
}

// TestGoVersion keeps GoVersion, written into the go.mod of every
// workspace, equal to this repository's.
func TestGoVersion(t *testing.T) {
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			if v != GoVersion {
				t.Errorf("GoVersion = %q, go.mod says %q", GoVersion, v)
			}
			return
		}
	}
	t.Error("no go line in ../go.mod")
}

// TestWorkspaceModule keeps the workspace's go.mod in step with this
// repository's: the same go line, and every module it requires at the
// version this repository requires, so that the starters build against
// what the graders were tested with.
func TestWorkspaceModule(t *testing.T) {
	repo, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	gomod, gosum := ModuleFiles()
	if !strings.HasPrefix(string(gomod), "module exercises\n") || len(gosum) == 0 {
		t.Fatalf("workspace go.mod:\n%s\ngo.sum %d bytes", gomod, len(gosum))
	}
	versions := func(b []byte) map[string]string {
		m := map[string]string{}
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
			if len(f) >= 2 && strings.Contains(f[0], ".") && strings.HasPrefix(f[1], "v") {
				m[f[0]] = f[1]
			}
			if v, ok := strings.CutPrefix(line, "go "); ok {
				m["go"] = v
			}
		}
		return m
	}
	want := versions(repo)
	got := versions(gomod)
	if got["go"] != GoVersion {
		t.Errorf("workspace go line %q, want %q", got["go"], GoVersion)
	}
	for _, m := range []string{"google.golang.org/grpc", "google.golang.org/protobuf"} {
		if got[m] == "" || got[m] != want[m] {
			t.Errorf("workspace requires %s %q, this repository %q", m, got[m], want[m])
		}
		if !strings.Contains(string(gosum), m+" "+got[m]+" ") {
			t.Errorf("workspace go.sum has no line for %s %s", m, got[m])
		}
	}
}

// TestGRPCContract keeps grpc-server's own copy of the contract in step:
// the starter and the solution carry the same generated code, and their
// tools.proto says what protocols/grpctool's does, comments and
// go_package aside.
func TestGRPCContract(t *testing.T) {
	for _, f := range []string{"tools.proto", "tools.pb.go", "tools_grpc.pb.go"} {
		starter, err1 := os.ReadFile(filepath.Join("grpc-server", f))
		solution, err2 := os.ReadFile(filepath.Join("..", "solutions", "grpc-server", f))
		if err1 != nil || err2 != nil || !bytes.Equal(starter, solution) {
			t.Errorf("%s: the starter's and the solution's differ (%v, %v)", f, err1, err2)
		}
	}
	contract := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var keep []string
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "//") || strings.HasPrefix(line, "option go_package") {
				continue
			}
			keep = append(keep, line)
		}
		return strings.Join(keep, "\n")
	}
	if diff := cmp.Diff(contract("../protocols/grpctool/tools/v1/tools.proto"), contract("grpc-server/tools.proto")); diff != "" {
		t.Errorf("grpc-server/tools.proto says something other than protocols/grpctool's (-project +exercise):\n%s", diff)
	}
}
