package wire

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

// feed carries a session's events to its tab and to the tabs that watch
// it (followers). It keeps the latest events for a follower that comes
// late, and never waits on anyone: a tab or follower that falls behind
// by sendBuffer events is dropped. While the session presents, every
// event goes to the room's bus as well (tap), under the same lock, so
// that the room sees them in the tab's order.
type feed struct {
	presenter chan<- []byte // the session's own writer
	drop      func()        // ends the session, whose tab fell behind

	// mu guards everything below. Sends on channels under it never
	// block (select with default), so holding it is short.
	mu        sync.Mutex
	kept      history // the latest events
	followers map[*follower]bool
	ended     bool          // the session is over; no follower may attach
	tap       *presentation // the room's bus, while the session presents
	state     []byte        // the presenting page's latest state, relayed with the events
}

// history keeps the latest events of a transcript, oldest first: at most
// replayEvents, and no more than replayBytes of them, though always the
// latest one. Its owner guards it.
type history struct {
	ring     [replayEvents][]byte
	first, n int // where the oldest is, and how many
	size     int // bytes in the ring
}

// keep adds an event, forgetting the oldest past replayEvents or
// replayBytes.
func (h *history) keep(b []byte) {
	if h.n == replayEvents {
		h.forgetOldest()
	}
	h.ring[(h.first+h.n)%replayEvents] = b
	h.n++
	h.size += len(b)
	for h.size > replayBytes && h.n > 1 {
		h.forgetOldest()
	}
}

func (h *history) forgetOldest() {
	h.size -= len(h.ring[h.first])
	h.ring[h.first] = nil
	h.first = (h.first + 1) % replayEvents
	h.n--
}

// all returns the events kept, oldest first.
func (h *history) all() [][]byte {
	out := make([][]byte, h.n)
	for i := range h.n {
		out[i] = h.ring[(h.first+i)%replayEvents]
	}
	return out
}

// reset forgets every event.
func (h *history) reset() { *h = history{} }

// follower is a tab watching a session or a presenter: its own buffer
// and writer, so that it neither slows the session nor other followers.
type follower struct {
	out    chan []byte   // to the follower's writer; sent on only under the lock of what it follows
	ended  chan struct{} // closed when what it follows ends, after the last send on out
	cancel func()        // drops the follower, which has fallen behind
	// lang is the language of the follower's page, for what is said to
	// it alone (its refusals, the end of what it follows); set before it
	// attaches. A follower that is no tab's (Subscribe) has none: English.
	lang lang
}

// followerBuffer is the room in a follower's buffer: its hello, a
// status, the replay, a state, and sendBuffer messages more.
const followerBuffer = 3 + replayEvents + sendBuffer

// errFellBehind is why a follower that did not keep up is dropped; its
// websocket closes saying so.
var errFellBehind = errors.New("this tab fell behind and was dropped; reconnect to catch up")

// newFollower makes a follower whose dropping cancels its context with
// errFellBehind.
func newFollower(cancel context.CancelCauseFunc) *follower {
	return &follower{out: make(chan []byte, followerBuffer), ended: make(chan struct{}),
		cancel: func() { cancel(errFellBehind) }}
}

func newFeed(presenter chan<- []byte, drop func()) *feed {
	return &feed{presenter: presenter, drop: drop, followers: make(map[*follower]bool)}
}

// publish sends one event, as JSON, to the tab and the followers, and
// keeps it for followers yet to come.
func (f *feed) publish(b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended {
		return
	}
	f.kept.keep(b)
	f.toTabLocked(b)
	for fl := range f.followers {
		tell(f.followers, fl, b)
	}
	if f.tap != nil {
		f.tap.send(busEvent, b)
	}
}

// toTab sends a message to the session's own tab only: what concerns
// the tab and not its followers (its presenting, say).
func (f *feed) toTab(b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.toTabLocked(b)
}

func (f *feed) toTabLocked(b []byte) {
	select {
	case f.presenter <- b:
	default:
		f.drop()
	}
}

// tell sends one message to one attached follower, and drops the
// follower if its buffer is full; false if it was dropped. The lock that
// guards followers is held.
func tell(followers map[*follower]bool, fl *follower, b []byte) bool {
	select {
	case fl.out <- b:
		return true
	default:
		delete(followers, fl)
		fl.cancel()
		return false
	}
}

// attach makes fl a follower, with hello (if not nil) and the replay
// queued in its buffer, in that order, before any live event. fl.out
// must be empty and hold them and sendBuffer messages more.
func (f *feed) attach(fl *follower, hello []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended {
		return errSessionEnded
	}
	if len(f.followers) >= maxWatchers {
		return errTooManyWatchers
	}
	if hello != nil {
		fl.out <- hello
	}
	for _, b := range f.kept.all() {
		fl.out <- b
	}
	f.followers[fl] = true
	return nil
}

// detach forgets a follower whose tab has gone.
func (f *feed) detach(fl *follower) {
	f.mu.Lock()
	delete(f.followers, fl)
	f.mu.Unlock()
}

// answer sends a message to one follower only (a refusal of its
// command), if it still follows.
func (f *feed) answer(fl *follower, b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.followers[fl] {
		tell(f.followers, fl, b)
	}
}

// end tells every follower that the session ended, and lets their
// writers finish: after this, the feed sends nothing.
func (f *feed) end() {
	// The same note in each follower's language.
	at := time.Now().UTC().Format(time.RFC3339Nano)
	bye := make(map[lang][]byte)
	for _, l := range []lang{langEN, langRU} {
		bye[l] = mustJSON(Event{Op: "event", Dir: "note", Kind: "session-end", At: at, Text: say(noteWatchedEnded).in(l)})
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ended = true
	for fl := range f.followers {
		b, ok := bye[fl.lang]
		if !ok {
			b = bye[langEN]
		}
		tell(f.followers, fl, b)
		close(fl.ended)
		delete(f.followers, fl)
	}
}

// events returns the events kept for followers, oldest first: the
// session's transcript, as far back as the ring goes.
func (f *feed) events() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.kept.all()
}

// watchers says how many followers the session has.
func (f *feed) watchers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.followers)
}

// The reasons a follower cannot attach, answered before the upgrade.
var (
	errSessionEnded    = errors.New("the session has ended")
	errTooManyWatchers = say(noteTooManyWatchers, maxWatchers)
)

// follow finds the session id and attaches fl to it, with hello (if
// any) queued first. It is done under the hub's lock: unregister takes
// the same lock before the feed ends, so the session cannot end between
// being found and being followed. On success the follower is counted in
// h.wg; the caller calls h.wg.Done and s.feed.detach when it stops.
func (h *Hub) follow(id string, fl *follower, hello []byte) (*session, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.registry[id]
	switch {
	case h.ctx.Err() != nil:
		return nil, ErrClosed
	case s == nil:
		return nil, noSession{say(noteNoSessionWatch, id)}
	}
	switch err := s.feed.attach(fl, hello); {
	case errors.Is(err, errSessionEnded):
		return nil, noSession{say(noteNoSessionEnded, id)}
	case err != nil:
		return nil, err
	}
	h.wg.Add(1)
	return s, nil
}

// The reasons Subscribe and watching refuse a follower, beside
// errTooManyWatchers.
var (
	// ErrNoSession is wrapped by the error for an id that no session has,
	// or whose session has ended.
	ErrNoSession = errors.New("no such session")
	// ErrClosed is the error once the hub is closing.
	ErrClosed = errors.New("the playground is shutting down")
)

// noSession is an error that says which id was not found, and wraps
// ErrNoSession.
type noSession struct{ *notice }

func (e noSession) Unwrap() error { return ErrNoSession }

// cannotWatch words, in l, why a follower could not attach.
func cannotWatch(err error, l lang) string {
	var ns noSession
	switch {
	case errors.As(err, &ns):
		return ns.in(l)
	case errors.Is(err, ErrClosed), errors.Is(err, context.Canceled):
		return say(noteCannotWatch, say(noteShuttingDown)).in(l)
	}
	return say(noteCannotWatch, err).in(l)
}

// Subscribe follows the session id from outside a websocket (a recorder,
// a relay to other machines): the channel carries the session's kept
// events first, then each new one as it is published, each a JSON Event,
// and is closed after the session's last event (its "session-end" note),
// when ctx ends, when the hub closes, or when the subscriber has fallen
// more than sendBuffer events behind. It is one more follower of the
// session, as a watching tab is, and counts against maxWatchers.
func (h *Hub) Subscribe(ctx context.Context, id string) (<-chan []byte, error) {
	ctx, cancelCause := context.WithCancelCause(ctx)
	cancel := func() { cancelCause(nil) }
	stopAtClose := context.AfterFunc(h.ctx, cancel)
	fl := newFollower(cancelCause)
	s, err := h.follow(id, fl, nil)
	if err != nil {
		stopAtClose()
		cancel()
		return nil, err
	}
	events := make(chan []byte, sendBuffer)
	// Ends when the session ends and its last events are handed on, or
	// when ctx ends (the caller, the hub's close, or falling behind).
	go func() {
		defer h.wg.Done()
		defer stopAtClose()
		defer cancel()
		defer s.feed.detach(fl)
		defer close(events)
		for {
			select {
			case b := <-fl.out:
				select {
				case events <- b:
				case <-ctx.Done():
					return
				}
			case <-fl.ended:
				// The feed sends nothing after ended closes: what out
				// holds is all there is.
				for {
					select {
					case b := <-fl.out:
						select {
						case events <- b:
						case <-ctx.Done():
							return
						}
					default:
						return
					}
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return events, nil
}

// serveWatch serves a follower of the session with this id: a read-only
// tab that sees the session's replay, then its events as they happen,
// until the session or the tab ends. "presenter" and "instructor" are
// followed through the hub's audiences instead.
func (h *Hub) serveWatch(w http.ResponseWriter, r *http.Request, id string) {
	if a := h.audienceOf(id); a != nil {
		h.serveAudience(w, r, id, a)
		return
	}
	ctx, cancel := context.WithCancelCause(h.ctx)
	defer cancel(nil)
	fl := newFollower(cancel)
	fl.lang = langOf(r)
	s, err := h.follow(id, fl, mustJSON(Hello{Op: "hello", Session: id, Watching: true}))
	switch {
	case errors.Is(err, ErrNoSession):
		http.Error(w, cannotWatch(err, fl.lang), http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, cannotWatch(err, fl.lang), http.StatusServiceUnavailable)
		return
	}
	defer h.wg.Done()
	defer s.feed.detach(fl)
	h.serveFollower(ctx, cancel, w, r, fl, s.feed, say(noteWatching, id).in(fl.lang))
}

// followed is what a follower follows: a session's feed or an audience.
type followed interface {
	answer(fl *follower, b []byte)
}

// serveFollower upgrades the request of an attached follower and serves
// it: its writer sends what fl.out holds; its reader refuses every
// command. It returns when ctx ends (the hub closes, the follower falls
// behind), when the tab goes, or when what it follows ends and the last
// messages are written.
func (h *Hub) serveFollower(ctx context.Context, cancel context.CancelCauseFunc, w http.ResponseWriter, r *http.Request, fl *follower, src followed, refusal string) {
	conn, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the request
	}
	writerDone := make(chan struct{})
	// The writer stops when the follower's context ends, when a write
	// fails, or when what it follows ends and the last messages are
	// written. Closing the connection after the writer's last word unblocks the
	// read loop below.
	go func() {
		pump(ctx, conn, fl.out, fl.ended)
		cancel(nil)
		conn.Close()
		close(writerDone)
	}()

	keepAlive(conn)
	// A follower may only be refused, so it has no use for a frame's
	// megabyte: a smaller limit keeps a room of followers from making the
	// instructor's playground read megabytes to refuse them.
	conn.SetReadLimit(followerMaxMessage)
	for {
		var c Command
		if err := conn.ReadJSON(&c); err != nil {
			closeOnGarbage(conn, err)
			break
		}
		src.answer(fl, mustJSON(Event{Op: "error", ID: c.ID, Message: refusal}))
	}
	cancel(nil)
	<-writerDone
	conn.Close()
}
