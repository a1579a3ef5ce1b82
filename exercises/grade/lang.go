package grade

import "fmt"

// Lang is a language a report is written in: the course's two.
type Lang string

// The languages of reports.
const (
	English Lang = "en"
	Russian Lang = "ru"
)

// russian is the Russian of an English phrase of the graders (a Failf
// format, a description given to About, a hint, a stage's name, a
// label of the text report), from the catalogue in ru.go. A phrase the
// catalogue lacks stays English, which TestRussianCatalogue forbids
// for every literal it can find.
func russian(en string) string {
	if ru, ok := russianText[en]; ok {
		return ru
	}
	return en
}

// russianf formats the Russian of format with args. An argument that is
// itself a phrase of the catalogue (a description such as "a ping after
// notifications/initialized", passed on to a "%s: ..."), or a phrase
// made with phrasef, is translated too; every other argument (ids,
// bytes, numbers, JSON, names on the wire) is shown as it is.
func russianf(format string, args ...any) string {
	ru := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case string:
			ru[i] = russian(a)
		case phrase:
			ru[i] = russianf(a.format, a.args...)
		default:
			ru[i] = a
		}
	}
	return fmt.Sprintf(russian(format), ru...)
}

// phrase is a description made of parts ("a POST of initialize"), to be
// passed as an argument to Failf and the like: it is shown in English in
// the English summary, and in Russian in the Russian one.
type phrase struct {
	format string
	args   []any
}

// phrasef makes a phrase formatted like fmt.Sprintf.
func phrasef(format string, args ...any) phrase { return phrase{format, args} }

// String is the phrase in English.
func (p phrase) String() string { return fmt.Sprintf(p.format, p.args...) }

// text is one of the report's own words (a label, the last line), given
// in English, in lang.
func text(lang Lang, en string) string {
	if lang == Russian {
		return russian(en)
	}
	return en
}

// StageName is how a stage's name is shown in lang. A Russian report
// keeps the English name, the one the exercise's README.ru.md lists,
// followed by its Russian: "answers one call — отвечает на один вызов".
func StageName(lang Lang, name string) string {
	if lang != Russian {
		return name
	}
	if ru := russian(name); ru != name {
		return name + " — " + ru
	}
	return name
}

// summaryIn and hintIn are a failure's summary and hint in lang, the
// English where there is no Russian.
func (f *Failure) summaryIn(lang Lang) string {
	if lang == Russian && f.SummaryRU != "" {
		return f.SummaryRU
	}
	return f.Summary
}

func (f *Failure) hintIn(lang Lang) string {
	if lang != Russian {
		return f.Hint
	}
	if f.HintRU != "" {
		return f.HintRU
	}
	return russian(f.Hint)
}

// translate fills in what the catalogue has for a stage's result once
// it is known: the Russian of its name and of its failure's hint. A hint
// made of parts has its Russian set where it is made.
func (r *StageResult) translate() {
	if ru := russian(r.Name); ru != r.Name {
		r.NameRU = ru
	}
	if f := r.Failure; f != nil && f.HintRU == "" {
		if ru := russian(f.Hint); ru != f.Hint {
			f.HintRU = ru
		}
	}
}
