package course

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Markdown turns lesson text into HTML: GitHub's dialect (tables, task
// lists, strikethrough, bare links), headings with ids and a visible "#"
// link, code coloured on the server with CSS classes (static/highlight.css
// holds the colours for both themes), and runnable frames.
//
// A runnable frame is a fenced code block whose info string is "frame"
// and a target:
//
//	```frame mcp-stdio
//	{"jsonrpc":"2.0","id":2,"method":"tools/list"}
//	```
//
// It becomes an editable box with a Send button; the page's script sends
// the text to a live server of that target and shows the answer below.
//
// Three other blocks are the lesson's own (package chapters describes
// them): a "reply" block, the answer a frame gets, shown as such; a
// "sequence" block, drawn as an SVG diagram (sequenceSVG); and code with
// "include=PATH" in its info string, shown with the file it comes from.
type Markdown struct {
	gm goldmark.Markdown
}

// NewMarkdown returns the renderer every lesson goes through.
func NewMarkdown() *Markdown {
	return &Markdown{gm: goldmark.New(
		goldmark.WithExtensions(
			extension.GFM,
			// Classes, not inline styles: one page serves both themes, and
			// the colours for each live in static/highlight.css.
			highlighting.NewHighlighting(highlighting.WithFormatOptions(chromahtml.WithClasses(true))),
		),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(
			// Our two node kinds are ours alone; any priority would do.
			util.Prioritized(lessonNodes{}, 100),
		)),
	)}
}

// Limits on a document. Lessons are the project's own, but goldmark's
// time grows faster than the input on some shapes (a hundred thousand
// nested quotes or list items take seconds to minutes, an unclosed link
// repeated along one line as long), so a document past these is refused
// with an error instead of holding a page for minutes.
const (
	// maxSource is the largest document: several times the longest
	// lesson (about 40 KiB).
	maxSource = 256 << 10
	// maxLine is the longest line: lessons' lines are under 1 KiB, and a
	// line of 16 KiB renders in well under a second whatever it holds.
	maxLine = 16 << 10
	// maxNesting is how many quotes and list items one line may open:
	// lessons open two or three; 32 is as deep as any reader follows.
	maxNesting = 32
)

// checkLimits returns an error for a document past the limits above,
// naming the line.
func checkLimits(src []byte) error {
	if len(src) > maxSource {
		return fmt.Errorf("the document is %d bytes; at most %d are rendered", len(src), maxSource)
	}
	for i, line := range bytes.Split(src, []byte("\n")) {
		if len(line) > maxLine {
			return fmt.Errorf("line %d is %d bytes long; at most %d are rendered", i+1, len(line), maxLine)
		}
		if n := nesting(line); n > maxNesting {
			return fmt.Errorf("line %d opens %d nested quotes and list items; at most %d are rendered", i+1, n, maxNesting)
		}
	}
	return nil
}

// nesting counts the block quote markers (">") and list item markers
// ("-", "*", "+", "1." or "1)" followed by a space) that start a line,
// one after the other: how many containers the line opens or continues.
// It is a count for a limit, not a parser: a thematic break ("* * *")
// counts its stars too.
func nesting(line []byte) int {
	n, i := 0, 0
	blank := func(j int) bool { return j < len(line) && (line[j] == ' ' || line[j] == '\t') }
	for {
		for blank(i) {
			i++
		}
		switch {
		case i >= len(line):
			return n
		case line[i] == '>':
			n, i = n+1, i+1
		case (line[i] == '-' || line[i] == '*' || line[i] == '+') && blank(i+1):
			n, i = n+1, i+2
		case '0' <= line[i] && line[i] <= '9':
			j := i
			for j < len(line) && '0' <= line[j] && line[j] <= '9' {
				j++
			}
			if j >= len(line) || (line[j] != '.' && line[j] != ')') || !blank(j+1) {
				return n
			}
			n, i = n+1, j+2
		default:
			return n
		}
	}
}

// frameTargets returns the targets a frame may name, as the page's
// script knows them: one live server each.
func frameTargets() []string {
	return []string{"stdio", "http", "http-auth", "grpc", "mcp-stdio", "mcp-http", "mcp-auth", "oauth", "mcp-hostile", "a2a"}
}

// Rendered is one markdown document as HTML, with what the page around it
// needs to know.
type Rendered struct {
	Title  string    // the text of the first level-1 heading, if any
	TOC    []Heading // the level-2 headings, in order
	Frames []Frame   // the runnable frames, in order
	HTML   string    // the document without its title: the page shows that
	// Intro is what a ```lesson block says (see Intro), or nil. Render
	// leaves the block out of HTML; Load puts the box it makes at the top
	// of a lesson, once it knows the titles of the lessons it needs.
	Intro *Intro
	// Quiz is the questions of a ```quiz block, in order, with their
	// answers (see Question), or nil. The HTML shows them without the
	// answers.
	Quiz []Question
	// Sections are the document's text as plain words, cut at its level-2
	// and level-3 headings, for search: the first has no heading (the
	// text above the first one). Code, frames and replies are left out.
	Sections []Section
}

// Section is the plain text under one heading, up to the next.
type Section struct {
	ID, Heading string // "" for the text above the first heading
	Text        string
}

// Heading is a heading's id (its anchor) and text.
type Heading struct {
	ID, Text string
}

// Frame is a runnable frame: the server it goes to and the message(s).
type Frame struct {
	Target, Content string
}

// Render renders a document; l is the language of the few words it
// adds (a frame's Send button, a reply block's caption). A frame that
// names no target, an unknown target, or nothing to send is an error: a
// lesson must never show a Send button that cannot work. Every such
// problem is reported, each with its line. So is a document past the
// limits above, and a sequence diagram that does not parse.
func (m *Markdown) Render(src []byte, l Lang) (Rendered, error) {
	t := l.labels()
	if err := checkLimits(src); err != nil {
		return Rendered{}, err
	}
	ctx := parser.NewContext(parser.WithIDs(newHeadingIDs()))
	doc := m.gm.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))

	var out Rendered
	var errs []error
	var anchored []*ast.Heading
	var title *ast.Heading
	var figures, captions []figure // blocks to replace (frames, replies, diagrams), and to put a caption before
	out.Sections = []Section{{}}
	addText := func(s string) {
		cur := &out.Sections[len(out.Sections)-1]
		if cur.Text != "" {
			cur.Text += " "
		}
		cur.Text += strings.TrimSpace(s)
	}
	// Nodes are replaced and added only after the walk: changing a tree
	// while walking it would skip or revisit nodes.
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			id := headingID(n)
			if n.Level == 1 && title == nil {
				title, out.Title = n, plainText(n, src)
			}
			if n.Level == 2 {
				out.TOC = append(out.TOC, Heading{ID: id, Text: plainText(n, src)})
			}
			if (n.Level == 2 || n.Level == 3) && id != "" {
				anchored = append(anchored, n)
				out.Sections = append(out.Sections, Section{ID: id, Heading: plainText(n, src)})
			}
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph, *ast.TextBlock, *extast.TableCell:
			addText(plainText(n, src))
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock:
			switch {
			case string(n.Language(src)) == "lesson":
				in, err := parseIntro(blockText(n, src), m.inlineHTML)
				switch {
				case err != nil:
					errs = append(errs, fmt.Errorf("line %d: %w", fenceLine(n, src), err))
				case out.Intro != nil:
					errs = append(errs, fmt.Errorf("line %d: a second lesson block; a lesson has one, under its title", fenceLine(n, src)))
				default:
					out.Intro = in
				}
				figures = append(figures, figure{at: n, node: &htmlNode{}})
				return ast.WalkSkipChildren, nil
			case string(n.Language(src)) == "quiz":
				qs, err := parseQuiz(blockText(n, src), fenceLine(n, src)+1, m.inlineHTML)
				switch {
				case err != nil:
					errs = append(errs, err)
				case out.Quiz != nil:
					errs = append(errs, fmt.Errorf("line %d: a second quiz block; a lesson asks its questions in one", fenceLine(n, src)))
				default:
					out.Quiz = qs
					figures = append(figures, figure{at: n, node: &htmlNode{html: quizHTML(qs, t)}})
				}
				return ast.WalkSkipChildren, nil
			case string(n.Language(src)) == "reply":
				figures = append(figures, figure{at: n, node: replyFigure(n, src, t)})
				return ast.WalkSkipChildren, nil
			case string(n.Language(src)) == "sequence":
				svg, err := sequenceSVG(blockText(n, src))
				if err != nil {
					errs = append(errs, fmt.Errorf("line %d: sequence diagram: %w", fenceLine(n, src), err))
					return ast.WalkSkipChildren, nil
				}
				figures = append(figures, figure{at: n, node: &htmlNode{html: `<figure class="sequence-diagram">` + svg + "</figure>\n"}})
				return ast.WalkSkipChildren, nil
			case includePath(n, src) != "":
				captions = append(captions, figure{at: n, node: &htmlNode{html: fmt.Sprintf(`<p class="include-source">%s <code>%s</code></p>`,
					html.EscapeString(t.fromFile), html.EscapeString(includePath(n, src)))}})
				return ast.WalkSkipChildren, nil
			case string(n.Language(src)) != "frame":
				return ast.WalkSkipChildren, nil
			}
			f, err := newFrame(n, src, t)
			if err != nil {
				errs = append(errs, fmt.Errorf("line %d: %w", fenceLine(n, src), err))
				return ast.WalkSkipChildren, nil
			}
			figures = append(figures, figure{at: n, node: f})
			out.Frames = append(out.Frames, f.Frame)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return Rendered{}, fmt.Errorf("walking the document: %w", err)
	}
	if len(errs) > 0 {
		return Rendered{}, errors.Join(errs...)
	}
	for _, f := range figures {
		f.at.Parent().ReplaceChild(f.at.Parent(), f.at, f.node)
	}
	for _, c := range captions {
		c.at.Parent().InsertBefore(c.at.Parent(), c.at, c.node)
	}
	if title != nil {
		title.Parent().RemoveChild(title.Parent(), title)
	}
	for _, h := range anchored {
		h.AppendChild(h, &anchorNode{id: headingID(h), label: t.anchor})
	}

	var b bytes.Buffer
	if err := m.gm.Renderer().Render(&b, src, doc); err != nil {
		return Rendered{}, fmt.Errorf("rendering: %w", err)
	}
	out.HTML = b.String()
	return out, nil
}

// newFrame reads a fenced block whose info string starts with "frame".
func newFrame(n *ast.FencedCodeBlock, src []byte, t labels) (*frameNode, error) {
	words := strings.Fields(string(n.Info.Segment.Value(src)))
	known := strings.Join(frameTargets(), ", ")
	switch {
	case len(words) < 2:
		return nil, fmt.Errorf("frame names no target; write ```frame TARGET, one of %s", known)
	case len(words) > 2:
		return nil, fmt.Errorf("frame %s: unexpected %q after the target", words[1], strings.Join(words[2:], " "))
	case !slices.Contains(frameTargets(), words[1]):
		return nil, fmt.Errorf("frame: unknown target %q; known targets: %s", words[1], known)
	}
	c := strings.TrimRight(blockText(n, src), "\n")
	// A textarea drops one newline right after its start tag, so leading
	// blank lines would not survive the page; they carry nothing anyway.
	c = strings.TrimLeft(c, "\n")
	if strings.TrimSpace(c) == "" {
		return nil, fmt.Errorf("frame %s is empty: nothing to send", words[1])
	}
	return &frameNode{Frame: Frame{Target: words[1], Content: c}, send: t.send}, nil
}

// figure is a block of the lesson and the node that goes in its place,
// or before it.
type figure struct {
	at   ast.Node
	node ast.Node
}

// replyFigure shows a reply block, the answer a frame gets, under a
// caption that says so. What it shows is checked against the live
// servers by the tests (TestLessonFrames). A block written ```reply
// predict``` asks the reader to predict the answer first: it stays
// folded until the reader opens it or sends the frame above it
// (static/frames.js opens it then).
func replyFigure(n *ast.FencedCodeBlock, src []byte, t labels) *htmlNode {
	fig := fmt.Sprintf(`<figure class="reply"><figcaption>%s</figcaption><pre>%s</pre></figure>`,
		html.EscapeString(t.reply), escapeText(strings.TrimRight(blockText(n, src), "\n")))
	if !predicts(n, src) {
		return &htmlNode{html: fig + "\n"}
	}
	return &htmlNode{html: fmt.Sprintf(`<details class="reply-predict"><summary>%s</summary>%s</details>`+"\n", html.EscapeString(t.predict), fig)}
}

// predicts says whether a reply block's info string asks for a
// prediction: "reply predict".
func predicts(n *ast.FencedCodeBlock, src []byte) bool {
	if n.Info == nil {
		return false
	}
	words := strings.Fields(string(n.Info.Segment.Value(src)))
	return len(words) == 2 && words[1] == "predict"
}

// blockText is the text inside a fenced block.
func blockText(n *ast.FencedCodeBlock, src []byte) string {
	var b strings.Builder
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

// includePath is the file a code block is included from, as its info
// string names it ("go include=protocols/stdio/server.go:Serve"), or "".
// Package chapters' tests keep the block the same as the file.
func includePath(n *ast.FencedCodeBlock, src []byte) string {
	if n.Info == nil {
		return ""
	}
	for _, w := range strings.Fields(string(n.Info.Segment.Value(src))) {
		if v, ok := strings.CutPrefix(w, "include="); ok {
			return v
		}
	}
	return ""
}

// fenceLine returns the 1-based line of a fenced block's opening fence.
func fenceLine(n *ast.FencedCodeBlock, src []byte) int {
	return bytes.Count(src[:n.Info.Segment.Start], []byte("\n")) + 1
}

// headingID returns the id the parser gave a heading, or "".
func headingID(h *ast.Heading) string {
	v, ok := h.AttributeString("id")
	if !ok {
		return ""
	}
	b, _ := v.([]byte)
	return string(b)
}

// plainText returns the text inside a node without its markup: what a
// table of contents or a title shows.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Value(src))
			if c.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// headingIDs gives each heading an id made from its words, keeping
// letters of any script: goldmark's own drops everything that is not
// ASCII, which would leave a Russian lesson with "heading", "heading-1"...
type headingIDs struct {
	used map[string]bool
}

func newHeadingIDs() *headingIDs { return &headingIDs{used: map[string]bool{}} }

// Generate implements parser.IDs: lower-case letters and digits, one dash
// for each run of spaces, dashes and underscores, and a number after an
// id already taken.
func (ids *headingIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(string(value)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r) || r == '-' || r == '_':
			dash = true
		}
	}
	id := b.String()
	if id == "" {
		id = "section"
	}
	base := id
	for i := 1; ids.used[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	ids.used[id] = true
	return []byte(id)
}

// Put implements parser.IDs: an id written by hand is taken.
func (ids *headingIDs) Put(value []byte) { ids.used[string(value)] = true }

// The node kinds markdown adds to goldmark's. goldmark registers kinds in
// a table of its own, so they are made once, when the package loads.
var (
	kindFrame  = ast.NewNodeKind("Frame")
	kindAnchor = ast.NewNodeKind("HeadingAnchor")
	kindHTML   = ast.NewNodeKind("LessonHTML")
)

// htmlNode is a block that markdown made HTML of itself: a reply block,
// a diagram, a caption. Everything in html is escaped where it was made.
type htmlNode struct {
	ast.BaseBlock
	html string
}

func (n *htmlNode) Kind() ast.NodeKind { return kindHTML }

func (n *htmlNode) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

func renderHTML(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(node.(*htmlNode).html)
	}
	return ast.WalkSkipChildren, nil
}

// frameNode stands in the tree where a ```frame block was.
type frameNode struct {
	ast.BaseBlock
	Frame
	send string // the button's label, in the page's language
}

func (n *frameNode) Kind() ast.NodeKind { return kindFrame }

func (n *frameNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Target": n.Target}, nil)
}

// anchorNode is the "#" link at the end of a heading.
type anchorNode struct {
	ast.BaseInline
	id, label string
}

func (n *anchorNode) Kind() ast.NodeKind { return kindAnchor }

func (n *anchorNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"ID": n.id}, nil)
}

// lessonNodes renders the node kinds markdown adds.
type lessonNodes struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (lessonNodes) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindFrame, renderFrame)
	reg.Register(kindAnchor, renderAnchor)
	reg.Register(kindHTML, renderHTML)
}

// renderFrame writes a frame as the markup the page's script looks for:
// the target in data-target, the message in the textarea, and an empty
// output that screen readers announce when the answer arrives.
func renderFrame(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*frameNode)
	rows := strings.Count(n.Content, "\n") + 1
	// The target is one of frameTargets, so it needs no escaping.
	fmt.Fprintf(w, `<div class="frame" data-target="%s"><div class="frame-head"><span class="frame-target">%s</span>`+
		`<button type="button" class="frame-send">%s</button></div>`+
		`<textarea class="frame-input" spellcheck="false" rows="%d">%s</textarea>`+
		`<div class="frame-output" aria-live="polite"></div></div>`+"\n",
		n.Target, n.Target, html.EscapeString(n.send), rows, escapeText(n.Content))
	return ast.WalkSkipChildren, nil
}

// escapeText escapes text for an element's content. Quotes stay as they
// are: JSON is full of them, and only attribute values need them escaped.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func renderAnchor(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*anchorNode)
	fmt.Fprintf(w, ` <a class="anchor" href="#%s" aria-label="%s">#</a>`,
		html.EscapeString(n.id), html.EscapeString(n.label))
	return ast.WalkSkipChildren, nil
}
