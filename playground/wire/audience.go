package wire

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
)

// maxAudience bounds the tabs of one hub that follow a presenter: a
// lecture hall, with room to spare. Each costs a buffer of pointers and
// two goroutines; the events themselves are shared.
const maxAudience = 1024

// The ids a tab may watch beside a session's: whoever presents in the
// room, and the instructor of another playground relayed into this one
// (FollowRemote).
const (
	watchPresenter  = "presenter"
	watchInstructor = "instructor"
)

// Status messages to the followers of a presenter.
type status struct {
	Op      string `json:"op"` // "status"
	Status  string `json:"status"`
	Session string `json:"session,omitempty"`
	Message string `json:"message,omitempty"`
}

var (
	statusWaiting = mustJSON(status{Op: "status", Status: "waiting"})
	statusEnded   = mustJSON(status{Op: "status", Status: "ended"})
)

// stateMessage carries the presenting page's state to a follower.
type stateMessage struct {
	Op    string          `json:"op"` // "state"
	State json.RawMessage `json:"state"`
}

// audience is the tabs of this hub that follow a presenter: the room's,
// fed from the bus by the receiver, or a remote instructor's, fed by
// FollowRemote. It keeps what a late-comer needs: whether someone
// presents, the presenter's history and its latest state. Like a feed,
// it never waits on a follower: one that falls behind is dropped, and
// its page reconnects.
type audience struct {
	// mu guards everything below; sends under it never block.
	mu        sync.Mutex
	status    []byte // the status a late-comer gets first: waiting, live or reconnecting
	session   string // the presenting session; "" when nobody presents
	kept      history
	state     []byte // the latest {"op":"state"} message, nil if none
	followers map[*follower]bool
	ended     bool // no presenter will come (the relay stopped); nobody may attach
}

func newAudience() *audience {
	return &audience{status: statusWaiting, followers: make(map[*follower]bool)}
}

// attach adds a follower, with hello, the status, and, when someone
// presents, the history and the state queued in that order. fl.out must
// be empty and hold them and sendBuffer more.
func (a *audience) attach(fl *follower, hello []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ended {
		return errSessionEnded
	}
	if len(a.followers) >= maxAudience {
		return say(noteTooManyFollowers, maxAudience)
	}
	fl.out <- hello
	fl.out <- a.status
	for _, b := range a.kept.all() {
		fl.out <- b
	}
	if a.state != nil {
		fl.out <- a.state
	}
	a.followers[fl] = true
	return nil
}

// detach forgets a follower whose tab has gone.
func (a *audience) detach(fl *follower) {
	a.mu.Lock()
	delete(a.followers, fl)
	a.mu.Unlock()
}

// answer sends a message to one follower, if it still follows.
func (a *audience) answer(fl *follower, b []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.followers[fl] {
		tell(a.followers, fl, b)
	}
}

// tellAll sends messages to every follower. a.mu is held.
func (a *audience) tellAll(msgs ...[]byte) {
	for fl := range a.followers {
		for _, b := range msgs {
			if !tell(a.followers, fl, b) {
				break
			}
		}
	}
}

// begin says that session presents now, with the events it has shown
// and its state so far (both may be empty).
func (a *audience) begin(session string, events [][]byte, state []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.session = session
	a.status = mustJSON(status{Op: "status", Status: "live", Session: session})
	a.kept.reset()
	a.state = nil
	a.tellAll(a.status)
	for _, b := range events {
		a.kept.keep(b)
		a.tellAll(b)
	}
	if state != nil {
		a.state = mustJSON(stateMessage{Op: "state", State: state})
		a.tellAll(a.state)
	}
}

// event passes on one event of the presenter's.
func (a *audience) event(b []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.kept.keep(b)
	a.tellAll(b)
}

// setState passes on the presenting page's state, and keeps it.
func (a *audience) setState(state []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.state = mustJSON(stateMessage{Op: "state", State: state})
	a.tellAll(a.state)
}

// end says that the presenter has gone: "ended", then "waiting" for the
// next.
func (a *audience) end() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.session, a.status, a.state = "", statusWaiting, nil
	a.kept.reset()
	a.tellAll(statusEnded, statusWaiting)
}

// waiting says that nobody presents, if that is news.
func (a *audience) waiting() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if string(a.status) == string(statusWaiting) {
		return
	}
	a.session, a.status, a.state = "", statusWaiting, nil
	a.kept.reset()
	a.tellAll(statusWaiting)
}

// lost says that the presenter cannot be heard for now (the relay's
// connection broke), and why; what was kept is forgotten, since the
// presenter's history comes again with its "live".
func (a *audience) lost(why string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.session, a.state = "", nil
	a.status = mustJSON(status{Op: "status", Status: "reconnecting", Message: why})
	a.kept.reset()
	a.tellAll(a.status)
}

// close ends the audience: each follower gets bye, and its writer
// finishes what it holds and closes the connection normally.
func (a *audience) close(bye []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ended = true
	for fl := range a.followers {
		tell(a.followers, fl, bye)
		close(fl.ended)
		delete(a.followers, fl)
	}
}

// count says how many tabs follow.
func (a *audience) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.followers)
}

// serveAudience serves a tab that follows a presenter (?watch=presenter,
// ?watch=instructor): read-only, like a session's follower, but it
// follows whoever presents, through their changes, until the tab goes or
// the hub closes.
func (h *Hub) serveAudience(w http.ResponseWriter, r *http.Request, id string, a *audience) {
	ctx, cancel := context.WithCancelCause(h.ctx)
	defer cancel(nil)
	fl := newFollower(cancel)
	fl.lang = langOf(r)
	hello := mustJSON(Hello{Op: "hello", Session: sessionOf(id), Watching: true, Presenter: true})
	h.mu.Lock()
	err := h.ctx.Err()
	if err == nil {
		err = a.attach(fl, hello)
	}
	if err == nil {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	switch {
	case errors.Is(err, context.Canceled):
		http.Error(w, say(noteShuttingDown).in(fl.lang), http.StatusServiceUnavailable)
		return
	case errors.Is(err, errSessionEnded):
		http.Error(w, say(noteNoSessionEnded, id).in(fl.lang), http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, cannotWatch(err, fl.lang), http.StatusServiceUnavailable)
		return
	}
	defer h.wg.Done()
	defer a.detach(fl)
	h.serveFollower(ctx, cancel, w, r, fl, a, say(noteFollowing).in(fl.lang))
}

// sessionOf is the session a presenter's follower names in its hello:
// none for the room's presenter, who changes; the relay's own id for
// the instructor.
func sessionOf(id string) string {
	if id == watchPresenter {
		return ""
	}
	return id
}
