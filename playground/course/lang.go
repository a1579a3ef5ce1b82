package course

// Lang is a language the course is written in: the name of its folder
// in the lessons' tree (en/, ru/), and the value of the pages' ?lang=.
type Lang string

// The course's languages.
const (
	English Lang = "en"
	Russian Lang = "ru"
)

// Langs lists the languages in the order a language switch shows them;
// the first is the default, and the one every other is held to when the
// lessons load.
func Langs() []Lang { return []Lang{English, Russian} }

// ParseLang returns the language a value names ("en", "ru"), or false.
func ParseLang(s string) (Lang, bool) {
	switch l := Lang(s); l {
	case English, Russian:
		return l, true
	}
	return "", false
}

// labels are the few strings the renderer writes into a lesson besides
// its text. Everything else a page says is the pages' own.
type labels struct {
	send     string // a runnable frame's button
	anchor   string // a heading's "#" link, for screen readers
	reply    string // above a reply block: the answer a frame gets
	predict  string // on a reply block hidden until asked: predict, then show
	fromFile string // above code included from the project: "From"

	// A lesson's opening box (Intro).
	introLabel   string // the box's name, for screen readers
	minutes      string // the time, with %d for the minutes
	goals        string // above the goals
	needs        string // before the lessons to take first
	needsNothing string // for a lesson that needs none

	// A lesson's questions (quizHTML); static/quiz.js writes the verdicts
	// and the score.
	quiz        string // the questions' name, for screen readers
	answer      string // a question's button
	quizRight   string // the verdict on a right answer
	quizWrong   string // on a wrong one; the right one is marked
	quizScore   string // the score: {right} of {questions} right
	quizUnsaved string // after the score, on a page that keeps answers in the browser
}

// labels returns the renderer's strings in a language. One table for
// both languages, so that a string added to one is visibly missing from
// the other.
func (l Lang) labels() labels {
	switch l {
	case Russian:
		return labels{
			send:     "Отправить",
			anchor:   "Ссылка на этот раздел",
			reply:    "Что приходит в ответ",
			predict:  "Сначала предскажите ответ, потом откройте",
			fromFile: "Из файла",

			introLabel:   "Об этом уроке",
			minutes:      "Около %d мин",
			goals:        "После урока вы сможете:",
			needs:        "Сначала пройдите:",
			needsNothing: "Ничего заранее не нужно: с этого урока курс начинается.",

			quiz:        "Вопросы по уроку",
			answer:      "Ответить",
			quizRight:   "Верно.",
			quizWrong:   "Неверно. Правильный ответ отмечен.",
			quizScore:   "Верных ответов: {right} из {questions}",
			quizUnsaved: "(ответы хранятся только в этом браузере)",
		}
	default:
		return labels{
			send:     "Send",
			anchor:   "Link to this section",
			reply:    "What comes back",
			predict:  "Predict the answer first, then show it",
			fromFile: "From",

			introLabel:   "About this lesson",
			minutes:      "About %d minutes",
			goals:        "You will be able to:",
			needs:        "Take first:",
			needsNothing: "Nothing first: the course starts here.",

			quiz:        "Questions on the lesson",
			answer:      "Answer",
			quizRight:   "Right.",
			quizWrong:   "Not quite. The right answer is marked.",
			quizScore:   "{right} of {questions} right",
			quizUnsaved: "(answers are kept in this browser only)",
		}
	}
}
