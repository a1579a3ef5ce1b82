package course

import (
	"cmp"
	"encoding/xml"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// A sequence diagram in lesson text is a few lines, one statement each:
//
//	Agent -> Tool server: {"id":1,"name":"word_count"}
//	Tool server --> Agent: {"id":1,"result":{"words":3}}
//	note Tool server: logs go to stderr
//
// "A -> B: label" is a message (a solid line with a filled head), and
// "A --> B: label" an answer (a dashed line with an open head); A and B
// may be the same participant, and the arrow then loops back to its own
// lifeline. "note A: text" puts a box on A's lifeline. Participants take
// their places left to right in the order they are first named; a name
// may hold spaces and letters of any script, but no colon, since the
// first colon ends it. Blank lines are ignored.
//
// The drawing is plain SVG: the geometry is here, in whole pixels so
// that the same text always gives the same bytes, and the paint is in
// static/lesson.css, in classes (seq-box, seq-name, seq-life, seq-msg,
// seq-answer, seq-label, seq-note) and currentColor, so one diagram
// serves the light theme and the dark.

// The limits keep a lesson diagram small enough to read at a glance: a
// bigger exchange belongs in a transcript, or in two diagrams.
const (
	maxSeqParticipants = 6
	maxSeqStatements   = 40
)

// The measures of the picture, in pixels (SVG user units).
const (
	seqFontSize = 13 // every text
	// seqCharWidth is the advance of one character. Monospace fonts give
	// 0.55em to 0.6em (7.2 to 7.8 pixels at 13); rounding up keeps text
	// inside its box whichever font the reader's machine has.
	seqCharWidth = 8

	seqMargin    = 8   // around the whole picture
	seqBoxHeight = 32  // a participant's box
	seqBoxPad    = 12  // between a name and the sides of its box
	seqNotePad   = 8   // between a note's text and the sides of its box
	seqMinGap    = 120 // between two lifelines, however short the labels
	seqGapPad    = 16  // between a label and the lifelines it spans
	seqNameMax   = 24 * seqCharWidth
	seqLabelMax  = 40 * seqCharWidth // a message's label or a note's text

	seqRow     = 40 // a message, an answer or a note
	seqSelfRow = 56 // a self message: its label, then the loop below it
	seqHead    = 9  // an arrowhead's length; its half-width is 4
	seqLoop    = 32 // how far a self message's loop reaches right
	seqLoopGap = 8  // between a self message's lifeline and its label
)

// seqKind says what a statement draws.
type seqKind int

const (
	seqMessage seqKind = iota // "A -> B: label"
	seqAnswer                 // "A --> B: label"
	seqNote                   // "note A: text"
)

// seqStatement is one statement, its participants as indexes into
// sequence.names. A note's participant is from (and to).
type seqStatement struct {
	kind     seqKind
	from, to int
	text     string
}

// sequence is a diagram read from its text: the participants left to
// right, and the statements top to bottom.
type sequence struct {
	names      []string
	statements []seqStatement
}

// diagramError is a mistake in a diagram's text. line counts from 1
// within the diagram, blank lines included, so that a renderer that
// finds the diagram inside a longer file can add the line it starts on.
type diagramError struct {
	line    int
	text    string // the line as written, without surrounding spaces
	problem string // what is wrong, and how the line should look
}

func (e *diagramError) Error() string {
	return fmt.Sprintf("line %d: %q: %s", e.line, e.text, e.problem)
}

// sequenceSVG renders a sequence diagram written as text into inline SVG markup.
func sequenceSVG(src string) (string, error) {
	seq, err := parseSequence(src)
	if err != nil {
		return "", err
	}
	return drawSequence(seq), nil
}

// parseSequence reads a diagram's text. It stops at the first mistake:
// one clear message is worth more to an author than a cascade.
func parseSequence(src string) (sequence, error) {
	var seq sequence
	index := map[string]int{} // a participant's name -> its place in seq.names
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line) // "\r" too, for text saved on Windows
		if line == "" {
			continue
		}
		fail := func(problem string) error {
			return &diagramError{line: i + 1, text: line, problem: problem}
		}
		if len(seq.statements) == maxSeqStatements {
			return sequence{}, fail(fmt.Sprintf("a lesson diagram has at most %d statements; split it in two", maxSeqStatements))
		}
		kind, names, text, problem := parseSeqLine(line)
		if problem != "" {
			return sequence{}, fail(problem)
		}
		st := seqStatement{kind: kind, text: text}
		for j, name := range names {
			k, ok := index[name]
			if !ok {
				if len(seq.names) == maxSeqParticipants {
					return sequence{}, fail(fmt.Sprintf("%q would be participant %d; a lesson diagram has at most %d",
						name, maxSeqParticipants+1, maxSeqParticipants))
				}
				k = len(seq.names)
				index[name] = k
				seq.names = append(seq.names, name)
			}
			if j == 0 {
				st.from = k
			}
			st.to = k
		}
		seq.statements = append(seq.statements, st)
	}
	if len(seq.statements) == 0 {
		return sequence{}, errors.New(`the diagram is empty: write one statement a line, such as "A -> B: label"`)
	}
	return seq, nil
}

// parseSeqLine reads one statement: what it is, the participants it
// names (sender first) and its text; or, in problem, what is wrong.
func parseSeqLine(line string) (kind seqKind, names []string, text, problem string) {
	// The first colon ends the head; the label after it may hold any
	// number of colons, as JSON does.
	head, rest, colon := strings.Cut(line, ":")
	text = squeezeSpaces(rest)
	arrow := strings.Index(head, "->")
	if arrow < 0 {
		words := strings.Fields(head)
		if len(words) == 0 || words[0] != "note" {
			return 0, nil, "", `not a message or a note: write "A -> B: label", "A --> B: label" or "note A: text"`
		}
		name := strings.Join(words[1:], " ")
		switch {
		case name == "":
			return 0, nil, "", `a note names its participant: "note A: text"`
		case !colon:
			return 0, nil, "", `a note needs a colon before its text: "note A: text"`
		case text == "":
			return 0, nil, "", `a note needs text after the colon: "note A: text"`
		}
		return seqNote, []string{name}, text, ""
	}

	from, to := head[:arrow], head[arrow+2:]
	kind = seqMessage
	if strings.HasSuffix(from, "-") {
		kind, from = seqAnswer, from[:len(from)-1]
	}
	from, to = squeezeSpaces(from), squeezeSpaces(to)
	switch {
	case from == "":
		problem = `a message names its sender: "A -> B: label"`
	case to == "":
		problem = `a message names its receiver: "A -> B: label"`
	// "--->" and mermaid's "->>" leave a stray "-" or ">" by a name.
	case strings.HasSuffix(from, "-") || strings.HasPrefix(to, ">"):
		problem = `an arrow is "->" (a message) or "-->" (an answer)`
	case strings.Contains(to, "->"):
		problem = `a message has one arrow, from its sender to its receiver: "A -> B: label"`
	case !colon:
		problem = `a message needs a colon before its label: "A -> B: label"`
	case text == "":
		problem = `a message needs a label after the colon: "A -> B: label"`
	}
	if problem != "" {
		return 0, nil, "", problem
	}
	return kind, []string{from, to}, text, ""
}

// squeezeSpaces trims s and makes each run of spaces inside it one
// space, as SVG shows it anyway; "Tool  server" is then "Tool server".
func squeezeSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// drawSequence draws a parsed diagram: the participants' boxes at the
// top and again at the bottom, a dashed lifeline down from each, and one
// row per statement.
func drawSequence(seq sequence) string {
	xs, w := seqColumns(seq)
	h := seqMargin + seqBoxHeight // the top of the first row
	for _, st := range seq.statements {
		h += seqRowHeight(st)
	}
	bottom := h + seqMargin // the top of the lower boxes
	h = bottom + seqBoxHeight + seqMargin

	var b strings.Builder
	// The geometry is in pixels (the viewBox); the size is in rem, 16 px
	// to the rem, so that the picture grows with the text in large-text
	// mode, as the page's text does.
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="sequence" role="img" viewBox="0 0 %d %d" width="%grem" height="%grem" font-family="monospace" font-size="%d">`+"\n",
		w, h, float64(w)/16, float64(h)/16, seqFontSize)
	// A picture is a single image to a screen reader: the title names
	// the participants, and the description is the diagram's text in
	// full, labels that the picture clips included.
	b.WriteString("<title>")
	seqEscape(&b, strings.Join(seq.names, ", "))
	b.WriteString("</title>\n<desc>")
	for i, st := range seq.statements {
		if i > 0 {
			b.WriteString("\n")
		}
		seqEscape(&b, seqStatementText(seq, st))
	}
	b.WriteString("</desc>\n")

	for i, x := range xs {
		fmt.Fprintf(&b, `<line class="seq-life" x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n",
			x, seqMargin+seqBoxHeight, x, bottom)
		seqBox(&b, seq.names[i], x, seqMargin)
	}
	y := seqMargin + seqBoxHeight
	for _, st := range seq.statements {
		switch {
		case st.kind == seqNote:
			seqDrawNote(&b, st.text, xs[st.from], y)
		case st.from == st.to:
			seqDrawSelf(&b, st, xs[st.from], y)
		default:
			seqDrawArrow(&b, st, xs[st.from], xs[st.to], y)
		}
		y += seqRowHeight(st)
	}
	for i, x := range xs {
		seqBox(&b, seq.names[i], x, bottom)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// seqRowHeight is the height of a statement's row.
func seqRowHeight(st seqStatement) int {
	if st.kind != seqNote && st.from == st.to {
		return seqSelfRow
	}
	return seqRow
}

// seqStatementText writes a statement back as text, in the diagram's own
// syntax.
func seqStatementText(seq sequence, st seqStatement) string {
	switch st.kind {
	case seqNote:
		return "note " + seq.names[st.from] + ": " + st.text
	case seqAnswer:
		return seq.names[st.from] + " --> " + seq.names[st.to] + ": " + st.text
	}
	return seq.names[st.from] + " -> " + seq.names[st.to] + ": " + st.text
}

// seqSpan asks for the lifelines lo and hi (lo < hi) to be at least need
// pixels apart.
type seqSpan struct {
	lo, hi, need int
}

// seqColumns places the lifelines: each as far from its neighbours as
// the boxes, notes and labels between them need. It returns their x and
// the width of the whole picture.
func seqColumns(seq sequence) (xs []int, w int) {
	n := len(seq.names)
	// half is how far a lifeline's own drawings, its box and its notes,
	// reach to each side of it.
	half := make([]int, n)
	for i, name := range seq.names {
		half[i] = seqBoxWidth(name) / 2
	}
	right := 0 // how far self messages on the last lifeline reach right
	var spans []seqSpan
	for _, st := range seq.statements {
		_, tw := seqFit(st.text, seqLabelMax)
		switch {
		case st.kind == seqNote:
			half[st.from] = max(half[st.from], (tw+2*seqNotePad)/2)
		case st.from == st.to:
			reach := max(seqLoop, seqLoopGap+tw)
			if st.from == n-1 {
				right = max(right, reach)
			} else {
				spans = append(spans, seqSpan{st.from, st.from + 1, reach + seqGapPad})
			}
		default:
			spans = append(spans, seqSpan{min(st.from, st.to), max(st.from, st.to), tw + 2*seqGapPad})
		}
	}
	gaps := make([]int, max(n-1, 0))
	for i := range gaps {
		gaps[i] = seqMinGap
		spans = append(spans, seqSpan{i, i + 1, half[i] + half[i+1] + seqGapPad})
	}
	// Neighbours first: a label that spans several gaps may then find
	// room already made, and only what it still lacks is shared out
	// among its gaps, a pixel more to the leftmost ones for a remainder.
	slices.SortStableFunc(spans, func(a, b seqSpan) int { return cmp.Compare(a.hi-a.lo, b.hi-b.lo) })
	for _, s := range spans {
		short := s.need
		for _, g := range gaps[s.lo:s.hi] {
			short -= g
		}
		if short <= 0 {
			continue
		}
		k := s.hi - s.lo
		for i := s.lo; i < s.hi; i++ {
			gaps[i] += short / k
			if i-s.lo < short%k {
				gaps[i]++
			}
		}
	}
	xs = make([]int, n)
	xs[0] = seqMargin + half[0]
	for i, g := range gaps {
		xs[i+1] = xs[i] + g
	}
	return xs, xs[n-1] + max(half[n-1], right) + seqMargin
}

// seqBoxWidth is the width of a participant's box: always even, so its
// lifeline runs down its middle on a whole pixel.
func seqBoxWidth(name string) int {
	_, tw := seqFit(name, seqNameMax)
	return tw + 2*seqBoxPad
}

// seqBox draws a participant's box with its top at y, centred on x.
func seqBox(b *strings.Builder, name string, x, y int) {
	bw := seqBoxWidth(name)
	fmt.Fprintf(b, `<rect class="seq-box" x="%d" y="%d" width="%d" height="%d" rx="4"/>`+"\n", x-bw/2, y, bw, seqBoxHeight)
	seqText(b, "seq-name", x, y+21, "middle", name, seqNameMax)
}

// seqDrawArrow draws a message or an answer between two lifelines in the
// row whose top is y: its label above a line with a head at the receiver.
func seqDrawArrow(b *strings.Builder, st seqStatement, from, to, y int) {
	class, end := seqStyle(st.kind)
	line := y + 28
	dir := 1 // the way the arrow points: right
	if to < from {
		dir = -1
	}
	fmt.Fprintf(b, `<g class="%s">`+"\n", class)
	seqText(b, "seq-label", (from+to)/2, line-8, "middle", st.text, seqLabelMax)
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", from, line, to, line)
	fmt.Fprintf(b, `<path d="M%d %dL%d %dL%d %d%s"/>`+"\n", to-dir*seqHead, line-4, to, line, to-dir*seqHead, line+4, end)
	b.WriteString("</g>\n")
}

// seqDrawSelf draws a message from a participant to itself in the row
// whose top is y: its label, and below it a loop out to the right and
// back, the head pointing at the lifeline.
func seqDrawSelf(b *strings.Builder, st seqStatement, x, y int) {
	class, end := seqStyle(st.kind)
	top, low := y+28, y+44
	fmt.Fprintf(b, `<g class="%s">`+"\n", class)
	seqText(b, "seq-label", x+seqLoopGap, top-8, "start", st.text, seqLabelMax)
	fmt.Fprintf(b, `<polyline points="%d,%d %d,%d %d,%d %d,%d"/>`+"\n", x, top, x+seqLoop, top, x+seqLoop, low, x, low)
	fmt.Fprintf(b, `<path d="M%d %dL%d %dL%d %d%s"/>`+"\n", x+seqHead, low-4, x, low, x+seqHead, low+4, end)
	b.WriteString("</g>\n")
}

// seqStyle returns a statement's class, and what closes its arrowhead's
// path: "z" makes the closed head a message fills, "" leaves an answer's
// head open.
func seqStyle(k seqKind) (class, end string) {
	if k == seqAnswer {
		return "seq-answer", ""
	}
	return "seq-msg", "z"
}

// seqDrawNote draws a note centred on the lifeline at x, in the row whose
// top is y. It is drawn after the lifeline, so it covers it.
func seqDrawNote(b *strings.Builder, text string, x, y int) {
	_, tw := seqFit(text, seqLabelMax)
	nw := tw + 2*seqNotePad
	b.WriteString(`<g class="seq-note">` + "\n")
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="24" rx="2"/>`+"\n", x-nw/2, y+8, nw)
	seqText(b, "seq-label", x, y+25, "middle", text, seqLabelMax)
	b.WriteString("</g>\n")
}

// seqText writes a text element at (x, y), the baseline, clipped to
// limit pixels. A clipped text keeps its whole self in a title, which
// browsers show on hover.
func seqText(b *strings.Builder, class string, x, y int, anchor, s string, limit int) {
	shown, _ := seqFit(s, limit)
	fmt.Fprintf(b, `<text class="%s" x="%d" y="%d" text-anchor="%s">`, class, x, y, anchor)
	if shown != s {
		b.WriteString("<title>")
		seqEscape(b, s)
		b.WriteString("</title>")
	}
	seqEscape(b, shown)
	b.WriteString("</text>\n")
}

// seqFit returns s, or as much of it as fits in limit pixels followed by
// an ellipsis, and how wide that is. It cuts between characters, never
// inside one.
func seqFit(s string, limit int) (string, int) {
	if w := seqTextWidth(s); w <= limit {
		return s, w
	}
	room := limit - seqCharWidth // for the "…"
	w := 0
	for i, r := range s {
		rw := seqRuneWidth(r)
		if w+rw > room {
			kept := strings.TrimRight(s[:i], " ")
			return kept + "…", seqTextWidth(kept) + seqCharWidth
		}
		w += rw
	}
	return s, w // not reached: s is wider than limit
}

// seqTextWidth returns roughly how wide s is drawn, in pixels.
func seqTextWidth(s string) int {
	w := 0
	for _, r := range s {
		w += seqRuneWidth(r)
	}
	return w
}

// seqRuneWidth returns how wide a character is drawn in a monospace
// font: one cell for most, two for the wide characters of Chinese,
// Japanese and Korean, none for a mark that sits on the character before
// it (an accent written as its own code point) or an invisible format
// character.
func seqRuneWidth(r rune) int {
	if unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) {
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2 * seqCharWidth
	}
	return seqCharWidth
}

// seqEscape writes s as the content of an element: "<" and "&" escaped,
// and anything XML cannot hold (a control character, invalid UTF-8)
// replaced with U+FFFD.
func seqEscape(b *strings.Builder, s string) {
	_ = xml.EscapeText(b, []byte(s)) // a strings.Builder never fails
}
