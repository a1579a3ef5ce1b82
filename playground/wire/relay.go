package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/gorilla/websocket"
)

// Waits between a relay's tries to reach the instructor: the first
// short, since a blip is the usual cause; doubling up to relayMaxWait,
// so that a playground that is gone for good is asked twice a minute,
// not hammered.
const (
	relayFirstWait = 250 * time.Millisecond
	relayMaxWait   = 30 * time.Second
	// relayDialTimeout bounds one try: a machine that does not answer on
	// the classroom's network is given up on and tried again.
	relayDialTimeout = 10 * time.Second
)

// RelayReport is what FollowRemote says each time its connection to
// the instructor's playground changes.
type RelayReport struct {
	// Connected is true when the relay has just reached the instructor,
	// false when it has lost or could not reach it.
	Connected bool
	// Err says why it is not connected, and Wait how long it waits
	// before the next try.
	Err  error
	Wait time.Duration
}

// FollowRemote relays the presenter of another playground (the
// instructor's) into this hub: it opens wsURL, the other playground's
// /ws?watch=presenter, with header (the follower's cookie, say), and
// hands everything that comes to the tabs of this hub that watch
// "instructor" (/ws?watch=instructor), which then see what a follower of
// the instructor's playground sees. A header without Origin gets
// wsURL's own, which the instructor's playground accepts.
//
// It keeps the relay up, reconnecting with a growing wait when the
// connection breaks or cannot be made, and calls report (if not nil)
// with each change, between one dial and the next, on the goroutine
// that dials: header is read at each dial, so report may change it (a
// new cookie, after the instructor's playground restarted). Meanwhile
// the tabs are told
// {"op":"status","status":"reconnecting","message":"..."}. It returns
// when ctx ends or the hub closes, and the tabs are told "ended" and
// closed. One relay at a time: a second call returns an error at once.
func (h *Hub) FollowRemote(ctx context.Context, wsURL string, header http.Header, report func(RelayReport)) error {
	u, err := url.Parse(wsURL)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") {
		return fmt.Errorf("following %q: a websocket URL (ws:// or wss://) is wanted", wsURL)
	}
	// Read at each dial: report, between dials, may have changed header.
	dialHeader := func() http.Header {
		h := header.Clone()
		if h == nil {
			h = http.Header{}
		}
		if h.Get("Origin") == "" {
			h.Set("Origin", map[string]string{"ws": "http", "wss": "https"}[u.Scheme]+"://"+u.Host)
		}
		return h
	}
	if report == nil {
		report = func(RelayReport) {}
	}

	a := newAudience()
	h.mu.Lock()
	switch {
	case h.ctx.Err() != nil:
		h.mu.Unlock()
		return ErrClosed
	case h.relay != nil:
		h.mu.Unlock()
		return errors.New("this playground already follows an instructor")
	}
	h.relay = a
	h.wg.Add(1)
	h.mu.Unlock()
	defer h.wg.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(h.ctx, cancel)
	defer stop()
	defer func() {
		h.mu.Lock()
		h.relay = nil
		h.mu.Unlock()
		a.close(statusEnded)
	}()

	a.lost("connecting to the instructor's playground")
	wait := relayFirstWait
	for {
		err := relayOnce(ctx, wsURL, dialHeader(), a, func() {
			wait = relayFirstWait
			report(RelayReport{Connected: true})
		})
		if ctx.Err() != nil {
			return nil
		}
		report(RelayReport{Err: err, Wait: wait})
		a.lost(fmt.Sprintf("lost the instructor's playground (%v); trying again", err))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil
		}
		wait = min(2*wait, relayMaxWait)
	}
}

// relayOnce connects once, calls connected, and passes what comes to a
// until the connection breaks or ctx ends.
func relayOnce(ctx context.Context, wsURL string, header http.Header, a *audience, connected func()) error {
	dialer := websocket.Dialer{HandshakeTimeout: relayDialTimeout}
	conn, resp, err := dialer.DialContext(ctx, wsURL, header)
	if err != nil {
		if resp != nil {
			return fmt.Errorf("%w (%s)", err, resp.Status)
		}
		return err
	}
	defer conn.Close()
	// The read below blocks until a message comes or the connection
	// closes; closing it when ctx ends unblocks it.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	connected()

	// The instructor's playground pings every pingPeriod; a silence much
	// longer than that is a connection gone dead.
	conn.SetReadLimit(maxFrame + 64<<10)
	conn.SetReadDeadline(time.Now().Add(pongWait))
	conn.SetPingHandler(func(data string) error {
		conn.SetReadDeadline(time.Now().Add(pongWait))
		return conn.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(writeWait))
	})
	for {
		_, b, err := conn.ReadMessage()
		if err != nil {
			return err
		}
		conn.SetReadDeadline(time.Now().Add(pongWait))
		relayMessage(a, b)
	}
}

// relayMessage passes one message of the instructor's playground to a:
// its statuses as they are, its events and states to be kept for the
// tabs that come later.
func relayMessage(a *audience, b []byte) {
	var m struct {
		Op      string          `json:"op"`
		Status  string          `json:"status"`
		Session string          `json:"session"`
		State   json.RawMessage `json:"state"`
	}
	if json.Unmarshal(b, &m) != nil {
		return
	}
	switch {
	case m.Op == "status" && m.Status == "live":
		a.begin(m.Session, nil, nil)
	case m.Op == "status" && m.Status == "ended":
		a.end()
	case m.Op == "status" && m.Status == "waiting":
		a.waiting()
	case m.Op == "state" && len(m.State) > 0:
		a.setState(m.State)
	case m.Op == "event" || m.Op == "error":
		a.event(b)
	}
}
