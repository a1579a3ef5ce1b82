package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/wirelab/wirelab/playground/wire"
)

// exportRecording serves GET /console/export?session=ID: what a console's
// session exchanged with one target, as the recording file wirelab tap
// --record writes (Hub.Export), so that it opens again (wirelab tap open
// FILE, the /taps page), is checked (wirelab tap check FILE) and is
// replayed against a server (wirelab replay FILE --against COMMAND|URL).
// ?target= names the target, and ?to= a custom target's command line or
// URL; without them, the first target the session sent to.
//
// The playground's door has checked Host and Origin, as for every
// request, and the session id is the unguessable key a tab learns from
// its hello. Only this machine may export: a stdio server's command line
// and a learner's own server's answers are this machine's business.
// Errors are JSON ({"error": ...}), for the console's script to show.
func exportRecording(hub *wire.Hub) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if hub == nil {
			jsonError(w, http.StatusServiceUnavailable, "this playground has no engine whose sessions could be exported")
			return
		}
		if !wire.IsLocalPeer(r) {
			jsonError(w, http.StatusForbidden, "a session is exported to this machine only")
			return
		}
		q := r.URL.Query()
		events, err := hub.Export(q.Get("session"), q.Get("target"), q.Get("to"))
		switch {
		case errors.Is(err, wire.ErrNoSession):
			jsonError(w, http.StatusNotFound, err.Error())
			return
		case errors.Is(err, wire.ErrNothingToExport):
			jsonError(w, http.StatusConflict, err.Error())
			return
		case err != nil:
			jsonError(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		// JSON Lines has no registered media type; this is the one in
		// common use for newline-delimited JSON.
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, exportName(q.Get("target"), events[0].T)))
		enc := json.NewEncoder(w) // one event a line, as a recorder writes them
		for _, e := range events {
			if err := enc.Encode(e); err != nil {
				return // the reader has gone
			}
		}
	}
}

// unsafeName is what a file name leaves out of a target's name.
var unsafeName = regexp.MustCompile(`[^a-z0-9-]+`)

// exportName names the file: the target, and when the session began.
func exportName(target string, start time.Time) string {
	target = unsafeName.ReplaceAllString(target, "")
	if target == "" {
		target = "console"
	}
	return fmt.Sprintf("wirelab-%s-%s.jsonl", target, start.UTC().Format("20060102-150405"))
}
