// Package playground is the browser side of wirelab: HTTP handlers, HTML
// components written with templ (the generated *_templ.go files are
// committed and checked fresh in CI), the course rendered from markdown,
// and the websocket hub that carries live traffic to the page.
//
// The course (lessons.go, markdown.go) comes from package chapters, in
// English and Russian. A fenced block whose info string is "frame TARGET"
// becomes a runnable frame: static/frames.js sends its text over the
// websocket at /ws, and the hub (hub.go, session.go) passes it to the
// target's server and streams back every byte, as events. A stdio target
// gets a child process per tab (child.go); HTTP, MCP over HTTP, A2A and
// gRPC targets get one exchange per frame (exchange.go).
//
// The exercises (exercises.go) have a page each under /exercises/. A
// frame exercise is checked from the transcript the hub keeps for a tab's
// session (the same events a follower replays); a code exercise is
// graded by package grade in the learner's workspace, for a page on this
// machine only, with each stage streamed to the page as it ends.
//
// The playground is an http.Handler, so another Go program can mount it;
// it imports protocols/, and nothing in protocols/ imports it.
package playground
