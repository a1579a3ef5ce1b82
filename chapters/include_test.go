package chapters

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	mdast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

var update = flag.Bool("update", false, "copy the included code from the project's files into the lessons")

// root is the repository, seen from this package's folder: the paths of
// include blocks are relative to it.
const root = ".."

// TestIncludes checks that every block of code a lesson includes
// ("```go include=protocols/stdio/server.go:Serve") is exactly what the
// file holds now, so that a lesson can never show code the project no
// longer has. With -update it copies the code into the lessons instead.
func TestIncludes(t *testing.T) {
	for _, lang := range langs {
		for _, name := range lessonFiles(t, lang) {
			file := filepath.Join(lang, name)
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, err := expandIncludes(src, os.DirFS(root).(readFileFS))
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			if bytes.Equal(out, src) {
				continue
			}
			if *update {
				if err := os.WriteFile(file, out, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("%s: included code differs from the project's files; run go test ./chapters -run TestIncludes -update", file)
		}
	}
}

// readFileFS is what expandIncludes reads the project through.
type readFileFS interface {
	ReadFile(name string) ([]byte, error)
}

// expandIncludes returns src with every include block's body replaced by
// the code it names.
func expandIncludes(src []byte, project readFileFS) ([]byte, error) {
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	type edit struct {
		from, to int
		code     string
	}
	var edits []edit
	var errs []error
	_ = mdast.Walk(doc, func(n mdast.Node, entering bool) (mdast.WalkStatus, error) {
		b, ok := n.(*mdast.FencedCodeBlock)
		if !entering || !ok || b.Info == nil {
			return mdast.WalkContinue, nil
		}
		var spec string
		for _, w := range strings.Fields(string(b.Info.Segment.Value(src))) {
			if v, ok := strings.CutPrefix(w, "include="); ok {
				spec = v
			}
		}
		if spec == "" {
			return mdast.WalkSkipChildren, nil
		}
		line := bytes.Count(src[:b.Info.Segment.Start], []byte("\n")) + 1
		code, err := included(project, spec)
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", line, err))
			return mdast.WalkSkipChildren, nil
		}
		// The body runs from the line after the opening fence to the end
		// of its last line; an empty body is nothing at the first.
		from := b.Info.Segment.Stop + bytes.IndexByte(src[b.Info.Segment.Stop:], '\n') + 1
		to := from
		if k := b.Lines().Len(); k > 0 {
			to = b.Lines().At(k - 1).Stop
		}
		edits = append(edits, edit{from, to, code})
		return mdast.WalkSkipChildren, nil
	})
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(src[at:e.from])
		out.WriteString(e.code)
		at = e.to
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}

// included returns the code an include names, ending in a newline:
// "path" is the whole file; "path.go:Name" is one declaration with its
// doc comment: a function, a method ("Type.Method"), a type, or the
// const or var group that declares Name.
func included(project readFileFS, spec string) (string, error) {
	file, name, _ := strings.Cut(spec, ":")
	if file != path.Clean(file) || path.IsAbs(file) || strings.HasPrefix(file, "..") {
		return "", fmt.Errorf("include %q: the path is relative to the repository's root, clean, and inside it", spec)
	}
	src, err := project.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("include %q: %w", spec, err)
	}
	if name == "" {
		return strings.TrimRight(string(src), "\n") + "\n", nil
	}
	if !strings.HasSuffix(file, ".go") {
		return "", fmt.Errorf("include %q: only Go files have declarations to pick; include the whole file", spec)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return "", fmt.Errorf("include %q: %w", spec, err)
	}
	from, to, ok := findDecl(f, name)
	if !ok {
		return "", fmt.Errorf("include %q: %s declares no %s", spec, file, name)
	}
	return string(src[fset.Position(from).Offset:fset.Position(to).Offset]) + "\n", nil
}

// findDecl returns where the declaration of name starts (its doc
// comment) and ends.
func findDecl(f *ast.File, name string) (from, to token.Pos, ok bool) {
	recv, method, isMethod := strings.Cut(name, ".")
	start := func(doc *ast.CommentGroup, n ast.Node) token.Pos {
		if doc != nil {
			return doc.Pos()
		}
		return n.Pos()
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if isMethod != (d.Recv != nil) {
				continue
			}
			if (!isMethod && d.Name.Name == name) || (isMethod && d.Name.Name == method && receiverType(d) == recv) {
				return start(d.Doc, d), d.End(), true
			}
		case *ast.GenDecl:
			if isMethod {
				continue
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.Name != name {
						continue
					}
					if d.Lparen.IsValid() && len(d.Specs) > 1 {
						return start(s.Doc, s), s.End(), true // one type of a group
					}
					return start(d.Doc, d), d.End(), true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name {
							return start(d.Doc, d), d.End(), true // the whole group
						}
					}
				}
			}
		}
	}
	return 0, 0, false
}

// receiverType names a method's receiver type: "Server" for (s *Server)
// and for (s Server[T]).
func receiverType(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestExpandIncludes checks the picking and the copying on a small
// project: every kind of declaration, and the mistakes a lesson can make.
func TestExpandIncludes(t *testing.T) {
	project := mapFS{
		"p/a.go":    "package p\n\n// Serve serves.\nfunc Serve() {}\n\n// T is a type.\ntype T struct {\n\tName string `json:\"name\"`\n}\n\n// Handle handles.\nfunc (t *T) Handle() {}\n\n// Limits.\nconst (\n\tA = 1\n\tB = 2\n)\n",
		"p/x.proto": "syntax = \"proto3\";\n",
	}
	for _, c := range []struct{ spec, want, err string }{
		{spec: "p/a.go:Serve", want: "// Serve serves.\nfunc Serve() {}\n"},
		{spec: "p/a.go:T", want: "// T is a type.\ntype T struct {\n\tName string `json:\"name\"`\n}\n"},
		{spec: "p/a.go:T.Handle", want: "// Handle handles.\nfunc (t *T) Handle() {}\n"},
		{spec: "p/a.go:B", want: "// Limits.\nconst (\n\tA = 1\n\tB = 2\n)\n"},
		{spec: "p/x.proto", want: "syntax = \"proto3\";\n"},
		{spec: "p/a.go:Handle", err: "declares no Handle"},
		{spec: "p/a.go:Nope", err: "declares no Nope"},
		{spec: "p/x.proto:X", err: "only Go files"},
		{spec: "../etc/passwd", err: "inside it"},
		{spec: "p/missing.go:X", err: "not exist"},
	} {
		src := "# L\n\n```go include=" + c.spec + "\nold\n```\n\ntext\n"
		got, err := expandIncludes([]byte(src), project)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.spec, err, c.err)
			}
			continue
		}
		want := "# L\n\n```go include=" + c.spec + "\n" + c.want + "```\n\ntext\n"
		if err != nil || string(got) != want {
			t.Errorf("%s: got %q, %v\nwant %q", c.spec, got, err, want)
		}
		// An empty block is filled the same way, and filling is stable.
		empty := "# L\n\n```go include=" + c.spec + "\n```\n\ntext\n"
		if got, err := expandIncludes([]byte(empty), project); err != nil || string(got) != want {
			t.Errorf("%s, empty block: got %q, %v", c.spec, got, err)
		}
		if again, _ := expandIncludes([]byte(want), project); string(again) != want {
			t.Errorf("%s: expanding twice changed the lesson: %q", c.spec, again)
		}
	}
}

// mapFS is a project of a few files, for TestExpandIncludes.
type mapFS map[string]string

func (m mapFS) ReadFile(name string) ([]byte, error) {
	s, ok := m[name]
	if !ok {
		return nil, fmt.Errorf("open %s: %w", name, os.ErrNotExist)
	}
	return []byte(s), nil
}
