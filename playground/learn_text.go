package playground

import (
	"strconv"
	"strings"
)

// learnText is every string of the course map and the glossary that the
// pages' shared strings (uiText) do not have, in one language.
type learnText struct {
	Minutes    string // a lesson's time: "%d min"
	Goals      string // above a lesson's goals, for screen readers
	Exercises  string // before a lesson's exercises
	Next       string // the mark on the lesson to take next
	Passed     string // an exercise's state
	Tried      string
	NotStarted string
	// A lesson's questions, with {right} and {questions} to fill in:
	// once some are answered, and before.
	QuizScore string
	QuizNone  string

	Glossary      string // the glossary's title, and its link on the map
	GlossaryIntro string
	TaughtIn      string // before the lesson that teaches a term
}

// learnStrings returns the course map's strings in a language. One
// table for both, so that a string added to one is visibly missing from
// the other.
func learnStrings(l lang) learnText {
	switch l {
	case ru:
		return learnText{
			Minutes:    "%d мин",
			Goals:      "После урока вы сможете",
			Exercises:  "Упражнения:",
			Next:       "Следующий урок",
			Passed:     "пройдено",
			Tried:      "начато",
			NotStarted: "не начато",
			QuizScore:  "вопросы: верно {right} из {questions}",
			QuizNone:   "вопросы: {questions}, ответов пока нет",

			Glossary:      "Словарь терминов",
			GlossaryIntro: "Термины курса, каждый в одну строку, со ссылкой на урок, где он объясняется.",
			TaughtIn:      "Урок:",
		}
	default:
		return learnText{
			Minutes:    "%d min",
			Goals:      "You will be able to",
			Exercises:  "Exercises:",
			Next:       "Take this one next",
			Passed:     "passed",
			Tried:      "tried",
			NotStarted: "not started",
			QuizScore:  "questions: {right} of {questions} right",
			QuizNone:   "questions: {questions}, none answered yet",

			Glossary:      "Glossary",
			GlossaryIntro: "The course's terms, each in one line, with the lesson that teaches it.",
			TaughtIn:      "Lesson:",
		}
	}
}

// stateName is an exercise's state in words.
func (t learnText) stateName(s exerciseState) string {
	switch s {
	case passed:
		return t.Passed
	case tried:
		return t.Tried
	}
	return t.NotStarted
}

// quizWords fills a score's words: {right} and {questions}. static/quiz.js
// fills the same words the same way.
func quizWords(words string, s quizScore) string {
	return strings.NewReplacer("{right}", strconv.Itoa(s.Right), "{questions}", strconv.Itoa(s.Questions)).Replace(words)
}
