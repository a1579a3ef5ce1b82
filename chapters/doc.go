// Package chapters holds the course: one markdown file per lesson,
// <lang>/<NN>-<slug>.md, in en/ and ru/ with the same names, the same
// sections and the same frames, embedded in the binary ([FS]) and
// rendered by the playground. NN orders the lessons, the slug is the
// lesson's address (/learn/<slug>), and a lesson's title is its first
// level-1 heading.
//
// A fenced block whose info string is "frame" and a target is a runnable
// frame: the page shows it as an editable message with a Send button
// that goes to a live server (stdio, http, grpc, mcp-stdio, mcp-http or
// a2a). The text cannot drift from what the servers really do: this
// package's test sends every frame, and every JSON-RPC message a lesson
// shows in a json block, to the real server in the order of the text,
// and checks every answer the lesson shows against the server's own.
// Go code shown in a lesson is to be included from compiled, tested
// files in this repository, never pasted.
package chapters
