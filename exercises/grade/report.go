package grade

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The text report, plain text without colour codes, so that it reads
// the same in a terminal, a log file and a golden test:
//
//	stdio-server
//	  ok    1. builds
//	  FAIL  2. answers one call
//	        a word_count call without an id: the answer is not the one expected
//	        Sent:     {"name":"word_count","args":{"text":"read the wire"}}
//	        Expected: {"result":{"words":3,"chars":13}}
//	        Got:      {"ID":null,"Result":{"Words":3,"Chars":13},"Error":null}
//	                    ^ first difference
//	        Hint: The keys are capitalized: ...
//	  skip  3. echoes ids exactly
//	...
//	Not yet: stage 2 of 7, "answers one call", failed.
//
// (testdata/stdio-server/no-json-tags.golden has it whole, and
// no-json-tags.ru.golden the same report in Russian.)

// hintWidth is where summaries and hints wrap.
const hintWidth = 72

// WriteText writes the report as text in lang.
func (r *Report) WriteText(w io.Writer, lang Lang) error {
	var b strings.Builder
	b.WriteString(HeaderText(r.Exercise))
	tw := &Text{W: &b, Total: len(r.Stages), Lang: lang}
	for i, s := range r.Stages {
		tw.Stage(i, s)
	}
	b.WriteString(SummaryText(lang, r))
	_, err := io.WriteString(w, b.String())
	return err
}

// Text writes a text report stage by stage, as a grade runs: call Stage
// from Options.OnStage, and print SummaryText at the end. A failure that
// repeats an earlier one (with AllStages, every stage after a broken
// handshake fails the same way) is shown once.
type Text struct {
	W     io.Writer
	Total int  // the number of stages, "builds" included
	Lang  Lang // the language of the text; "" is English

	shown map[Failure]int // each failure shown in full, and its stage
}

// Stage writes one stage's result; a stage still running writes nothing.
func (t *Text) Stage(index int, s StageResult) {
	if s.Status == Running {
		return
	}
	if s.Failure == nil {
		io.WriteString(t.W, StageText(t.Lang, index, t.Total, s))
		return
	}
	key := Failure{Summary: s.Failure.Summary, Sent: s.Failure.Sent, Expected: s.Failure.Expected, Got: s.Failure.Got}
	if first, ok := t.shown[key]; ok {
		short := s
		short.Failure = nil
		io.WriteString(t.W, StageText(t.Lang, index, t.Total, short))
		_, indent := statusLabels(t.Lang)
		fmt.Fprintf(t.W, "%s"+text(t.Lang, "the same failure as stage %d")+"\n", indent, first+1)
		return
	}
	if t.shown == nil {
		t.shown = map[Failure]int{}
	}
	t.shown[key] = index
	io.WriteString(t.W, StageText(t.Lang, index, t.Total, s))
}

// HeaderText is the first line of a text report.
func HeaderText(exercise string) string {
	return exercise + "\n"
}

// StageText is one stage of a text report in lang, the index-th (from
// 0) of total: its line, and for a failure everything the failure
// shows. Text calls it, and drops repeated failures.
func StageText(lang Lang, index, total int, s StageResult) string {
	labels, indent := statusLabels(lang)
	var b strings.Builder
	fmt.Fprintf(&b, "  %-*s %*d. %s\n", len(indent)-3, labels[s.Status], len(strconv.Itoa(total)), index+1, StageName(lang, s.Name))
	if s.Failure != nil {
		writeFailure(&b, lang, indent, s.Failure)
	}
	return b.String()
}

// statusLabels are the labels of the statuses in lang, and the indent
// of what a stage shows under its line: the stages' names line up after
// the longest label, and a failure under their numbers.
func statusLabels(lang Lang) (map[Status]string, string) {
	labels := map[Status]string{
		Passed: text(lang, "ok"), Failed: text(lang, "FAIL"), Skipped: text(lang, "skip"),
		Errored: text(lang, "ERROR"), Canceled: text(lang, "stop"), Running: "...",
	}
	width := 0
	for _, l := range labels {
		width = max(width, utf8.RuneCountInString(l))
	}
	return labels, strings.Repeat(" ", 2+width+1)
}

func writeFailure(b *strings.Builder, lang Lang, indent string, f *Failure) {
	for _, l := range wrap(f.summaryIn(lang), hintWidth) {
		b.WriteString(indent + l + "\n")
	}
	// The labels of the lines that show bytes are padded to one width,
	// so that Expected and Got line up and the caret falls under Got.
	sent, expected, got := text(lang, "Sent:"), text(lang, "Expected:"), text(lang, "Got:")
	width := 1 + max(utf8.RuneCountInString(sent), utf8.RuneCountInString(expected), utf8.RuneCountInString(got))
	pad := func(label string) string {
		return label + strings.Repeat(" ", width-utf8.RuneCountInString(label))
	}
	if f.Sent != "" {
		s, _ := visible(f.Sent, -1)
		b.WriteString(indent + pad(sent) + s + "\n")
	}
	off := -1
	if f.Offset != nil && f.Expected != "" {
		off = *f.Offset
	}
	if f.Expected != "" {
		s, _ := visible(f.Expected, -1)
		b.WriteString(indent + pad(expected) + s + "\n")
	}
	if f.Got != "" || f.Offset != nil {
		s, col := visible(f.Got, off)
		b.WriteString(indent + pad(got) + s + "\n")
		if off >= 0 && col >= 0 {
			b.WriteString(indent + strings.Repeat(" ", width+col) + text(lang, "^ first difference") + "\n")
		}
	}
	if h := f.hintIn(lang); h != "" {
		label := text(lang, "Hint:") + " "
		under := strings.Repeat(" ", utf8.RuneCountInString(label))
		for i, l := range wrap(h, hintWidth-len(under)) {
			if i == 0 {
				b.WriteString(indent + label + l + "\n")
			} else {
				b.WriteString(indent + under + l + "\n")
			}
		}
	}
	block := func(title, text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		b.WriteString(indent + title + "\n")
		for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			s, _ := visible(l, -1)
			b.WriteString(indent + "  | " + s + "\n")
		}
	}
	block(text(lang, "Output:"), f.Output)
	block(text(lang, "The program's stderr (last lines):"), f.Stderr)
}

// SummaryText is the last line of a text report in lang.
func SummaryText(lang Lang, r *Report) string {
	total := len(r.Stages)
	if r.Passed {
		return fmt.Sprintf(text(lang, "Passed: all %d stages.")+"\n", total)
	}
	for i, s := range r.Stages {
		switch s.Status {
		case Errored:
			return fmt.Sprintf(text(lang, "The grader failed at stage %d of %d, %q: this is a bug in wirelab, not in your program.")+"\n", i+1, total, StageName(lang, s.Name))
		case Canceled, Running:
			return text(lang, "Interrupted.") + "\n"
		}
	}
	skipped := 0
	for _, s := range r.Stages {
		if s.Status == Skipped {
			skipped++
		}
	}
	if skipped > 0 {
		for i, s := range r.Stages {
			if s.Status == Failed {
				return fmt.Sprintf(text(lang, "Not yet: stage %d of %d, %q, failed.")+"\n", i+1, total, StageName(lang, s.Name))
			}
		}
	}
	return fmt.Sprintf(text(lang, "Score: %d of %d stages passed.")+"\n", r.Score, total)
}
