package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// command is a message from the page.
type command struct {
	Op     string `json:"op"` // "send" or "restart"
	ID     int64  `json:"id"`
	Target string `json:"target"`
	Frame  string `json:"frame"`
}

// event is a message to the page: a piece of traffic ("event"), or the
// playground's refusal of a frame ("error").
type event struct {
	Op      string `json:"op"`
	ID      int64  `json:"id,omitempty"`
	Target  string `json:"target,omitempty"`
	Dir     string `json:"dir,omitempty"`  // "out", "in", "err", or "note" (the playground speaking)
	Kind    string `json:"kind,omitempty"` // "line", "stderr", "raw", "http-head", "http-body", "grpc", "exit", ...
	At      string `json:"at,omitempty"`   // when the bytes crossed, RFC 3339 with nanoseconds
	Text    string `json:"text,omitempty"`
	Size    int    `json:"size,omitempty"` // bytes on the wire
	Message string `json:"message,omitempty"`
}

// session is one tab: one websocket with one reader (run) and one writer
// (write), the tab's child processes, and the exchanges it waits on.
type session struct {
	hub   *hub
	conn  *websocket.Conn
	local bool // the tab is on this machine, so it may start children

	ctx    context.Context // ends when the tab goes or the hub closes
	cancel context.CancelFunc
	out    chan event     // to the writer; never closed, the writer stops at ctx
	flight chan struct{}  // one token per exchange in progress
	wg     sync.WaitGroup // counts exchanges and child readers

	mu       sync.Mutex // guards children
	children map[string]*child
}

func newSession(h *hub, conn *websocket.Conn, local bool) *session {
	return &session{hub: h, conn: conn, local: local,
		out: make(chan event, sendBuffer), flight: make(chan struct{}, maxInFlight), children: make(map[string]*child)}
}

// run reads commands until the tab goes away or the hub closes, then
// stops everything the session started and waits for it.
func (s *session) run(ctx context.Context) {
	s.ctx, s.cancel = context.WithCancel(ctx)
	writerDone := make(chan struct{})
	// The writer stops when the session's context ends.
	go func() {
		s.write()
		close(writerDone)
	}()
	// A read blocks until the tab sends or the connection closes; closing
	// it when the context ends unblocks the read loop below.
	stopRead := context.AfterFunc(s.ctx, func() { s.conn.Close() })
	defer stopRead()

	s.conn.SetReadLimit(maxFrame + 64<<10) // the frame plus its JSON envelope
	s.conn.SetReadDeadline(time.Now().Add(pongWait))
	s.conn.SetPongHandler(func(string) error { return s.conn.SetReadDeadline(time.Now().Add(pongWait)) })
	rate := bucket{tokens: frameBurst}
	for {
		var c command
		if err := s.conn.ReadJSON(&c); err != nil {
			break
		}
		if !rate.take(time.Now()) {
			s.refuse(c.ID, fmt.Sprintf("too many frames: at most %d a second; wait a moment", framesPerSecond))
			continue
		}
		s.handle(c)
	}
	s.cancel()
	s.stopChildren()
	s.wg.Wait()
	<-writerDone
	s.conn.Close()
}

// handle serves one command from the page.
func (s *session) handle(c command) {
	if len(c.Frame) > maxFrame {
		s.refuse(c.ID, fmt.Sprintf("the frame is %d bytes; at most %d are sent", len(c.Frame), maxFrame))
		return
	}
	switch c.Op {
	case "send":
	case "restart":
		s.restartChild(c.Target)
		return
	default:
		s.refuse(c.ID, fmt.Sprintf("unknown op %q: the page sends \"send\" or \"restart\"", c.Op))
		return
	}
	t := s.hub.targets
	switch c.Target {
	case "stdio", "mcp-stdio":
		s.sendLine(c)
	case "http":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.HTTPURL) })
	case "mcp-http":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.MCPURL) })
	case "a2a":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, t.A2AURL) })
	case "grpc":
		s.exchange(c, func(ctx context.Context) error { return s.exchangeGRPC(ctx, c, t.GRPCAddr) })
	default:
		s.refuse(c.ID, fmt.Sprintf("unknown target %q: the targets are stdio, mcp-stdio, http, mcp-http, a2a and grpc", c.Target))
	}
}

// exchange runs one request-response exchange in the background, so that
// a long stream does not hold up the next frame; at most maxInFlight at
// once.
func (s *session) exchange(c command, do func(context.Context) error) {
	select {
	case s.flight <- struct{}{}:
	default:
		s.refuse(c.ID, fmt.Sprintf("%d exchanges are still open; wait for one to end (streams end after %v)", maxInFlight, exchangeTimeout))
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
			s.refuse(c.ID, err.Error())
		}
	}()
}

// emit queues an event for the page. A tab that does not keep up is
// dropped rather than waited on.
func (s *session) emit(ev event) {
	if ev.Op == "" {
		ev.Op = "event"
	}
	if ev.At == "" && ev.Op == "event" {
		ev.At = time.Now().UTC().Format(time.RFC3339Nano)
	}
	select {
	case s.out <- ev:
	default:
		s.cancel()
	}
}

func (s *session) refuse(id int64, message string) {
	s.emit(event{Op: "error", ID: id, Message: message})
}

// write is the connection's one writer: events, and pings that keep an
// idle connection alive.
func (s *session) write() {
	ping := time.NewTicker(pingPeriod)
	defer ping.Stop()
	for {
		select {
		case <-s.ctx.Done():
			s.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, ""), time.Now().Add(writeWait))
			return
		case ev := <-s.out:
			b, err := json.Marshal(ev)
			if err != nil {
				continue
			}
			s.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if s.conn.WriteMessage(websocket.TextMessage, b) != nil {
				s.cancel()
				return
			}
		case <-ping.C:
			if s.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)) != nil {
				s.cancel()
				return
			}
		}
	}
}

// bucket is a token bucket: framesPerSecond tokens a second, up to
// frameBurst. Only the session's reader uses it.
type bucket struct {
	tokens float64
	last   time.Time
}

func (b *bucket) take(now time.Time) bool {
	if !b.last.IsZero() {
		b.tokens = min(frameBurst, b.tokens+now.Sub(b.last).Seconds()*framesPerSecond)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
