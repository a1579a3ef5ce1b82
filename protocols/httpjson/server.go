package httpjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/loopback"
	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// DefaultMaxBody is the largest request body read unless configured
// otherwise. A request is a tool name and its arguments: 1 MiB is far more
// than an honest call needs, and small enough that a flood of huge bodies
// cannot exhaust the server's memory.
const DefaultMaxBody = 1 << 20

// ServerOptions configures a [Server]. A nil *ServerOptions means the
// defaults.
type ServerOptions struct {
	// Tokens are the bearer tokens callers must present. Nil, or no token
	// configured, means anyone who can connect may list and call every
	// tool, production deploys included.
	Tokens *tools.Tokens

	// MaxBody is the largest request body read, in bytes. Zero means
	// DefaultMaxBody.
	MaxBody int64

	// Loopback turns on the guards a server listening on a loopback
	// address needs against web pages in the local browser: requests must
	// name localhost in Host, and may not come from another site's page.
	// Set it when the listener's IP is a loopback address; package
	// internal/loopback explains the attacks.
	Loopback bool

	// Log receives one line per request. Nil means silent.
	Log *slog.Logger
}

// Server serves a catalogue over HTTP. It is an [http.Handler] with three
// routes: POST /execute, GET /tools and GET /openapi.json. It is safe for
// concurrent use: nothing in it changes after NewServer.
type Server struct {
	cat      *tools.Catalogue
	tokens   *tools.Tokens
	maxBody  int64
	loopback bool
	log      *slog.Logger
	openapi  json.RawMessage // the document served at /openapi.json, built once
}

// NewServer returns a handler serving cat.
func NewServer(cat *tools.Catalogue, opts *ServerOptions) *Server {
	if opts == nil {
		opts = &ServerOptions{}
	}
	s := &Server{cat: cat, tokens: opts.Tokens, maxBody: opts.MaxBody, loopback: opts.Loopback, log: opts.Log}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBody
	}
	s.openapi = OpenAPI(cat, s.tokens.Enabled())
	return s
}

// reply is what the server decided to answer. Handlers return one and
// ServeHTTP writes it, so every response leaves through one place and
// gets one log line.
type reply struct {
	status int    // 0 writes nothing: the client has gone
	body   any    // encoded as JSON
	code   string // the error code, for the log; "" on success
}

func ok(body any) reply { return reply{status: http.StatusOK, body: body} }

// fail answers with an error body. id is the request's id, when it is
// known, so that even an error is matched to its request.
func fail(id json.RawMessage, e *stdio.Error) reply {
	return reply{status: StatusFor(e.Code), body: stdio.Response{ID: id, Error: e}, code: e.Code}
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rep := s.route(w, r)
	if rep.status != 0 {
		rep = write(w, rep)
	}
	s.logRequest(r, rep, time.Since(start))
}

// route runs the checks in the order of the status table's logic: is this
// request for us (421, 403), is there such a resource (404, 405), who is
// calling (401), and only then is the body read (415, 413, 400) and the
// tool called (404, 422, 403, 200).
func (s *Server) route(w http.ResponseWriter, r *http.Request) reply {
	if s.loopback {
		// Web pages in the local browser can reach a loopback server;
		// package loopback explains the two attacks this refuses.
		if refusal := loopback.Check(r); refusal != nil {
			code := CodeMisdirectedRequest // 421: Host names some other server
			if refusal.Status == http.StatusForbidden {
				code = CodeForbiddenOrigin // 403: another site's page sent it
			}
			return fail(nil, &stdio.Error{Code: code, Message: refusal.Reason})
		}
	}
	var methods []string
	switch r.URL.Path {
	case "/execute":
		methods = []string{http.MethodPost}
	case "/tools", "/openapi.json":
		methods = []string{http.MethodGet, http.MethodHead}
	default:
		return fail(nil, &stdio.Error{Code: CodeNotFound, Message: fmt.Sprintf(
			"no such path %q; this server has POST /execute, GET /tools and GET /openapi.json", r.URL.Path)})
	}
	if !slices.Contains(methods, r.Method) {
		// RFC 9110 section 15.5.6: "The origin server MUST generate an
		// Allow header field in a 405 response containing a list of the
		// target resource's currently supported methods."
		w.Header().Set("Allow", strings.Join(methods, ", "))
		return fail(nil, &stdio.Error{Code: CodeMethodNotAllowed, Message: fmt.Sprintf(
			"%s does not take %s; use %s", r.URL.Path, r.Method, strings.Join(methods, " or "))})
	}
	if r.URL.Path == "/openapi.json" {
		// Public even when tokens are on: it is where a client learns
		// that it needs one, and how to send it.
		return ok(s.openapi)
	}

	var allow func(tools.Scope) bool // nil allows every scope
	if s.tokens.Enabled() {
		token, e := authenticate(w, r, s.tokens)
		if e != nil {
			return fail(nil, e)
		}
		allow = token.Allows
	}
	if r.URL.Path == "/tools" {
		return ok(ToolList{Tools: s.cat.List()})
	}
	return s.execute(w, r, allow)
}

// execute answers POST /execute: the body is a stdio request, the answer
// a stdio response.
func (s *Server) execute(w http.ResponseWriter, r *http.Request, allow func(tools.Scope) bool) reply {
	if e := checkJSON(r.Header.Get("Content-Type")); e != nil {
		// RFC 9110 section 12.5.1: "When sent by a server in a response,
		// Accept provides information about which content types are
		// preferred in the content of a subsequent request to the same
		// resource."
		w.Header().Set("Accept", "application/json")
		return fail(nil, e)
	}
	if r.ContentLength > s.maxBody {
		// The body says how long it is, and it is too long: refuse it
		// before reading a byte. A client that sent "Expect:
		// 100-continue" is waiting for "100 Continue", which net/http
		// sends only when the handler starts reading the body, so it
		// never sends the body at all. RFC 9110 section 10.1.1: "A
		// server that responds with a final status code before reading
		// the entire request content SHOULD indicate whether it intends
		// to close the connection"; it does, since the unread body would
		// be taken for the next request.
		w.Header().Set("Connection", "close")
		return fail(nil, &stdio.Error{Code: stdio.CodeTooLarge, Message: fmt.Sprintf(
			"request body is %d bytes (Content-Length), longer than the %d this server reads", r.ContentLength, s.maxBody)})
	}
	// MaxBytesReader stops reading after maxBody bytes, whatever
	// Content-Length claims (a chunked body claims nothing), and tells
	// the server to close the connection afterwards: the rest of the
	// oversized body is never read, so the connection cannot carry
	// another request.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return fail(nil, &stdio.Error{Code: stdio.CodeTooLarge, Message: fmt.Sprintf(
				"request body is longer than %d bytes", s.maxBody)})
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// The server's read deadline passed with the body still
			// coming: a client trickling it, or one that stalled. It is
			// still there to be told, unlike one that went away (below),
			// so it gets 408 (RFC 9110 section 15.5.9: "the server did
			// not receive a complete request message within the time
			// that it was prepared to wait"). The connection must close:
			// the rest of the body may still arrive on it.
			w.Header().Set("Connection", "close")
			return fail(nil, &stdio.Error{Code: CodeRequestTimeout, Message: fmt.Sprintf(
				"request body did not arrive in time: %s came before the server stopped waiting; send the whole body at once", received(len(body), r.ContentLength))})
		}
		if r.Context().Err() != nil {
			return reply{code: stdio.CodeCanceled}
		}
		return fail(nil, &stdio.Error{Code: stdio.CodeInvalidRequest, Message: "reading request body: " + err.Error()})
	}

	req, perr := stdio.ParseRequest(body)
	if perr != nil {
		return fail(req.ID, perr)
	}
	result, err := s.cat.Call(r.Context(), tools.Request{Name: req.Name, Version: req.Version, Args: req.Args},
		&tools.CallOptions{Allow: allow})
	if err != nil {
		if r.Context().Err() != nil {
			// The client closed the connection (or the server is shutting
			// down) while the tool ran: there is no one to answer.
			return reply{code: stdio.CodeCanceled}
		}
		e := stdio.ErrorFrom(err)
		if e.Code == string(tools.CodeForbidden) {
			challengeScope(w, e.Scope)
		}
		return fail(req.ID, e)
	}
	return ok(stdio.Response{ID: req.ID, Result: result})
}

// received says how much of a body arrived: n bytes, of length when the
// request declared its length (-1 when it did not: a chunked body).
func received(n int, length int64) string {
	if length < 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d of its %d bytes", n, length)
}

// checkJSON refuses a request body that is not declared as JSON. RFC 9110
// section 15.5.16: 415 means "the content is in a format not supported by
// this method on the target resource". Parameters are fine
// ("application/json; charset=utf-8" is common), but RFC 8259 section 8.1
// says JSON exchanged between systems "MUST be encoded using UTF-8", so
// any other charset is refused.
func checkJSON(contentType string) *stdio.Error {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err == nil && mediaType == "application/json" {
		if cs, ok := params["charset"]; !ok || strings.EqualFold(cs, "utf-8") {
			return nil
		}
	}
	got := "no Content-Type"
	if contentType != "" {
		got = "Content-Type " + quoteHeader(contentType)
	}
	return &stdio.Error{Code: CodeUnsupportedMediaType, Message: "the body must be sent as Content-Type: application/json; got " + got}
}

// write sends a reply and returns what was sent. The body is encoded
// before the status is written, so a failure to encode can still become a
// 500 rather than half an answer.
func write(w http.ResponseWriter, rep reply) reply {
	b, isRaw := rep.body.(json.RawMessage) // already encoded, as the OpenAPI document is
	if !isRaw {
		var err error
		if b, err = json.Marshal(rep.body); err != nil {
			rep = fail(nil, &stdio.Error{Code: stdio.CodeInternal, Message: "encoding the answer: " + err.Error()})
			b, _ = json.Marshal(rep.body)
		}
		b = append(b, '\n') // for people reading with curl; JSON ignores it
	}
	h := w.Header()
	// RFC 8259 section 11: "No "charset" parameter is defined for this
	// registration." JSON is UTF-8, so application/json says it all.
	h.Set("Content-Type", "application/json")
	// Set explicitly so that large answers (GET /tools) are sent whole
	// rather than chunked, and HEAD reports the size GET would send.
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(rep.status)
	w.Write(b) // an error here means the client has gone; nothing to do
	return rep
}

// logRequest writes the one log line of a request. The Authorization
// header is never logged, and neither is the body.
func (s *Server) logRequest(r *http.Request, rep reply, took time.Duration) {
	if s.log == nil {
		return
	}
	attrs := []any{"method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr, "status", rep.status, "took", took}
	if rep.code != "" {
		attrs = append(attrs, "code", rep.code)
	}
	switch {
	case rep.status == 0:
		s.log.Info("client went away before the answer; nothing sent", attrs...)
	case rep.status >= 500:
		s.log.Error("request", attrs...)
	default:
		s.log.Info("request", attrs...)
	}
}
