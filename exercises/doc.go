// Package exercises holds the graded exercises. Each exercise lives in
// exercises/<id>/ with its instructions (English and Russian), hints, and
// starter code that compiles but does not yet pass; graders test the
// learner's program from outside, in named stages, speaking the protocol
// to it the way a real peer would.
//
// Starter code imports only the standard library and published modules,
// never this repository's packages, so a workspace written by
// `wirelab init` builds anywhere.
package exercises
