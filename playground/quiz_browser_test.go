package playground

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/playground/course"
)

// quizDump describes a lesson's questions for a failure message.
const quizDump = `[...document.querySelectorAll(".quiz-question")].map(f => f.dataset.question + " " + f.className + ": " +
	f.querySelector(".quiz-verdict").innerText).join("\n") + "\nscore: " + document.querySelector(".quiz-score")?.innerText`

// TestBrowserQuiz goes as a new learner would: from the course map to
// the stdio lesson, where its questions wait at the end, unanswered;
// answers one right and one wrong, and sees each verdict, the right
// choice marked, the explanation and the score; comes back to find the
// answers kept; and sees them counted on the map, in both languages.
func TestBrowserQuiz(t *testing.T) {
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	qs := stdioQuiz(t, course.English)
	b := openBrowserWith(t, store)

	b.open("/learn/")
	b.expect("the map counts the stdio lesson's questions, none answered",
		fmt.Sprintf(`document.querySelector("#lesson-stdio .map-quiz").innerText === "questions: %d, none answered yet"`, len(qs)), mapDump)
	b.clickAndLoad("#lesson-stdio > a")
	b.expect("the lesson asks its questions, none answered", fmt.Sprintf(
		`document.querySelectorAll(".quiz-question").length === %d && document.querySelectorAll(".quiz-question.answered").length === 0 &&
		 document.querySelector(".quiz-score").innerText === ""`, len(qs)), quizDump)

	answer := func(q, choice int) {
		t.Helper()
		b.click(fmt.Sprintf(`.quiz-question[data-question="%d"] input[value="%d"]`, q, choice))
		b.click(fmt.Sprintf(`.quiz-question[data-question="%d"] .quiz-answer`, q))
	}
	answer(1, qs[0].Right)
	b.waitUntil("question 1 is answered right", `document.querySelector('.quiz-question[data-question="1"]').classList.contains("is-right")`, quizDump)
	b.expect("the verdict says so, with the explanation", fmt.Sprintf(
		`document.querySelector('.quiz-question[data-question="1"] .quiz-verdict').innerText.startsWith("Right.") &&
		 document.querySelector('.quiz-question[data-question="1"] .quiz-why').innerHTML === %s`, jsString(qs[0].Explain)), quizDump)
	answer(2, wrongChoice(qs[1]))
	b.waitUntil("question 2 is answered wrong", `document.querySelector('.quiz-question[data-question="2"]').classList.contains("is-wrong")`, quizDump)
	b.expect("the right choice is marked, and the one picked as wrong", fmt.Sprintf(
		`document.querySelector('.quiz-question[data-question="2"] .quiz-choice.right').dataset.choice === "%d" &&
		 document.querySelector('.quiz-question[data-question="2"] .quiz-choice.wrong').dataset.choice === "%d" &&
		 [...document.querySelectorAll('.quiz-question[data-question="2"] input')].every(i => i.disabled)`, qs[1].Right, wrongChoice(qs[1])), quizDump)
	b.expect("the score counts them at the lesson's end",
		fmt.Sprintf(`document.querySelector(".quiz-score").innerText === "1 of %d right"`, len(qs)), quizDump)

	b.open("/learn/stdio")
	b.expect("the answers are kept, with their explanations", fmt.Sprintf(
		`document.querySelectorAll(".quiz-question.answered").length === 2 &&
		 document.querySelector('.quiz-question[data-question="2"] .quiz-why').innerHTML === %s &&
		 document.querySelector(".quiz-score").innerText === "1 of %d right"`, jsString(qs[1].Explain), len(qs)), quizDump)

	b.open("/learn/")
	b.expect("the map counts them", fmt.Sprintf(
		`document.querySelector("#lesson-stdio .map-quiz").innerText === "questions: 1 of %d right"`, len(qs)), mapDump)
	b.expect("and the stdio lesson, answered in part, is the one to take next",
		`[...document.querySelectorAll(".map-lesson.next")].map(l => l.id).join() === "lesson-stdio"`, mapDump)
	b.open("/learn/?lang=ru")
	b.expect("the Russian map counts them in Russian", fmt.Sprintf(
		`document.querySelector("#lesson-stdio .map-quiz").innerText === "вопросы: верно 1 из %d"`, len(qs)), mapDump)

	st, err := store.Load()
	if err != nil || len(st.Answers("stdio")) != 2 {
		t.Errorf("progress holds %+v, %v; want the two answers", st.Answers("stdio"), err)
	}
	if added := b.text(globalsAdded); added != "" {
		t.Errorf("the page's scripts put on window: %s", added)
	}
	if c := b.consoleText(); c != "" {
		t.Errorf("the pages complained:%s", c)
	}
}

// TestBrowserQuizKeptInBrowser answers questions on a page whose answers
// are not the progress file's, as a classroom follower's page is (here
// a playground that keeps no progress, which the page is told the same
// way): the answers are kept in the browser, shown again on reloading
// with the explanation the server gives again, and counted on the map
// from there.
func TestBrowserQuizKeptInBrowser(t *testing.T) {
	qs := stdioQuiz(t, course.English)
	b := openBrowserWith(t, nil)
	b.open("/learn/stdio")
	b.expect("the page keeps its answers in the browser",
		`JSON.parse(document.getElementById("quiz-state").textContent).kept === "browser"`, quizDump)
	b.click(fmt.Sprintf(`.quiz-question[data-question="3"] input[value="%d"]`, wrongChoice(qs[2])))
	b.click(`.quiz-question[data-question="3"] .quiz-answer`)
	b.waitUntil("question 3 is answered wrong", `document.querySelector('.quiz-question[data-question="3"]').classList.contains("is-wrong")`, quizDump)
	b.expect("the score says where the answers are kept",
		fmt.Sprintf(`document.querySelector(".quiz-score").innerText === "0 of %d right (answers are kept in this browser only)"`, len(qs)), quizDump)
	b.open("/learn/stdio")
	b.waitUntil("the answer is shown again, with its explanation", fmt.Sprintf(
		`document.querySelector('.quiz-question[data-question="3"]').classList.contains("is-wrong") &&
		 document.querySelector('.quiz-question[data-question="3"] .quiz-why')?.innerHTML === %s`, jsString(qs[2].Explain)), quizDump)
	b.open("/learn/")
	b.expect("the map counts the browser's answers", fmt.Sprintf(
		`document.querySelector("#lesson-stdio .map-quiz").dataset.kept === "browser" &&
		 document.querySelector("#lesson-stdio .map-quiz").innerText === "questions: 0 of %d right"`, len(qs)), mapDump)
	if c := b.consoleText(); c != "" {
		t.Errorf("the pages complained:%s", c)
	}
}
