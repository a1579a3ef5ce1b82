package course

import (
	"fmt"
	"html"
	"strings"
)

// Question is one question of a lesson's quiz: what the lesson asks, the
// choices, which one is right, and the line that explains the answer. A
// lesson writes its questions in a fenced block, one line each:
//
//	```quiz
//	? A client sends `tools/list` before `initialize`. What comes back?
//	- An empty list of tools.
//	+ A JSON-RPC error: the session is not initialized yet.
//	- Nothing at all.
//	= Before the handshake a server answers `initialize` and `ping` only.
//
//	? The next question...
//	```
//
// "?" starts a question, "-" is a wrong choice, "+" the right one (one
// per question), "=" the explanation; blank lines between questions are
// for the eye. Each is one line of inline markdown. A question is known
// by its number in the lesson, from 1, and a choice by its number in the
// question, from 1: the learner's progress keeps those numbers, and
// every language asks the same questions with the same right choices
// (Load checks).
//
// The page shows the questions as small forms (quizHTML) without the
// answers: which choice is right and why is said only by the server,
// once the learner has answered, so neither can be read off the page
// first.
type Question struct {
	Text    string   // the question, as inline HTML
	Choices []string // the choices in order, each as inline HTML
	Right   int      // the right choice, from 1
	Explain string   // why, as inline HTML: shown once answered
}

// Limits of a quiz: a few questions that check the lesson, not an exam.
const (
	maxQuestions = 6
	minChoices   = 2
	maxChoices   = 5
)

// parseQuiz reads the text of a ```quiz block whose first line is the
// document's line first. Each error names the document's line. Each
// piece of text is rendered by render, which turns one line of markdown
// into inline HTML.
func parseQuiz(text string, first int, render func(string) (string, error)) ([]Question, error) {
	var qs []Question
	var q *Question
	start := 0 // the line of q's "?"
	// done checks the question read so far, before the next starts or
	// the block ends.
	done := func() error {
		if q == nil {
			return nil
		}
		where := fmt.Sprintf("line %d: question %d", start, len(qs)+1)
		switch {
		case q.Right == 0:
			return fmt.Errorf("%s has no right choice; mark the right one \"+ ...\"", where)
		case len(q.Choices) < minChoices:
			return fmt.Errorf("%s has %d choice; a question has %d to %d", where, len(q.Choices), minChoices, maxChoices)
		case q.Explain == "":
			return fmt.Errorf("%s has no explanation; add a line \"= ...\", shown once it is answered", where)
		}
		qs = append(qs, *q)
		q = nil
		return nil
	}
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		n := first + i
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		mark, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		if len(mark) != 1 || !strings.Contains("?-+=", mark) {
			return nil, fmt.Errorf("line %d: %q: a quiz line starts with \"? \" (a question), \"- \" or \"+ \" (a wrong or the right choice) or \"= \" (the explanation)", n, line)
		}
		if rest == "" {
			return nil, fmt.Errorf("line %d: %q says nothing after its mark", n, mark)
		}
		if mark != "?" && q == nil {
			return nil, fmt.Errorf("line %d: %q before the first question (\"? ...\")", n, line)
		}
		h, err := render(rest)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		switch mark {
		case "?":
			if err := done(); err != nil {
				return nil, err
			}
			if len(qs) == maxQuestions {
				return nil, fmt.Errorf("line %d: a quiz has at most %d questions", n, maxQuestions)
			}
			q, start = &Question{Text: h}, n
		case "-", "+":
			if q.Explain != "" {
				return nil, fmt.Errorf("line %d: a choice after the explanation; the explanation comes last", n)
			}
			if len(q.Choices) == maxChoices {
				return nil, fmt.Errorf("line %d: question %d has more than %d choices", n, len(qs)+1, maxChoices)
			}
			q.Choices = append(q.Choices, h)
			if mark == "+" {
				if q.Right != 0 {
					return nil, fmt.Errorf("line %d: question %d has a second right choice; it has one", n, len(qs)+1)
				}
				q.Right = len(q.Choices)
			}
		case "=":
			if q.Explain != "" {
				return nil, fmt.Errorf("line %d: question %d has a second explanation; it has one line", n, len(qs)+1)
			}
			q.Explain = h
		}
	}
	if err := done(); err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("line %d: the quiz has no question (\"? ...\")", first)
	}
	return qs, nil
}

// quizHTML is a lesson's questions as the page shows them: one form per
// question, its choices as radio buttons and a button to answer, then a
// line for the score. static/quiz.js posts the answer and shows what the
// server says, to the address of the lesson the page shows (its
// article's data-lesson). Neither the right choice nor the explanation
// is here. The words the script writes are in data attributes, in the
// page's language.
func quizHTML(qs []Question, t labels) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<section class="quiz" aria-label="%s" data-questions="%d" data-right="%s" data-wrong="%s" data-score="%s" data-unsaved="%s">`,
		html.EscapeString(t.quiz), len(qs), html.EscapeString(t.quizRight), html.EscapeString(t.quizWrong),
		html.EscapeString(t.quizScore), html.EscapeString(t.quizUnsaved))
	for i, q := range qs {
		n := i + 1
		fmt.Fprintf(&b, `<form class="quiz-question" data-question="%d"><fieldset><legend><span class="quiz-num">%d.</span> %s</legend>`, n, n, q.Text)
		for j, c := range q.Choices {
			fmt.Fprintf(&b, `<label class="quiz-choice" data-choice="%d"><input type="radio" name="q%d" value="%d" required> <span>%s</span></label>`, j+1, n, j+1, c)
		}
		fmt.Fprintf(&b, `</fieldset><button type="submit" class="quiz-answer">%s</button><p class="quiz-verdict" aria-live="polite"></p></form>`,
			html.EscapeString(t.answer))
	}
	b.WriteString(`<p class="quiz-score" aria-live="polite"></p></section>` + "\n")
	return b.String()
}
