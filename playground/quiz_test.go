package playground

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/chapters"
	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/playground/course"
)

// quizReply is what POST /learn/{slug}/quiz answers.
type quizReply struct {
	Answer  quizAnswer `json:"answer"`
	Saved   bool       `json:"saved"`
	Score   *quizScore `json:"score"`
	Problem string     `json:"problem"`
	Error   string     `json:"error"`
}

func readQuizReply(t *testing.T, a answer) quizReply {
	t.Helper()
	var r quizReply
	if err := json.Unmarshal([]byte(a.body), &r); err != nil {
		t.Fatalf("the answer is not JSON: %v\n%s", err, a.body)
	}
	return r
}

// stdioQuiz is the stdio lesson's questions, which the tests answer.
func stdioQuiz(t *testing.T, l course.Lang) []course.Question {
	t.Helper()
	_, ls, _ := newLessonSite(chapters.FS).lessons.Find(l, "stdio")
	if ls == nil || len(ls.Quiz) < 3 {
		t.Fatalf("the stdio lesson has no questions to answer")
	}
	return ls.Quiz
}

// wrongChoice is a choice of q that is not the right one.
func wrongChoice(q course.Question) int {
	if q.Right == 1 {
		return 2
	}
	return 1
}

// TestQuizAnswer answers the stdio lesson's questions from a page on
// this machine: each answer is checked, explained in the language asked
// for and kept in progress; a second answer to a question changes
// nothing; a question, a choice or a lesson that does not exist, and a
// body that is no answer, are refused.
func TestQuizAnswer(t *testing.T) {
	srv, store := exerciseSiteFor(t, "")
	en, ru := stdioQuiz(t, course.English), stdioQuiz(t, course.Russian)

	// A wrong answer to question 1.
	a := do(t, srv, "POST", "/learn/stdio/quiz", "application/json", `{"question":1,"choice":`+itoa(wrongChoice(en[0]))+`,"lang":"en"}`, "")
	r := readQuizReply(t, a)
	want := quizReply{Answer: quizAnswer{Choice: wrongChoice(en[0]), Right: false, Answer: en[0].Right, Explanation: en[0].Explain},
		Saved: true, Score: &quizScore{Right: 0, Answered: 1, Questions: len(en)}}
	if diff := cmp.Diff(want, r); a.code != 200 || diff != "" {
		t.Errorf("a wrong answer: %d (-want +got):\n%s", a.code, diff)
	}

	// The right one, after the explanation: the first answer still counts.
	a = do(t, srv, "POST", "/learn/stdio/quiz", "application/json", `{"question":1,"choice":`+itoa(en[0].Right)+`,"lang":"en"}`, "")
	if r := readQuizReply(t, a); a.code != 200 || r.Answer.Right || r.Answer.Choice != wrongChoice(en[0]) || r.Score.Right != 0 {
		t.Errorf("a second answer to question 1 changed the first: %d %s", a.code, a.body)
	}

	// A right answer to question 2, in Russian.
	a = do(t, srv, "POST", "/learn/stdio/quiz", "application/json", `{"question":2,"choice":`+itoa(ru[1].Right)+`,"lang":"ru"}`, "")
	r = readQuizReply(t, a)
	want = quizReply{Answer: quizAnswer{Choice: ru[1].Right, Right: true, Answer: ru[1].Right, Explanation: ru[1].Explain},
		Saved: true, Score: &quizScore{Right: 1, Answered: 2, Questions: len(en)}}
	if diff := cmp.Diff(want, r); a.code != 200 || diff != "" {
		t.Errorf("a right answer in Russian: %d (-want +got):\n%s", a.code, diff)
	}
	if !regexp.MustCompile(`\p{Cyrillic}`).MatchString(r.Answer.Explanation) {
		t.Errorf("the explanation is not in Russian: %s", r.Answer.Explanation)
	}

	for _, tt := range []struct {
		name, path, body string
		code             int
		says             string
	}{
		{"unknown question", "/learn/stdio/quiz", `{"question":99,"choice":1}`, 404, "lesson stdio has no question 99"},
		{"question 0", "/learn/stdio/quiz", `{"question":0,"choice":1}`, 404, "no question 0"},
		{"unknown choice", "/learn/stdio/quiz", `{"question":3,"choice":9}`, 400, "question 3 has choices 1 to"},
		{"unknown lesson", "/learn/no-such-lesson/quiz", `{"question":1,"choice":1}`, 404, "no lesson no-such-lesson"},
		{"not JSON", "/learn/stdio/quiz", `question=1`, 400, "the body must be JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := do(t, srv, "POST", tt.path, "application/json", tt.body, "")
			if r := readQuizReply(t, a); a.code != tt.code || !strings.Contains(r.Error, tt.says) {
				t.Errorf("%d %s, want %d saying %q", a.code, a.body, tt.code, tt.says)
			}
		})
	}

	st, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]progress.Answer{}
	for k, a := range st.Answers("stdio") {
		if a.At.IsZero() {
			t.Errorf("answer %s has no time", k)
		}
		got[k] = progress.Answer{Choice: a.Choice, Right: a.Right}
	}
	wantKept := map[string]progress.Answer{"1": {Choice: wrongChoice(en[0])}, "2": {Choice: ru[1].Right, Right: true}}
	if diff := cmp.Diff(wantKept, got); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// postFrom posts an answer as a page of origin would.
func postFrom(t *testing.T, u, origin, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", origin)
	req.Header.Set("Content-Type", "application/json")
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestQuizForeignOrigin: an answer posted from another site's page is
// refused by the playground's door, and nothing is kept.
func TestQuizForeignOrigin(t *testing.T) {
	srv, store := exerciseSiteFor(t, "")
	for _, origin := range []string{"https://attacker.example", "http://localhost:3000"} {
		req := `{"question":1,"choice":1}`
		code, body := postFrom(t, srv.URL+"/learn/stdio/quiz", origin, req)
		if code != 403 {
			t.Errorf("Origin %s: %d %s, want 403", origin, code, body)
		}
	}
	if st, _ := store.Load(); len(st.Lessons) != 0 {
		t.Errorf("a foreign page's answer was kept: %+v", st.Lessons)
	}
}

// TestQuizOtherMachine: a page from another machine is told whether its
// answer is right, and why, but nothing is kept here: its page keeps the
// answers in its browser, as the lesson page and the map tell it.
func TestQuizOtherMachine(t *testing.T) {
	srv, store := exerciseSiteFor(t, "192.0.2.7:40000")
	en := stdioQuiz(t, course.English)
	a := do(t, srv, "POST", "/learn/stdio/quiz", "application/json", `{"question":1,"choice":`+itoa(en[0].Right)+`}`, "")
	r := readQuizReply(t, a)
	want := quizReply{Answer: quizAnswer{Choice: en[0].Right, Right: true, Answer: en[0].Right, Explanation: en[0].Explain}}
	if diff := cmp.Diff(want, r); a.code != 200 || diff != "" {
		t.Errorf("an answer from another machine: %d (-want +got):\n%s", a.code, diff)
	}
	if st, err := store.Load(); err != nil || len(st.Lessons) != 0 {
		t.Errorf("an answer from another machine was kept: %+v, %v", st.Lessons, err)
	}
	_, page := fetchPage(t, srv.URL+"/learn/stdio")
	if s := quizStateIn(t, page); s.Kept != "browser" || len(s.Answers) != 0 {
		t.Errorf("the lesson's quiz state for another machine: %+v", s)
	}
	_, page = fetchPage(t, srv.URL+"/learn/")
	if !strings.Contains(page, `data-lesson="stdio" data-kept="browser"`) {
		t.Errorf("the map does not leave the count to the browser")
	}
}

// TestQuizFollower: a classroom follower may answer, and is told how it
// went; the instructor's progress does not change. A page from another
// machine without the follower's cookie may not.
func TestQuizFollower(t *testing.T) {
	tr := newTestRoom(t, nil)
	before := tr.progressBytes(t)
	id := tr.follower(t, "Ada")
	a := do(t, tr.remote, "POST", "/learn/stdio/quiz", "application/json", `{"question":1,"choice":1}`, id)
	if r := readQuizReply(t, a); a.code != 200 || r.Saved || r.Answer.Explanation == "" {
		t.Errorf("a follower's answer: %d %s", a.code, a.body)
	}
	if a := do(t, tr.remote, "POST", "/learn/stdio/quiz", "application/json", `{"question":1,"choice":1}`, ""); a.code != 401 {
		t.Errorf("an answer without joining: %d %s", a.code, a.body)
	}
	if after := tr.progressBytes(t); string(after) != string(before) {
		t.Errorf("the instructor's progress changed:\n%s\nwas\n%s", after, before)
	}
}

// quizStateIn reads the #quiz-state a lesson page carries.
func quizStateIn(t *testing.T, page string) quizState {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script id="quiz-state" type="application/json">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page has no quiz state")
	}
	var s quizState
	if err := json.Unmarshal([]byte(m[1]), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestQuizPage: a lesson page shows its questions without their answers;
// once answered, from this machine, the page carries the answers kept,
// each with its explanation, and only those.
func TestQuizPage(t *testing.T) {
	srv, store := exerciseSiteFor(t, "")
	c := newLessonSite(chapters.FS).lessons
	for _, l := range course.Langs() {
		for _, ls := range c.In(l) {
			if len(ls.Quiz) == 0 {
				continue
			}
			_, page := fetchPage(t, srv.URL+"/learn/"+ls.Slug+"?lang="+string(l))
			if !strings.Contains(page, `<script type="module" src="/static/quiz.js">`) {
				t.Errorf("%s/%s: no quiz.js", l, ls.Slug)
			}
			for i, q := range ls.Quiz {
				if strings.Contains(page, q.Explain) || strings.Contains(page, html.EscapeString(q.Explain)) {
					t.Errorf("%s/%s: the page tells question %d's explanation before it is answered", l, ls.Slug, i+1)
				}
			}
			if s := quizStateIn(t, page); s.Kept != "progress" || len(s.Answers) != 0 {
				t.Errorf("%s/%s: quiz state before answering: %+v", l, ls.Slug, s)
			}
		}
	}
	en := stdioQuiz(t, course.English)
	do(t, srv, "POST", "/learn/stdio/quiz", "application/json", `{"question":2,"choice":`+itoa(en[1].Right)+`}`, "")
	_, page := fetchPage(t, srv.URL+"/learn/stdio?lang=en")
	want := map[string]quizAnswer{"2": {Choice: en[1].Right, Right: true, Answer: en[1].Right, Explanation: en[1].Explain}}
	if diff := cmp.Diff(want, quizStateIn(t, page).Answers); diff != "" {
		t.Errorf("answers on the page (-want +got):\n%s", diff)
	}
	if st, _ := store.Load(); len(st.Answers("stdio")) != 1 {
		t.Errorf("progress: %+v", st.Lessons)
	}
}

// TestCourseMapQuiz counts a lesson's answers on the course map, from a
// page on this machine: "questions: N of M right" for a lesson answered
// in part, "none answered yet" for the others, in both languages; and
// the lesson whose questions are answered in part is the one to take
// next.
func TestCourseMapQuiz(t *testing.T) {
	srv, _ := exerciseSiteFor(t, "")
	en := stdioQuiz(t, course.English)
	do(t, srv, "POST", "/learn/stdio/quiz", "application/json", `{"question":1,"choice":`+itoa(en[0].Right)+`}`, "")
	do(t, srv, "POST", "/learn/stdio/quiz", "application/json", `{"question":2,"choice":`+itoa(wrongChoice(en[1]))+`}`, "")
	do(t, srv, "POST", "/learn/stdio/quiz", "application/json", `{"question":3,"choice":`+itoa(en[2].Right)+`}`, "")

	quizRe := regexp.MustCompile(`<p class="map-quiz[^"]*" data-lesson="([a-z0-9-]+)" data-kept="([a-z]+)"[^>]*>([^<]*)</p>`)
	for _, tt := range []struct {
		lang, stdio, other string
	}{
		{"en", "questions: 2 of " + itoa(len(en)) + " right", "none answered yet"},
		{"ru", "вопросы: верно 2 из " + itoa(len(en)), "ответов пока нет"},
	} {
		_, page := fetchPage(t, srv.URL+"/learn/?lang="+tt.lang)
		counts := map[string]string{}
		for _, m := range quizRe.FindAllStringSubmatch(page, -1) {
			if m[2] != "progress" {
				t.Errorf("%s: lesson %s's count is kept in the %s", tt.lang, m[1], m[2])
			}
			counts[m[1]] = strings.TrimSpace(m[3])
		}
		if counts["stdio"] != tt.stdio {
			t.Errorf("%s: stdio's count is %q, want %q", tt.lang, counts["stdio"], tt.stdio)
		}
		if !strings.Contains(counts["http"], tt.other) {
			t.Errorf("%s: http's count is %q, want it to say %q", tt.lang, counts["http"], tt.other)
		}
		if m := mapLessonRe.FindAllStringSubmatch(page, -1); len(m) < 2 || m[1][2] != "stdio" || m[1][1] == "" {
			t.Errorf("%s: stdio, answered in part, is not the lesson to take next", tt.lang)
		}
		if !strings.Contains(page, `<script type="module" src="/static/quiz.js">`) {
			t.Errorf("%s: the map has no quiz.js", tt.lang)
		}
	}
}
