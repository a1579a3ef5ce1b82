package course

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
	"strings"
)

// Intro is what a lesson says before its text: what the learner will be
// able to do, which lessons to take first, and about how long it takes.
// The lesson writes it as a fenced block right under its title:
//
//	```lesson
//	minutes: 25
//	needs: stdio, http
//	goals:
//	- Send a tool call over HTTP and read the status before the body.
//	- Tell 401 from 403 by what the server knows about the caller.
//	```
//
// minutes is a whole number; needs is a comma-separated list of slugs
// of earlier lessons, or nothing for a lesson that needs none; goals
// is a list of one-line items, each markdown inline text (code spans,
// emphasis). The lesson page shows it as a box at the top (introHTML);
// the course map shows the time and the goals.
type Intro struct {
	Minutes int
	Needs   []string // slugs of earlier lessons
	Goals   []string // each as HTML, escaped: inline markup only
}

// Limits of an intro. A lesson that takes longer than two hours is two
// lessons; more than six goals is no longer a promise a reader holds.
const (
	maxMinutes = 120
	maxGoals   = 6
)

// parseIntro reads the text of a ```lesson block. Each goal is rendered
// by render, which turns one line of markdown into inline HTML.
func parseIntro(text string, render func(string) (string, error)) (*Intro, error) {
	in := &Intro{}
	seen := map[string]bool{}
	inGoals := false
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		where := fmt.Sprintf("line %d of the lesson block", i+1)
		if strings.TrimSpace(line) == "" {
			continue
		}
		if item, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			if !inGoals {
				return nil, fmt.Errorf("%s: a list item outside goals:", where)
			}
			g, err := render(strings.TrimSpace(item))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			in.Goals = append(in.Goals, g)
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s: %q is neither \"key: value\" nor a goal \"- ...\"", where, line)
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if seen[key] {
			return nil, fmt.Errorf("%s: %s: given twice", where, key)
		}
		seen[key] = true
		inGoals = false
		switch key {
		case "minutes":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > maxMinutes {
				return nil, fmt.Errorf("%s: minutes: %q is not a whole number from 1 to %d", where, value, maxMinutes)
			}
			in.Minutes = n
		case "needs":
			for _, s := range strings.Split(value, ",") {
				if s = strings.TrimSpace(s); s != "" {
					in.Needs = append(in.Needs, s)
				}
			}
		case "goals":
			if value != "" {
				return nil, fmt.Errorf("%s: goals: the goals go on the lines below, each \"- ...\"", where)
			}
			inGoals = true
		default:
			return nil, fmt.Errorf("%s: unknown key %q; a lesson block has minutes:, needs: and goals:", where, key)
		}
	}
	switch {
	case in.Minutes == 0:
		return nil, fmt.Errorf("the lesson block has no minutes:")
	case len(in.Goals) == 0:
		return nil, fmt.Errorf("the lesson block has no goals: (write them below it, each \"- ...\")")
	case len(in.Goals) > maxGoals:
		return nil, fmt.Errorf("the lesson block has %d goals; at most %d", len(in.Goals), maxGoals)
	}
	return in, nil
}

// inlineHTML renders one line of markdown as inline HTML: the paragraph
// goldmark makes of it, without the <p>.
func (m *Markdown) inlineHTML(line string) (string, error) {
	var b bytes.Buffer
	if err := m.gm.Convert([]byte(line), &b); err != nil {
		return "", err
	}
	s := strings.TrimSpace(b.String())
	inner, ok := strings.CutPrefix(s, "<p>")
	if inner, ok2 := strings.CutSuffix(inner, "</p>"); ok && ok2 && !strings.Contains(inner, "<p>") {
		return inner, nil
	}
	return "", fmt.Errorf("%q is not one line of inline text", line)
}

// introHTML is the box a lesson opens with. title names each lesson the
// intro needs; every one of them is known, since Load checks needs
// before it asks.
func introHTML(in *Intro, t labels, title func(slug string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<aside class="lesson-intro" aria-label="%s">`, html.EscapeString(t.introLabel))
	fmt.Fprintf(&b, `<p class="lesson-intro-time">%s</p>`, html.EscapeString(fmt.Sprintf(t.minutes, in.Minutes)))
	fmt.Fprintf(&b, `<p class="lesson-intro-title">%s</p><ul class="lesson-goals">`, html.EscapeString(t.goals))
	for _, g := range in.Goals {
		b.WriteString("<li>" + g + "</li>")
	}
	b.WriteString("</ul>")
	if len(in.Needs) == 0 {
		fmt.Fprintf(&b, `<p class="lesson-needs">%s</p>`, html.EscapeString(t.needsNothing))
	} else {
		fmt.Fprintf(&b, `<p class="lesson-needs">%s `, html.EscapeString(t.needs))
		for i, s := range in.Needs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `<a href="/learn/%s">%s</a>`, html.EscapeString(s), html.EscapeString(title(s)))
		}
		b.WriteString("</p>")
	}
	b.WriteString("</aside>\n")
	return b.String()
}
