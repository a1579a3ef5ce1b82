// Package course turns the lessons' markdown into what a lesson page
// shows: HTML, with the runnable frames, the reply blocks and the
// sequence diagrams drawn in, and what the page around the text needs
// (the title, the table of contents, the frames in order).
//
// # What a lesson may hold
//
// A lesson is GitHub's markdown (tables, task lists, strikethrough, bare
// links; raw HTML is not passed through) plus six kinds of fenced
// block, which package [github.com/wirelab/wirelab/chapters] describes
// for the lessons' authors:
//
//   - ```lesson, right under the title: the lesson's time (minutes:), the
//     earlier lessons to take first (needs:, slugs), and two to four
//     goals, "- ..." lines of inline markdown (intro.go). Render reads
//     it into [Rendered].Intro and leaves it out of the HTML; Load checks
//     that each lesson needed comes before, that every language says the
//     same time and needs, and puts the box at the top of the lesson.
//   - ```frame TARGET, a runnable frame: an editable message and a Send
//     button, in markup that the page's script (static/frames.js) finds
//     and sends to a live server of TARGET. A frame that names no known
//     target, or holds nothing to send, is an error: a page never shows
//     a Send button that cannot work.
//   - ```reply, what the frame above it gets back, shown under a caption
//     that says so.
//   - ```quiz, a few questions on the lesson, each with its choices, the
//     right one marked, and a line that explains it (quiz.go). Render
//     reads them into [Rendered].Quiz and shows them as forms without
//     the answers, which only the server tells, once a question is
//     answered; Load checks that every language asks as many questions
//     with the same right choices.
//   - ```sequence, a sequence diagram ("A -> B: message",
//     "B --> A: answer", "note A: text"), drawn here as inline SVG whose
//     colours come from static/lesson.css (diagram.go).
//   - code whose info string holds include=PATH (```go include=PATH:NAME),
//     shown highlighted under a line naming the file it comes from.
//     Keeping the block the same as the file is package chapters'
//     business, not the renderer's.
//
// Code is coloured on the server, with CSS classes whose colours for both
// themes are in static/highlight.css. Headings get ids that keep letters
// of any script, and a "#" link.
//
// # What it returns
//
// [Markdown.Render] renders one document (an exercise's instructions, a
// solution) into a [Rendered]. [Load] renders every lesson of a tree of
// <lang>/NN-slug.md files, in every [Lang], once, into [Lessons], which
// lists them in order and finds one by its slug with its neighbours. The
// few words the renderer adds itself (a Send button, a reply's caption,
// a heading link's label, "From") are here, in each language; every
// other string a page shows is the pages'.
//
// # Limits
//
// goldmark's time grows faster than its input on some shapes, so a
// document is refused, with the line at fault, when it is larger than
// 256 KiB, has a line longer than 16 KiB, or opens more than 32 nested
// quotes and list items on one line (checkLimits). A sequence diagram has
// at most 6 participants and 40 statements.
//
// # What it does not know
//
// The course knows no engine: it imports nothing of package
// playground/wire and serves no HTTP. A frame is text with a target's
// name; sending it, and showing what comes back, is the page's script
// talking to the engine. Package playground, the pages, puts the two
// together.
package course
