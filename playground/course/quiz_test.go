package course

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/chapters"
)

const twoQuestions = "# Quiz\n\n## Check yourself\n\n```quiz\n" +
	"? A call before `initialize` gets what?\n" +
	"- An empty list.\n" +
	"+ An error: SECRET-RIGHT-CHOICE.\n" +
	"- Nothing.\n" +
	"= SECRET-EXPLANATION: only `ping` and `initialize` come first.\n" +
	"\n" +
	"? Which status means *no token*?\n" +
	"+ 401\n" +
	"- 403\n" +
	"= A 401 asks for credentials.\n" +
	"```\n"

// TestQuizBlock renders a quiz: the questions and the choices are on the
// page, as forms; which choice is right and why are not, only in the
// Rendered's Quiz, for the server to check an answer against.
func TestQuizBlock(t *testing.T) {
	r, err := NewMarkdown().Render([]byte(twoQuestions), English)
	if err != nil {
		t.Fatal(err)
	}
	want := []Question{
		{Text: "A call before <code>initialize</code> gets what?", Choices: []string{"An empty list.", "An error: SECRET-RIGHT-CHOICE.", "Nothing."},
			Right: 2, Explain: "SECRET-EXPLANATION: only <code>ping</code> and <code>initialize</code> come first."},
		{Text: "Which status means <em>no token</em>?", Choices: []string{"401", "403"}, Right: 1, Explain: "A 401 asks for credentials."},
	}
	if diff := cmp.Diff(want, r.Quiz); diff != "" {
		t.Errorf("Quiz (-want +got):\n%s", diff)
	}
	for _, s := range []string{
		`<section class="quiz" aria-label="Questions on the lesson" data-questions="2"`,
		`<form class="quiz-question" data-question="1"><fieldset><legend><span class="quiz-num">1.</span> A call before <code>initialize</code> gets what?</legend>`,
		`<label class="quiz-choice" data-choice="2"><input type="radio" name="q1" value="2" required> <span>An error: SECRET-RIGHT-CHOICE.</span></label>`,
		`<input type="radio" name="q2" value="2" required> <span>403</span>`,
		`<button type="submit" class="quiz-answer">Answer</button>`,
		`<p class="quiz-score" aria-live="polite"></p>`,
	} {
		if !strings.Contains(r.HTML, s) {
			t.Errorf("the page lacks %s\n%s", s, r.HTML)
		}
	}
	// Nothing on the page tells the right choice from the others.
	for _, s := range []string{"SECRET-EXPLANATION", "credentials", "right-choice", "data-right=\"2\"", "checked"} {
		if strings.Contains(r.HTML, s) {
			t.Errorf("the page gives the answer away: it holds %q", s)
		}
	}
	if strings.Count(r.HTML, `class="quiz-choice"`) != 5 {
		t.Errorf("want 5 choices on the page:\n%s", r.HTML)
	}
	ru, err := NewMarkdown().Render([]byte(twoQuestions), Russian)
	if err != nil || !strings.Contains(ru.HTML, ">Ответить</button>") {
		t.Errorf("the Russian page's button: %v\n%s", err, ru.HTML)
	}
}

// TestQuizErrors: a malformed quiz is refused, with the document's line
// at fault.
func TestQuizErrors(t *testing.T) {
	for _, tt := range []struct {
		name, quiz, want string
	}{
		{"no right choice", "? Q\n- a\n- b\n= why", "line 6: question 1 has no right choice"},
		{"two right choices", "? Q\n+ a\n+ b\n= why", "line 8: question 1 has a second right choice"},
		{"one choice", "? Q\n+ a\n= why", "line 6: question 1 has 1 choice"},
		{"no explanation", "? Q\n+ a\n- b\n\n? R\n+ a\n- b\n= why", "line 6: question 1 has no explanation"},
		{"choice first", "- a\n? Q", `line 6: "- a" before the first question`},
		{"unknown mark", "? Q\n* a", `line 7: "* a": a quiz line starts with`},
		{"mark alone", "? Q\n+", `line 7: "+" says nothing after its mark`},
		{"choice after the explanation", "? Q\n+ a\n- b\n= why\n- c", "line 10: a choice after the explanation"},
		{"two explanations", "? Q\n+ a\n- b\n= why\n= again", "line 10: question 1 has a second explanation"},
		{"too many choices", "? Q\n+ a\n- b\n- c\n- d\n- e\n- f\n= why", "line 12: question 1 has more than 5 choices"},
		{"empty", "\n", "line 6: the quiz has no question"},
		{"not one line", "? Q\n+ a\n- b\n= # heading", `line 9: "# heading" is not one line of inline text`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "# T\n\n## Check\n\n```quiz\n" + tt.quiz + "\n```\n"
			_, err := NewMarkdown().Render([]byte(src), English)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Render = %v, want an error with %q", err, tt.want)
			}
		})
	}
	two := "# T\n\n```quiz\n? Q\n+ a\n- b\n= why\n```\n\n```quiz\n? Q\n+ a\n- b\n= why\n```\n"
	if _, err := NewMarkdown().Render([]byte(two), English); err == nil || !strings.Contains(err.Error(), "line 10: a second quiz block") {
		t.Errorf("two quiz blocks: %v", err)
	}
	var many strings.Builder
	for range maxQuestions + 1 {
		many.WriteString("? Q\n+ a\n- b\n= why\n")
	}
	if _, err := NewMarkdown().Render([]byte("# T\n\n```quiz\n"+many.String()+"```\n"), English); err == nil || !strings.Contains(err.Error(), "at most 6 questions") {
		t.Errorf("%d questions: %v", maxQuestions+1, err)
	}
}

// TestQuizLanguagesMatch: Load refuses a translation that asks another
// number of questions, gives a question another number of choices, or
// another right choice, since progress keeps answers by those numbers.
func TestQuizLanguagesMatch(t *testing.T) {
	en := "# One\n\n```quiz\n? Q1\n+ a\n- b\n= why\n\n? Q2\n- a\n+ b\n- c\n= why\n```\n"
	for _, tt := range []struct {
		name, ru, want string
	}{
		{"the same", "# Один\n\n```quiz\n? В1\n+ а\n- б\n= почему\n\n? В2\n- а\n+ б\n- в\n= почему\n```\n", ""},
		{"a question fewer", "# Один\n\n```quiz\n? В1\n+ а\n- б\n= почему\n```\n", "has 1 question ("},
		{"another right choice", "# Один\n\n```quiz\n? В1\n+ а\n- б\n= почему\n\n? В2\n- а\n- б\n+ в\n= почему\n```\n", "2: choice 3 of 3 right"},
		{"a choice fewer", "# Один\n\n```quiz\n? В1\n+ а\n- б\n= почему\n\n? В2\n- а\n+ б\n= почему\n```\n", "2: choice 2 of 2 right"},
		{"no quiz", "# Один\n\ntext\n", "has no questions"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{"en/01-one.md": {Data: []byte(en)}, "ru/01-one.md": {Data: []byte(tt.ru)}})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Load = %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), "ru/one: the quiz has") || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Load = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// TestEveryLessonAsks: every lesson of the course, in every language,
// ends with three to five questions, as its "Check yourself".
func TestEveryLessonAsks(t *testing.T) {
	c, err := Load(chapters.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Langs() {
		for _, ls := range c.In(l) {
			if n := len(ls.Quiz); n < 3 || n > 5 {
				t.Errorf("%s/%s asks %d questions, want 3 to 5", l, ls.Slug, n)
			}
			for i, q := range ls.Quiz {
				if len(q.Choices) < 3 {
					t.Errorf("%s/%s: question %d has %d choices; a guess should not be right half the time", l, ls.Slug, i+1, len(q.Choices))
				}
			}
		}
	}
}
