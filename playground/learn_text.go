package playground

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
