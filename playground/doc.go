// Package playground is the browser side of wirelab: the pages. It holds
// the HTTP handlers and the HTML components written with templ (the
// generated *_templ.go files are committed and checked fresh in CI), and
// composes two things below it: the course, rendered from markdown, and
// the engine, package playground/wire, which carries live traffic between
// a tab and the servers.
//
// The course is package playground/course: it renders the lessons of
// package chapters, in English and Russian, once, when New runs, and the
// pages under /learn/ (lessons.go, lesson.templ) show them; the exercise
// pages render their instructions with it too. The pages speak the
// course's languages (course.Lang); their own strings are in i18n.go. A
// fenced block whose info string is "frame TARGET" becomes a runnable
// frame: static/frames.js sends its text over the websocket at /ws, which
// the engine serves (wire.Hub.ServeWS): it passes the frame to the
// target's server and streams back every byte, as events.
//
// The exercises (exercises.go) have a page each under /exercises/. A
// frame exercise is checked from the transcript the engine keeps for a
// tab's session (wire.Hub.Transcript); a code exercise is graded by
// package grade in the learner's workspace, for a page on this machine
// only (wire.IsLocalPeer), with each stage streamed to the page as it
// ends, and counted among the work the engine's Close waits for
// (wire.Hub.Hold).
//
// In classroom mode (Options.Classroom, wirelab serve --classroom),
// classroom.go keeps the door in front of every route: a page from
// another machine gets the join page until it gives the code, and then,
// as a follower whose id a cookie holds, reads and follows but changes
// nothing on this machine; the instructor's dashboard at /classroom
// lists the followers of the room, package internal/classroom. A room
// spread over playgrounds that share a bus (Classroom.Others, wirelab
// serve --nats) spreads the dashboard too (classroom_spread.go): each
// classroom tells the others its followers, and every dashboard lists
// them all, each with its playground; a playground with no room of its
// own (the instructor's laptop, which presents) serves that dashboard
// alone.
//
// Every route is listed in one place, routes.go. The playground is an
// http.Handler, so another Go program can mount it; it imports protocols/,
// and nothing in protocols/ imports it.
package playground
