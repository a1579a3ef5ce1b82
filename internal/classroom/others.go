package classroom

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// The room across playgrounds. A classroom too big for one machine runs
// on several playgrounds that share a bus (wirelab serve --nats): each
// keeps the followers who joined through it, and tells the others who
// they are in a Snapshot, at every change and every Heartbeat. Others
// keeps the latest snapshot of each other playground, so that a
// dashboard on any of them lists the whole room. This package knows
// nothing of the bus: package playground carries the snapshots.

// Limits of the room across playgrounds, each with its reason.
const (
	// Heartbeat is how often a playground with followers sends its
	// snapshot when nothing changed, so that the others know it is
	// still there.
	Heartbeat = 10 * time.Second
	// SnapshotGap is the least time between two snapshots of one
	// playground: changes in between go out together in the next. Each
	// page's report changes the room every ten seconds or so, which for
	// MaxFollowers followers is fifty changes a second; one snapshot a
	// second keeps the dashboards within a second of the truth.
	SnapshotGap = time.Second
	// OthersTimeout is how long a playground's snapshot counts without
	// a newer one: three heartbeats missed, and its followers leave the
	// others' dashboards (it stopped, or lost the bus).
	OthersTimeout = 3 * Heartbeat
	// MaxOthers bounds the playgrounds whose snapshots are kept: the
	// instances behind a load balancer, with room to spare. A dashboard
	// then lists at most 17 times MaxFollowers followers.
	MaxOthers = 16
	// MaxSnapshot bounds a snapshot on the bus, in bytes: MaxFollowers
	// followers of some 12 KB at most each (a page and a failure full of
	// characters JSON escapes six times over, and every exercise
	// passed), and no more. A longer message is no playground's.
	MaxSnapshot = 8 << 20
	// instanceBytes is the length of a playground's name in the room
	// before hex encoding: enough to tell a room's playgrounds apart.
	instanceBytes = 3
	// maxInstance and maxHost bound the names a snapshot carries.
	maxInstance = 32
	maxHost     = 64
	// maxPassed bounds the exercises a snapshot lists for one follower,
	// and maxExercise an exercise's id, in bytes: the course has some
	// thirty exercises, with ids of a few words.
	maxPassed   = 100
	maxExercise = 64
)

// Snapshot is what a playground tells the other playgrounds of its room
// about its followers: what its own dashboard shows (Room.Followers),
// and so only the progress each follower chose to share.
type Snapshot struct {
	Instance  string     `json:"instance"`       // the playground's name in the room (Others.Instance)
	Host      string     `json:"host,omitempty"` // the machine it runs on
	Sent      time.Time  `json:"sent"`           // by the sender's clock; once received, by the receiver's
	Followers []Follower `json:"followers"`
}

// Snapshot returns the room's followers, now, as those of the playground
// named instance, on host.
func (r *Room) Snapshot(instance, host string) Snapshot {
	return Snapshot{Instance: instance, Host: host, Sent: time.Now(), Followers: r.Followers()}
}

// Encode is the snapshot as it goes on the bus: JSON of at most
// MaxSnapshot bytes.
func (s Snapshot) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the dashboard escapes as it shows; no need to spend six bytes on a <
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encoding the followers' snapshot: %w", err)
	}
	if b.Len() > MaxSnapshot {
		return nil, fmt.Errorf("the followers' snapshot is %d bytes, more than the %d a snapshot may be", b.Len(), MaxSnapshot)
	}
	return b.Bytes(), nil
}

// DecodeSnapshot reads a snapshot from the bus and holds it to the
// room's own bounds. A message too long, not a snapshot, without a
// playground's name or a time, or with more followers than a room
// holds, is an error. Names, pages and failures are cut as the room cuts
// its own, and the progress of a follower who does not share is
// dropped, whatever the sender sent.
func DecodeSnapshot(msg []byte) (Snapshot, error) {
	if len(msg) > MaxSnapshot {
		return Snapshot{}, fmt.Errorf("a snapshot of %d bytes, more than %d", len(msg), MaxSnapshot)
	}
	var s Snapshot
	if err := json.Unmarshal(msg, &s); err != nil {
		return Snapshot{}, fmt.Errorf("not a snapshot: %w", err)
	}
	switch {
	case s.Instance == "" || len(s.Instance) > maxInstance || strings.ContainsFunc(s.Instance, unicode.IsSpace):
		return Snapshot{}, errors.New("a snapshot without a playground's name")
	case s.Sent.IsZero():
		return Snapshot{}, errors.New("a snapshot without the time it was sent")
	case len(s.Followers) > MaxFollowers:
		return Snapshot{}, fmt.Errorf("a snapshot of %d followers, more than a room's %d", len(s.Followers), MaxFollowers)
	}
	s.Host = truncate(CleanName(s.Host), maxHost)
	for i := range s.Followers {
		f := &s.Followers[i]
		f.Name, f.Page = CleanName(f.Name), truncate(f.Page, MaxPage)
		if f.Name == "" {
			return Snapshot{}, errors.New("a snapshot with a follower without a name")
		}
		if !f.Share {
			f.Passed, f.Failure = nil, nil
			continue
		}
		if len(f.Passed) > maxPassed {
			return Snapshot{}, fmt.Errorf("a follower with %d exercises passed, more than %d", len(f.Passed), maxPassed)
		}
		for j := range f.Passed {
			f.Passed[j].Exercise = truncate(f.Passed[j].Exercise, maxExercise)
		}
		if f.Failure != nil {
			f.Failure.Exercise, f.Failure.Message = truncate(f.Failure.Exercise, maxExercise), truncate(f.Failure.Message, MaxFailure)
		}
	}
	return s, nil
}

// OthersOptions configures Others. A nil *OthersOptions means defaults.
type OthersOptions struct {
	// Timeout is how long a snapshot counts without a newer one; zero
	// means OthersTimeout.
	Timeout time.Duration
	// Now is the clock by which snapshots arrive and expire; nil means
	// time.Now. Tests move a clock of their own.
	Now func() time.Time
	// Rand is the source of this playground's name in the room; nil
	// means crypto/rand.
	Rand io.Reader
}

// Others is the room as the other playgrounds that share a bus tell it:
// the latest snapshot of each, for as long as it keeps sending them. It
// is safe for concurrent use.
type Others struct {
	instance string
	timeout  time.Duration
	now      func() time.Time

	// mu guards latest and changed.
	mu      sync.Mutex
	latest  map[string]Snapshot // by instance; Sent is when it arrived
	changed chan struct{}       // closed and replaced at every snapshot kept
}

// NewOthers returns an Others that has heard from no one yet, with a
// random name for this playground.
func NewOthers(opts *OthersOptions) *Others {
	if opts == nil {
		opts = &OthersOptions{}
	}
	o := &Others{timeout: opts.Timeout, now: opts.Now, latest: map[string]Snapshot{}, changed: make(chan struct{})}
	if o.timeout <= 0 {
		o.timeout = OthersTimeout
	}
	if o.now == nil {
		o.now = time.Now
	}
	src := opts.Rand
	if src == nil {
		src = rand.Reader
	}
	b := make([]byte, instanceBytes)
	if _, err := io.ReadFull(src, b); err != nil {
		panic("classroom: reading randomness: " + err.Error())
	}
	o.instance = hex.EncodeToString(b)
	return o
}

// Instance is this playground's name in the room: the one its own
// snapshots carry, which Receive ignores.
func (o *Others) Instance() string { return o.instance }

// Receive takes a message from the bus: a snapshot of another
// playground, which replaces the one before. It reports whether the
// snapshot was kept. A message that is no snapshot (DecodeSnapshot), this
// playground's own, or a new playground's when MaxOthers are heard from,
// is ignored. The times in a snapshot kept are moved to this machine's
// clock, so that "last seen" stays true whatever the sender's clock says.
func (o *Others) Receive(msg []byte) bool {
	s, err := DecodeSnapshot(msg)
	if err != nil || s.Instance == o.instance {
		return false
	}
	at := o.now()
	shift := at.Sub(s.Sent)
	s.Sent = at
	for i := range s.Followers {
		f := &s.Followers[i]
		f.Joined, f.LastSeen = f.Joined.Add(shift), f.LastSeen.Add(shift)
		for j := range f.Passed {
			f.Passed[j].At = f.Passed[j].At.Add(shift)
		}
		if f.Failure != nil {
			f.Failure.At = f.Failure.At.Add(shift)
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.latest[s.Instance]; !ok {
		o.forget(at)
		if len(o.latest) >= MaxOthers {
			return false
		}
	}
	o.latest[s.Instance] = s
	close(o.changed)
	o.changed = make(chan struct{})
	return true
}

// forget drops the snapshots older than the timeout. The caller holds mu.
func (o *Others) forget(now time.Time) {
	for id, s := range o.latest {
		if now.Sub(s.Sent) > o.timeout {
			delete(o.latest, id)
		}
	}
}

// Snapshots returns the latest snapshot of each playground heard from
// within the timeout, by host and name, with their times by this
// machine's clock (Sent is when it arrived). They share no memory with
// Others.
func (o *Others) Snapshots() []Snapshot {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.forget(o.now())
	out := make([]Snapshot, 0, len(o.latest))
	for _, s := range o.latest {
		c := s
		c.Followers = make([]Follower, len(s.Followers))
		for i := range s.Followers {
			f := follower{Follower: s.Followers[i]}
			c.Followers[i] = f.snapshot()
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Snapshot) int {
		if c := strings.Compare(a.Host, b.Host); c != 0 {
			return c
		}
		return strings.Compare(a.Instance, b.Instance)
	})
	return out
}

// Changed returns a channel that is closed when the next snapshot is
// kept. A playground whose snapshots stop leaves Snapshots without a
// change: a dashboard that reads the room every few seconds drops it.
func (o *Others) Changed() <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.changed
}
