package wire

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// feed carries a session's events to its tab and to the tabs that watch
// it (followers). It keeps the latest events for a follower that comes
// late, and never waits on anyone: a tab or follower that falls behind
// by sendBuffer events is dropped.
type feed struct {
	presenter chan<- []byte // the session's own writer
	drop      func()        // ends the session, whose tab fell behind

	// mu guards everything below. Sends on channels under it never
	// block (select with default), so holding it is short.
	mu        sync.Mutex
	ring      [replayEvents][]byte // the latest events, oldest at first
	first, n  int                  // where the oldest is, and how many
	size      int                  // bytes in the ring, at most replayBytes
	followers map[*follower]bool
	ended     bool // the session is over; no follower may attach
}

// follower is a tab watching a session: its own buffer and writer, so
// that it neither slows the session nor other followers.
type follower struct {
	out    chan []byte        // to the follower's writer; sent on only by the feed, under its lock
	ended  chan struct{}      // closed by the feed when the session ends, after its last send on out
	cancel context.CancelFunc // drops the follower
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
	f.keep(b)
	select {
	case f.presenter <- b:
	default:
		f.drop()
	}
	for fl := range f.followers {
		f.tell(fl, b)
	}
}

// keep adds an event to the ring, forgetting the oldest past
// replayEvents or replayBytes. f.mu is held.
func (f *feed) keep(b []byte) {
	if f.n == replayEvents {
		f.forgetOldest()
	}
	f.ring[(f.first+f.n)%replayEvents] = b
	f.n++
	f.size += len(b)
	for f.size > replayBytes && f.n > 1 {
		f.forgetOldest()
	}
}

func (f *feed) forgetOldest() {
	f.size -= len(f.ring[f.first])
	f.ring[f.first] = nil
	f.first = (f.first + 1) % replayEvents
	f.n--
}

// tell sends one message to one attached follower, and drops the
// follower if its buffer is full. f.mu is held.
func (f *feed) tell(fl *follower, b []byte) {
	select {
	case fl.out <- b:
	default:
		delete(f.followers, fl)
		fl.cancel()
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
	for i := range f.n {
		fl.out <- f.ring[(f.first+i)%replayEvents]
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
		f.tell(fl, b)
	}
}

// end tells every follower that the session ended, and lets their
// writers finish: after this, the feed sends nothing.
func (f *feed) end() {
	bye := mustJSON(Event{Op: "event", Dir: "note", Kind: "session-end",
		At: time.Now().UTC().Format(time.RFC3339Nano), Text: "the session you were watching ended"})
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ended = true
	for fl := range f.followers {
		f.tell(fl, bye)
		close(fl.ended)
		delete(f.followers, fl)
	}
}

// events returns the events kept for followers, oldest first: the
// session's transcript, as far back as the ring goes.
func (f *feed) events() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([][]byte, f.n)
	for i := range f.n {
		out[i] = f.ring[(f.first+i)%replayEvents]
	}
	return out
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
	errTooManyWatchers = fmt.Errorf("the session already has %d watchers, the most it may have", maxWatchers)
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
		return nil, noSession(fmt.Sprintf("no session %q to watch: it has ended, or the id is mistyped (a tab learns its id from the playground's hello)", id))
	}
	switch err := s.feed.attach(fl, hello); {
	case errors.Is(err, errSessionEnded):
		return nil, noSession(fmt.Sprintf("no session %q to watch: it has ended", id))
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
type noSession string

func (e noSession) Error() string { return string(e) }
func (e noSession) Unwrap() error { return ErrNoSession }

// Subscribe follows the session id from outside a websocket (a recorder,
// a relay to other machines): the channel carries the session's kept
// events first, then each new one as it is published, each a JSON Event,
// and is closed after the session's last event (its "session-end" note),
// when ctx ends, when the hub closes, or when the subscriber has fallen
// more than sendBuffer events behind. It is one more follower of the
// session, as a watching tab is, and counts against maxWatchers.
func (h *Hub) Subscribe(ctx context.Context, id string) (<-chan []byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	stopAtClose := context.AfterFunc(h.ctx, cancel)
	fl := &follower{out: make(chan []byte, replayEvents+sendBuffer), ended: make(chan struct{}), cancel: cancel}
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
// until the session or the tab ends.
func (h *Hub) serveWatch(w http.ResponseWriter, r *http.Request, id string) {
	ctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	fl := &follower{out: make(chan []byte, 1+replayEvents+sendBuffer), ended: make(chan struct{}), cancel: cancel}
	s, err := h.follow(id, fl, mustJSON(Hello{Op: "hello", Session: id, Watching: true}))
	switch {
	case errors.Is(err, ErrNoSession):
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, "cannot watch: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer h.wg.Done()
	defer s.feed.detach(fl)

	conn, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the request
	}
	writerDone := make(chan struct{})
	// The writer stops when the follower's context ends (the hub closes,
	// the follower falls behind, its tab goes), when a write fails, or
	// when the session ends and the last events are written.
	go func() {
		pump(ctx, conn, fl.out, fl.ended)
		cancel()
		close(writerDone)
	}()
	// Closing the connection when the context ends unblocks the read
	// loop below.
	stopRead := context.AfterFunc(ctx, func() { conn.Close() })
	defer stopRead()

	keepAlive(conn)
	refusal := fmt.Sprintf("this tab is watching session %s; it cannot send", id)
	for {
		var c Command
		if err := conn.ReadJSON(&c); err != nil {
			break
		}
		s.feed.answer(fl, mustJSON(Event{Op: "error", ID: c.ID, Message: refusal}))
	}
	cancel()
	<-writerDone
	conn.Close()
}
