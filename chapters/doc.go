// Package chapters holds the course: one markdown file per lesson, in
// en/ and ru/ with the same names and the same structure, embedded in the
// binary and rendered by the playground. Code shown in a lesson is
// included from compiled, tested files in this repository, never pasted,
// so the text cannot drift from what the servers really do.
//
// The lessons arrive with the playground that renders them; until then
// this package is empty.
package chapters
