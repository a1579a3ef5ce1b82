package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// The sessions of the Streamable HTTP transport in revision 2025-11-25:
// initialize opens one and names it in Mcp-Session-Id, every later
// request brings that id back, and DELETE, the server (idle or short of
// room) or Close ends it. A request of revision 2026-07-28 belongs to no
// session (httpmodern.go).

// sessionKey files a session under its id and the caller that opened it
// (auth.go), as the 2025-11-25 security best practices ask: "MCP servers
// SHOULD bind session IDs to user-specific information", with "a key
// format like <user_id>:<session_id>". A request finds a session only
// with the id and the credentials of the same caller, so a session id
// that leaks (a log, a proxy) is no use to anyone else: the spec's
// "session hijacking". The id alone still proves nothing: "MCP Servers
// MUST NOT use sessions for authentication", and every request brings
// its token all the same. On a server that checks no tokens the caller
// is "" for everyone, and the id alone finds the session.
type sessionKey struct {
	caller string // the id of the caller that sent initialize
	id     string // the Mcp-Session-Id
}

// httpSession is a session plus what HTTP adds: its id, how busy it is,
// and the GET stream, if one is open, for messages that belong to no
// request.
type httpSession struct {
	*session
	key  sessionKey
	ctx  context.Context // ends at DELETE, when the server ends it, or at Close
	stop context.CancelFunc

	// busy counts the requests in progress and the open GET stream: a
	// busy session is never ended to make room or for being idle.
	// Guarded by HTTPHandler.mu, like lastUsed.
	busy     int
	lastUsed time.Time // when a request last came or went

	streamMu   sync.Mutex      // guards stream, replays and lastStream
	stream     *sseStream      // the open GET stream, or nil
	replays    map[int]*replay // the latest resumable streams, by number
	lastStream int             // the number of the latest
}

// newSession makes a session with a new id for the caller who sends
// initialize, busy with that initialize, or returns nil if there is no
// room for one. Room is made by ending the sessions idle too long, then,
// if the handler is still full, the idle session unused longest.
func (h *HTTPHandler) newSession(who caller) *httpSession {
	// "The session ID SHOULD be globally unique and cryptographically
	// secure": whoever knows it can act in the session. 128 random bits,
	// as hex, which is within the visible ASCII the spec allows.
	b := make([]byte, 16)
	rand.Read(b) // never fails, per crypto/rand
	now := time.Now()
	hs := &httpSession{key: sessionKey{caller: who.id, id: hex.EncodeToString(b)}, busy: 1, lastUsed: now}
	hs.ctx, hs.stop = context.WithCancel(h.ctx)
	hs.session = newSession(h.srv, hs.sendUnrelated)

	h.mu.Lock()
	defer h.mu.Unlock()
	var lru *httpSession
	for _, old := range h.sessions {
		switch {
		case old.busy > 0:
		case now.Sub(old.lastUsed) >= h.sessionIdle:
			h.endLocked(old, h.idleNote())
		case lru == nil || old.lastUsed.Before(lru.lastUsed):
			lru = old
		}
	}
	if len(h.sessions) >= h.maxSessions && lru != nil {
		h.endLocked(lru, fmt.Sprintf("the server ended it to make room for a new session (it keeps at most %d, and ends the idle one unused longest)", h.maxSessions))
	}
	if len(h.sessions) >= h.maxSessions || h.ctx.Err() != nil {
		hs.end()
		return nil
	}
	h.sessions[hs.key] = hs
	return hs
}

// acquire finds the request's session and marks it busy until release,
// or answers the request itself: 400 without an Mcp-Session-Id, 404 for
// an id that is not (or no longer) a session of this caller.
//
// Another caller's session gets the very 404 of an id never given out,
// not 403: a 403 would tell whoever holds a leaked id that it names a
// live session, worth trying again with other credentials. Looking the
// session up under the caller's key gives that for free: for anyone
// else it is not there.
func (h *HTTPHandler) acquire(w http.ResponseWriter, r *http.Request, who caller) *httpSession {
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"missing Mcp-Session-Id header: every request after initialize carries the id that the initialize response gave")
		return nil
	}
	key := sessionKey{caller: who.id, id: id}
	now := time.Now()
	h.mu.Lock()
	hs := h.sessions[key]
	if hs != nil && hs.busy == 0 && now.Sub(hs.lastUsed) >= h.sessionIdle {
		// Idle too long, though no new session came to sweep it away.
		h.endLocked(hs, h.idleNote())
		hs = nil
	}
	if hs != nil {
		hs.busy++
		hs.lastUsed = now
	}
	why := h.ended[key]
	h.mu.Unlock()
	if hs == nil {
		// "The server MAY terminate the session at any time, after which
		// it MUST respond to requests containing that session ID with HTTP
		// 404 Not Found." The client should start over with initialize.
		if why == "" {
			why = "it ended (DELETE, or the server restarted) or never existed"
		}
		httpError(w, http.StatusNotFound, jsonrpc.CodeInvalidRequest,
			"no session "+quote(id)+": "+why+"; send initialize without Mcp-Session-Id to start a new one")
		return nil
	}
	return hs
}

// release ends what acquire (or newSession) began: the session is one
// request or stream less busy, and counts as used now.
func (h *HTTPHandler) release(hs *httpSession) {
	h.mu.Lock()
	hs.busy--
	hs.lastUsed = time.Now()
	h.mu.Unlock()
}

// remove ends a session at its client's request.
func (h *HTTPHandler) remove(key sessionKey) {
	h.mu.Lock()
	hs := h.sessions[key]
	delete(h.sessions, key)
	h.mu.Unlock()
	if hs != nil {
		hs.end()
	}
}

// endLocked ends a session the client did not end, and notes why, for
// the 404 its next request gets.
func (h *HTTPHandler) endLocked(hs *httpSession, why string) {
	delete(h.sessions, hs.key)
	hs.end()
	h.ended[hs.key] = why
	h.endedIDs = append(h.endedIDs, hs.key)
	if len(h.endedIDs) > endedNotes {
		delete(h.ended, h.endedIDs[0])
		h.endedIDs = h.endedIDs[1:]
	}
}

func (h *HTTPHandler) idleNote() string {
	return fmt.Sprintf("the server ended it after %v without a request", h.sessionIdle)
}

// end ends the session: its requests are cancelled and its GET stream
// ends.
func (hs *httpSession) end() {
	hs.stop()
	hs.session.close()
}

// sendUnrelated sends a message that belongs to no request on the GET
// stream. Without one it is dropped: the client chose not to listen.
func (hs *httpSession) sendUnrelated(msg any) error {
	hs.streamMu.Lock()
	stream := hs.stream
	hs.streamMu.Unlock()
	if stream == nil {
		return nil
	}
	return stream.send(msg)
}
