package playground

import (
	"net/http"

	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/static"
)

// routes is every route of the playground, in one place: each path and
// the handler that serves it. Every page takes ?lang=en|ru (a cookie
// remembers it) and ?embed=1, which leaves out everything around the
// text, for an iframe (viewFor, in layout.templ).
func routes(hub *wire.Hub, home *homeSite, lessons *lessonSite, consoles *consoleSite, five *fiveWiresSite, x *exerciseSite) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", home.page) // what runs where, and the learner's progress

	// The course.
	mux.Handle("GET /learn", http.RedirectHandler("/learn/", http.StatusMovedPermanently))
	mux.HandleFunc("GET /learn/{$}", lessons.list)    // the lessons, in order
	mux.HandleFunc("GET /learn/{slug}", lessons.page) // one lesson, with its contents and its neighbours

	// The wire consoles, and the same call over five wires.
	mux.Handle("GET /console", http.RedirectHandler("/console/", http.StatusMovedPermanently))
	mux.HandleFunc("GET /console/{$}", consoles.list)
	mux.HandleFunc("GET /console/{slug}", consoles.page) // ?watch=ID follows a session, ?exercise=ID checks one
	mux.HandleFunc("GET /five-wires", five.page)

	// The exercises. The POSTs change progress or run code, for a page on
	// this machine only.
	mux.Handle("GET /exercises", http.RedirectHandler("/exercises/", http.StatusMovedPermanently))
	mux.HandleFunc("GET /exercises/{$}", x.list)
	mux.HandleFunc("GET /exercises/{id}", x.page)
	mux.HandleFunc("POST /exercises/{id}/hint", x.hint)
	mux.HandleFunc("GET /exercises/{id}/solution", x.solution)
	mux.HandleFunc("POST /exercises/{id}/solution", x.solution)
	mux.HandleFunc("POST /exercises/{id}/check", x.check) // a frame exercise, from a session's transcript
	mux.HandleFunc("POST /exercises/{id}/grade", x.grade) // a code exercise, streamed stage by stage

	// The engine: every tab's websocket, and ?watch=ID to follow one.
	mux.HandleFunc("GET /ws", hub.ServeWS)

	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static.FS)))
	// Every other path: the styled 404, in the reader's language.
	mux.HandleFunc("GET /", notFound)
	return mux
}

// homeSite serves the home page: the servers, the tools, and progress.
type homeSite struct {
	view      homeView
	exercises *exerciseSite
}

func (h *homeSite) page(w http.ResponseWriter, r *http.Request) {
	show(w, r, http.StatusOK, home(viewFor(w, r), h.view, newProgressView(h.exercises.state())))
}
