package mcp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// DefaultPageSize is how many items one page of tools/list,
// resources/list and prompts/list holds unless ServerOptions says
// otherwise: enough that the course's lists fit on one page.
const DefaultPageSize = 50

// ServerOptions configures [NewServer]. A nil *ServerOptions means defaults.
type ServerOptions struct {
	// Version is reported in serverInfo.
	Version string
	// Log receives one line per request. Nil: no logging.
	Log *slog.Logger
	// PageSize is the most items one page of a list holds. 0 means
	// DefaultPageSize; a small number shows cursors at work.
	PageSize int
	// Fixtures adds the tools, resources and prompts that the official
	// conformance suite's server scenarios call (conformance.go). They are
	// kept out of the teaching catalogue otherwise.
	Fixtures bool
	// Hostile makes the server one a host must not trust (hostile.go): its
	// tools replace the catalogue, and it has no resources or prompts. For
	// the lesson on MCP security; it does no harm.
	Hostile bool
}

// Server serves a tool catalogue, plus resources and prompts, over MCP.
// One Server can serve many sessions; each session keeps its own state.
type Server struct {
	cat      *tools.Catalogue
	version  string
	log      *slog.Logger
	pageSize int

	// What the server offers beyond the catalogue; fixed at NewServer.
	extraTools []extraTool
	resources  []resource
	templates  []resourceTemplate
	prompts    []prompt
	// hostile is set when the server is the hostile one; nil otherwise.
	hostile *hostile
	// Who the server says it is, and what initialize tells the client
	// about it, if anything (the hostile server says it is one).
	identity     Implementation
	instructions string
	// toolsChange is true when the tool list changes while the server
	// runs (the hostile one's does): it promises tools/list_changed,
	// and lets no one cache tools/list.
	toolsChange bool

	// infoMeta is the _meta of every modern result: who answered.
	infoMeta json.RawMessage

	// stateKey signs the requestState of modern input_required results
	// (requeststate.go). It is made at start and never leaves the process.
	stateKey []byte

	// tasks keeps the tasks of the tasks extension (tasks.go), until
	// Close.
	tasks *taskStore

	mu        sync.Mutex             // guards sessions, listeners and deploys
	sessions  map[*session]struct{}  // live sessions, to tell about changed resources
	listeners map[*listener]struct{} // open subscriptions/listen streams, likewise
	deploys   []string               // the deploy log, one line per deploy
}

// NewServer returns a server for cat.
func NewServer(cat *tools.Catalogue, opts *ServerOptions) *Server {
	if opts == nil {
		opts = &ServerOptions{}
	}
	s := &Server{cat: cat, version: opts.Version, log: opts.Log, pageSize: opts.PageSize,
		sessions: make(map[*session]struct{}), listeners: make(map[*listener]struct{}), stateKey: make([]byte, 32)}
	rand.Read(s.stateKey) // never fails (crypto/rand)
	s.tasks = newTaskStore(s)
	if s.version == "" {
		s.version = "dev"
	}
	s.identity = Implementation{Name: "wirelab", Title: "wirelab tool server", Version: s.version}
	if opts.Hostile {
		s.hostile, s.instructions, s.toolsChange = &hostile{}, hostileInstructions, true
		s.identity = Implementation{Name: "wirelab-hostile", Title: "a hostile MCP server, on purpose", Version: s.version}
	}
	s.infoMeta, _ = json.Marshal(map[string]Implementation{MetaServerInfo: s.identity})
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.pageSize <= 0 {
		s.pageSize = DefaultPageSize
	}
	if s.hostile == nil {
		s.resources, s.templates = s.courseResources()
		s.prompts = coursePrompts()
	}
	if opts.Fixtures {
		addFixtures(s)
	}
	return s
}

// session is one client's conversation with the server: the lifecycle
// state, the requests still running so they can be cancelled, and the
// requests the server sent and waits on.
type session struct {
	srv *Server
	// out carries messages that belong to no request (a changed resource
	// the client subscribed to): stdout, or an HTTP GET stream. It may
	// drop them when there is nowhere to send.
	out func(any) error
	// inputDone is closed when nothing more can come from the client
	// (stdin ended), so a request to it can never be answered.
	inputDone chan struct{}
	inputOnce sync.Once // closes inputDone

	mu          sync.Mutex // guards the fields below
	initialized bool       // initialize has been answered
	version     string     // the negotiated revision
	client      ClientCapabilities
	logLevel    int // index into logLevels of the lowest level wanted; -1: none asked for
	running     map[jsonrpc.ID]context.CancelFunc
	pending     map[jsonrpc.ID]chan *jsonrpc.Response // server-to-client requests awaiting an answer
	lastID      int64                                 // the id of the last server-to-client request
	subscribed  map[string]bool                       // resource URIs
}

// newSession starts a session and registers it with the server until
// close is called.
func newSession(srv *Server, out func(any) error) *session {
	ss := &session{srv: srv, out: out, logLevel: -1,
		running:    make(map[jsonrpc.ID]context.CancelFunc),
		pending:    make(map[jsonrpc.ID]chan *jsonrpc.Response),
		subscribed: make(map[string]bool),
		inputDone:  make(chan struct{}),
	}
	srv.mu.Lock()
	srv.sessions[ss] = struct{}{}
	srv.mu.Unlock()
	return ss
}

// close forgets the session. Requests still running are stopped by their
// contexts, which the transport cancels.
func (ss *session) close() {
	ss.srv.mu.Lock()
	delete(ss.srv.sessions, ss)
	ss.srv.mu.Unlock()
}

// endInput says that nothing more will come from the client: requests
// the server sent it fail at once instead of waiting for an answer.
func (ss *session) endInput() {
	ss.inputOnce.Do(func() { close(ss.inputDone) })
}

// handleRequest runs one request of a legacy session and returns its
// answer, or nil when there must be none (the client cancelled it). send
// carries the notifications and requests that belong to this request
// (progress, log messages, elicitation); who is the caller (auth.go),
// whose scopes decide what it may do.
func (ss *session) handleRequest(ctx context.Context, req *jsonrpc.Request, send func(any) error, who caller) *jsonrpc.Response {
	x := &exchange{ss: ss, send: send, who: who}
	return ss.respond(ctx, req, x, ss.dispatch)
}

// respond runs a request through dispatch and makes its answer: a result,
// or a JSON-RPC error. While it runs, notifications/cancelled can find it
// by id, unless the session keeps no such map (modern requests over HTTP,
// which many clients share, each with its own ids, and which a client
// cancels by closing the stream).
func (ss *session) respond(ctx context.Context, req *jsonrpc.Request, x *exchange,
	dispatch func(context.Context, *exchange, *jsonrpc.Request) (any, error)) *jsonrpc.Response {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if ss.running != nil {
		ss.mu.Lock()
		ss.running[req.ID] = cancel
		ss.mu.Unlock()
		defer func() {
			ss.mu.Lock()
			delete(ss.running, req.ID)
			ss.mu.Unlock()
		}()
	}

	x.id = req.ID
	result, err := dispatch(ctx, x, req)
	if errors.Is(ctx.Err(), context.Canceled) {
		// "Receivers of a cancellation notification SHOULD ... not send a
		// response for the cancelled request."
		return nil
	}
	var rpcErr *jsonrpc.Error
	switch {
	case errors.As(err, &rpcErr):
		ss.srv.log.Info("request", "method", req.Method, "id", req.ID.String(), "error", rpcErr.Code)
		return jsonrpc.NewErrorResponse(req.ID, rpcErr)
	case err != nil:
		ss.srv.log.Error("request", "method", req.Method, "id", req.ID.String(), "err", err)
		return jsonrpc.NewErrorResponse(req.ID, jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error: %v", err))
	}
	resp, err := jsonrpc.NewResponse(req.ID, result)
	if err != nil {
		return jsonrpc.NewErrorResponse(req.ID, jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error: encoding the result: %v", err))
	}
	ss.srv.log.Info("request", "method", req.Method, "id", req.ID.String())
	return resp
}

// ready reports whether initialize has been answered.
func (ss *session) ready() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.initialized
}

// dispatch routes a request by method, after the lifecycle check.
func (ss *session) dispatch(ctx context.Context, x *exchange, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "initialize":
		return ss.initialize(req.Params)
	case "ping":
		// Allowed at any time, even before initialization.
		return struct{}{}, nil
	}
	if !ss.ready() {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
			"invalid request: %s before initialize; the session starts with initialize (only ping is allowed before it)%s", req.Method, modernHint(req))
	}
	switch req.Method {
	case "tools/list":
		return ss.listTools(req.Params)
	case "tools/call":
		return ss.callTool(ctx, x, req.Params)
	case "resources/list":
		return ss.listResources(req.Params)
	case "resources/templates/list":
		return ss.listTemplates(req.Params)
	case "resources/read":
		return ss.readResource(req.Params)
	case "resources/subscribe":
		return ss.subscribe(req.Params, true)
	case "resources/unsubscribe":
		return ss.subscribe(req.Params, false)
	case "prompts/list":
		return ss.listPrompts(req.Params)
	case "prompts/get":
		return ss.getPrompt(ctx, x, req.Params)
	case "completion/complete":
		return ss.complete(req.Params)
	case "logging/setLevel":
		return ss.setLevel(req.Params)
	}
	return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "method %q not found", req.Method)
}

// modernHint is what the refusal of a request before initialize adds
// when the request carries params._meta, but without the keys of the
// modern era (isModern): it may be a 2026-07-28 request that got its
// _meta wrong ({}, null, keys left out), and its client would otherwise
// hear only of initialize, which its revision does not have. A request
// without _meta is most likely a 2025-11-25 client that skipped
// initialize, and the short answer is the whole story for it.
func modernHint(req *jsonrpc.Request) string {
	var p map[string]json.RawMessage
	if json.Unmarshal(req.Params, &p) != nil {
		return ""
	}
	if _, ok := p["_meta"]; !ok {
		return ""
	}
	return fmt.Sprintf("; a request of revision %s needs no initialize, but carries %s and %s in params._meta",
		ModernVersion, MetaProtocolVersion, MetaClientCapabilities)
}

// handleNotification acts on a notification. It never answers.
func (ss *session) handleNotification(n *jsonrpc.Request) {
	switch n.Method {
	case "notifications/cancelled":
		var p CancelledParams
		if json.Unmarshal(n.Params, &p) != nil {
			return
		}
		var id jsonrpc.ID
		if id.UnmarshalJSON(p.RequestID) != nil {
			return
		}
		ss.mu.Lock()
		cancel := ss.running[id]
		ss.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case "initialize":
		// initialize is a request: sent without an id, it can have no
		// answer, so it opens nothing, and the session stays where it
		// was. (Over HTTP, where a notification the server cannot
		// accept gets an error status, the POST is refused with 400.)
	case "notifications/initialized":
		// The client is ready for requests from the server; this server
		// sends none before a tool needs one.
	}
}

// handleResponse hands the client's answer to the server request waiting
// for it. An answer to no request (a wrong id, or a request that already
// gave up) is dropped: there is nobody to tell.
func (ss *session) handleResponse(r *jsonrpc.Response) {
	ss.mu.Lock()
	ch := ss.pending[r.ID]
	delete(ss.pending, r.ID)
	ss.mu.Unlock()
	if ch != nil {
		ch <- r // buffered: never blocks
	}
}

func (ss *session) initialize(raw json.RawMessage) (*InitializeResult, error) {
	var p InitializeParams
	if err := json.Unmarshal(raw, &p); err != nil || p.ProtocolVersion == "" {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			"invalid params: initialize needs {protocolVersion, capabilities, clientInfo}")
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.initialized {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "invalid request: the session is already initialized")
	}
	// Negotiation: echo the client's revision if we speak it in a
	// session; otherwise offer our latest with sessions (a client that
	// asks for 2026-07-28 here gets 2025-11-25: the newer revision has no
	// initialize), and the client decides whether to go on.
	v := p.ProtocolVersion
	if !isLegacy(v) {
		v = LegacyVersion
	}
	ss.initialized, ss.version, ss.client = true, v, p.Capabilities
	return &InitializeResult{
		ProtocolVersion: v,
		Capabilities:    ss.srv.capabilities(false),
		ServerInfo:      ss.srv.identity,
		Instructions:    ss.srv.instructions,
	}, nil
}

// decodeParams reads a request's params into p, or explains what is wrong
// with them as -32602. Absent params are the same as {}.
func decodeParams(method string, raw json.RawMessage, p any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: %s: %s", method, jsonrpc.ParamsProblem(err))
	}
	return nil
}

// listPage answers a list request (tools/list, resources/list, ...): it
// reads the cursor from the params and cuts that page out of all.
func listPage[T any](method string, raw json.RawMessage, all []T, size int) ([]T, string, error) {
	var p ListParams
	if err := decodeParams(method, raw, &p); err != nil {
		return nil, "", err
	}
	return page(all, p.Cursor, size)
}

// page cuts one page out of a list. The cursor is opaque to clients; this
// server's happens to be the position of the page's first item, base64
// encoded, so that nobody is tempted to compute one.
func page[T any](items []T, cursor string, size int) ([]T, string, error) {
	start := 0
	if cursor != "" {
		var ok bool
		if start, ok = decodeCursor(cursor, len(items)); !ok {
			// "Invalid cursors SHOULD result in an error with code -32602."
			return nil, "", jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
				"invalid params: unknown cursor %q; send the nextCursor of the previous page, unchanged", cursor)
		}
	}
	end := min(start+size, len(items))
	next := ""
	if end < len(items) {
		next = base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "from:%d", end))
	}
	return items[start:end], next, nil
}

// decodeCursor returns the position a cursor names, if it is one this
// server made for a list of n items.
func decodeCursor(cursor string, n int) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, false
	}
	digits, ok := strings.CutPrefix(string(b), "from:")
	start, err := strconv.Atoi(digits)
	return start, ok && err == nil && start > 0 && start < n
}
