// Package static holds the playground's browser assets (stylesheets,
// scripts, images), embedded in the binary so that wirelab runs from any
// directory and makes no request outside this machine.
//
// The scripts are ES modules, loaded without a bundler, one per concern,
// on the seams of the Go side:
//
//	wire.js        the websocket to the engine (playground/wire)
//	transcript.js  the engine's events as rows, and a row's views
//	sequence.js    a transcript as a sequence diagram
//	presenter.js   the classroom live: presenting, and following the presenter
//	room.js        a classroom follower's bar: where it is, progress if shared
//	console.js     a wire console (entry)
//	schemaform.js  a form beside a console's frame, from a JSON Schema it has seen
//	history.js     the frames a console sent, per method, kept across reloads
//	frames.js      a lesson's runnable frames and its part in a classroom (entry)
//	fivewires.js   the five-wires page (entry), with verdict.js
//	exercise.js    an exercise's Check (entry)
//	classroom.js   the instructor's classroom dashboard, live (entry)
//	taps.js        the taps page, kept current (entry)
//	search.js      search over the lessons, on the course map (entry)
//	quiz.js        a lesson's questions, and their count on the course map (entry)
//
// A page lists only its entry modules, as <script type="module">, and
// each module imports what it uses; nothing is shared through window.
// comfort.js (theme, text size, shortcuts) is the one classic script:
// it runs in <head> before the first paint, which no module can, and
// keeps its names inside one function.
package static

import "embed"

// FS holds every asset, served by the playground under /static/.
//
//go:embed *.css *.js
var FS embed.FS
