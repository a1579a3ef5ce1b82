package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/progress"
)

// exerciseEntry is one exercise as `wirelab exercises --json` lists it.
type exerciseEntry struct {
	ID       string             `json:"id"`
	Kind     exercises.Kind     `json:"kind"`
	Lesson   string             `json:"lesson"`
	Title    exercises.Text     `json:"title"`
	Hints    int                `json:"hints"`
	Progress *progress.Exercise `json:"progress"` // null when the progress file cannot be read
}

// exercisesCmd lists the exercises with the learner's progress. With a
// progress file that cannot be read, it still lists them, says why the
// progress is missing, and exits 1.
func exercisesCmd(args []string, env Env) (int, error) {
	fs := flags("exercises")
	asJSON := fs.Bool("json", false, "print JSON")
	lang := langFlag(fs, "language of the titles")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	if fs.NArg() > 0 {
		return exitUsage, usageErrorf("exercises takes no arguments, got %q", fs.Arg(0))
	}
	if err := checkLang(*lang); err != nil {
		return exitUsage, err
	}
	st, perr := loadProgress()

	var list []exerciseEntry
	for _, e := range exercises.List() {
		entry := exerciseEntry{ID: e.ID, Kind: e.Kind, Lesson: e.Lesson, Title: e.Title, Hints: len(e.Hints.EN)}
		if perr == nil {
			p := st.Exercise(e.ID)
			entry.Progress = &p
		}
		list = append(list, entry)
	}

	if *asJSON {
		b, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			return exitFailure, err
		}
		fmt.Fprintf(env.Stdout, "%s\n", b)
	} else {
		tw := tabwriter.NewWriter(env.Stdout, 0, 8, 2, ' ', 0)
		// The ids, kinds and lessons are names to type, the same in
		// both languages; the rest is said in lang.
		if *lang == "ru" {
			fmt.Fprintln(tw, "ID\tВИД\tУРОК\tПРОГРЕСС\tНАЗВАНИЕ")
		} else {
			fmt.Fprintln(tw, "ID\tKIND\tLESSON\tPROGRESS\tTITLE")
		}
		for _, e := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Kind, e.Lesson, progressWord(e, *lang), e.Title.In(*lang))
		}
		tw.Flush()
	}
	if perr != nil {
		return exitFailure, fmt.Errorf("progress not shown: %w", perr)
	}
	return exitOK, nil
}

// progressWord sums up the progress on one exercise in a few words, in
// lang: passed; or how the learner has been at it (failed grades or
// checks, hints seen, the solution seen early), which the playground's
// course map calls "tried"; or "-" for not started.
func progressWord(e exerciseEntry, lang string) string {
	word := func(en, ru string) string {
		if lang == "ru" {
			return ru
		}
		return en
	}
	p := e.Progress
	switch {
	case p == nil:
		return "?"
	case p.Passed:
		return word("passed", "пройдено")
	}
	var words []string
	if p.Failures > 0 {
		words = append(words, fmt.Sprintf(word("failed %d", "неудач: %d"), p.Failures))
	}
	if p.HintsShown > 0 {
		words = append(words, fmt.Sprintf(word("hint %d/%d", "подсказки %d/%d"), p.HintsShown, e.Hints))
	}
	if p.SolutionShown {
		words = append(words, word("solution seen", "решение открыто"))
	}
	if len(words) == 0 {
		return "-"
	}
	return strings.Join(words, ", ")
}

// checkLang accepts the course's languages.
// langFlag defines --lang, the language of what a command says: en or
// ru. Its default is $WIRELAB_LANG when that is en or ru, so that a
// learner who reads Russian sets it once; else en.
func langFlag(fs *flag.FlagSet, usage string) *string {
	def := "en"
	if v := os.Getenv("WIRELAB_LANG"); v == "en" || v == "ru" {
		def = v
	}
	return fs.String("lang", def, usage+": en or ru (default $WIRELAB_LANG, else en)")
}

func checkLang(lang string) error {
	if lang != "en" && lang != "ru" {
		return usageErrorf("--lang %q: the course is in en and ru", lang)
	}
	return nil
}

// exerciseArg looks up an exercise named on the command line.
func exerciseArg(cmd, id string) (exercises.Exercise, error) {
	e, ok := exercises.ByID(id)
	if !ok {
		return e, argumentErrorf("%s: unknown exercise %q; `wirelab exercises` lists them", cmd, id)
	}
	return e, nil
}
