package static

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// classic is the one script that is not an ES module: it must run before
// the first paint, and a module always waits for the document.
const classic = "comfort.js"

// script is one file of static/, read for what it shares.
type script struct {
	name    string
	code    string              // the text without its comment lines
	exports []string            // the names it exports
	imports map[string][]string // the file it imports from -> the names; "*" for a namespace
}

var (
	// importLine is the only form of import the scripts use: named, or a
	// namespace, from a relative path, on one line.
	importLine = regexp.MustCompile(`^import (?:\{([^}]*)\}|\* as ([\w$]+)) from "([^"]+)";$`)
	// exportDecl is an exported declaration, which names what it exports.
	exportDecl = regexp.MustCompile(`(?m)^export (?:async )?(?:function\*?|class|const|let|var) ([\w$]+)`)
	// localDecl declares the name put in place of %s.
	localDecl = `(?m)(?:function\*?|class|const|let|var)\s+%s\b`
	// globalWrite is an assignment to a property of the global object.
	globalWrite = regexp.MustCompile(`\b(?:window|globalThis|self)\s*(?:\.\s*[\w$]+|\[[^\]]*\])\s*=[^=]`)
	// stringLit is a string on one line, taken out before looking for
	// names, so that "image/svg+xml" does not read as a use of svg.
	stringLit = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|` + "`[^`\n]*`")
)

// readScripts reads every script of static/.
func readScripts(t *testing.T) map[string]*script {
	t.Helper()
	names, err := fs.Glob(FS, "*.js")
	if err != nil || len(names) == 0 {
		t.Fatalf("no scripts in static/: %v", err)
	}
	scripts := map[string]*script{}
	for _, name := range names {
		b, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatal(err)
		}
		s := &script{name: name, imports: map[string][]string{}}
		var code []string
		for line := range strings.Lines(string(b)) {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			code = append(code, line)
			if !strings.HasPrefix(line, "import ") {
				continue
			}
			m := importLine.FindStringSubmatch(strings.TrimSpace(line))
			if m == nil {
				t.Errorf("%s: an import of a form this test does not read: %s", name, line)
				continue
			}
			from := strings.TrimPrefix(m[3], "./")
			if m[2] != "" {
				s.imports[from] = append(s.imports[from], "*")
			}
			for _, n := range strings.Split(m[1], ",") {
				if n = strings.TrimSpace(n); n != "" {
					s.imports[from] = append(s.imports[from], n)
				}
			}
		}
		s.code = strings.Join(code, "")
		for _, m := range exportDecl.FindAllStringSubmatch(s.code, -1) {
			s.exports = append(s.exports, m[1])
		}
		scripts[name] = s
	}
	return scripts
}

// TestModulesShareNothingThroughGlobals holds the scripts to their seams:
// every one but comfort.js is an ES module that imports, by a relative
// path to a file that exists, only names that file exports, and uses no
// other module's name without importing it; none writes to window; and
// comfort.js, a classic script, keeps all its names inside one function.
func TestModulesShareNothingThroughGlobals(t *testing.T) {
	scripts := readScripts(t)
	// wire.js, which every page with a socket imports, is where a test
	// that reads no exports at all would show.
	if w := scripts["wire.js"]; w == nil || !slices.Contains(w.exports, "WireSocket") {
		t.Fatalf("wire.js exports no WireSocket: the test does not read exports")
	}
	for _, s := range scripts {
		if m := globalWrite.FindString(s.code); m != "" {
			t.Errorf("%s writes to the global object (%q): share through export and import", s.name, m)
		}
		if s.name == classic {
			code := strings.TrimSpace(s.code)
			if !strings.HasPrefix(code, "(function () {\n") || !strings.HasSuffix(code, "\n})();") {
				t.Errorf("%s is a classic script: everything in it belongs inside one (function () { ... })(), or its names land on window", s.name)
			}
			if len(s.imports) > 0 || len(s.exports) > 0 {
				t.Errorf("%s is a classic script, which can neither import nor export", s.name)
			}
			continue
		}
		for from, names := range s.imports {
			dep, ok := scripts[from]
			if !ok || from == classic || strings.Contains(from, "/") {
				t.Errorf("%s imports from %q: want a module of static/ beside it, as \"./name.js\"", s.name, from)
				continue
			}
			for _, n := range names {
				if n != "*" && !slices.Contains(dep.exports, n) {
					t.Errorf("%s imports %s from %s, which exports %v", s.name, n, from, dep.exports)
				}
			}
		}
		// A name another module exports, used here without an import, can
		// only come from a global.
		uses := stringLit.ReplaceAllString(s.code, `""`)
		for _, other := range scripts {
			imported := s.imports[other.name]
			if other == s || slices.Contains(imported, "*") {
				continue
			}
			for _, n := range other.exports {
				if slices.Contains(imported, n) {
					continue
				}
				if regexp.MustCompile(strings.ReplaceAll(localDecl, "%s", regexp.QuoteMeta(n))).MatchString(uses) {
					continue // a name of its own
				}
				use := regexp.MustCompile(`(?:^|[^.\w$])` + regexp.QuoteMeta(n) + `\b\s*[^:\s]`)
				if use.MatchString(uses) {
					t.Errorf("%s uses %s, which %s exports, without importing it", s.name, n, other.name)
				}
			}
		}
	}
}
