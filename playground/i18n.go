package playground

// lang is a language the course and its pages are written in.
type lang string

const (
	en lang = "en"
	ru lang = "ru"
)

// allLangs lists the languages in the order the switch shows them; the
// first is the default.
func allLangs() []lang { return []lang{en, ru} }

// parseLang returns the language a value names ("en", "ru"), or false.
func parseLang(s string) (lang, bool) {
	switch l := lang(s); l {
	case en, ru:
		return l, true
	}
	return "", false
}

// uiText is every string the lesson pages show that is not lesson text.
type uiText struct {
	Lang        lang
	Label       string // the language's own name, for the switch
	Course      string // the list's title
	CourseIntro string
	Lessons     string // the link from the home page
	Contents    string // the table of contents
	Previous    string
	Next        string
	AllLessons  string
	Send        string // a runnable frame's button
	Anchor      string // a heading's "#" link, for screen readers
	Switch      string // the language switch, for screen readers
	NotFound    string
	NotFoundFor string // followed by the slug that was asked for
}

// text returns the strings of a language. One table for both languages,
// so that a string added to one is visibly missing from the other.
func (l lang) text() uiText {
	switch l {
	case ru:
		return uiText{
			Lang:        ru,
			Label:       "RU",
			Course:      "Курс",
			CourseIntro: "Уроки по порядку. В каждом можно отправлять настоящие сообщения живым серверам прямо со страницы.",
			Lessons:     "Уроки",
			Contents:    "Содержание",
			Previous:    "Назад",
			Next:        "Дальше",
			AllLessons:  "Все уроки",
			Send:        "Отправить",
			Anchor:      "Ссылка на этот раздел",
			Switch:      "Язык",
			NotFound:    "Такого урока нет",
			NotFoundFor: "Нет урока с адресом",
		}
	default:
		return uiText{
			Lang:        en,
			Label:       "EN",
			Course:      "Course",
			CourseIntro: "The lessons in order. In each one you can send real messages to live servers from the page.",
			Lessons:     "Lessons",
			Contents:    "Contents",
			Previous:    "Previous",
			Next:        "Next",
			AllLessons:  "All lessons",
			Send:        "Send",
			Anchor:      "Link to this section",
			Switch:      "Language",
			NotFound:    "No such lesson",
			NotFoundFor: "There is no lesson at",
		}
	}
}
