// Package exercises holds the graded exercises. Each exercise lives in
// exercises/<id>/ with its instructions (English and Russian), hints, and
// starter code that compiles but does not yet pass; graders test the
// learner's program from outside, in named stages, speaking the protocol
// to it the way a real peer would.
//
// Starter code imports only the standard library and published modules,
// never this repository's packages, so a workspace written by
// `wirelab init` builds anywhere.
//
// # Two kinds
//
// Frame exercises are done in the playground's wire console, by typing
// messages to a live server, and are graded from the session's
// transcript. Code exercises are Go programs written in the learner's
// editor, started from a starter and graded by package grade.
//
// # Where things are
//
// [List] is the catalogue: every exercise's id, kind, lesson, title and
// hints, in the order the course meets them. [Instructions] returns an
// exercise's <id>/README.md (or README.ru.md), and [Starter] the starter
// files `wirelab init` copies into DIR/<id>/, next to a go.mod declaring
// [GoVersion]. The graders are in package grade (exercises/grade), each
// with its deliberately broken programs in grade/testdata; the learner's
// progress is kept by package progress (exercises/progress); reference
// solutions are in solutions/<id>/.
//
// A new exercise needs its entry in [List] (its id is then final), its
// folder with README.md and README.ru.md, and for a code exercise
// main.go, its folder named in content.go's go:embed line, a grader in
// package grade, and a solution.
package exercises
