package wire

import (
	"encoding/json"
	"sync"
	"time"
)

// A room has at most one presenter: a tab on the instructor's machine
// that said {"op":"present"}. Whatever its session publishes (the events
// its tab gets) and the page state it sends go to the room's bus, and
// every hub of the room, this one included, hands them to the tabs that
// follow the presenter (audience.go). The bus may be this process alone
// or NATS, shared by several playgrounds (bus.go); the path is the same.
//
// On the bus, a presentation is a numbered sequence of messages: "live"
// (number 1: this session presents now, and what it had already shown
// follows as events), "event", "state", and "ended". A hub that finds a
// number missing, or hears a session it never saw begin (it started
// late, or a slow subscription lost messages), asks the room for the
// history, and the hub whose tab presents answers (receiver, below).

// maxState bounds the page state a presenter sends: it is a page's
// position (the target, the composer's text, the selected row), not a
// transcript, and every follower gets each one.
const maxState = 64 << 10

// historyRetry is how long a hub waits for an answer to its history
// request before it may ask again: the presenter's hub answers at once,
// and when no hub answers, nobody presents.
const historyRetry = 2 * time.Second

// The kinds of bus message.
const (
	busLive  = "live"  // a session presents from now on; its history follows as events
	busEvent = "event" // one event of the presenting session, as its tab got it
	busState = "state" // the presenting page's state
	busEnded = "ended" // the session stopped presenting, or its tab closed
	busDone  = "done"  // the end of an answer to a history request
)

// busMessage is what hubs say to each other on the room's subjects. It
// is JSON, so that `nats sub 'wirelab.>'` shows it plainly.
type busMessage struct {
	Kind    string          `json:"kind"`
	Origin  string          `json:"origin,omitempty"`  // the hub that sent it
	Session string          `json:"session,omitempty"` // the presenting session
	Seq     uint64          `json:"seq,omitempty"`     // its number in the presentation; in "done", the last one the history holds
	Data    json.RawMessage `json:"data,omitempty"`    // the event, or the state object
	Reply   string          `json:"reply,omitempty"`   // in a history request: the subject to answer on
}

// presentation is one session's turn as presenter: where its messages
// go and their numbering. Only its session's feed uses it, under the
// feed's lock, which is what puts the messages in order.
type presentation struct {
	bus     Bus
	subject string
	origin  string
	session string
	seq     uint64
}

// send publishes one message of the presentation. A message the bus
// could not take (NATS reconnecting, say) leaves a gap in the numbers,
// which the receivers notice and mend by asking for the history.
func (p *presentation) send(kind string, data []byte) {
	p.seq++
	p.bus.Publish(p.subject, mustJSON(busMessage{Kind: kind, Origin: p.origin, Session: p.session, Seq: p.seq, Data: data}))
}

// present starts relaying the feed to p: "live", then the events kept so
// far, so that followers see the presenter's transcript from its start.
func (f *feed) present(p *presentation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tap, f.state = p, nil
	p.send(busLive, nil)
	for _, b := range f.kept.all() {
		p.send(busEvent, b)
	}
}

// unpresent stops relaying the feed, saying "ended" to the room if
// ended; a presenter replaced by another says nothing, and its
// followers go on to the next at its "live".
func (f *feed) unpresent(ended bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tap != nil && ended {
		f.tap.send(busEnded, nil)
	}
	f.tap, f.state = nil, nil
}

// setState relays the presenting page's state and keeps it for the
// history; false if the session does not present.
func (f *feed) setState(state []byte) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tap == nil {
		return false
	}
	f.state = state
	f.tap.send(busState, state)
	return true
}

// answerHistory publishes the presentation so far on reply: "live", the
// events kept, the latest state, and "done" with the number of the last
// message they account for. It is taken under the feed's lock, so the
// presentation's next message is that number plus one.
func (f *feed) answerHistory(bus Bus, reply string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.tap
	if p == nil {
		return
	}
	say := func(kind string, data []byte) {
		bus.Publish(reply, mustJSON(busMessage{Kind: kind, Origin: p.origin, Session: p.session, Seq: p.seq, Data: data}))
	}
	say(busLive, nil)
	for _, b := range f.kept.all() {
		say(busEvent, b)
	}
	if f.state != nil {
		say(busState, f.state)
	}
	say(busDone, nil)
}

// stage is the hub's side of presenting: which of its sessions presents,
// if any.
type stage struct {
	// mu guards current. It is taken before the presenter's feed lock.
	mu      sync.Mutex
	current *session
}

// The messages to a presenter's own tab: it presents, or no longer
// does (it asked, or another tab took over).
var (
	presentingOn  = mustJSON(presenting{Op: "present", On: true})
	presentingOff = mustJSON(presenting{Op: "present", On: false})
)

type presenting struct {
	Op string `json:"op"`
	On bool   `json:"on"`
}

// present makes s the room's presenter, in place of any other tab of
// this hub; the presenters of other hubs give way when they hear its
// "live" (yieldTo).
func (h *Hub) present(s *session) {
	st := &h.stage
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.current != s {
		if old := st.current; old != nil {
			old.feed.unpresent(false)
			old.feed.toTab(presentingOff)
		}
		st.current = s
		s.feed.present(&presentation{bus: h.bus, subject: h.subject(subjectPresenter), origin: h.id, session: s.id})
	}
	s.feed.toTab(presentingOn)
}

// unpresent ends s's presentation, if it is the presenter: its tab asked,
// or closed.
func (h *Hub) unpresent(s *session) {
	st := &h.stage
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.current == s {
		st.current = nil
		s.feed.unpresent(true)
	}
	s.feed.toTab(presentingOff)
}

// yieldTo hands the room to the session another hub has made presenter:
// this hub's presenter, if it has one, stops and its tab is told.
func (h *Hub) yieldTo(session string) {
	st := &h.stage
	st.mu.Lock()
	defer st.mu.Unlock()
	if s := st.current; s != nil && s.id != session {
		st.current = nil
		s.feed.unpresent(false)
		s.feed.toTab(presentingOff)
	}
}

// answerHistory answers a history request, if a tab of this hub presents.
func (h *Hub) answerHistory(msg []byte) {
	var req busMessage
	if json.Unmarshal(msg, &req) != nil || req.Reply == "" {
		return
	}
	st := &h.stage
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.current != nil {
		st.current.feed.answerHistory(h.bus, req.Reply)
	}
}

// handlePresent serves {"op":"present"} and {"op":"present","on":false}.
func (s *session) handlePresent(c Command) {
	if !s.local {
		s.refuse(c.ID, s.say(notePresentLocal))
		return
	}
	if c.On != nil && !*c.On {
		s.hub.unpresent(s)
		return
	}
	s.hub.present(s)
}

// handleState serves {"op":"state","state":{...}} from the presenter.
func (s *session) handleState(c Command) {
	switch {
	case len(c.State) > maxState:
		s.refuse(c.ID, s.say(noteStateTooLong, len(c.State), maxState))
	case len(c.State) == 0 || c.State[0] != '{':
		s.refuse(c.ID, s.say(noteStateNotObject))
	case !s.feed.setState(c.State):
		s.refuse(c.ID, s.say(noteNotPresenting))
	}
}

// receiver turns the room's bus messages into what this hub's audience
// sees, in order: it checks each message's number, and when one is
// missing it asks for the history and holds what comes meanwhile.
type receiver struct {
	hub *Hub

	// mu guards everything below. It is taken before the audience's lock,
	// and never held while publishing.
	mu      sync.Mutex
	session string    // the presentation being followed; "" when nobody presents
	next    uint64    // the number its next message must have
	syncing bool      // a message was missing: waiting for the history
	asked   time.Time // when the history was last asked for
	held    []busMessage
	answer  *snapshot // the history being received
}

// snapshot is an answer to a history request, as it arrives.
type snapshot struct {
	session string
	events  [][]byte
	state   []byte
}

// maxHeld bounds the messages held while the history is on its way: past
// it, the hub asks again later rather than keep more.
const maxHeld = sendBuffer

// onPresenter handles a message on the room's presenter subject.
func (r *receiver) onPresenter(b []byte) {
	var m busMessage
	if json.Unmarshal(b, &m) != nil {
		return
	}
	ask, yield := r.take(m)
	if yield {
		r.hub.yieldTo(m.Session)
	}
	if ask {
		r.hub.wantHistory()
	}
}

// take applies m, and says whether to ask for the history and whether
// another hub's tab has just begun to present.
func (r *receiver) take(m busMessage) (ask, yield bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a := r.hub.audience
	switch {
	case m.Kind == busLive && m.Seq == 1:
		// A new presentation starts from scratch: nothing before it
		// matters.
		r.session, r.next, r.syncing, r.held = m.Session, 2, false, nil
		a.begin(m.Session, nil, nil)
		return false, m.Origin != r.hub.id
	case r.syncing:
		if len(r.held) < maxHeld {
			r.held = append(r.held, m)
		}
		return r.mayAsk(), false
	case m.Session == r.session && m.Seq == r.next:
		r.apply(m)
		return false, false
	case m.Kind == busEnded && m.Session != r.session:
		return false, false // the end of a presentation this hub never followed
	case m.Session == r.session && m.Seq < r.next:
		return false, false // already had it
	}
	r.syncing, r.held = true, []busMessage{m}
	return r.mayAsk(), false
}

// apply hands one message of the followed presentation to the audience.
// r.mu is held.
func (r *receiver) apply(m busMessage) {
	r.next++
	switch m.Kind {
	case busEvent:
		r.hub.audience.event(m.Data)
	case busState:
		r.hub.audience.setState(m.Data)
	case busEnded:
		r.session, r.next = "", 0
		r.hub.audience.end()
	}
}

// mayAsk says whether the history may be asked for now, and if so notes
// that it is. r.mu is held.
func (r *receiver) mayAsk() bool {
	if now := time.Now(); now.Sub(r.asked) >= historyRetry {
		r.asked = now
		return true
	}
	return false
}

// onHistory handles a message of an answer to this hub's history
// request.
func (r *receiver) onHistory(b []byte) {
	var m busMessage
	if json.Unmarshal(b, &m) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch m.Kind {
	case busLive:
		r.answer = &snapshot{session: m.Session}
	case busEvent:
		if r.answer != nil && len(r.answer.events) < replayEvents {
			r.answer.events = append(r.answer.events, m.Data)
		}
	case busState:
		if r.answer != nil {
			r.answer.state = m.Data
		}
	case busDone:
		snap := r.answer
		r.answer = nil
		if snap == nil || snap.session != m.Session || (!r.syncing && r.session != "") {
			return // not an answer this hub still needs
		}
		r.session, r.next, r.syncing = snap.session, m.Seq+1, false
		r.hub.audience.begin(snap.session, snap.events, snap.state)
		held := r.held
		r.held = nil
		for _, h := range held {
			switch {
			case h.Session != r.session || h.Seq < r.next:
			case h.Seq == r.next:
				r.apply(h)
			default:
				r.syncing = true // still a gap: the next message asks again
				return
			}
		}
	}
}

// wantHistory has the asker ask the room for the presentation so far,
// unless it is about to.
func (h *Hub) wantHistory() {
	select {
	case h.askc <- struct{}{}:
	default:
	}
}

// ask is the hub's asker: it asks the room for the history each time
// wantHistory says so, and ends when the hub closes. It is a goroutine
// of its own because on the in-process bus the answer comes before
// Publish returns, from the presenter's feed, whose lock the receiver
// may be called under.
func (h *Hub) ask() {
	defer h.wg.Done()
	req := mustJSON(busMessage{Kind: "history", Origin: h.id, Reply: h.subject(subjectInbox) + "." + h.id})
	for {
		select {
		case <-h.askc:
			h.bus.Publish(h.subject(subjectHistory), req)
		case <-h.ctx.Done():
			return
		}
	}
}
