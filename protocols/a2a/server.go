package a2a

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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

// Paths the server answers.
const (
	// Endpoint is where JSON-RPC requests are POSTed; the agent card
	// names it as the interface's url.
	Endpoint = "/"
	// CardPath is the agent card's well-known path (RFC 8615).
	CardPath = "/.well-known/agent-card.json"
	// legacyCardPath is where revisions before 0.3 looked for the card.
	legacyCardPath = "/.well-known/agent.json"
)

// MaxBody is the largest request body read. A message with a large file
// inline would be bigger; this agent reads text.
const MaxBody = 1 << 20

// Options configures a [Server]. A nil *Options means the defaults.
type Options struct {
	// Tools is the catalogue the agent's skills use. Nil means
	// tools.New(nil).
	Tools *tools.Catalogue
	// Tokens are the bearer tokens callers must present. Nil, or none
	// configured, means anyone who can connect may call.
	Tokens *tools.Tokens
	// Loopback turns on the guards a server on a loopback address needs
	// against web pages in the local browser (package internal/loopback).
	Loopback bool
	// Version is the agent's own version, written on its card.
	Version string
	// Now and NewID make a server deterministic, for golden transcripts.
	// Nil means the clock, and random 128-bit ids.
	Now   func() time.Time
	NewID func() string
}

// Server is an A2A agent over the JSON-RPC binding, speaking 1.0 and 0.3
// at the same URL. It is an http.Handler.
type Server struct {
	agent    *agent
	store    *store
	tokens   *tools.Tokens
	loopback bool
	version  string
	newID    func() string

	ctx  context.Context // ends every running task, at Close
	stop context.CancelFunc
	wg   sync.WaitGroup // counts running agents

	mu      sync.Mutex          // guards running
	running map[string]*running // the agent working on a task
}

// NewServer returns a server. Close it to stop the tasks still running.
func NewServer(opts *Options) *Server {
	if opts == nil {
		opts = &Options{}
	}
	cat := opts.Tools
	if cat == nil {
		cat = tools.New(nil)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	newID := opts.NewID
	if newID == nil {
		newID = randomID
	}
	ctx, stop := context.WithCancel(context.Background())
	return &Server{
		agent:    &agent{cat: cat, now: now},
		store:    newStore(now),
		tokens:   opts.Tokens,
		loopback: opts.Loopback,
		version:  opts.Version,
		newID:    newID,
		ctx:      ctx,
		stop:     stop,
		running:  make(map[string]*running),
	}
}

// Close stops every running task and waits for their agents to return.
// Open streams end too, since no more events come.
func (s *Server) Close() {
	s.stop()
	s.wg.Wait()
}

// randomID is an id nobody can guess: 128 bits from crypto/rand.
func randomID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// ServeHTTP checks who is asking, then serves the card or a JSON-RPC
// request. The checks come in this order: is the request for this server
// at all (Host, Origin), which path, is the caller known (a token), and
// only then what it says.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.loopback {
		if ref := loopback.Check(r); ref != nil {
			httpError(w, r, ref.Status, jsonrpc.CodeInvalidRequest, ref.Reason)
			return
		}
	}
	switch r.URL.Path {
	case CardPath, legacyCardPath:
		s.serveCard(w, r)
		return
	case Endpoint:
	default:
		httpError(w, r, http.StatusNotFound, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"no such path %q: the agent card is at %s and JSON-RPC requests are POSTed to %s", r.URL.Path, CardPath, Endpoint))
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		httpError(w, r, http.StatusMethodNotAllowed, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"method %s not allowed: POST a JSON-RPC request here; GET %s for the agent card", r.Method, CardPath))
		return
	}
	var allow func(tools.Scope) bool
	if s.tokens.Enabled() {
		token, ok := s.authenticate(w, r)
		if !ok {
			return
		}
		allow = token.Allows
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		httpError(w, r, http.StatusUnsupportedMediaType, CodeContentTypeNotSupported,
			"Content-Type must be application/json: a request is one JSON-RPC message; got "+quote(r.Header.Get("Content-Type")))
		return
	}
	if r.ContentLength > MaxBody {
		// Refused before a byte of the body is read, so a client that
		// sent "Expect: 100-continue" never gets "100 Continue" (net/http
		// sends it when the handler starts reading) and never sends the
		// body. The unread body would be taken for the next request, so
		// the connection closes.
		w.Header().Set("Connection", "close")
		httpError(w, r, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"the request is %d bytes (Content-Length), longer than the %d this agent reads", r.ContentLength, MaxBody))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		httpError(w, r, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, fmt.Sprintf("the request is longer than %d bytes", MaxBody))
		return
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The server's read deadline passed with the body still coming
		// (trickled, or stalled). Unlike a client that went away, this
		// one is there to be told: 408, "the server did not receive a
		// complete request message within the time that it was prepared
		// to wait" (RFC 9110 section 15.5.9). The rest of the body may
		// still arrive, so the connection closes.
		w.Header().Set("Connection", "close")
		httpError(w, r, http.StatusRequestTimeout, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"the request did not arrive in time: %d bytes came before the agent stopped waiting; send the whole body at once", len(body)))
		return
	case err != nil:
		return // the client went away mid-body; nobody to answer
	}
	s.serveRPC(w, r, body, allow)
}

// authenticate checks the bearer token (RFC 6750). The card, which says
// how to authenticate, is public; the endpoint is not. A caller without
// a valid token gets 401 and a challenge, before anything is read.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (tools.Token, bool) {
	scheme, secret, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		w.Header().Set("WWW-Authenticate", `Bearer realm="wirelab"`)
		httpError(w, r, http.StatusUnauthorized, jsonrpc.CodeInvalidRequest,
			"this agent needs a bearer token: send Authorization: Bearer TOKEN (the agent card's securitySchemes say so)")
		return tools.Token{}, false
	}
	token, ok := s.tokens.Lookup(strings.TrimLeft(secret, " "))
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="wirelab", error="invalid_token"`)
		httpError(w, r, http.StatusUnauthorized, jsonrpc.CodeInvalidRequest, "the bearer token is not one this agent accepts")
		return tools.Token{}, false
	}
	return token, true
}

// httpError answers a request refused before JSON-RPC: an HTTP status,
// with a JSON-RPC error in the body for clients that read it. The id is
// null, since the request was not read; the error is in the revision
// the A2A-Version header names.
func httpError(w http.ResponseWriter, r *http.Request, status int, code int64, message string) {
	version, err := requestVersion(versionAsked(r))
	if err != nil {
		version = Version10
	}
	writeJSON(w, status, errorResponse(jsonrpc.ID{}, errorf(code, "%s", message), version))
}

// quote quotes a header value for a message, cut short.
func quote(v string) string {
	if len(v) > 100 {
		v = v[:100] + "..."
	}
	return fmt.Sprintf("%q", v)
}
