// Package solutions holds a reference solution for every exercise, in
// solutions/<id>/, mirroring exercises/<id>/. Solutions are teaching
// material held to the same standard as protocols/: small, clear, and
// passing their exercise's grader in this repository's own tests.
package solutions
