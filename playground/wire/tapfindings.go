package wire

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
)

// maxCheckedBytes bounds what the check of one tap reads: the checker
// keeps every request it has seen, to pair answers with them, and a tap
// may run for days. Past it the marks stop, and a note says so; wirelab
// tap check reads a recording whole. It is what a session keeps for its
// followers (replayBytes), so a recording that can be shown whole is
// checked whole.
const maxCheckedBytes = replayBytes

// tapEvent is an event of a tap's session: a console's event, with the
// number of the tap's event it comes from and, for a "finding", the
// finding (see the comment at the top of tap.go).
type tapEvent struct {
	Event
	Seq     int         `json:"seq,omitempty"`
	Finding *tapFinding `json:"finding,omitempty"`
}

// tapFinding is a finding of the check, with its place in the report.
type tapFinding struct {
	Index int `json:"index"`
	tapcheck.Finding
}

// tapPublisher publishes one tap's events to its session, translated
// for the consoles, each followed by the findings it led to. It is used
// by one goroutine: the tap's reader, or the one opening a recording.
type tapPublisher struct {
	s       *session
	id      string
	taps    *taps
	tr      translator
	check   *tapcheck.Checker
	checked int  // the bytes of data the check has read
	stopped bool // the check stopped: at maxCheckedBytes, or at events missing
	live    bool // the events come from a running tap, which may miss some
	last    int  // the seq of the latest event of a live tap
	lastT   time.Time
	errors  int
	warns   int
	speaks  string
	seen    int // how many of the report's messages speaks has looked at
	sent    int // how many events it has published
}

func newTapPublisher(s *session, info TapInfo, recorded bool) *tapPublisher {
	return &tapPublisher{s: s, id: info.ID, taps: &s.hub.taps,
		tr:    translator{target: "custom-stdio", to: info.Name, recorded: recorded},
		check: tapcheck.NewChecker(), live: !recorded}
}

// add publishes one event of the tap, then what the check found in it.
func (p *tapPublisher) add(e tap.Event) {
	if e.Kind == tap.KindStart {
		p.taps.started(p.id, e)
	}
	for _, ev := range p.tr.events(e) {
		p.publish(tapEvent{Event: ev, Seq: e.Seq})
	}
	// A live tap that fell behind, or reached the playground late,
	// skips events (Publish says how many in a note that repeats the
	// last seq sent): a check without them would mark answers to
	// requests it never saw.
	p.lastT = e.T
	missed, before := p.live && p.last != 0 && e.Seq != p.last+1, p.last
	p.last = max(p.last, e.Seq)
	p.checked += len(e.Data) + len(e.Base64)
	switch {
	case p.stopped:
	case missed:
		p.stop(e, fmt.Sprintf("the check stops after event %d: events of this tap did not reach the playground, and a check without them would be wrong", before))
	case p.checked > maxCheckedBytes:
		p.stop(e, fmt.Sprintf("the check stops after event %d: it has read %d MiB of this tap, the most it keeps", before, maxCheckedBytes>>20))
	default:
		p.found(p.check.Add(e), e.T)
	}
	p.taps.count(p.id, 1, p.errors, p.warns, p.speaks)
}

// stop ends the check at event e, saying why in a note; the marks made
// so far stay.
func (p *tapPublisher) stop(e tap.Event, why string) {
	p.stopped = true
	p.publish(tapEvent{Event: Event{Op: "event", Dir: "note", Kind: "note", At: e.T.UTC().Format(time.RFC3339Nano),
		Text: why + "; wirelab tap check FILE reads a recording whole"}})
}

// end publishes the findings only the recording's end can tell (how
// each gRPC call ended).
func (p *tapPublisher) end() {
	// Calls still open when the tap ended show as the wire left them.
	for _, ev := range p.tr.grpcEnd(cmp.Or(p.lastT, time.Now())) {
		p.publish(tapEvent{Event: ev})
	}
	if p.stopped {
		return
	}
	p.found(p.check.End(), time.Now())
	p.taps.count(p.id, 0, p.errors, p.warns, p.speaks)
}

// found publishes the check's changes and counts them.
func (p *tapPublisher) found(changes []tapcheck.Change, at time.Time) {
	for _, c := range changes {
		p.publish(tapEvent{Event: Event{Op: "event", Dir: "note", Kind: "finding", At: at.UTC().Format(time.RFC3339Nano)},
			Seq: c.Finding.Event, Finding: &tapFinding{Index: c.Index, Finding: c.Finding}})
	}
	r := p.check.Report()
	p.errors, p.warns = r.Count(tapcheck.SeverityError), r.Count(tapcheck.SeverityWarning)
	for ; p.speaks == "" && p.seen < len(r.Messages); p.seen++ {
		switch era := r.Messages[p.seen].Era; {
		case strings.HasPrefix(era, "A2A"):
			p.speaks = "a2a"
		case era != "":
			p.speaks = "mcp"
		}
	}
}

func (p *tapPublisher) publish(ev tapEvent) {
	if ev.Op == "" {
		ev.Op = "event"
	}
	p.s.feed.publish(mustJSON(ev))
	p.sent++
}

// ErrRecording is wrapped by the error for a recording that cannot be
// opened: empty, or not one a tap writes.
var ErrRecording = errors.New("not a recording")

// OpenRecording opens a recording, the events of a tap's file (as
// tap.Read returns them), as the session of a tap that has ended but
// stays: tabs watch it at /ws?watch=ID as they watch a live tap, and get
// its events, checked, as the tap's followers would have. name is what
// the list of taps calls it (the file's name). Opening more than
// maxRecordings closes the oldest, whose watchers are told its session
// ended.
func (h *Hub) OpenRecording(name string, events []tap.Event) (TapInfo, error) {
	if len(events) == 0 || events[0].Kind != tap.KindStart {
		return TapInfo{}, fmt.Errorf("%w: a recording starts with the tap's start event", ErrRecording)
	}
	t := &h.taps
	t.mu.Lock()
	t.next++
	info := &TapInfo{ID: fmt.Sprintf("tap-%d", t.next), Name: name, Protocol: "stdio", Recorded: true,
		Started: events[0].T, Ended: events[len(events)-1].T}
	t.mu.Unlock()

	// Its session has no tab, as a live tap's has none (see ServeTap),
	// and nothing ends it but a newer recording or the hub's close.
	s := &session{hub: h, id: info.ID, feed: newFeed(nil, func() {})}
	h.mu.Lock()
	if h.ctx.Err() != nil {
		h.mu.Unlock()
		return TapInfo{}, ErrClosed
	}
	h.registry[s.id] = s
	h.mu.Unlock()

	t.mu.Lock()
	t.recorded = append(t.recorded, &recording{info: info, s: s})
	var closed []*recording
	if n := len(t.recorded) - maxRecordings; n > 0 {
		closed = append(closed, t.recorded[:n]...)
		t.recorded = append([]*recording(nil), t.recorded[n:]...)
	}
	t.mu.Unlock()
	for _, r := range closed {
		h.unregister(r.s)
		r.s.feed.end()
	}

	p := newTapPublisher(s, *info, true)
	for _, e := range events {
		p.add(e)
	}
	p.end()
	last := events[len(events)-1]
	text := fmt.Sprintf("the recording ends here: %d events, read only", len(events))
	if kept := len(s.feed.events()); kept < p.sent {
		text += fmt.Sprintf("; this console holds only its latest %d rows' worth (%d of %d events to show): wirelab tap check FILE reads it whole", replayEvents, kept, p.sent)
	}
	p.publish(tapEvent{Event: Event{Op: "event", Dir: "note", Kind: "note", At: last.T.UTC().Format(time.RFC3339Nano), Text: text}})

	t.mu.Lock()
	defer t.mu.Unlock()
	return *info, nil
}
