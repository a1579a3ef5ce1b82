package chapters

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// langs are the languages every lesson is written in.
var langs = []string{"en", "ru"}

// lessonName is how a lesson file is named: NN-slug.md.
var lessonName = regexp.MustCompile(`^[0-9]{2}-[a-z0-9]+(-[a-z0-9]+)*\.md$`)

// lessonFiles returns the lesson file names of a language, sorted.
func lessonFiles(t *testing.T, lang string) []string {
	t.Helper()
	names, err := fs.Glob(FS, lang+"/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		names[i] = path.Base(n)
	}
	return names
}

func TestLessonsAreNamedAndTitled(t *testing.T) {
	en := lessonFiles(t, "en")
	if len(en) == 0 {
		t.Fatal("no lessons in en/")
	}
	for _, lang := range langs {
		names := lessonFiles(t, lang)
		if diff := cmp.Diff(en, names); diff != "" {
			t.Errorf("%s/ has other lessons than en/ (-en +%s):\n%s", lang, lang, diff)
		}
		for _, n := range names {
			if !lessonName.MatchString(n) {
				t.Errorf("%s/%s: a lesson is named NN-slug.md, with a lower-case slug", lang, n)
			}
			src, err := fs.ReadFile(FS, lang+"/"+n)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(src), "# ") {
				t.Errorf("%s/%s: a lesson starts with its title, a line \"# Title\"", lang, n)
			}
		}
	}
}

// block is what the tests read in a lesson: a level-2 heading, a frame
// and its reply, a json block, a diagram or included code, with its line.
type block struct {
	Kind    string // "section", "frame", "reply", "json", "quiz", "sequence" or "include"
	Target  string // a frame's target; an include's info string
	Content string
	Line    int
}

// blocks returns a lesson's sections, frames and json blocks, in order.
func blocks(src []byte) []block {
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var out []block
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 2 {
				out = append(out, block{Kind: "section", Line: lineOf(src, n.Lines().At(0).Start)})
			}
		case *ast.FencedCodeBlock:
			var b bytes.Buffer
			for i := range n.Lines().Len() {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			info := strings.Fields(string(n.Info.Segment.Value(src)))
			line := lineOf(src, n.Info.Segment.Start)
			switch {
			case len(info) == 0:
			case info[0] == "frame" && len(info) > 1:
				out = append(out, block{Kind: "frame", Target: info[1], Content: b.String(), Line: line})
			case info[0] == "json":
				out = append(out, block{Kind: "json", Content: b.String(), Line: line})
			case info[0] == "reply":
				out = append(out, block{Kind: "reply", Content: b.String(), Line: line})
			case info[0] == "quiz":
				// Its words are translated; its shape is not: as many
				// questions, as many choices, the same one right.
				out = append(out, block{Kind: "quiz", Content: quizShape(b.String()), Line: line})
			case info[0] == "sequence":
				// Its names and labels are translated: only its place counts.
				out = append(out, block{Kind: "sequence", Line: line})
			case strings.Contains(string(n.Info.Segment.Value(src)), "include="):
				out = append(out, block{Kind: "include", Target: strings.Join(info, " "), Line: line})
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// quizShape is a quiz block's marks, line by line ("?-+-=?+-="): which
// lines are questions, which choices are wrong and right, where the
// explanations are.
func quizShape(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			b.WriteByte(line[0])
		}
	}
	return b.String()
}

func lineOf(src []byte, offset int) int { return bytes.Count(src[:offset], []byte("\n")) + 1 }

// TestLanguagesMatch checks that every translation has the sections of
// the English lesson and exactly its frames, replies, messages and
// included code, and its diagrams in the same places: the wire is the
// same in every language. So are the questions: as many, each with as
// many choices and the same one right.
func TestLanguagesMatch(t *testing.T) {
	for _, name := range lessonFiles(t, "en") {
		shape := func(lang string) []block {
			src, err := fs.ReadFile(FS, lang+"/"+name)
			if err != nil {
				t.Fatal(err)
			}
			bs := blocks(src)
			for i := range bs {
				bs[i].Line = 0 // lines differ between languages; order does not
				if bs[i].Kind == "json" {
					bs[i].Content = compact(bs[i].Content)
				}
			}
			return bs
		}
		want := shape("en")
		for _, lang := range langs[1:] {
			if diff := cmp.Diff(want, shape(lang)); diff != "" {
				t.Errorf("%s/%s differs from en/%s in sections, frames or json (-en +%s):\n%s", lang, name, name, lang, diff)
			}
		}
	}
}

func compact(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

// TestJSONBlocks checks that every json block of every lesson is JSON:
// it is shown, not sent, so nothing else would notice a typo.
func TestJSONBlocks(t *testing.T) {
	for _, lang := range langs {
		for _, name := range lessonFiles(t, lang) {
			src, err := fs.ReadFile(FS, lang+"/"+name)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range blocks(src) {
				if b.Kind == "json" && !json.Valid([]byte(b.Content)) {
					t.Errorf("%s/%s:%d: the json block is not JSON", lang, name, b.Line)
				}
			}
		}
	}
}
