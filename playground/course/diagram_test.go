package course

import (
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/wirelab/wirelab/static"
)

var updateDiagrams = flag.Bool("update-diagrams", false, "rewrite the svg section of each testdata/diagram/*.txtar from what sequenceSVG draws now")

// TestSequenceDiagramGolden draws the diagram section of each
// testdata/diagram/*.txtar and compares the picture with its svg
// section. After changing the drawing on purpose, rewrite them with
// go test ./playground/course -run SequenceDiagramGolden -update-diagrams
// and look at the diff.
func TestSequenceDiagramGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/diagram/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("found %d golden diagrams in testdata/diagram, want at least 3", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(strings.SplitN(string(ar.Comment), "\n", 2)[0]) == "" {
				t.Errorf("%s: the first line should say what the diagram proves", file)
			}
			src, ok := diagramSection(ar, "diagram")
			if !ok {
				t.Fatalf("%s has no diagram section", file)
			}
			got, err := sequenceSVG(src)
			if err != nil {
				t.Fatalf("sequenceSVG: %v", err)
			}
			if *updateDiagrams {
				setDiagramSection(ar, "svg", got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, ok := diagramSection(ar, "svg")
			if !ok {
				t.Fatalf("%s has no svg section; write it with -update-diagrams", file)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: the picture changed; if on purpose, rewrite it with -update-diagrams (-want +got):\n%s", file, diff)
			}
		})
	}
}

// diagramSection returns the text of the section called name.
func diagramSection(ar *txtar.Archive, name string) (string, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// setDiagramSection replaces the section called name, or adds it.
func setDiagramSection(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

func TestSequenceDiagramErrors(t *testing.T) {
	var seven, fortyOne strings.Builder
	for _, p := range []string{"A -> B: 1", "C -> D: 2", "E -> F: 3", "F -> F: 4", "F -> G: 5"} {
		seven.WriteString(p + "\n")
	}
	for i := range 41 {
		fortyOne.WriteString("A -> B: call " + strconv.Itoa(i+1) + "\n\n")
	}
	const example = `: "A -> B: label"`
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", `the diagram is empty: write one statement a line, such as "A -> B: label"`},
		{"only blank lines", "\n   \n\t\n", `the diagram is empty: write one statement a line, such as "A -> B: label"`},
		{"no receiver", "A -> B: x\n\nA -> : x", `line 3: "A -> : x": a message names its receiver` + example},
		{"no sender", "-> B: x", `line 1: "-> B: x": a message names its sender` + example},
		{"answer with no sender", " --> B: x", `line 1: "--> B: x": a message names its sender` + example},
		{"no colon", "A -> B", `line 1: "A -> B": a message needs a colon before its label` + example},
		{"no colon before the label", "A -> B hello", `line 1: "A -> B hello": a message needs a colon before its label` + example},
		{"no label", "A -> B:", `line 1: "A -> B:": a message needs a label after the colon` + example},
		{"blank label", "A --> B:   ", `line 1: "A --> B:": a message needs a label after the colon` + example},
		{"long arrow", "A ---> B: x", `line 1: "A ---> B: x": an arrow is "->" (a message) or "-->" (an answer)`},
		{"mermaid arrow", "A ->> B: x", `line 1: "A ->> B: x": an arrow is "->" (a message) or "-->" (an answer)`},
		{"two arrows", "A -> B -> C: x", `line 1: "A -> B -> C: x": a message has one arrow, from its sender to its receiver` + example},
		{"arrow to the left", "A <- B: x", `line 1: "A <- B: x": not a message or a note: write "A -> B: label", "A --> B: label" or "note A: text"`},
		{"plain words", "then the server answers", `line 1: "then the server answers": not a message or a note: write "A -> B: label", "A --> B: label" or "note A: text"`},
		{"note on nobody", "note: x", `line 1: "note: x": a note names its participant: "note A: text"`},
		{"note without colon", "note A logs", `line 1: "note A logs": a note needs a colon before its text: "note A: text"`},
		{"empty note", "note A:", `line 1: "note A:": a note needs text after the colon: "note A: text"`},
		{"seven participants", seven.String(), `line 5: "F -> G: 5": "G" would be participant 7; a lesson diagram has at most 6`},
		{"41 statements", fortyOne.String(), `line 81: "A -> B: call 41": a lesson diagram has at most 40 statements; split it in two`},
		{"windows line ends", "A -> B: x\r\nA -> : y\r\n", `line 2: "A -> : y": a message names its receiver` + example},
		{"cyrillic", "Клиент -> : привет", `line 1: "Клиент -> : привет": a message names its receiver` + example},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sequenceSVG(tt.src)
			if err == nil {
				t.Fatalf("no error; drew:\n%s", got)
			}
			if got != "" {
				t.Errorf("drew something as well as failing:\n%s", got)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSequenceDiagramErrorLine checks that a renderer can find the line
// of a mistake, to add the line the diagram starts on in its file.
func TestSequenceDiagramErrorLine(t *testing.T) {
	_, err := sequenceSVG("A -> B: x\n\nnote B\n")
	var de *diagramError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T) is not a *diagramError", err, err)
	}
	if de.line != 3 {
		t.Errorf("line = %d, want 3", de.line)
	}
}

func TestSequenceDiagramParse(t *testing.T) {
	src := "  Agent  ->  Tool   server : {\"id\": 1}  \n" +
		"note Log: a: b\n" +
		"Tool server --> Agent: ok\n" +
		"Agent -> Agent: think -> act\n" +
		"notebook -> Agent: not a note\n"
	got, err := parseSequence(src)
	if err != nil {
		t.Fatal(err)
	}
	want := sequence{
		// Left to right in the order of first use; runs of spaces in a
		// name are one space.
		names: []string{"Agent", "Tool server", "Log", "notebook"},
		statements: []seqStatement{
			{kind: seqMessage, from: 0, to: 1, text: `{"id": 1}`},
			// Only the first colon ends the head.
			{kind: seqNote, from: 2, to: 2, text: "a: b"},
			{kind: seqAnswer, from: 1, to: 0, text: "ok"},
			// An arrow after the colon is label.
			{kind: seqMessage, from: 0, to: 0, text: "think -> act"},
			// "note" starts a note only as a word of its own.
			{kind: seqMessage, from: 3, to: 0, text: "not a note"},
		},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(sequence{}, seqStatement{})); diff != "" {
		t.Errorf("parseSequence (-want +got):\n%s", diff)
	}
}

func TestSequenceDiagramEscapes(t *testing.T) {
	label := `<script>alert("x" & 'y')</script>`
	got, err := sequenceSVG("<b>Browser</b> -> Server & co: " + label + "\nnote Server & co: ]]> <!-- -->")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "<b>", "<!--", " & "} {
		if strings.Contains(got, bad) {
			t.Errorf("the picture holds %q unescaped:\n%s", bad, got)
		}
	}
	// Read back as XML, the texts are what was written, to the letter.
	texts := diagramTexts(t, got)
	for _, want := range []string{label, "<b>Browser</b>", "Server & co", "]]> <!-- -->"} {
		if !texts[want] {
			t.Errorf("no text %q in the picture; texts: %v", want, texts)
		}
	}
}

// diagramTexts returns the text of every text element in an SVG picture.
func diagramTexts(t *testing.T, svg string) map[string]bool {
	t.Helper()
	texts := map[string]bool{}
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return texts
		}
		if err != nil {
			t.Fatalf("reading the picture as XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "text" {
			var s string
			if err := d.DecodeElement(&s, &se); err != nil {
				t.Fatal(err)
			}
			texts[s] = true
		}
	}
}

// coordinate matches a number in a path or a list of points; a picture
// drawn in whole pixels has no decimal point in any.
var coordinate = regexp.MustCompile(`-?[0-9.]+`)

// TestSequenceDiagramWellFormed reads every picture as XML to its end,
// and checks that it is one svg element in SVG's namespace, drawn in
// whole pixels, with no colour of its own.
func TestSequenceDiagramWellFormed(t *testing.T) {
	sources := map[string]string{
		"markup":           "A&B -> <C>: \"quotes\" & 'apostrophes' <tags/>\nnote <C>: ]]>",
		"control bytes":    "A -> B: bell \x07 and nul \x00",
		"invalid UTF-8":    "A\xff -> B: \xfe\xff",
		"long everything":  strings.Repeat("name ", 20) + "-> " + strings.Repeat("ы", 90) + ": " + strings.Repeat("{\"k\":1}", 30),
		"self on the last": "A -> B: x\nB -> B: " + strings.Repeat("loop ", 12),
		"six participants": "A -> B: 1\nB -> C: 2\nC -> D: 3\nD -> E: 4\nE -> F: 5\nF --> A: " + strings.Repeat("back ", 30),
		"wide script":      "クライアント -> サーバー: 文字数を数えて\nnote サーバー: 標準エラーに記録",
		"only a note":      "note Alone: " + strings.Repeat("thinking ", 10),
		"only a self call": "Alone -> Alone: think",
	}
	golden, _ := filepath.Glob("testdata/diagram/*.txtar")
	for _, file := range golden {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sources[filepath.Base(file)], _ = diagramSection(ar, "diagram")
	}
	for name, src := range sources {
		t.Run(name, func(t *testing.T) {
			svg, err := sequenceSVG(src)
			if err != nil {
				t.Fatal(err)
			}
			d := xml.NewDecoder(strings.NewReader(svg))
			depth, roots := 0, 0
			for {
				tok, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("not well-formed XML: %v\n%s", err, svg)
				}
				switch tok := tok.(type) {
				case xml.StartElement:
					if depth == 0 {
						roots++
						if tok.Name.Space != "http://www.w3.org/2000/svg" || tok.Name.Local != "svg" {
							t.Errorf("root element is {%s}%s, want an svg in SVG's namespace", tok.Name.Space, tok.Name.Local)
						}
					}
					depth++
					checkDiagramAttrs(t, tok)
				case xml.EndElement:
					depth--
				}
			}
			if roots != 1 {
				t.Errorf("%d root elements, want 1", roots)
			}
		})
	}
}

// checkDiagramAttrs checks one element's attributes: whole numbers for
// coordinates, and paint left to the stylesheet.
func checkDiagramAttrs(t *testing.T, el xml.StartElement) {
	t.Helper()
	for _, a := range el.Attr {
		switch a.Name.Local {
		case "fill", "stroke", "style", "color", "stop-color":
			t.Errorf("<%s> has %s=%q: colours belong in static/lesson.css", el.Name.Local, a.Name.Local, a.Value)
		case "width", "height":
			if el.Name.Local == "svg" {
				// The picture's size, in rem so that it grows with the
				// text; its geometry is the viewBox's.
				if n, ok := strings.CutSuffix(a.Value, "rem"); !ok || n == "" || strings.Trim(n, "0123456789.") != "" {
					t.Errorf("<svg %s=%q> is not a size in rem", a.Name.Local, a.Value)
				}
				continue
			}
			if _, err := strconv.Atoi(a.Value); err != nil {
				t.Errorf("<%s %s=%q> is not a whole number", el.Name.Local, a.Name.Local, a.Value)
			}
		case "x", "y", "x1", "y1", "x2", "y2", "rx", "font-size":
			if _, err := strconv.Atoi(a.Value); err != nil {
				t.Errorf("<%s %s=%q> is not a whole number", el.Name.Local, a.Name.Local, a.Value)
			}
		case "viewBox", "points", "d":
			for _, n := range coordinate.FindAllString(a.Value, -1) {
				if _, err := strconv.Atoi(n); err != nil {
					t.Errorf("<%s %s=%q> holds %q, not a whole number", el.Name.Local, a.Name.Local, a.Value, n)
				}
			}
		}
	}
}

// TestSequenceDiagramCSS checks that every class a picture uses has its
// rules in the diagrams' block of static/lesson.css.
func TestSequenceDiagramCSS(t *testing.T) {
	css, err := fs.ReadFile(static.FS, "lesson.css")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "/* Sequence diagrams in lesson text (playground/course/diagram.go). */"
	_, block, ok := strings.Cut(string(css), marker)
	if !ok {
		t.Fatalf("static/lesson.css has no block under %q", marker)
	}
	svg, err := sequenceSVG("A -> B: x\nB --> A: y\nB -> B: z\nnote A: n")
	if err != nil {
		t.Fatal(err)
	}
	used := regexp.MustCompile(`class="([^"]+)"`).FindAllStringSubmatch(svg, -1)
	if len(used) == 0 {
		t.Fatal("the picture uses no classes")
	}
	for _, m := range used {
		for _, class := range strings.Fields(m[1]) {
			if !regexp.MustCompile(`\.` + regexp.QuoteMeta(class) + `\b`).MatchString(block) {
				t.Errorf("class %q has no rule in the diagrams' block of static/lesson.css", class)
			}
		}
	}
}

func TestSequenceDiagramFit(t *testing.T) {
	tests := []struct {
		s, shown string
		limit    int
		width    int
	}{
		{"hello", "hello", 80, 5 * seqCharWidth},
		{"hello world", "hello w…", 8 * seqCharWidth, 8 * seqCharWidth},
		// Spaces before the ellipsis go: "hello …" would look like a gap.
		{"hello world", "hello…", 7 * seqCharWidth, 6 * seqCharWidth},
		{"привет, мир", "привет, мир", 11 * seqCharWidth, 11 * seqCharWidth},
		{"привет, мир", "привет…", 7 * seqCharWidth, 7 * seqCharWidth},
		// Chinese, Japanese and Korean characters take two cells.
		{"文字数", "文字数", 6 * seqCharWidth, 6 * seqCharWidth},
		{"文字数を数える", "文字…", 6 * seqCharWidth, 5 * seqCharWidth},
		// A combining accent adds no width, and stays with its letter.
		{"e\u0301te\u0301", "e\u0301te\u0301", 3 * seqCharWidth, 3 * seqCharWidth},
		{"e\u0301e\u0301e\u0301e\u0301", "e\u0301e\u0301…", 3 * seqCharWidth, 3 * seqCharWidth},
	}
	for _, tt := range tests {
		shown, w := seqFit(tt.s, tt.limit)
		if shown != tt.shown || w != tt.width {
			t.Errorf("seqFit(%q, %d) = %q, %d; want %q, %d", tt.s, tt.limit, shown, w, tt.shown, tt.width)
		}
	}
}
