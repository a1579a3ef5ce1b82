package grade

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Failure is a stage's verdict against the learner's program: what went
// wrong, shown with the bytes that prove it. Stages return a *Failure as
// their error; any other error is a bug in the grader.
type Failure struct {
	// Summary says in one sentence what went wrong. SummaryRU says it
	// in Russian, with the same arguments (see the package comment).
	Summary   string `json:"summary"`
	SummaryRU string `json:"summary_ru,omitempty"`
	// Sent is what the grader sent to the program just before.
	Sent string `json:"sent,omitempty"`
	// Expected and Got are the answer wanted and the one received. When
	// both are set, Offset is the first byte of Got that differs.
	Expected string `json:"expected,omitempty"`
	Got      string `json:"got,omitempty"`
	Offset   *int   `json:"offset,omitempty"`
	// Hint names the classic mistake that usually causes this failure.
	// HintRU is the same hint in Russian, filled in from the catalogue
	// when the stage ends.
	Hint   string `json:"hint,omitempty"`
	HintRU string `json:"hint_ru,omitempty"`
	// Stderr is the last lines the program wrote on stderr, when they
	// may explain the failure (it exited, or stopped answering).
	Stderr string `json:"stderr,omitempty"`
	// Output is a command's output, such as the compiler's.
	Output string `json:"output,omitempty"`
}

func (f *Failure) Error() string { return f.Summary }

// orNil returns f as an error, or a nil error for a nil f (a nil
// *Failure inside a non-nil error would look like a failure).
func (f *Failure) orNil() error {
	if f == nil {
		return nil
	}
	return f
}

// Failf returns a failure whose summary is formatted like fmt.Sprintf,
// in English and, from the Russian catalogue, in Russian.
func Failf(format string, args ...any) *Failure {
	return &Failure{Summary: fmt.Sprintf(format, args...), SummaryRU: russianf(format, args...)}
}

// restatef replaces a failure's summary, in both languages.
func (f *Failure) restatef(format string, args ...any) {
	f.Summary, f.SummaryRU = fmt.Sprintf(format, args...), russianf(format, args...)
}

// addf adds to the end of a failure's summary, in both languages.
func (f *Failure) addf(format string, args ...any) {
	f.Summary += fmt.Sprintf(format, args...)
	f.SummaryRU += russianf(format, args...)
}

// WithHint sets the hint of a *Failure that has none yet, and returns
// err. Other errors are returned unchanged.
func WithHint(err error, hint string) error {
	var f *Failure
	if errors.As(err, &f) && f.Hint == "" {
		f.Hint = hint
	}
	return err
}

// About puts what the stage was doing in front of a *Failure's summary
// ("a call with id 7: no answer within 10s"), and records sent if the
// failure has nothing sent yet. Other errors are returned unchanged.
func About(err error, what, sent string) error {
	if what == "" {
		return aboutf(err, sent, "")
	}
	return aboutf(err, sent, "%s", what)
}

// aboutf is About with what formatted like fmt.Sprintf, for a
// description made of parts ("the request after %s").
func aboutf(err error, sent, format string, args ...any) error {
	var f *Failure
	if errors.As(err, &f) {
		if format != "" {
			f.Summary = fmt.Sprintf(format, args...) + ": " + f.Summary
			f.SummaryRU = russianf(format, args...) + ": " + f.SummaryRU
		}
		if f.Sent == "" {
			f.Sent = shorten(sent)
		}
	}
	return err
}

// Limits on what a report shows, so that a program that floods its
// output cannot flood the learner's terminal.
const (
	// shownAround is how much of a long line is shown on each side of the
	// first difference: enough to recognize the message, short enough
	// that the caret lines up on an 80-column terminal.
	shownBefore, shownAfter = 40, 60
	// shownWhole is the longest line shown whole.
	shownWhole = 100
	// shownMax is the longest Sent or Got kept without a difference to
	// point at.
	shownMax = 300
)

// setDiff records expected and got with the first difference at off,
// cutting both to a window around it when they are long. The bytes
// before off are the same in both, so one window fits both.
func (f *Failure) setDiff(expected, got []byte, off int) {
	if len(expected) <= shownWhole && len(got) <= shownWhole {
		f.Expected, f.Got, f.Offset = string(expected), string(got), &off
		return
	}
	start := max(0, off-shownBefore)
	for start > 0 && start < len(got) && !utf8.RuneStart(got[start]) {
		start--
	}
	cut := func(b []byte) string {
		end := min(len(b), off+shownAfter)
		for end < len(b) && !utf8.RuneStart(b[end]) {
			end++
		}
		s := string(b[min(start, len(b)):end])
		if start > 0 {
			s = "…" + s
		}
		if end < len(b) {
			s += fmt.Sprintf("… (%d bytes in all)", len(b))
		}
		return s
	}
	f.Expected, f.Got = cut(expected), cut(got)
	o := off - start
	if start > 0 {
		o += len("…")
	}
	f.Offset = &o
}

// shorten cuts s to shownMax bytes, saying how long it was.
func shorten(s string) string {
	if len(s) <= shownMax {
		return s
	}
	end := shownMax
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return fmt.Sprintf("%s… (%d bytes in all)", s[:end], len(s))
}

// visible makes s printable on one line: tabs, carriage returns, other
// control bytes and bytes that are not UTF-8 are escaped. It also returns
// the column at which the byte at off is shown (-1 keeps none).
func visible(s string, off int) (string, int) {
	var b strings.Builder
	col := -1
	for i := 0; i < len(s); {
		if i == off {
			col = utf8.RuneCountInString(b.String())
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	if off >= len(s) && off >= 0 {
		col = utf8.RuneCountInString(b.String())
	}
	return b.String(), col
}

// wrap breaks text into lines of at most width columns, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			switch {
			case line == "":
				line = w
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width:
				lines = append(lines, line)
				line = w
			default:
				line += " " + w
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// lastLines returns at most n lines from the end of s.
func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[%d earlier lines not shown]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
