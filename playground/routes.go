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
	mux.HandleFunc("GET /learn/{$}", lessons.courseMap(x))      // the course map: the lessons in order, with progress
	mux.HandleFunc("GET /learn/glossary", lessons.glossaryPage) // the course's terms, each linked to its lesson
	mux.HandleFunc("GET /learn/{slug}", lessons.page(x))        // one lesson, with its contents and its neighbours
	mux.HandleFunc("POST /learn/{slug}/quiz", lessons.quiz(x))  // an answer to a lesson's question, checked, kept for this machine

	// The wire consoles, and the same call over five wires.
	mux.Handle("GET /console", http.RedirectHandler("/console/", http.StatusMovedPermanently))
	mux.HandleFunc("GET /console/{$}", consoles.list)
	mux.HandleFunc("GET /console/{slug}", consoles.page) // ?watch=ID follows a session, ?exercise=ID checks one
	// A gRPC server's methods, from an uploaded .proto or protoset, or by reflection; and a CA pasted for TLS.
	mux.HandleFunc("POST /console/grpc/descriptors", grpcDescriptors(hub))
	mux.HandleFunc("POST /console/schema/check", schemaCheck) // a value against a JSON Schema, for the form over a frame
	// ?session=ID: what a console's session exchanged, as a tap's recording, to this machine.
	mux.HandleFunc("GET /console/export", exportRecording(hub))
	mux.HandleFunc("GET /five-wires", five.page)
	mux.HandleFunc("GET /taps", tapsPage(hub))            // the running wirelab taps, each opening the console that follows it
	mux.HandleFunc("POST /taps/open", openRecording(hub)) // a recording opened read only, from this machine

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
	mux.HandleFunc("GET /ws/tap", hub.ServeTap) // a wirelab tap on this machine publishes here

	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static.FS)))
	// Every other path: the styled 404, in the reader's language.
	mux.HandleFunc("GET /", notFound)
	return mux
}

// classroomRoutes are the routes of a playground that is a classroom
// (wirelab serve --classroom), added to routes': the join page, open to
// every machine; the dashboard, its stream, its QR code and its session
// log, for the instructor's machine; what followers' pages report. The
// door in front of every route is room.access.
func classroomRoutes(mux *http.ServeMux, room *classroomSite) {
	mux.HandleFunc("GET /join", room.joinPage)
	mux.HandleFunc("POST /join", room.join)
	mux.HandleFunc("GET /classroom", room.dashboard)
	mux.HandleFunc("GET /classroom/events", room.events)
	mux.HandleFunc("GET /classroom/qr.png", room.qr)
	mux.HandleFunc("POST /classroom/log", room.writeLog)
	mux.HandleFunc("POST /classroom/seen", room.seen)
	mux.HandleFunc("POST /classroom/progress", room.progress)
}

// roomDashboardRoutes are the routes of a playground without a room of
// its own that shows the room its bus shares (wirelab serve --nats, the
// instructor's laptop): the dashboard, its stream and its session log,
// for this machine.
func roomDashboardRoutes(mux *http.ServeMux, room *classroomSite) {
	mux.HandleFunc("GET /classroom", room.dashboard)
	mux.HandleFunc("GET /classroom/events", room.events)
	mux.HandleFunc("POST /classroom/log", room.writeLog)
}

// homeSite serves the home page: the servers, the tools, and progress.
type homeSite struct {
	view      homeView
	exercises *exerciseSite
	classroom *classroomSite // nil unless the playground is a classroom
}

func (h *homeSite) page(w http.ResponseWriter, r *http.Request) {
	v, view := viewFor(w, r), h.view
	view.Dashboard = h.classroom.dashboardName(r, v.Lang)
	if view.Classroom = h.classroom.panel(r, v.Lang); view.Classroom != nil {
		v.Styles = append(v.Styles, "/static/classroom.css")
	}
	show(w, r, http.StatusOK, home(v, view, newProgressView(h.exercises.state(v.Lang))))
}
