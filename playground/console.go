package playground

import (
	"net/http"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/playground/wire"
)

// The wire consoles, one per protocol, at /console/{slug}: a composer
// with a template for every method, a transcript of every message with
// its timing and size, each message in pretty, raw and hex views, stderr
// of stdio servers in a pane of its own, a sequence diagram, and "copy
// as" a command to run in a terminal. The page's behaviour is
// static/console.js (an entry module that imports wire.js, transcript.js
// and sequence.js); this file gives it its data.

// consoleData is what the page's script reads from the page, as JSON.
type consoleData struct {
	Slug      string            `json:"slug"`
	Name      string            `json:"name"`
	Targets   []string          `json:"targets"`
	Custom    string            `json:"custom"`
	Templates []frameTemplate   `json:"templates"`
	Bases     map[string]string `json:"bases"`    // target -> URL or host:port, for "copy as" and {{host}}
	Commands  map[string]string `json:"commands"` // stdio target -> the command behind it, for "copy as"
	Watch     string            `json:"watch"`    // the session this page follows ("presenter", "instructor" or an id), or ""
	Local     bool              `json:"local"`    // the page is on this machine, as consoleView.Local
	Missing   bool              `json:"missing"`  // Watch names a session the playground does not have
	Text      consoleText       `json:"text"`
}

// consoleView is the console page: its frame, its protocol, and the
// data its script reads.
type consoleView struct {
	pageView
	Spec  consoleSpec
	Data  consoleData
	Local bool // the page is on this machine: stdio and custom targets work
	// Exercise is the frame exercise done in this console, from
	// ?exercise=ID, whose panel checks the session; nil for none.
	Exercise *exercises.Exercise
	// Beside says the page follows the instructor of a classroom this
	// wirelab follows (?watch=instructor, wirelab serve --follow) and
	// shows the reader's own console beside it, with "try this frame
	// here" between them.
	Beside bool
}

// instructor is the session a wirelab that follows a classroom (wirelab
// serve --follow) relays the classroom's presenter into.
const instructor = "instructor"

// followHref is the link a classroom follower's bar offers on a page that
// does not follow anyone yet (watch is ""): follow; on a page that already
// follows, none.
func followHref(watch, follow string) string {
	if watch != "" {
		return ""
	}
	return follow
}

// consoleSite serves the console list and the consoles.
type consoleSite struct {
	bases    map[string]string // target -> URL or host:port
	commands map[string]string // stdio target -> the command behind it
	hub      *wire.Hub         // whose sessions a console may follow
}

// newConsoleSite serves consoles whose targets are t and whose
// followers follow the sessions of h; a nil h has none to check, for a
// test of the pages alone.
func newConsoleSite(t wire.Targets, h *wire.Hub) *consoleSite {
	return &consoleSite{
		bases: map[string]string{"http": t.HTTPURL, "http-auth": t.HTTPAuthURL, "grpc": t.GRPCAddr, "mcp-http": t.MCPURL, "a2a": t.A2AURL,
			"mcp-auth": t.MCPAuthURL, "oauth": t.OAuthURL},
		commands: map[string]string{"stdio": "wirelab server stdio", "mcp-stdio": "wirelab server mcp",
			"mcp-hostile": "wirelab server mcp --fixtures hostile"},
		hub: h,
	}
}

// missing says whether a console that follows watch has nothing to
// follow: a session's id the hub does not have (it ended, or the link is
// mistyped). The presenter is always there to wait for; the instructor
// a wirelab follows is the engine's to find (its socket answers 404).
func (c *consoleSite) missing(watch string) bool {
	if watch == "" || watch == "presenter" || watch == instructor || c.hub == nil {
		return false
	}
	_, ok := c.hub.Transcript(watch)
	return !ok
}

// list is the list of consoles.
func (c *consoleSite) list(w http.ResponseWriter, r *http.Request) {
	v := viewFor(w, r)
	v.Styles = append(v.Styles, "/static/console.css")
	consoleList(v, consoles(), consoleStrings(v.Lang)).Render(r.Context(), w)
}

// page is one console, /console/{slug}.
func (c *consoleSite) page(w http.ResponseWriter, r *http.Request) {
	v := viewFor(w, r)
	spec, ok := consoleFor(r.PathValue("slug"))
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		consoleNotFound(v, r.PathValue("slug"), consoleStrings(v.Lang)).Render(r.Context(), w)
		return
	}
	v.Styles = append(v.Styles, "/static/console.css")
	v.Scripts = append(v.Scripts, "/static/console.js")
	v.Class = "console-page"
	templates := localized(spec.Templates, v.Lang)
	local := wire.IsLocalPeer(r)
	cv := consoleView{pageView: v, Spec: spec, Local: local, Data: consoleData{
		Slug: spec.Slug, Name: spec.Name, Targets: spec.Targets, Custom: spec.Custom, Templates: templates,
		Bases: c.bases, Commands: c.commands, Watch: r.URL.Query().Get("watch"), Local: local, Text: consoleStrings(v.Lang),
	}}
	// The reader's own console beside the instructor's needs a page on
	// this machine (its console sends) with room for two.
	if cv.Data.Watch == instructor && local && !v.Embed {
		cv.Beside = true
		cv.Class += " console-beside"
	}
	if cv.Data.Watch != "" {
		cv.Class += " console-following"
	}
	// A follower of a session that is not there gets the page, read
	// only, saying so, with the status a script that asks for it again
	// (static/presenter.js, when its socket was refused) can read.
	status := http.StatusOK
	if c.missing(cv.Data.Watch) {
		cv.Data.Missing = true
		status = http.StatusNotFound
	}
	if e, ok := exercises.ByID(r.URL.Query().Get("exercise")); ok && e.Kind == exercises.Frame && cv.Data.Watch == "" {
		cv.Exercise = &e
		cv.Scripts = append(cv.Scripts, "/static/exercise.js")
	}
	show(w, r, status, consolePage(cv))
}
