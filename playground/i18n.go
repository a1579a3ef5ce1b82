package playground

import (
	"net/http"

	"github.com/wirelab/wirelab/playground/course"
	"github.com/wirelab/wirelab/playground/wire"
)

// lang is a language the pages are written in: the course's own, so
// that a page and the lesson on it always agree.
type lang = course.Lang

const (
	en = course.English
	ru = course.Russian
)

// allLangs lists the languages in the order the switch shows them; the
// first is the default.
func allLangs() []lang { return course.Langs() }

// parseLang returns the language a value names ("en", "ru"), or false.
func parseLang(s string) (lang, bool) { return course.ParseLang(s) }

// requestLang is the language r asks for: its ?lang, else the language
// cookie a page set, else the browser's preference (Accept-Language),
// else English (wire.PageLang, the rule the playground's websocket
// follows too). A page's script asking the server (a check, a grade, an
// answer to a question) gets its answers in it.
func requestLang(r *http.Request) lang {
	if l, ok := parseLang(wire.PageLang(r)); ok {
		return l
	}
	return en
}

// uiText is every string the pages show that is not lesson text (the
// few words a lesson's renderer adds are package course's). The
// tools' descriptions on the home page are the catalogue's, translated
// in home_text.go.
type uiText struct {
	Lang  lang
	Label string // the language's own name, for the switch

	// The header, on every page.
	Sections    string // the header's links, for screen readers
	Lessons     string // a link to the course
	Consoles    string // a link to the consoles
	FiveWires   string // a link to the five-wires page
	Exercises   string // a link to the exercises
	Switch      string // the language switch, for screen readers
	ThemeSystem string // the theme button, in each state
	ThemeLight  string
	ThemeDark   string
	LargeText   string // the large-text button
	Shortcuts   string // the shortcuts button and the title of their list

	// The shortcuts list.
	KeyHelp     string
	KeyTheme    string
	KeySize     string
	KeyPrevNext string
	KeySend     string
	KeyClose    string
	KeyNote     string // when the keys work
	Close       string // the list's button

	// The home page.
	Tagline         string
	StartCourse     string // a link, followed by StartCourseMore
	StartCourseMore string
	ConsolesMore    string // follows a link to the consoles
	FiveWiresMore   string // follows a link to the five-wires page
	Servers         string
	Protocol        string
	RunAlone        string
	Here            string
	Live            string // a server that runs, followed by At and its address
	At              string
	RunsAsChild     string // the stdio server, which has no address
	NotStarted      string
	OverStdio       string // followed by the command that serves over stdio
	TryIt           string
	TryHTTP         string
	TryStdio        string
	TryGRPC         string
	TryMCP          string
	TryA2A          string
	Tools           string
	SameCatalogue   string
	Tool            string
	Version         string
	WhatItDoes      string
	AlsoServes      string // followed by older versions a tool still serves

	// The course.
	Course      string // the list's title
	CourseIntro string
	Contents    string // the table of contents
	Previous    string
	Next        string
	AllLessons  string
	Views       string // the views of a frame's answer, for screen readers
	Pretty      string // the views' buttons
	Raw         string
	Hex         string
	LessonWire  string // the sequence diagram of the frames sent from a lesson
	You         string // the learner's lane in that diagram
	WireIntro   string
	ExportSVG   string
	ConsoleLink string // a link to the console of the lesson's protocol
	NotFound    string
	NotFoundFor string // followed by the slug that was asked for
}

// uiTextOf returns the strings of a language. One table for both
// languages, so that a string added to one is visibly missing from the
// other.
func uiTextOf(l lang) uiText {
	switch l {
	case ru:
		return uiText{
			Lang:  ru,
			Label: "RU",

			Sections:    "Разделы",
			Lessons:     "Уроки",
			Consoles:    "Консоли",
			FiveWires:   "Пять проводов",
			Exercises:   "Упражнения",
			Switch:      "Язык",
			ThemeSystem: "Тема: как в системе",
			ThemeLight:  "Тема: светлая",
			ThemeDark:   "Тема: тёмная",
			LargeText:   "Крупный текст",
			Shortcuts:   "Горячие клавиши",

			KeyHelp:     "Этот список",
			KeyTheme:    "Тема: как в системе, светлая, тёмная",
			KeySize:     "Крупный текст, для проектора",
			KeyPrevNext: "Предыдущий и следующий урок",
			KeySend:     "Отправить сообщение, которое вы правите",
			KeyClose:    "Закрыть этот список",
			KeyNote:     "Клавиши с буквами работают в любой раскладке, пока вы не печатаете в поле.",
			Close:       "Закрыть",

			Tagline:         "Изучайте, преподавайте и отлаживайте протоколы, которые связывают ИИ-агентов с инструментами, читая настоящие байты на проводе.",
			StartCourse:     "Начать курс",
			StartCourseMore: ": уроки на русском и английском, с сообщениями, которые вы отправляете живым серверам прямо со страницы.",
			ConsolesMore:    ": напишите любое сообщение любому из серверов и прочитайте каждый байт ответа.",
			FiveWiresMore:   ": один и тот же вызов инструмента по всем пяти протоколам, рядом.",
			Servers:         "Серверы",
			Protocol:        "Протокол",
			RunAlone:        "Запустить отдельно",
			Here:            "Здесь",
			Live:            "работает",
			At:              "по адресу",
			RunsAsChild:     "запускается как дочерний процесс своего клиента",
			NotStarted:      "не запущен",
			OverStdio:       "через stdio:",
			TryIt:           "Попробуйте",
			TryHTTP:         "HTTP-сервер инструментов из таблицы уже работает. Из терминала:",
			TryStdio:        "Или через stdio, по одному JSON-объекту в строке:",
			TryGRPC:         "Или через gRPC, и каждый кадр HTTP/2 вызова печатается в stderr:",
			TryMCP:          "Или MCP через Streamable HTTP: сессия начинается с initialize.",
			TryA2A:          "Или дайте задачу A2A-агенту: прочитайте его карточку, затем отправьте ему сообщение.",
			Tools:           "Инструменты",
			SameCatalogue:   "Все серверы предлагают один и тот же каталог.",
			Tool:            "Инструмент",
			Version:         "Версия",
			WhatItDoes:      "Что делает",
			AlsoServes:      "обслуживает и",

			Course:      "Курс",
			CourseIntro: "Уроки по порядку. В каждом можно отправлять настоящие сообщения живым серверам прямо со страницы.",
			Contents:    "Содержание",
			Previous:    "Назад",
			Next:        "Дальше",
			AllLessons:  "Все уроки",
			Views:       "Как показать ответ",
			Pretty:      "Красиво",
			Raw:         "Как есть",
			Hex:         "Hex",
			LessonWire:  "Провод этого урока",
			You:         "вы",
			WireIntro:   "Каждое сообщение, которое вы отправили с этой страницы, и каждый ответ, по порядку, со временем от первого.",
			ExportSVG:   "Скачать SVG",
			ConsoleLink: "Открыть консоль",
			NotFound:    "Такого урока нет",
			NotFoundFor: "Нет урока с адресом",
		}
	default:
		return uiText{
			Lang:  en,
			Label: "EN",

			Sections:    "Sections",
			Lessons:     "Lessons",
			Consoles:    "Consoles",
			FiveWires:   "Five wires",
			Exercises:   "Exercises",
			Switch:      "Language",
			ThemeSystem: "Theme: as the system",
			ThemeLight:  "Theme: light",
			ThemeDark:   "Theme: dark",
			LargeText:   "Large text",
			Shortcuts:   "Keyboard shortcuts",

			KeyHelp:     "This list",
			KeyTheme:    "Theme: as the system, light, dark",
			KeySize:     "Large text, for a projector",
			KeyPrevNext: "Previous and next lesson",
			KeySend:     "Send the message you are editing",
			KeyClose:    "Close this list",
			KeyNote:     "The letter keys work in any keyboard layout, while you are not typing in a field.",
			Close:       "Close",

			Tagline:         "Learn, teach and debug the protocols that connect AI agents to tools, by reading the real bytes on the wire.",
			StartCourse:     "Start the course",
			StartCourseMore: ": lessons in English and Russian, with messages you send to the live servers from the page.",
			ConsolesMore:    ": write any message to any of the servers and read every byte of the answer.",
			FiveWiresMore:   ": the same tool call over all five protocols, side by side.",
			Servers:         "Servers",
			Protocol:        "Protocol",
			RunAlone:        "Run it on its own",
			Here:            "Here",
			Live:            "live",
			At:              "at",
			RunsAsChild:     "runs as a child process of its client",
			NotStarted:      "not started",
			OverStdio:       "over stdio:",
			TryIt:           "Try it",
			TryHTTP:         "The HTTP tool server above is running now. From a terminal:",
			TryStdio:        "Or over stdio, one JSON object per line:",
			TryGRPC:         "Or over gRPC, with every HTTP/2 frame of the call printed on stderr:",
			TryMCP:          "Or MCP over Streamable HTTP: a session starts with initialize.",
			TryA2A:          "Or hand the A2A agent a task: read its card, then send it a message.",
			Tools:           "Tools",
			SameCatalogue:   "Every server offers the same catalogue.",
			Tool:            "Tool",
			Version:         "Version",
			WhatItDoes:      "What it does",
			AlsoServes:      "also serves",

			Course:      "Course",
			CourseIntro: "The lessons in order. In each one you can send real messages to live servers from the page.",
			Contents:    "Contents",
			Previous:    "Previous",
			Next:        "Next",
			AllLessons:  "All lessons",
			Views:       "How to show the answer",
			Pretty:      "Pretty",
			Raw:         "Raw",
			Hex:         "Hex",
			LessonWire:  "This lesson's wire",
			You:         "you",
			WireIntro:   "Every message you sent from this page and every answer, in order, timed from the first.",
			ExportSVG:   "Download SVG",
			ConsoleLink: "Open the console",
			NotFound:    "No such lesson",
			NotFoundFor: "There is no lesson at",
		}
	}
}
