package playground

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/playground/course"
	"github.com/wirelab/wirelab/playground/wire"
)

// A lesson's questions (the ```quiz block at its end, course.Question):
// the page shows them without their answers, and posts each answer to
// POST /learn/{slug}/quiz, which says whether it is right, which choice
// is, and why. The learner's first answer to each question is kept in
// the progress file, for a page on this machine; the course map counts
// them. A page from another machine, a classroom follower's, is told
// the same but changes nothing here: its script keeps the answers in
// its own browser (static/quiz.js), as the follower's progress is the
// follower's, never this learner's.

// maxQuizBody bounds an answer's body: two small numbers and a language.
const maxQuizBody = 1024

// quizAnswer is a question answered, as the server tells it and as the
// page keeps it: the choice picked, whether it is right, the right
// choice and the explanation, in the page's language.
type quizAnswer struct {
	Choice      int    `json:"choice"`
	Right       bool   `json:"right"`
	Answer      int    `json:"answer"`
	Explanation string `json:"explanation"` // inline HTML, from the lesson
}

// quizScore counts a lesson's answers: how many are right, how many
// questions are answered, of how many.
type quizScore struct {
	Right     int `json:"right"`
	Answered  int `json:"answered"`
	Questions int `json:"questions"`
}

// scoreOf counts the answers that progress holds for a lesson's
// questions. An answer to a question the lesson no longer has (the
// lesson was rewritten) does not count.
func scoreOf(answers map[string]progress.Answer, qs []course.Question) quizScore {
	s := quizScore{Questions: len(qs)}
	for i := range qs {
		if a, ok := answers[strconv.Itoa(i+1)]; ok {
			s.Answered++
			if a.Right {
				s.Right++
			}
		}
	}
	return s
}

// answered is what the page shows of a question answered before: the
// explanation too, since the answer is known.
func answered(q course.Question, a progress.Answer) quizAnswer {
	return quizAnswer{Choice: a.Choice, Right: a.Right, Answer: q.Right, Explanation: q.Explain}
}

// quizState is what a lesson page knows of its questions when it opens:
// where the answers are kept ("progress", this machine's file, or
// "browser", the page's own storage) and, from progress, the answers
// given so far, keyed by the question's number.
type quizState struct {
	Kept    string                `json:"kept"`
	Answers map[string]quizAnswer `json:"answers"`
	Problem string                `json:"problem,omitempty"` // why progress cannot be read, if it cannot
}

// keepsProgress says whether a request's answers go into the progress
// file: only a page on this machine's, and only with a file to keep. A
// nil site (the course's pages served alone, in a test) keeps none.
func (x *exerciseSite) keepsProgress(r *http.Request) bool {
	return x != nil && x.store != nil && wire.IsLocalPeer(r)
}

// quizStateOf is the state of a lesson's questions for the page that r
// asks for.
func (x *exerciseSite) quizStateOf(r *http.Request, slug string, qs []course.Question) quizState {
	s := quizState{Kept: "browser", Answers: map[string]quizAnswer{}}
	if !x.keepsProgress(r) {
		return s
	}
	s.Kept = "progress"
	st := x.state(requestLang(r))
	s.Problem = st.Problem
	for key, a := range st.Answers(slug) {
		if n, err := strconv.Atoi(key); err == nil && n >= 1 && n <= len(qs) {
			s.Answers[key] = answered(qs[n-1], a)
		}
	}
	return s
}

// quiz checks an answer to one of a lesson's questions, the body
// {"question": N, "choice": C, "lang": "en"}, both numbers from 1, and
// answers {"answer": {...}, "saved": ..., "score": {...}}: the answer
// that counts, with the right choice and the explanation in the
// language asked for; whether progress holds it; and the lesson's score
// there. For a page on this machine the first answer to a question is
// kept, and a later one is checked but changes nothing: the answer that
// counts stays the first. For a page from elsewhere nothing is kept
// here, and saved is false: the page keeps its answers itself.
func (l *lessonSite) quiz(x *exerciseSite) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Question int    `json:"question"`
			Choice   int    `json:"choice"`
			Lang     string `json:"lang"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxQuizBody)).Decode(&body); err != nil {
			jsonError(w, http.StatusBadRequest, `the body must be JSON: {"question": N, "choice": C, "lang": "en"}`)
			return
		}
		lang, ok := course.ParseLang(body.Lang)
		if !ok {
			lang = course.English
		}
		slug := r.PathValue("slug")
		_, ls, _ := l.lessons.Find(lang, slug)
		switch {
		case ls == nil:
			jsonError(w, http.StatusNotFound, "no lesson "+slug)
			return
		case body.Question < 1 || body.Question > len(ls.Quiz):
			jsonError(w, http.StatusNotFound, fmt.Sprintf("lesson %s has no question %d; it has %d", slug, body.Question, len(ls.Quiz)))
			return
		}
		q := ls.Quiz[body.Question-1]
		if body.Choice < 1 || body.Choice > len(q.Choices) {
			jsonError(w, http.StatusBadRequest, fmt.Sprintf("question %d has choices 1 to %d, not %d", body.Question, len(q.Choices), body.Choice))
			return
		}
		given := progress.Answer{Choice: body.Choice, Right: body.Choice == q.Right}
		res := struct {
			Answer  quizAnswer `json:"answer"`
			Saved   bool       `json:"saved"`
			Score   *quizScore `json:"score,omitempty"` // in progress, when saved
			Problem string     `json:"problem,omitempty"`
		}{Answer: answered(q, given)}
		if x.keepsProgress(r) {
			var kept progress.Answer
			var score quizScore
			saved, err := x.save(r, func(st *progress.State) {
				kept = st.Answer(slug, body.Question, given, time.Now())
				score = scoreOf(st.Answers(slug), ls.Quiz)
			})
			res.Saved, res.Problem = saved, problem(err, requestLang(r))
			if saved {
				res.Answer, res.Score = answered(q, kept), &score
			}
		}
		writeJSON(w, http.StatusOK, res)
	}
}
