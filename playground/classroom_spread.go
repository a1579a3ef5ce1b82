package playground

import (
	"context"
	"log"
	"time"

	"github.com/wirelab/wirelab/internal/classroom"
)

// A classroom spread over several playgrounds that share a bus
// (wirelab serve --nats): each keeps the followers who joined through it
// and tells the others who they are, on the room's followers subject
// (wire.Hub.PublishFollowers), at every change, at most every
// classroom.SnapshotGap, and every classroom.Heartbeat; each dashboard
// lists its own followers and the others' (classroom.Others), and drops
// a playground's once it has been silent for classroom.OthersTimeout.
// What goes on the bus is what the dashboard shows, and so the progress
// of those followers only who chose to share it. A playground without a
// room of its own (the instructor's laptop, which presents) only
// listens.

// spread joins the playground to the room's other playgrounds: it
// listens for their snapshots and, with a room of its own, sends its
// own, until the playground closes.
func (c *classroomSite) spread() {
	ctx, release, ok := c.hub.Hold(context.Background())
	if !ok {
		return
	}
	unsubscribe, err := c.hub.SubscribeFollowers(func(msg []byte) { c.others.Receive(msg) })
	if err != nil {
		release()
		log.Printf("playground: the dashboard lists this playground's followers only: %v", err)
		return
	}
	// This goroutine ends when the hub closes (Hold), which waits for it.
	go func() {
		defer release()
		defer unsubscribe()
		if c.room == nil {
			<-ctx.Done()
			return
		}
		c.tell(ctx)
	}()
}

// tell sends this playground's followers to the room's other playgrounds
// now, at every change of the room, and every Heartbeat, until ctx ends.
// A change within SnapshotGap of the last snapshot waits for the rest of
// the gap, and goes out with those that come meanwhile.
func (c *classroomSite) tell(ctx context.Context) {
	beat := time.NewTicker(classroom.Heartbeat)
	defer beat.Stop()
	var failed string  // the last failure said, so that a bus that is down is said once
	var sent time.Time // when the last snapshot went
	for {
		changed := c.room.Changed() // before the snapshot: no change falls between
		told, err := c.publish()
		if told {
			sent = time.Now()
		}
		if err != nil && err.Error() != failed {
			log.Printf("playground: telling the room's other playgrounds who follows here: %v", err)
		}
		failed = ""
		if err != nil {
			failed = err.Error()
		}
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
		case <-changed:
			if wait := classroom.SnapshotGap - time.Since(sent); wait > 0 {
				gap := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					gap.Stop()
					return
				case <-gap.C:
				}
			}
		}
	}
}

// publish sends one snapshot of the room, if anyone has joined (a
// playground nobody follows has nothing to tell), and reports whether it
// did.
func (c *classroomSite) publish() (bool, error) {
	s := c.room.Snapshot(c.others.Instance(), c.host)
	if len(s.Followers) == 0 {
		return false, nil
	}
	msg, err := s.Encode()
	if err == nil {
		err = c.hub.PublishFollowers(msg)
	}
	return err == nil, err
}
