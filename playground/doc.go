// Package playground is the browser side of wirelab: HTTP handlers, HTML
// components written with templ (the generated *_templ.go files are
// committed and checked fresh in CI), and, as the playground grows, the
// websocket hub that streams live traffic to the page.
//
// Today it serves a home page that lists the servers and the tool
// catalogue. The playground is an http.Handler, so another Go program can
// mount it; it imports protocols/, and nothing in protocols/ imports it.
package playground
