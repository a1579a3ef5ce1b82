package grade

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// found is an English text of the graders found in their source, and
// where.
type found struct {
	text, pos string
}

// englishPhrases walks the package's source (tests left out) and
// returns every English text a report can show, as a literal:
//   - the format of a call to Failf or to any function of the package
//     with a "format string, args ...any" pair (restatef, addf, aboutf,
//     the graders' own fail helpers), and the argument of any function
//     with a "what string" parameter (Process.Expect, Call...), which
//     ends up in front of a summary;
//   - the description given to About, and the text given to text (the
//     report's labels);
//   - the value of every constant or variable named hint* or Hint*, or
//     what or next (a description kept for About);
//   - a string literal given to a Hint or What field (keyed, or in the
//     place of a field named what or hint in a table of anonymous
//     structs), and the Name of every Stage.
//
// It also reports, as problems, the places that change a summary
// without going through failure.go's functions, which keep the Russian
// in step.
func englishPhrases(t *testing.T) (phrases []found, problems []string) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*ast.File
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
	}

	// The functions that take a format, and the index of that argument.
	formatAt := map[string][]int{"About": {1}, "text": {1}}
	// refuse's format is the message of a JSON-RPC error the grader's
	// own agent sends, which goes on the wire in English.
	onTheWire := map[string]bool{"refuse": true}
	addFunc := func(name string, ft *ast.FuncType) {
		if name == "" || ft.Params == nil || onTheWire[name] {
			return
		}
		i := 0
		params := ft.Params.List
		for k, p := range params {
			typ, isString := p.Type.(*ast.Ident)
			isString = isString && typ.Name == "string"
			for _, n := range p.Names {
				_, variadic := params[len(params)-1].Type.(*ast.Ellipsis)
				switch {
				case n.Name == "format" && isString && k == len(params)-2 && variadic,
					n.Name == "what" && isString:
					formatAt[name] = append(formatAt[name], i)
				}
				i++
			}
		}
	}
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				addFunc(n.Name.Name, n.Type)
			case *ast.AssignStmt:
				for i, rhs := range n.Rhs {
					if lit, ok := rhs.(*ast.FuncLit); ok && i < len(n.Lhs) {
						if id, ok := n.Lhs[i].(*ast.Ident); ok {
							addFunc(id.Name, lit.Type)
						}
					}
				}
			}
			return true
		})
	}

	add := func(e ast.Expr) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
		}
		if s != "" {
			phrases = append(phrases, found{s, fset.Position(lit.Pos()).String()})
		}
	}
	named := regexp.MustCompile(`^([hH]int|what$|next$|BuildStage$)`)
	for _, f := range parsed {
		inFailure := filepath.Base(fset.Position(f.Pos()).Filename) == "failure.go"
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				for _, i := range formatAt[name] {
					if i < len(n.Args) {
						add(n.Args[i])
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if named.MatchString(id.Name) && i < len(n.Values) {
						add(n.Values[i])
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					sel, ok := lhs.(*ast.SelectorExpr)
					if !ok {
						continue
					}
					if sel.Sel.Name == "Hint" && i < len(n.Rhs) {
						add(n.Rhs[i])
					}
					if sel.Sel.Name == "Summary" && !inFailure && !assigns(n, "SummaryRU") {
						problems = append(problems, fset.Position(n.Pos()).String()+": the summary changes, but not its Russian: use restatef, addf or aboutf")
					}
				}
			case *ast.CompositeLit:
				if arr, ok := n.Type.(*ast.ArrayType); ok {
					if st, ok := arr.Elt.(*ast.StructType); ok {
						tableFields(st, n.Elts, add)
					}
				}
				keys := map[string]ast.Expr{}
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							keys[id.Name] = kv.Value
						}
					}
				}
				for _, k := range []string{"Hint", "hint", "What", "what"} {
					if v, ok := keys[k]; ok {
						add(v)
					}
				}
				if _, isStage := keys["Run"]; isStage {
					if v, ok := keys["Name"]; ok {
						add(v)
					}
				}
				if _, ok := keys["Summary"]; ok && !inFailure {
					if _, ok := keys["SummaryRU"]; !ok && !isReportKey(n) {
						problems = append(problems, fset.Position(n.Pos()).String()+": a Failure made without its Russian: use Failf")
					}
				}
			}
			return true
		})
	}
	return phrases, problems
}

// tableFields adds the unkeyed values of a table of anonymous structs
// that stand in a field named what or hint.
func tableFields(st *ast.StructType, rows []ast.Expr, add func(ast.Expr)) {
	var at []int
	i := 0
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if strings.EqualFold(n.Name, "what") || strings.EqualFold(n.Name, "hint") {
				at = append(at, i)
			}
			i++
		}
	}
	for _, row := range rows {
		lit, ok := row.(*ast.CompositeLit)
		if !ok || len(lit.Elts) == 0 {
			continue
		}
		if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); keyed {
			continue
		}
		for _, k := range at {
			if k < len(lit.Elts) {
				add(lit.Elts[k])
			}
		}
	}
}

// assigns reports whether the assignment sets a field named field.
func assigns(a *ast.AssignStmt, field string) bool {
	return slices.ContainsFunc(a.Lhs, func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == field
	})
}

// isReportKey reports whether a Failure literal is report.go's key of
// failures already shown, which is no failure of its own.
func isReportKey(c *ast.CompositeLit) bool {
	for _, el := range c.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if sel, ok := kv.Value.(*ast.SelectorExpr); ok && sel.Sel.Name == "Summary" {
				return true
			}
		}
	}
	return false
}

// TestRussianCatalogue fails for every English text of the graders that
// has no Russian in ru.go, and for a summary changed behind the
// Russian's back.
func TestRussianCatalogue(t *testing.T) {
	phrases, problems := englishPhrases(t)
	if len(phrases) < 200 {
		t.Fatalf("found %d phrases in the source; the walk is broken", len(phrases))
	}
	for _, p := range problems {
		t.Error(p)
	}
	missing := map[string]string{}
	for _, p := range phrases {
		if _, ok := russianText[p.text]; !ok {
			missing[p.text] = p.pos
		}
	}
	var list []string
	for s, pos := range missing {
		list = append(list, pos+": "+strconv.Quote(s))
	}
	sort.Strings(list)
	for _, l := range list {
		t.Errorf("no Russian for %s", l)
	}
}

// verb matches a fmt verb, with its flags, width, precision and
// explicit argument index.
var verb = regexp.MustCompile(`%[-+# 0]*(\[\d+\])?[0-9*]*(?:\.[0-9*]+)?(\[\d+\])?([a-zA-Z%])`)

// verbsByArg maps each argument a format uses, from 1, to its verb's
// letter, as fmt counts them: in order, or from an explicit %[n]. %q
// counts as %s: Russian may quote a string with guillemets, «%s».
func verbsByArg(format string) map[int]string {
	byArg := map[int]string{}
	next := 1
	for _, m := range verb.FindAllStringSubmatch(format, -1) {
		letter := m[3]
		if letter == "%" {
			continue
		}
		if letter == "q" {
			letter = "s"
		}
		for _, index := range []string{m[1], m[2]} {
			if index != "" {
				next, _ = strconv.Atoi(strings.Trim(index, "[]"))
			}
		}
		byArg[next] = letter
		next++
	}
	return byArg
}

// TestRussianVerbs checks that every Russian format takes the arguments
// of its English with the same verbs, so that the same arguments fill
// it: in the same order, or reordered with %[n] where Russian puts
// words in another order.
func TestRussianVerbs(t *testing.T) {
	for en, ru := range russianText {
		if diff := cmp.Diff(verbsByArg(en), verbsByArg(ru)); diff != "" {
			t.Errorf("%q\n%q\nverbs differ (-English +Russian):\n%s", en, ru, diff)
		}
		if strings.TrimSpace(ru) == "" {
			t.Errorf("%q: empty Russian", en)
		}
	}
}
