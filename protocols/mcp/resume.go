package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// In a 2025-11-25 session a connection may break while the server is
// still answering on an SSE stream, and the spec does not let the break
// cancel the request. So every event of such a stream has an id, the
// stream's number and the event's, and the first event is one with an id
// and no data, which tells the client where it stands before anything
// happens:
//
//	id: 3-0
//	data:
//
//	id: 3-1
//	data: {"jsonrpc":"2.0","method":"notifications/progress",...}
//
// A client that lost the connection sends GET with the header
// Last-Event-ID: 3-1 and gets what it missed on that stream, and then
// the rest of it, the answer included. Revision 2026-07-28 dropped all
// of this: there a broken stream is a lost request, sent again.

const (
	// resumeWindow is how long a request whose client disconnected goes
	// on without anyone to tell: if no GET picks its stream up by then,
	// it is cancelled.
	resumeWindow = time.Minute
	// replayEvents is the most events one stream keeps for a client that
	// comes back; older ones are gone, and the resumed stream says so.
	replayEvents = 1000
	// replayStreams is how many streams a session keeps for resumption,
	// the most recent.
	replayStreams = 16
)

// replay is one resumable SSE stream: what it sent, and where it sends
// now.
type replay struct {
	stream int // its number in the session

	mu      sync.Mutex
	events  [][]byte   // the JSON of events dropped+1, dropped+2, ...
	dropped int        // how many of the first events are no longer kept
	live    *sseStream // the connection events go to now; nil while there is none
	done    bool       // the answer was sent: the stream is over
	over    chan struct{}
	cancel  func() // cancels the request, if its client is gone for good
}

func newReplay(stream int, cancel func()) *replay {
	return &replay{stream: stream, over: make(chan struct{}), cancel: cancel}
}

// id is the event id of event n of this stream.
func (rp *replay) id(n int) string { return strconv.Itoa(rp.stream) + "-" + strconv.Itoa(n) }

// begin makes s the stream's connection and sends the priming event.
func (rp *replay) begin(s *sseStream) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.live = s
	if s.event(rp.id(0), nil) != nil {
		rp.live = nil
	}
}

// send keeps a message and sends it on the live connection, if there is
// one. A broken connection is not an error here: the message waits for a
// client that resumes.
func (rp *replay) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.done {
		return errStreamDone
	}
	rp.events = append(rp.events, b)
	if len(rp.events) > replayEvents {
		rp.events = rp.events[1:]
		rp.dropped++
	}
	if rp.live != nil && rp.live.event(rp.id(rp.dropped+len(rp.events)), b) != nil {
		rp.live = nil
	}
	return nil
}

// end marks the stream over, after its answer.
func (rp *replay) end() {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if !rp.done {
		rp.done = true
		close(rp.over)
	}
	rp.live = nil
}

// resume sends s every event after event n, then makes s the live
// connection. It reports false if the stream is already over, in which
// case s has all there is.
func (rp *replay) resume(s *sseStream, n int) bool {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if n < rp.dropped {
		s.comment(fmt.Sprintf("events %s to %s are no longer kept", rp.id(n+1), rp.id(rp.dropped)))
		n = rp.dropped
	}
	for i := n - rp.dropped; i < len(rp.events); i++ {
		if s.event(rp.id(rp.dropped+i+1), rp.events[i]) != nil {
			return false
		}
	}
	if rp.done {
		return false
	}
	rp.live = s
	return true
}

// detach forgets s as the live connection, if it still is.
func (rp *replay) detach(s *sseStream) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.live == s {
		rp.live = nil
	}
}

// orphaned is called when a client that listened to the stream went
// away: the request is cancelled after resumeWindow unless by then a
// client is listening again or the stream is over.
func (rp *replay) orphaned() {
	time.AfterFunc(resumeWindow, func() {
		rp.mu.Lock()
		abandon := rp.live == nil && !rp.done
		rp.mu.Unlock()
		if abandon {
			rp.cancel()
		}
	})
}

// newReplay starts a resumable stream in the session, forgetting the
// oldest when there are too many. cancel cancels the stream's request.
func (hs *httpSession) newReplay(cancel func()) *replay {
	hs.streamMu.Lock()
	defer hs.streamMu.Unlock()
	hs.lastStream++
	rp := newReplay(hs.lastStream, cancel)
	if hs.replays == nil {
		hs.replays = make(map[int]*replay)
	}
	hs.replays[rp.stream] = rp
	delete(hs.replays, rp.stream-replayStreams)
	return rp
}

// resumeStream answers GET with Last-Event-ID: the rest of one stream.
func (h *HTTPHandler) resumeStream(w http.ResponseWriter, r *http.Request, hs *httpSession) {
	last := r.Header.Get("Last-Event-ID")
	stream, n, ok := parseEventID(last)
	hs.streamMu.Lock()
	rp := hs.replays[stream]
	hs.streamMu.Unlock()
	if !ok || rp == nil {
		httpError(w, http.StatusNotFound, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"Last-Event-ID %s names no stream this session can resume; ids look like 3-1 (stream 3, event 1), and a session keeps its %d latest streams", quote(last), replayStreams))
		return
	}
	s := newSSEStream(w)
	s.start()
	defer s.close()
	if !rp.resume(s, n) {
		return
	}
	defer rp.detach(s)
	select {
	case <-rp.over:
	case <-r.Context().Done():
		rp.detach(s)
		rp.orphaned()
	case <-hs.ctx.Done():
	}
}

// parseEventID reads "stream-n".
func parseEventID(id string) (stream, n int, ok bool) {
	a, b, found := strings.Cut(id, "-")
	s, err1 := strconv.Atoi(a)
	e, err2 := strconv.Atoi(b)
	return s, e, found && err1 == nil && err2 == nil && s > 0 && e >= 0
}
