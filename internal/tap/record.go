package tap

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Format names this recording format in the first event of every file.
const Format = "wirelab-tap/1"

// Directions, from the host's point of view.
const (
	Out = "out" // host to server: stdin, or an HTTP request
	In  = "in"  // server to host: stdout, or an HTTP response
	Err = "err" // the server's stderr, its logs
)

// Kinds of event.
const (
	KindStart        = "start"         // the first event: what was tapped
	KindLine         = "line"          // one line of stdin, stdout or stderr
	KindHTTPRequest  = "http-request"  // a request's head and body
	KindHTTPResponse = "http-response" // a response's head
	KindHTTPBody     = "http-body"     // a response body that is not an event stream
	KindSSEEvent     = "sse-event"     // one event of an event stream, as it passed
	KindHTTPEnd      = "http-end"      // the response body ended (or broke)
	KindFrame        = "h2-frame"      // one HTTP/2 frame of a gRPC connection, header and payload
	KindNote         = "note"          // something the tap saw break: a host gone, an upstream down
	KindExit         = "exit"          // the server exited
)

// Event is one thing the tap saw, and one line of a recording file.
type Event struct {
	// Seq numbers events from 1 in the order the tap recorded them.
	// Findings and diffs name events by it.
	Seq  int       `json:"seq"`
	T    time.Time `json:"t"`
	Dir  string    `json:"dir,omitempty"`
	Kind string    `json:"kind"`
	// Data is the bytes as text, when they are UTF-8; otherwise Base64
	// holds them. A line's newline is not part of it.
	Data   string `json:"data,omitempty"`
	Base64 string `json:"base64,omitempty"`
	// Size is how many bytes there really were; when it exceeds the
	// record's bound, Data holds only the first MaxData bytes and
	// Truncated is set.
	Size      int  `json:"size,omitempty"`
	Truncated bool `json:"truncated,omitempty"`
	// NoEOL marks a last line that ended without a newline, an HTTP body
	// or event, or an HTTP/2 frame, that the connection's end cut off:
	// the stream closed in the middle of a message.
	NoEOL bool `json:"noEOL,omitempty"`

	// Exchange pairs an HTTP request with its response, body and events.
	Exchange int         `json:"exchange,omitempty"`
	Method   string      `json:"method,omitempty"`
	URL      string      `json:"url,omitempty"`
	Status   int         `json:"status,omitempty"`
	Header   http.Header `json:"header,omitempty"`

	// Conn numbers a gRPC connection from the host; a frame's Frame is
	// its type ("HEADERS", "DATA", ...; "PREFACE" for the client's
	// preface) and Stream its stream, both read from its header.
	Conn int `json:"conn,omitempty"`
	// Refused marks a note of an HTTP request the tap answered itself,
	// refusing it (package loopback), so that the server never saw it.
	Refused bool   `json:"refused,omitempty"`
	Frame   string `json:"frame,omitempty"`
	Stream  uint32 `json:"stream,omitempty"`

	// Start: what was tapped. Exit: how the server ended.
	Command  []string `json:"command,omitempty"`
	Upstream string   `json:"upstream,omitempty"`
	Format   string   `json:"format,omitempty"`
	ExitCode *int     `json:"exitCode,omitempty"`
}

// Bytes returns the event's data as it was recorded (possibly cut short).
func (e *Event) Bytes() []byte {
	if e.Base64 != "" {
		b, _ := base64.StdEncoding.DecodeString(e.Base64)
		return b
	}
	return []byte(e.Data)
}

// setData stores b, cut at max bytes, as text or base64.
func (e *Event) setData(b []byte, max int) {
	e.Size = len(b)
	if len(b) > max {
		b, e.Truncated = b[:max], true
	}
	if utf8.Valid(b) {
		e.Data = string(b)
	} else {
		e.Base64 = base64.StdEncoding.EncodeToString(b)
	}
}

// setBinary stores b, which holds at most the record's bound, as base64
// always: a frame is binary even when its bytes happen to be UTF-8.
func (e *Event) setBinary(b []byte) {
	e.Base64 = base64.StdEncoding.EncodeToString(b)
}

// weight is what an event counts against MaxBytes: the bytes it holds
// that a peer chose, its data, URL and headers. The headers count as
// much as a body: a server may send megabytes of them on every answer.
func (e *Event) weight() int {
	n := len(e.Data) + len(e.Base64) + len(e.URL)
	for k, vs := range e.Header {
		n += len(k)
		for _, v := range vs {
			n += len(v)
		}
	}
	return n
}

// Limits of the record. They bound what the tap keeps, never what it
// relays: a line of any length passes through whole.
const (
	// DefaultMaxData is the most bytes of one message kept: 1 MiB, the
	// longest line wirelab's own stdio servers accept, so that every
	// message a sane peer sends is kept whole and can be checked.
	DefaultMaxData = 1 << 20
	// DefaultMaxEvents and DefaultMaxBytes bound the in-memory log: the
	// oldest events go first. A file keeps everything.
	DefaultMaxEvents = 10000
	DefaultMaxBytes  = 64 << 20
	// subscriberBuffer is how many events a live subscriber may fall
	// behind before it is dropped: the relay never waits for a reader.
	subscriberBuffer = 256
)

// RecorderOptions configure a Recorder; nil means the defaults.
type RecorderOptions struct {
	// File, if set, receives every event as one JSON line, as it happens.
	File io.Writer
	// KeepSecrets records Authorization, Cookie and similar headers as
	// they were; by default their values are masked.
	KeepSecrets bool
	// MaxData, MaxEvents, MaxBytes: the limits above; 0 means the default.
	MaxData, MaxEvents, MaxBytes int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Recorder numbers, keeps and publishes events. It is safe for
// concurrent use: the tap's relays all record into one.
type Recorder struct {
	opts RecorderOptions

	mu      sync.Mutex // guards everything below
	seq     int
	log     []Event // the newest events, at most MaxEvents and MaxBytes
	bytes   int     // the data bytes held in log
	subs    map[*Subscription]struct{}
	fileErr error // the first failure writing File; later events are not written
}

// NewRecorder returns an empty recorder.
func NewRecorder(opts *RecorderOptions) *Recorder {
	r := &Recorder{subs: make(map[*Subscription]struct{})}
	if opts != nil {
		r.opts = *opts
	}
	if r.opts.MaxData <= 0 {
		r.opts.MaxData = DefaultMaxData
	}
	if r.opts.MaxEvents <= 0 {
		r.opts.MaxEvents = DefaultMaxEvents
	}
	if r.opts.MaxBytes <= 0 {
		r.opts.MaxBytes = DefaultMaxBytes
	}
	if r.opts.Now == nil {
		r.opts.Now = time.Now
	}
	return r
}

// Add stamps e with the next number and the time (unless it has one),
// masks secrets in its headers, keeps it, writes it to the file and hands
// it to every subscriber. It returns the stamped event.
func (r *Recorder) Add(e Event) Event {
	if e.T.IsZero() {
		e.T = r.opts.Now()
	}
	if !r.opts.KeepSecrets {
		e.Header = maskHeader(e.Header)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	e.Seq = r.seq
	r.log = append(r.log, e)
	r.bytes += e.weight()
	for len(r.log) > r.opts.MaxEvents || (r.bytes > r.opts.MaxBytes && len(r.log) > 1) {
		r.bytes -= r.log[0].weight()
		r.log[0] = Event{} // let the old data go
		r.log = r.log[1:]
	}
	if r.opts.File != nil && r.fileErr == nil {
		b, err := json.Marshal(e)
		if err == nil {
			_, err = r.opts.File.Write(append(b, '\n'))
		}
		if err != nil {
			r.fileErr = fmt.Errorf("writing the record: %w", err)
		}
	}
	for s := range r.subs {
		select {
		case s.c <- e:
		default:
			// Too slow: drop it rather than hold up the relay. It can
			// catch up from Events, whose Seq shows where it stopped.
			s.dropped = true
			delete(r.subs, s)
			close(s.c)
		}
	}
	return e
}

// Events returns the events still held in memory, oldest first.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.log...)
}

// FileErr returns the first error writing the record file, if any.
func (r *Recorder) FileErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fileErr
}

// Subscription is a live feed of events, for a page that shows a tap as
// it runs.
type Subscription struct {
	r       *Recorder
	c       chan Event
	dropped bool // set, under r.mu, when the feed fell behind and was closed
}

// Subscribe starts a live feed of the events recorded from now on. A
// subscriber that falls subscriberBuffer events behind is dropped: its
// channel closes and Dropped reports true; it may then read Events and
// subscribe again.
func (r *Recorder) Subscribe() *Subscription {
	s := &Subscription{r: r, c: make(chan Event, subscriberBuffer)}
	r.mu.Lock()
	r.subs[s] = struct{}{}
	r.mu.Unlock()
	return s
}

// C delivers the events. It is closed by Close or when the subscriber
// was dropped.
func (s *Subscription) C() <-chan Event { return s.c }

// Dropped reports whether the feed closed because its reader fell behind.
func (s *Subscription) Dropped() bool {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	return s.dropped
}

// Close ends the feed. It is safe to call more than once.
func (s *Subscription) Close() {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	if _, ok := s.r.subs[s]; ok {
		delete(s.r.subs, s)
		close(s.c)
	}
}

// secretHeaders are masked in a record unless asked otherwise: they let
// whoever reads the file act as the user.
var secretHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key"}

// Masked is what a masked header value becomes, after its scheme
// ("Bearer ***"), so that a reader still sees which kind of credential
// was sent.
const Masked = "***"

func maskHeader(h http.Header) http.Header {
	var out http.Header
	for _, name := range secretHeaders {
		vs, ok := h[name]
		if !ok {
			continue
		}
		if out == nil {
			out = h.Clone()
		}
		masked := make([]string, len(vs))
		for i, v := range vs {
			if scheme, _, ok := strings.Cut(v, " "); ok && name != "Cookie" && name != "Set-Cookie" {
				masked[i] = scheme + " " + Masked
			} else {
				masked[i] = Masked
			}
		}
		out[name] = masked
	}
	if out == nil {
		return h
	}
	return out
}
