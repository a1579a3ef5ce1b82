package cli

import (
	"fmt"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/progress"
)

// hintCmd shows an exercise's next hint, and remembers that it did; once
// all are shown, it shows them all again.
func hintCmd(args []string, env Env) (int, error) {
	fs := flags("hint")
	lang := langFlag(fs, "language of the hint")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		return exitUsage, usageErrorf("hint needs one exercise id")
	}
	if err := checkLang(*lang); err != nil {
		return exitUsage, err
	}
	e, err := exerciseArg("hint", pos[0])
	if err != nil {
		return exitUsage, err
	}
	hints := e.Hints.In(*lang)

	// The count is read and raised in one update, so that two hints
	// asked for at once are two different hints.
	shown := 0
	err = updateProgress(func(st *progress.State) error {
		p := st.Exercise(e.ID)
		shown = p.HintsShown
		if shown < len(hints) {
			p.HintsShown = shown + 1
			st.SetExercise(e.ID, p)
		}
		return nil
	})
	if err != nil {
		// Hints are counted in the progress: without it, which one is
		// next is unknown.
		return exitFailure, err
	}

	say := hintWords[*lang]
	if shown < len(hints) {
		fmt.Fprintf(env.Stdout, say.one+"\n%s\n", shown+1, len(hints), e.ID, hints[shown])
		if shown+1 < len(hints) {
			fmt.Fprintf(env.Stdout, say.next+"\n", e.ID)
		}
		return exitOK, nil
	}
	fmt.Fprintf(env.Stdout, say.all+"\n", len(hints), e.ID)
	for i, h := range hints {
		fmt.Fprintf(env.Stdout, "%d. %s\n", i+1, h)
	}
	if e.Kind == exercises.Code {
		fmt.Fprintf(env.Stdout, say.solution+"\n", e.ID)
	}
	return exitOK, nil
}

// hintWords are the lines hint prints around the hints, by language:
// formats filled with the same arguments in each, in the same order.
var hintWords = map[string]struct{ one, next, all, solution string }{
	"en": {
		one:      "Hint %d of %d for %s:",
		next:     "(`wirelab hint %s` again for the next one)",
		all:      "All %d hints for %s:",
		solution: "The reference solution is in solutions/%s of the wirelab repository.",
	},
	// The next hint is asked for with --lang ru, so that it is Russian
	// too; "all" names the count after the exercise, so that the noun
	// needs no plural form.
	"ru": {
		one:      "Подсказка %d из %d к %s:",
		next:     "(следующая — снова `wirelab hint --lang ru %s`)",
		all:      "Все подсказки к %[2]s (%[1]d):",
		solution: "Эталонное решение — в solutions/%s репозитория wirelab.",
	},
}
