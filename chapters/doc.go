// Package chapters holds the course: one markdown file per lesson,
// <lang>/<NN>-<slug>.md, in en/ and ru/ with the same names, the same
// sections and the same frames, embedded in the binary ([FS]) and
// rendered by the playground. NN orders the lessons, the slug is the
// lesson's address (/learn/<slug>), and a lesson's title is its first
// level-1 heading.
//
// A lesson opens, right under its title, with a lesson block: how long
// it takes, the earlier lessons to take first (their slugs; none for the
// first lesson) and two to four things the learner will be able to do,
// each one line of markdown. The page shows it as a box at the top, and
// the course map at /learn/ shows the time and the goals. The time and
// the needs are the same in every language; the goals are translated.
//
//	```lesson
//	minutes: 30
//	needs: stdio
//	goals:
//	- Write a tool call as a raw HTTP `POST` and read its status first.
//	- Decide between 401 and 403 for a bearer token.
//	```
//
// Besides GitHub's markdown, a lesson has five kinds of fenced block:
//
//   - ```frame TARGET is a runnable frame: the page shows it as an
//     editable message with a Send button that goes to a live server
//     (stdio, http, http-auth, grpc, mcp-stdio, mcp-http or a2a). A
//     lesson's frames are sent from one tab, in the order of the text,
//     so one may rely on what the frames above it did; {{session}} and
//     {{task}} in a frame stand for the MCP session and the A2A task the
//     answers so far have named, and {{resource}}, {{client_id}},
//     {{csrf}}, {{code}} and {{access_token}} for the OAuth flow's values
//     (static/wire.js, WireKnown).
//   - ```reply shows what the frame above it gets back. It may leave
//     things out, but not say anything the server does not: the
//     playground's TestLessonFrames sends every frame of every lesson, in
//     both languages, to the reference servers and holds every reply
//     block to the real answer.
//     ```reply predict is the same, folded until the reader opens it or
//     sends the frame: for an answer worth predicting first.
//   - ```quiz is the lesson's questions, at its end, under "Check
//     yourself": three to five, each a question, its choices and a line
//     that explains the answer, one line each; "+" marks the right
//     choice. The page asks them one by one and the server says whether
//     an answer is right, then explains; the learner's first answer to
//     each is kept in their progress and counted on the course map.
//     Every language asks the same questions with the same right choice.
//     A line starts with "? " (a question), "- " (a wrong choice), "+ "
//     (the right one) or "= " (the explanation); package
//     playground/course has an example (Question).
//   - ```sequence is a sequence diagram, "A -> B: message",
//     "B --> A: answer", "note A: text", drawn as SVG on the server.
//   - ```go include=PATH:NAME shows code from the project: the
//     declaration NAME (a function, Type.Method, a type, or a const or var
//     group) of the file PATH, relative to the repository's root, or the
//     whole file without :NAME. Code is never pasted: TestIncludes fails
//     when a block differs from its file, and
//     go test ./chapters -run TestIncludes -update copies it afresh.
//
// The tests here check the files themselves: names and titles, that
// every translation has the English lesson's sections, frames, replies,
// included code and diagrams in the same order, and the includes. The
// playground's tests render every lesson, follow every link (lessons,
// exercises, anchors) and send every frame.
package chapters
