// Package classroom is the room of a playground that an instructor opens
// to the machines around them (wirelab serve --classroom): the join code
// the projector shows, the followers who gave it, each known by a random
// id kept in a cookie, with the name they chose and when they were last
// seen, and, for those who opt in, the exercises they passed and where a
// frame exercise last failed.
//
// The room is in memory only, and bounded: it forgets everything when
// wirelab stops, and writes nothing anywhere unless the instructor asks
// for a session log (Room.Log). It knows nothing of HTTP or HTML; package
// playground puts it behind the join page, the cookie and the dashboard.
package classroom

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits of the room, each with its reason.
const (
	// CodeLength is the length of a join code: 6 characters of a
	// 31-letter alphabet are some 887 million codes, which wrongCodes a
	// minute per address cannot search, and still short enough to read
	// off a projector and type.
	CodeLength = 6
	// codeAlphabet leaves out the characters a room misreads: 0 and O, 1,
	// I and L.
	codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	// idBytes is the length of a follower id before hex encoding: 128
	// random bits cannot be guessed, so a cookie cannot be forged.
	idBytes = 16
	// MaxFollowers bounds the room: a lecture hall, with room to spare.
	MaxFollowers = 500
	// forgetAfter is how long a follower may stay unseen before a full
	// room gives its place to a newcomer.
	forgetAfter = time.Hour
	// MaxName bounds a follower's name, in characters: it is a label on
	// the dashboard, not a text.
	MaxName = 40
	// MaxPage bounds the page a follower reports, in bytes: a path and a
	// query.
	MaxPage = 512
	// MaxFailure bounds the failure a follower shares, in bytes: the first
	// lines of a check's answer are where it went wrong.
	MaxFailure = 1000
	// wrongCodes is how many wrong codes one address may try per
	// wrongCodeWindow: enough for typos, far too few for guessing.
	wrongCodes      = 5
	wrongCodeWindow = time.Minute
	// maxAddresses bounds the addresses whose wrong codes are counted. A
	// flood from more addresses than that is refused outright until the
	// window passes, rather than forgotten.
	maxAddresses = 4096
	// Connected is how long after a follower's page was last seen it
	// still counts as connected: pages report every ten seconds or so,
	// and a tab in the background may report late.
	Connected = 30 * time.Second
)

// Why a join is refused.
var (
	ErrWrongCode    = errors.New("wrong code")
	ErrTooManyTries = errors.New("too many wrong codes from this address; wait a minute")
	ErrNoName       = errors.New("a name is needed, for the instructor's list")
	ErrFull         = errors.New("the room is full")
)

// Options configures a room. A nil *Options means defaults.
type Options struct {
	// Code is the join code; empty means a random one. It is made upper
	// case, as codes are compared.
	Code string
	// Rand is the source of the code and of the follower ids; nil means
	// crypto/rand. Tests seed one.
	Rand io.Reader
}

// Room is a classroom: its code and its followers. It is safe for
// concurrent use.
type Room struct {
	code    string
	rand    io.Reader
	started time.Time

	// mu guards followers, seats, tries and changed.
	mu        sync.Mutex
	followers map[string]*follower // by id
	seats     int                  // the last seat given: followers are numbered as they join
	tries     map[string]*tries    // wrong codes, by address
	changed   chan struct{}        // closed and replaced at every change
}

// follower is one follower as the room keeps it.
type follower struct {
	Follower
	passed map[string]bool // the exercises in Passed
}

// tries counts the wrong codes of one address since the window began.
type tries struct {
	count int
	since time.Time
}

// Follower is what the room knows of a follower. It holds no id: the id
// is the follower's secret, and the dashboard and the log show none.
type Follower struct {
	Seat     int       `json:"seat"` // 1 for the first to join, and so on
	Name     string    `json:"name"`
	Page     string    `json:"page,omitempty"` // the page last reported
	Own      bool      `json:"own,omitempty"`  // follows from their own wirelab (wirelab serve --follow): no Page
	Joined   time.Time `json:"joined"`
	LastSeen time.Time `json:"lastSeen"`
	// Share says the follower opted in to share progress; Passed and
	// Failure are empty otherwise.
	Share   bool     `json:"share"`
	Passed  []Pass   `json:"passed,omitempty"`  // in the order passed
	Failure *Failure `json:"failure,omitempty"` // the last failed check, unless passed since
}

// Pass is an exercise a follower passed.
type Pass struct {
	Exercise string    `json:"exercise"`
	At       time.Time `json:"at"`
}

// Failure is a follower's last failed check: which exercise, and what
// the check said.
type Failure struct {
	Exercise string    `json:"exercise"`
	Message  string    `json:"message"`
	At       time.Time `json:"at"`
}

// ConnectedAt reports whether the follower's page was seen within
// Connected before now.
func (f Follower) ConnectedAt(now time.Time) bool { return now.Sub(f.LastSeen) <= Connected }

// New returns an empty room.
func New(opts *Options) *Room {
	if opts == nil {
		opts = &Options{}
	}
	r := &Room{rand: opts.Rand, started: time.Now(), followers: map[string]*follower{},
		tries: map[string]*tries{}, changed: make(chan struct{})}
	if r.rand == nil {
		r.rand = rand.Reader
	}
	r.code = NormalizeCode(opts.Code)
	if r.code == "" {
		r.code = r.newCode()
	}
	return r
}

// Code is the room's join code.
func (r *Room) Code() string { return r.code }

// NormalizeCode is a code as the room compares it: upper case, without
// the spaces and dashes people type between its halves.
func NormalizeCode(s string) string {
	return strings.Map(func(c rune) rune {
		if c == ' ' || c == '-' {
			return -1
		}
		return unicode.ToUpper(c)
	}, strings.TrimSpace(s))
}

// Join admits a follower who gave code and chose name, from addr (the
// peer's IP address), and returns the follower's id, for a cookie. A
// wrong code counts against addr; past wrongCodes in wrongCodeWindow,
// every code from addr, even the right one, is ErrTooManyTries until the
// window passes.
func (r *Room) Join(addr, code, name string) (string, error) {
	return r.Rejoin("", addr, code, name)
}

// Rejoin is Join for someone who may have joined already, as id (the
// cookie they still hold): with the right code, that follower keeps its
// id, seat and progress under the name given now, rather than a second
// row on the dashboard. An id the room does not know joins afresh.
func (r *Room) Rejoin(id, addr, code, name string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if t := r.triesOf(addr, now); t != nil && t.count >= wrongCodes {
		return "", ErrTooManyTries
	}
	if NormalizeCode(code) != r.code {
		t := r.triesOf(addr, now)
		if t == nil {
			if !r.makeRoomForTries(now) {
				return "", ErrTooManyTries
			}
			t = &tries{since: now}
			r.tries[addr] = t
		}
		t.count++
		return "", ErrWrongCode
	}
	name = CleanName(name)
	if name == "" {
		return "", ErrNoName
	}
	if f := r.followers[id]; id != "" && f != nil {
		f.Name, f.LastSeen = name, now
		r.touch()
		return id, nil
	}
	if !r.makeRoomForFollower(now) {
		return "", ErrFull
	}
	id = r.newID()
	r.seats++
	r.followers[id] = &follower{Follower: Follower{Seat: r.seats, Name: name, Joined: now, LastSeen: now}, passed: map[string]bool{}}
	r.touch()
	return id, nil
}

// triesOf is addr's count of wrong codes in the current window, or nil.
// A window that has passed is forgotten.
func (r *Room) triesOf(addr string, now time.Time) *tries {
	t := r.tries[addr]
	if t != nil && now.Sub(t.since) >= wrongCodeWindow {
		delete(r.tries, addr)
		return nil
	}
	return t
}

// makeRoomForTries forgets the windows that have passed when maxAddresses
// are counted, and reports whether one more address fits.
func (r *Room) makeRoomForTries(now time.Time) bool {
	if len(r.tries) < maxAddresses {
		return true
	}
	for addr, t := range r.tries {
		if now.Sub(t.since) >= wrongCodeWindow {
			delete(r.tries, addr)
		}
	}
	return len(r.tries) < maxAddresses
}

// makeRoomForFollower reports whether one more follower fits, forgetting
// the one unseen longest if the room is full and it has been unseen for
// forgetAfter.
func (r *Room) makeRoomForFollower(now time.Time) bool {
	if len(r.followers) < MaxFollowers {
		return true
	}
	var oldest string
	for id, f := range r.followers {
		if oldest == "" || f.LastSeen.Before(r.followers[oldest].LastSeen) {
			oldest = id
		}
	}
	if now.Sub(r.followers[oldest].LastSeen) < forgetAfter {
		return false
	}
	delete(r.followers, oldest)
	return true
}

// CleanName is a name as the dashboard shows it: control characters
// out, runs of white space made one space, at most MaxName characters.
func CleanName(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(c rune) bool { return unicode.IsSpace(c) || unicode.IsControl(c) }), " ")
	if utf8.RuneCountInString(s) > MaxName {
		s = string([]rune(s)[:MaxName])
	}
	return strings.TrimSpace(s)
}

// Follower returns the follower with id, if there is one.
func (r *Room) Follower(id string) (Follower, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.followers[id]
	if !ok {
		return Follower{}, false
	}
	return f.snapshot(), true
}

// Seen records that the follower id's page is page, now. It reports
// false for an id the room does not know.
func (r *Room) Seen(id, page string) bool {
	return r.change(id, func(f *follower) {
		f.LastSeen = time.Now()
		f.Page, f.Own = truncate(page, MaxPage), false
	})
}

// SeenOwn records that the follower id follows from their own wirelab,
// which relays the presenter to the student's pages there, now. It
// reports false for an id the room does not know.
func (r *Room) SeenOwn(id string) bool {
	return r.change(id, func(f *follower) {
		f.LastSeen = time.Now()
		f.Page, f.Own = "", true
	})
}

// Share turns the follower's sharing of progress on or off. Off forgets
// what was shared: nothing is shown without the follower's consent.
func (r *Room) Share(id string, on bool) bool {
	return r.change(id, func(f *follower) {
		f.LastSeen = time.Now()
		f.Share = on
		if !on {
			f.Passed, f.Failure, f.passed = nil, nil, map[string]bool{}
		}
	})
}

// Record notes a follower's check of exercise: passed, or failed with
// failure. It is kept only while the follower shares; the first pass of
// an exercise is kept, and a pass clears that exercise's failure. It
// reports false for an id the room does not know.
func (r *Room) Record(id, exercise string, passed bool, failure string) bool {
	return r.change(id, func(f *follower) {
		now := time.Now()
		f.LastSeen = now
		if !f.Share {
			return
		}
		if !passed {
			f.Failure = &Failure{Exercise: exercise, Message: truncate(failure, MaxFailure), At: now}
			return
		}
		if f.Failure != nil && f.Failure.Exercise == exercise {
			f.Failure = nil
		}
		if !f.passed[exercise] {
			f.passed[exercise] = true
			f.Passed = append(f.Passed, Pass{Exercise: exercise, At: now})
		}
	})
}

// change applies fn to the follower id, under mu, and tells whoever waits
// on Changed.
func (r *Room) change(id string, fn func(*follower)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.followers[id]
	if !ok {
		return false
	}
	fn(f)
	r.touch()
	return true
}

// touch wakes whoever waits on Changed. The caller holds mu.
func (r *Room) touch() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// Changed returns a channel that is closed at the room's next change: a
// follower joins, is seen, or shares. Take it before reading the room,
// so that no change falls between the two.
func (r *Room) Changed() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changed
}

// Followers returns every follower, in the order they joined.
func (r *Room) Followers() []Follower {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Follower, 0, len(r.followers))
	for _, f := range r.followers {
		out = append(out, f.snapshot())
	}
	slices.SortFunc(out, func(a, b Follower) int { return a.Seat - b.Seat })
	return out
}

// snapshot is a copy of the follower that shares no memory with the room.
func (f *follower) snapshot() Follower {
	s := f.Follower
	s.Passed = slices.Clone(f.Passed)
	if f.Failure != nil {
		fail := *f.Failure
		s.Failure = &fail
	}
	return s
}

// Log is the session log the instructor may ask for: when the room
// opened, and every follower with what they chose to share; for a room
// spread over several playgrounds, the followers of the others too, as
// each last told them (Others).
type Log struct {
	Started   time.Time  `json:"started"`
	Written   time.Time  `json:"written"`
	Followers []Follower `json:"followers"`
	Elsewhere []Snapshot `json:"elsewhere,omitempty"`
}

// Log returns the room's session log, as of now.
func (r *Room) Log() Log {
	return Log{Started: r.started, Written: time.Now(), Followers: r.Followers()}
}

// newCode draws a join code from the room's source.
func (r *Room) newCode() string {
	b := make([]byte, CodeLength)
	if _, err := io.ReadFull(r.rand, b); err != nil {
		panic("classroom: reading randomness: " + err.Error())
	}
	for i := range b {
		// 256 is not a multiple of 31: the first 8 letters come up a
		// little more often (9 ways in 256 against 8), which costs a
		// guesser almost nothing of 887 million codes.
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b)
}

// newID draws a follower id from the room's source.
func (r *Room) newID() string {
	b := make([]byte, idBytes)
	if _, err := io.ReadFull(r.rand, b); err != nil {
		panic("classroom: reading randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// truncate cuts s to at most n bytes, on a character boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
