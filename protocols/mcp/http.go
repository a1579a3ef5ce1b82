package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/internal/loopback"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// Endpoint is the path of the MCP endpoint. The Streamable HTTP transport
// has exactly one: every message goes there, whatever its method.
const Endpoint = "/mcp"

// Limits of the HTTP transport.
const (
	// MaxBody is the largest POST body read: one message, so the same
	// 1 MiB as a line on stdio.
	MaxBody = DefaultMaxMessage
	// DefaultMaxSessions bounds memory: clients that never send DELETE
	// leave their sessions behind. When it is reached, a new session
	// ends the idle session unused longest.
	DefaultMaxSessions = 1000
	// DefaultSessionIdle is how long a session may sit idle (no request
	// running, no GET stream open) before the server ends it. A client
	// at work sends something within minutes, and one that comes back
	// later loses little: its next request gets 404, and the spec has it
	// start a new session with initialize, one round trip.
	DefaultSessionIdle = 10 * time.Minute
	// endedNotes is how many sessions the server ended (to make room, or
	// idle) it remembers, so that their next request learns why. Each
	// note is an id and a shared reason; older sessions get the plain
	// 404, which asks the client for the same thing.
	endedNotes = 1000
	// assumedVersion is the revision a request without an
	// MCP-Protocol-Version header is taken to speak: the spec says to
	// assume 2025-03-26, the revision before the header existed.
	assumedVersion = "2025-03-26"
)

// HTTPOptions configures [Server.HTTPHandler]. A nil *HTTPOptions means
// defaults: no tokens, no loopback guards.
type HTTPOptions struct {
	// Tokens are the bearer tokens callers must present. Nil, or none
	// configured, means anyone who can connect may call every tool.
	Tokens *tools.Tokens
	// Verifier, if set, makes the server an OAuth resource server
	// (auth.go): callers present access tokens that the authorization
	// server it names issued for this resource. It excludes Tokens.
	Verifier *Verifier
	// Loopback turns on the guards a server on a loopback address needs
	// against web pages in the local browser (package internal/loopback):
	// Host must name this machine, and Origin, if present, too.
	Loopback bool
	// MaxSessions is the most sessions open at once; 0 means
	// DefaultMaxSessions.
	MaxSessions int
	// SessionIdle is how long an idle session is kept; 0 means
	// DefaultSessionIdle.
	SessionIdle time.Duration
}

// HTTPHandler serves MCP's Streamable HTTP transport at [Endpoint]: one
// session per Mcp-Session-Id, any number of them at once.
type HTTPHandler struct {
	srv         *Server
	tokens      *tools.Tokens
	verifier    *Verifier
	loopback    bool
	maxSessions int
	sessionIdle time.Duration
	ctx         context.Context // ends every session, at Close
	stop        context.CancelFunc
	// modern serves the requests of the modern era, which belong to no
	// session; it only tracks them while they run.
	modern *session

	// mu guards sessions, the notes on ended sessions, and each
	// session's busy and lastUsed.
	mu       sync.Mutex
	sessions map[sessionKey]*httpSession
	ended    map[sessionKey]string // why the server ended a session
	endedIDs []sessionKey          // the keys in ended, oldest first
}

// HTTPHandler returns the handler of the Streamable HTTP transport.
// Close it to end every session, which ends open GET streams.
func (s *Server) HTTPHandler(opts *HTTPOptions) *HTTPHandler {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	if opts.Verifier != nil && opts.Tokens.Enabled() {
		panic("mcp: HTTPOptions with both Tokens and Verifier: a server takes static tokens or OAuth access tokens, not both")
	}
	h := &HTTPHandler{srv: s, tokens: opts.Tokens, verifier: opts.Verifier, loopback: opts.Loopback,
		maxSessions: opts.MaxSessions, sessionIdle: opts.SessionIdle,
		sessions: make(map[sessionKey]*httpSession), ended: make(map[sessionKey]string)}
	if h.maxSessions <= 0 {
		h.maxSessions = DefaultMaxSessions
	}
	if h.sessionIdle <= 0 {
		h.sessionIdle = DefaultSessionIdle
	}
	h.ctx, h.stop = context.WithCancel(context.Background())
	h.modern = &session{srv: s, logLevel: -1}
	return h
}

// Close ends every session. Requests still running are cancelled and GET
// streams end, so that an http.Server can shut down. It is idempotent.
func (h *HTTPHandler) Close() {
	h.stop()
	h.mu.Lock()
	defer h.mu.Unlock()
	for key, hs := range h.sessions {
		hs.end()
		delete(h.sessions, key)
	}
}

// ServeHTTP checks who is asking, then hands the request to the method's
// handler. The checks come in this order: is the request for this server
// at all (Host, Origin), is it for the endpoint, is the caller known (a
// token), and only then what it says.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.loopback {
		// "Servers MUST validate the Origin header on all incoming
		// connections to prevent DNS rebinding attacks."
		if ref := loopback.Check(r); ref != nil {
			httpError(w, ref.Status, jsonrpc.CodeInvalidRequest, ref.Reason)
			return
		}
	}
	switch r.URL.Path {
	case Endpoint:
	case metadataPath, metadataPath + Endpoint:
		h.protectedResource(w, r)
		return
	default:
		httpError(w, http.StatusNotFound, jsonrpc.CodeInvalidRequest, fmt.Sprintf("no such path %q: the MCP endpoint is %s", r.URL.Path, Endpoint))
		return
	}
	// Both eras pass here: whatever the method, a session's request or
	// one that stands alone, the caller is known before it is read.
	var who caller
	switch {
	case h.verifier != nil:
		token, ok := h.authorize(w, r)
		if !ok {
			return
		}
		who = oauthCaller(token)
	case h.tokens.Enabled():
		token, ok := h.authenticate(w, r)
		if !ok {
			return
		}
		who = tokenCaller(token)
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r, who)
	case http.MethodGet:
		h.get(w, r, who)
	case http.MethodDelete:
		h.delete(w, r, who)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		httpError(w, http.StatusMethodNotAllowed, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("method %s not allowed: POST sends a message, GET opens a stream, DELETE ends the session", r.Method))
	}
}

// post takes one message from the client. A request is answered on this
// POST's response; a notification or a response gets 202 and no body.
func (h *HTTPHandler) post(w http.ResponseWriter, r *http.Request, who caller) {
	// "The client MUST include an Accept header, listing both
	// application/json and text/event-stream as supported content types."
	if !accepts(r, "application/json") || !accepts(r, "text/event-stream") {
		httpError(w, http.StatusNotAcceptable, jsonrpc.CodeInvalidRequest,
			"Accept must list both application/json and text/event-stream: the server picks one per request; got "+quote(r.Header.Get("Accept")))
		return
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/json" {
		httpError(w, http.StatusUnsupportedMediaType, jsonrpc.CodeInvalidRequest,
			"Content-Type must be application/json; got "+quote(r.Header.Get("Content-Type")))
		return
	}
	// "JSON text exchanged between systems that are not part of a closed
	// ecosystem MUST be encoded using UTF-8" (RFC 8259): a body in another
	// charset is a media type this server does not read, 415 like any.
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		httpError(w, http.StatusUnsupportedMediaType, jsonrpc.CodeInvalidRequest,
			"Content-Type has charset="+quote(cs)+", but JSON is UTF-8 (RFC 8259): send charset=utf-8, or no charset")
		return
	}
	body, ok := readMessage(w, r)
	if !ok {
		return
	}
	msg, reject := jsonrpc.Decode(body)
	if reject != nil {
		// "If the server cannot accept the input, it MUST return an HTTP
		// error status code (e.g., 400 Bad Request). The HTTP response
		// body MAY comprise a JSON-RPC error response that has no id."
		writeJSON(w, http.StatusBadRequest, reject)
		return
	}

	req, _ := msg.(*jsonrpc.Request)
	if h.outsideSession(w, r, req, who) {
		return
	}
	sessionID := r.Header.Get("Mcp-Session-Id")
	var hs *httpSession
	starts := req != nil && req.Method == "initialize" && sessionID == ""
	if starts {
		if hs = h.newSession(who); hs == nil {
			// No Retry-After: a session frees up when one of its
			// client's requests or streams ends, which the server
			// cannot foresee, and a made-up delay would be a guess.
			httpError(w, http.StatusServiceUnavailable, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
				"too many sessions: all %d have a request running or a GET stream open, so none can be ended to make room; try again when one is done", h.maxSessions))
			return
		}
		// The id goes back in a header; the client sends it on every
		// request that follows.
		w.Header().Set("Mcp-Session-Id", hs.key.id)
	} else if hs = h.acquire(w, r, who); hs == nil {
		return
	}
	// The session is busy until this message is handled, so it cannot
	// be ended to make room while it is in use.
	defer h.release(hs)
	if v := r.Header.Get("MCP-Protocol-Version"); !starts && v != "" && !isLegacy(v) {
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("MCP-Protocol-Version %s is not one this server speaks (2025-11-25, 2025-06-18, 2025-03-26); send the version initialize agreed on", quote(v)))
		return
	}

	switch {
	case req == nil: // a response to a request from the server
		hs.handleResponse(msg.(*jsonrpc.Response))
		w.WriteHeader(http.StatusAccepted)
	case req.IsNotification():
		hs.handleNotification(req)
		w.WriteHeader(http.StatusAccepted)
	default:
		if scope, ok := h.srv.allowed(req, who.allow); !ok {
			h.forbidden(w, r, req, scope)
			return
		}
		// A broken connection does not cancel the request: the client
		// may come back for the rest of its stream (resume.go), within
		// resumeWindow. notifications/cancelled cancels it, and so does
		// the session ending.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stop := context.AfterFunc(hs.ctx, cancel)
		defer stop()
		reply := &postReply{w: w}
		var resume *replay
		reply.resumable = func() *replay {
			resume = hs.newReplay(cancel)
			return resume
		}
		gone := context.AfterFunc(r.Context(), func() {
			reply.mu.Lock()
			rp, stream := resume, reply.stream
			reply.mu.Unlock()
			if rp == nil {
				cancel() // no stream to resume: nobody can get the answer
				return
			}
			rp.detach(stream)
			rp.orphaned()
		})
		defer gone()
		resp := hs.handleRequest(ctx, req, reply.send, who)
		if req.Method == "initialize" && w.Header().Get("Mcp-Session-Id") != "" && (resp == nil || resp.Error != nil) {
			// A failed initialize starts no session.
			h.remove(hs.key)
			w.Header().Del("Mcp-Session-Id")
		}
		reply.finish(resp, http.StatusOK)
	}
}

// outsideSession answers the messages that no 2025-11-25 session can
// take: those of revision 2026-07-28, which has no sessions, and those
// that could never open one. It reports whether it answered; if not, the
// message is a session's, or an initialize that opens one.
func (h *HTTPHandler) outsideSession(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request, who caller) bool {
	sessionID := r.Header.Get("Mcp-Session-Id")
	modernHeader := r.Header.Get("MCP-Protocol-Version") == ModernVersion
	switch {
	case req != nil && req.IsNotification() && req.Method == "initialize":
		// initialize without an id could have no answer, and the answer
		// is what opens a session (its Mcp-Session-Id). "If the server
		// cannot accept [a notification], it MUST return an HTTP error
		// status code (e.g., 400 Bad Request)": this one opens nothing.
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"initialize is a request, so it needs an id: its answer opens the session; sent as a notification it opens none")
		return true
	case sessionID != "" && modernHeader:
		// The server speaks 2026-07-28, but not in a session: that
		// revision has none. Which did the client mean? Neither guess is
		// safe, so the client is told to send one or the other.
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"Mcp-Session-Id has no place on a request of revision %s (MCP-Protocol-Version), which has no sessions: send such a request without Mcp-Session-Id, or, in the %s session, with the MCP-Protocol-Version initialize agreed on",
			ModernVersion, LegacyVersion))
		return true
	case sessionID == "" && req != nil && req.IsNotification() && (isModern(req) || modernHeader):
		// A notification of the modern era, which has no session to
		// deliver it to. The 2026-07-28 transport defines none from the
		// client ("notifications/cancelled ... is used only on the stdio
		// transport"; over HTTP a client cancels by closing the stream)
		// but keeps the rule for those it may get: "If the server accepts
		// it, the server MUST return HTTP status code 202 Accepted with
		// no body." The server accepts it, and it changes nothing.
		w.WriteHeader(http.StatusAccepted)
		return true
	case sessionID == "" && req != nil && (isModern(req) || (req.Method != "initialize" && modernHeader)):
		// No session, and the body (or, but for initialize, the header)
		// names the modern era: a request that stands alone
		// (httpmodern.go); an initialize of that era is an unknown
		// method. Anything else without a session is a legacy client:
		// initialize opens a session, and another request is told that
		// it forgot its Mcp-Session-Id.
		h.postModern(w, r, req, who)
		return true
	case sessionID == "" && req == nil && modernHeader:
		// "The client MUST NOT send JSON-RPC responses": in the modern
		// era the server asks its questions in input_required results.
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"a response, but in revision %s the server sends no requests to answer: it asks its questions in input_required results, and the client sends the request again with inputResponses", ModernVersion))
		return true
	}
	return false
}

// readMessage reads a POST's body, one message, or answers the request
// itself: 413 for a body over MaxBody, 408 for one still arriving at the
// server's read deadline.
func readMessage(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.ContentLength > MaxBody {
		// Refused before the first read, so a client that sent "Expect:
		// 100-continue" is never told to send the body.
		w.Header().Set("Connection", "close")
		httpError(w, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("the message is %d bytes (Content-Length), longer than the %d this server reads", r.ContentLength, MaxBody))
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		httpError(w, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, fmt.Sprintf("the message is longer than %d bytes", MaxBody))
		return nil, false
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The body was still arriving when the server's read deadline
		// passed. Not a client that left: net/http cancels the request's
		// context on any read error, timeouts too, so this is told apart
		// first. Connection: close, since the rest of the body is still
		// on its way.
		w.Header().Set("Connection", "close")
		httpError(w, http.StatusRequestTimeout, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("the message did not arrive in time: %d bytes came before the server stopped waiting; send the whole body at once", len(body)))
		return nil, false
	case err != nil:
		return nil, false // the client went away mid-body; nobody to answer
	}
	return body, true
}

// get opens the stream for messages that belong to no request. This
// server sends one kind: notifications/resources/updated for a resource
// the client subscribed to, when another session changed it.
func (h *HTTPHandler) get(w http.ResponseWriter, r *http.Request, who caller) {
	if modernWithout(w, r) {
		return
	}
	if !accepts(r, "text/event-stream") {
		httpError(w, http.StatusNotAcceptable, jsonrpc.CodeInvalidRequest,
			"a GET opens an SSE stream, so Accept must list text/event-stream; got "+quote(r.Header.Get("Accept")))
		return
	}
	if r.Header.Get("Mcp-Session-Id") == "" {
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"missing Mcp-Session-Id header: a GET stream belongs to a 2025-11-25 session, opened with initialize; revision 2026-07-28 has no GET stream")
		return
	}
	hs := h.acquire(w, r, who)
	if hs == nil {
		return
	}
	// An open stream keeps the session busy: its client is listening.
	defer h.release(hs)
	if r.Header.Get("Last-Event-ID") != "" {
		h.resumeStream(w, r, hs)
		return
	}
	stream := newSSEStream(w)
	hs.streamMu.Lock()
	busy := hs.stream != nil
	if !busy {
		hs.stream = stream
	}
	hs.streamMu.Unlock()
	if busy {
		httpError(w, http.StatusConflict, jsonrpc.CodeInvalidRequest, "this session already has a GET stream open; this server allows one")
		return
	}
	defer func() {
		hs.streamMu.Lock()
		hs.stream = nil
		hs.streamMu.Unlock()
		stream.close()
	}()
	stream.start()
	select {
	case <-r.Context().Done():
	case <-hs.ctx.Done():
	}
}

// delete ends a session at the client's request.
func (h *HTTPHandler) delete(w http.ResponseWriter, r *http.Request, who caller) {
	if modernWithout(w, r) {
		return
	}
	if hs := h.acquire(w, r, who); hs != nil {
		h.release(hs)
		h.remove(hs.key)
		w.WriteHeader(http.StatusNoContent)
	}
}

// modernWithout answers a GET or DELETE from a client of revision
// 2026-07-28 (its MCP-Protocol-Version, and no Mcp-Session-Id), and
// reports whether it did. That revision has no GET stream and no session
// to end, and tells a server that meets either from an older client to
// "respond with 405 Method Not Allowed": the answer its own clients
// know. For them the endpoint takes only POST, so Allow says so (RFC
// 9110 has a 405 list the methods the resource supports, and lets the
// list depend on the request). A 2025-11-25 client still opens its
// stream with GET and ends its session with DELETE, both naming the
// session by its Mcp-Session-Id.
func modernWithout(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Mcp-Session-Id") != "" || r.Header.Get("MCP-Protocol-Version") != ModernVersion {
		return false
	}
	w.Header().Set("Allow", http.MethodPost)
	httpError(w, http.StatusMethodNotAllowed, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
		"method %s not allowed in revision %s, which has no GET stream and no sessions: every message is a POST; GET and DELETE belong to a %s session, named by its Mcp-Session-Id",
		r.Method, ModernVersion, LegacyVersion))
	return true
}

// allowed reports whether a request may go ahead with the caller's
// scopes, and if not, which scope it lacks. Only tools/call can need a
// scope (a deploy to production).
func (s *Server) allowed(req *jsonrpc.Request, allow func(tools.Scope) bool) (tools.Scope, bool) {
	if allow == nil || req.Method != "tools/call" {
		return "", true
	}
	var p CallToolParams
	if json.Unmarshal(req.Params, &p) != nil {
		return "", true // the session answers with -32602
	}
	for _, scope := range s.cat.Needs(tools.Request{Name: p.Name, Args: p.Arguments}) {
		if !allow(scope) {
			return scope, false
		}
	}
	return "", true
}

// accepts reports whether the request's Accept header admits a media
// type: listed, or covered by "type/*" or "*/*".
func accepts(r *http.Request, mediaType string) bool {
	major, _, _ := strings.Cut(mediaType, "/")
	for _, h := range r.Header.Values("Accept") {
		for _, item := range strings.Split(h, ",") {
			mt, _, _ := strings.Cut(item, ";")
			switch strings.ToLower(strings.TrimSpace(mt)) {
			case mediaType, major + "/*", "*/*":
				return true
			}
		}
	}
	return false
}

// httpError answers with an HTTP error status and, as the body, a
// JSON-RPC error without an id, so that a client sees the reason
// whichever layer it reads.
func httpError(w http.ResponseWriter, status int, code int64, msg string) {
	writeJSON(w, status, jsonrpc.NewErrorResponse(jsonrpc.ID{}, jsonrpc.Errorf(code, "%s", msg)))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v) // the messages this package builds always encode
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// quote quotes a header value for an error message, cut short so that a
// huge header cannot make a huge answer.
func quote(v string) string {
	const max = 100
	if len(v) > max {
		v = v[:max] + "..."
	}
	return fmt.Sprintf("%q", v)
}
