package wire

import (
	"fmt"
	"strings"
	"sync"
)

// Bus is the publish/subscribe seam between the hubs of a room: the
// presenter's hub publishes its events and state on the room's
// subjects, and every hub, its own too, subscribes and hands them to the
// tabs that follow. The default is this process alone (NewLocalBus);
// NATS (NewNATSBus) lets several playgrounds, behind one load balancer
// say, share presenters and followers.
//
// A subject is a dot-separated name, as NATS has them:
// "wirelab.room.<room>.presenter".
type Bus interface {
	// Publish sends msg to every subscriber of subject. It does not wait
	// for them, and may not deliver (a bus that is reconnecting): the
	// presentation's numbering shows a receiver what it missed.
	Publish(subject string, msg []byte) error
	// Subscribe calls handle with every message published on subject
	// from now on, those of one publisher in the order they were
	// published. handle must not block, nor subscribe or unsubscribe.
	// unsubscribe stops the calls, though one under way may finish.
	Subscribe(subject string, handle func(msg []byte)) (unsubscribe func(), err error)
}

// localBus is a Bus within one process: Publish calls each subscriber's
// handler before it returns, in the publisher's goroutine, so a message
// costs one function call per subscriber and arrives in order.
type localBus struct {
	mu   sync.Mutex // guards subs
	subs map[string][]*localSub
}

type localSub struct{ handle func([]byte) }

// NewLocalBus returns a bus that reaches the subscribers of this
// process only: a hub's default.
func NewLocalBus() Bus { return &localBus{subs: make(map[string][]*localSub)} }

func (b *localBus) Publish(subject string, msg []byte) error {
	b.mu.Lock()
	subs := b.subs[subject]
	b.mu.Unlock()
	// Called without the lock, so that a handler may publish in turn
	// (a history request is answered from within one).
	for _, s := range subs {
		s.handle(msg)
	}
	return nil
}

func (b *localBus) Subscribe(subject string, handle func([]byte)) (func(), error) {
	s := &localSub{handle: handle}
	b.mu.Lock()
	defer b.mu.Unlock()
	// A new slice each time: a Publish under way keeps the one it took.
	b.subs[subject] = append(b.subs[subject][:len(b.subs[subject]):len(b.subs[subject])], s)
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		var kept []*localSub
		for _, o := range b.subs[subject] {
			if o != s {
				kept = append(kept, o)
			}
		}
		b.subs[subject] = kept
	}, nil
}

// The room's subjects, each "wirelab.room.<room>.<name>".
const (
	subjectPresenter = "presenter" // the presentation's messages
	subjectHistory   = "history"   // requests for the presentation so far
	subjectInbox     = "inbox"     // answers, on "inbox.<hub id>"
	subjectFollowers = "followers" // each playground's classroom followers (followers.go)
)

func (h *Hub) subject(name string) string { return "wirelab.room." + h.room + "." + name }

// checkRoom says whether name can be a room's: one token of a subject.
func checkRoom(name string) error {
	if name == "" || strings.ContainsAny(name, ".*> \t\r\n") {
		return fmt.Errorf("room %q: a room's name is one word, without dots, spaces, * or >", name)
	}
	return nil
}
