package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Command is a message from the page.
type Command struct {
	Op     string `json:"op"` // "send", "restart", "present" or "state"
	ID     int64  `json:"id"`
	Target string `json:"target"`
	To     string `json:"to,omitempty"` // a custom target's command line, URL or address
	Frame  string `json:"frame"`
	// On is "present"'s switch: absent or true to present, false to stop.
	On *bool `json:"on,omitempty"`
	// State is the presenting page's state, with "state": a JSON object
	// the engine relays without reading.
	State json.RawMessage `json:"state,omitempty"`
}

// Hello is the first message on every websocket: which session it is,
// whether the tab may start processes, and whether it only watches.
type Hello struct {
	Op       string `json:"op"` // "hello"
	Session  string `json:"session"`
	Local    bool   `json:"local"`
	Watching bool   `json:"watching"`
	// Presenter says that the tab follows a presenter (?watch=presenter
	// or ?watch=instructor), and so gets status messages.
	Presenter bool `json:"presenter,omitempty"`
}

// Event is a message to the page: a piece of traffic ("event"), or the
// playground's refusal of a frame ("error").
type Event struct {
	Op      string `json:"op"`
	ID      int64  `json:"id,omitempty"`
	Target  string `json:"target,omitempty"`
	To      string `json:"to,omitempty"`   // a custom target's "to", as the page sent it
	Dir     string `json:"dir,omitempty"`  // "out", "in", "err", or "note" (the playground speaking)
	Kind    string `json:"kind,omitempty"` // "line", "stderr", "raw", "http-head", "http-body", "grpc", "exit", ...
	At      string `json:"at,omitempty"`   // when the bytes crossed, RFC 3339 with nanoseconds
	Text    string `json:"text,omitempty"`
	Size    int    `json:"size,omitempty"` // bytes on the wire
	Message string `json:"message,omitempty"`
	// Frames are a gRPC call's HTTP/2 frames, both ways, as they crossed
	// ("grpc" events only); Text is then their annotated account.
	Frames []HTTP2Frame `json:"frames,omitempty"`
}

// session is one tab: one websocket with one reader (run) and one writer
// (pump), the tab's child processes, the exchanges it waits on, and the
// feed that its followers watch.
type session struct {
	hub   *Hub
	conn  *websocket.Conn
	id    string // random and unguessable: the key to watching this session
	local bool   // the tab is on this machine, so it may start children
	// lang is the page's language: every note and refusal the session
	// sends is worded in it. A classroom's followers get the presenter's
	// events as they are, so they read its notes in the presenter's
	// language, whatever theirs.
	lang lang

	ctx    context.Context // ends when the tab goes or the hub closes
	cancel context.CancelFunc
	out    chan []byte    // JSON messages to the writer; never closed, the writer stops at ctx
	feed   *feed          // every event goes through it, to out and to the followers
	flight chan struct{}  // one token per exchange in progress
	wg     sync.WaitGroup // counts exchanges and child readers

	mu       sync.Mutex // guards children
	children map[childKey]*child

	grpc grpcClients // the tab's gRPC connections, kept between calls
}

// newSession makes the session of a tab that has just connected, with
// its hello queued as the first message; l is its page's language.
func newSession(h *Hub, conn *websocket.Conn, local bool, l lang) *session {
	ctx, cancel := context.WithCancel(h.ctx)
	s := &session{hub: h, conn: conn, id: newSessionID(), local: local, lang: l, ctx: ctx, cancel: cancel,
		out: make(chan []byte, sendBuffer), flight: make(chan struct{}, maxInFlight), children: make(map[childKey]*child)}
	s.feed = newFeed(s.out, cancel)
	// The writer has not started and nothing else sends yet: the hello
	// goes first, and fits.
	s.out <- mustJSON(Hello{Op: "hello", Session: s.id, Local: local})
	return s
}

// run reads commands until the tab goes away or the hub closes, then
// stops everything the session started, waits for it, and tells the
// followers that the session ended.
func (s *session) run() {
	writerDone := make(chan struct{})
	// The writer stops when the session's context ends or a write fails.
	go func() {
		pump(s.ctx, s.conn, s.out, nil)
		s.cancel()
		close(writerDone)
	}()
	// A read blocks until the tab sends or the connection closes; closing
	// it when the context ends unblocks the read loop below.
	stopRead := context.AfterFunc(s.ctx, func() { s.conn.Close() })
	defer stopRead()

	keepAlive(s.conn)
	rate := bucket{rate: s.hub.frameRate, burst: s.hub.frameBurst, tokens: s.hub.frameBurst}
	for {
		var c Command
		if err := s.conn.ReadJSON(&c); err != nil {
			closeOnGarbage(s.conn, err)
			break
		}
		if !rate.take(time.Now()) {
			s.refuse(c.ID, s.say(noteTooFast, rate.rate))
			continue
		}
		s.handle(c)
	}
	s.cancel()
	s.stopChildren()
	s.wg.Wait()
	<-writerDone
	s.conn.Close()
	// Every event of the session has been published: the followers have
	// seen it all, and the room hears that its presenter, if it was one,
	// has gone.
	s.hub.unpresent(s)
	s.hub.unregister(s)
	s.feed.end()
}

// keepAlive sets the read limits of a tab's connection: the largest
// message, and how long the tab may stay silent (pongs count).
// closeOnGarbage closes a websocket whose peer sent a message that is
// not a command in JSON, saying so with 1007 (RFC 6455 section 7.4.1:
// data inconsistent with the message's type), rather than with the
// "going away" that ends every connection when its reader stops.
func closeOnGarbage(conn *websocket.Conn, err error) {
	var syntax *json.SyntaxError
	var kind *json.UnmarshalTypeError
	if errors.As(err, &syntax) || errors.As(err, &kind) {
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseInvalidFramePayloadData, "not a command: the page sends JSON commands"), time.Now().Add(writeWait))
	}
}

func keepAlive(conn *websocket.Conn) {
	conn.SetReadLimit(maxFrame + 64<<10) // the frame plus its JSON envelope
	conn.SetReadDeadline(time.Now().Add(pongWait))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(pongWait)) })
}

// handle serves one command from the page.
func (s *session) handle(c Command) {
	if len(c.Frame) > maxFrame {
		s.refuse(c.ID, s.say(noteFrameTooLong, len(c.Frame), maxFrame))
		return
	}
	switch c.Op {
	case "present":
		s.handlePresent(c)
		return
	case "state":
		s.handleState(c)
		return
	}
	if isCustom(c.Target) {
		s.handleCustom(c)
		return
	}
	c.To = "" // only custom targets have one, and only they echo it
	switch c.Op {
	case "send":
	case "restart":
		if c.Target == "grpc" {
			s.restartGRPC(c, s.hub.targets.GRPCAddr)
			return
		}
		s.restartChild(childKey{target: c.Target})
		return
	default:
		s.refuse(c.ID, s.say(noteUnknownOp, c.Op))
		return
	}
	t := s.hub.targets
	switch c.Target {
	case "stdio", "mcp-stdio", "mcp-hostile":
		s.sendLine(c)
	case "http":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.HTTPURL) })
	case "http-auth":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.HTTPAuthURL) })
	case "mcp-http":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.MCPURL) })
	case "a2a":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.A2AURL) })
	case "oauth":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.OAuthURL) })
	case "mcp-auth":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.MCPAuthURL) })
	case "grpc":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeGRPC(ctx, c, t.GRPCAddr) })
	default:
		s.refuse(c.ID, s.say(noteUnknownTarget, c.Target, "stdio, mcp-stdio, mcp-hostile, http, http-auth, mcp-http, mcp-auth, oauth, a2a, grpc, custom-stdio, custom-http, custom-grpc"))
	}
}

// restartGRPC forgets the tab's connection to a gRPC server, and says so.
func (s *session) restartGRPC(c Command, addr string) {
	s.dropGRPCClient(addr)
	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "note", Kind: "restart", Text: s.say(noteGRPCRestart, addr)})
}

// exchange runs one request-response exchange in the background, so that
// a long stream does not hold up the next frame; at most maxInFlight at
// once.
func (s *session) exchange(c Command, do func(context.Context) error) {
	select {
	case s.flight <- struct{}{}:
	default:
		s.refuse(c.ID, s.say(noteExchangesOpen, maxInFlight, exchangeTimeout))
		return
	}
	s.wg.Add(1)
	// Ends when the exchange does: at its answer, exchangeTimeout, or the
	// end of the session.
	go func() {
		defer s.wg.Done()
		defer func() { <-s.flight }()
		ctx, cancel := context.WithTimeout(s.ctx, exchangeTimeout)
		defer cancel()
		if err := do(ctx); err != nil {
			s.refuse(c.ID, s.explain(err))
		}
	}()
}

// emit sends an event to the page and to the session's followers. A tab
// that does not keep up is dropped rather than waited on (feed.publish).
func (s *session) emit(ev Event) {
	if ev.Op == "" {
		ev.Op = "event"
	}
	if ev.At == "" && ev.Op == "event" {
		ev.At = time.Now().UTC().Format(time.RFC3339Nano)
	}
	s.feed.publish(mustJSON(ev))
}

// awaitRoom waits until the tab's queue is at most half full. What reads
// from a peer (an answer's body, a child's output) calls it before each
// piece, so that a peer that sends faster than the page takes its events
// is held back, by TCP or its pipe, instead of filling the queue, at
// which the tab would be dropped. The hub still never waits on a tab:
// only that reader waits, and ctx (the exchange's deadline, the
// session) ends the wait.
func (s *session) awaitRoom(ctx context.Context) error {
	for len(s.out) > cap(s.out)/2 {
		t := time.NewTimer(roomPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

func (s *session) refuse(id int64, message string) {
	s.emit(Event{Op: "error", ID: id, Message: message})
}

// say words a note in the tab's language.
func (s *session) say(key noteKey, args ...any) string { return say(key, args...).in(s.lang) }

// explain is what the tab is told of err: a notice in the tab's
// language; any other error (Go's own, or one wrapped around a notice)
// as it reads.
func (s *session) explain(err error) string {
	if n, ok := err.(*notice); ok {
		return n.in(s.lang)
	}
	return err.Error()
}

// mustJSON encodes a message to the page. Messages are made of strings,
// numbers and booleans only, so encoding cannot fail. "<", ">" and "&"
// are written as they are, not as \u003c and the like: the page reads
// messages with JSON.parse and never puts them in HTML as they come, and
// a gRPC account is full of "<-" arrows.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("playground: encoding a message: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// pump is a connection's one writer: the messages from out, and pings
// that keep an idle connection alive. It returns when ctx ends (after a
// close frame, "going away", or "try again later" with the reason for a
// follower that fell behind), when a write fails, or, once ended is
// closed, when it has written what out still holds (then the close frame
// says "normal closure"). A nil ended never closes.
func pump(ctx context.Context, conn *websocket.Conn, out <-chan []byte, ended <-chan struct{}) {
	ping := time.NewTicker(pingPeriod)
	defer ping.Stop()
	write := func(b []byte) bool {
		if ctx.Err() != nil {
			// Dropped or closing while messages wait: the close frame
			// that says so goes first (the select below finds ctx done).
			return true
		}
		conn.SetWriteDeadline(time.Now().Add(writeWait))
		return conn.WriteMessage(websocket.TextMessage, b) == nil
	}
	goodbye := func(code int, reason string) {
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(writeWait))
	}
	for {
		select {
		case <-ctx.Done():
			// RFC 6455 section 7.4.1: 1013, "try again later", for a
			// follower dropped for falling behind, which may reconnect;
			// 1001, "going away", when the playground closes.
			if errors.Is(context.Cause(ctx), errFellBehind) {
				goodbye(websocket.CloseTryAgainLater, errFellBehind.Error())
			} else {
				goodbye(websocket.CloseGoingAway, "")
			}
			return
		case b := <-out:
			if !write(b) {
				return
			}
		case <-ended:
			// Nothing is sent on out after ended closes (feed.end), so
			// what is there is all there will be.
			for {
				select {
				case b := <-out:
					if !write(b) {
						return
					}
				default:
					goodbye(websocket.CloseNormalClosure, "")
					return
				}
			}
		case <-ping.C:
			if conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)) != nil {
				return
			}
		}
	}
}

// bucket is a token bucket: rate tokens a second, up to burst. Only the
// session's reader uses it.
type bucket struct {
	rate, burst float64
	tokens      float64
	last        time.Time
}

func (b *bucket) take(now time.Time) bool {
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
