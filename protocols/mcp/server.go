package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// ServerOptions configures [NewServer]. A nil *ServerOptions means defaults.
type ServerOptions struct {
	// Version is reported in serverInfo.
	Version string
	// Log receives one line per request. Nil: no logging.
	Log *slog.Logger
}

// Server serves a tool catalogue over MCP. One Server can serve many
// sessions; each session keeps its own state.
type Server struct {
	cat     *tools.Catalogue
	version string
	log     *slog.Logger
}

// NewServer returns a server for cat.
func NewServer(cat *tools.Catalogue, opts *ServerOptions) *Server {
	if opts == nil {
		opts = &ServerOptions{}
	}
	s := &Server{cat: cat, version: opts.Version, log: opts.Log}
	if s.version == "" {
		s.version = "dev"
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// session is one client's conversation with the server: the lifecycle
// state, and the requests still running so they can be cancelled.
type session struct {
	srv  *Server
	send func(any) error // writes one message; safe for concurrent use

	mu          sync.Mutex // guards the fields below
	initialized bool       // initialize has been answered
	version     string     // the negotiated revision
	running     map[jsonrpc.ID]context.CancelFunc
}

func newSession(srv *Server, send func(any) error) *session {
	return &session{srv: srv, send: send, running: make(map[jsonrpc.ID]context.CancelFunc)}
}

// handleRequest runs one request and returns its answer, or nil when
// there must be none (the client cancelled it).
func (ss *session) handleRequest(ctx context.Context, req *jsonrpc.Request) *jsonrpc.Response {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ss.mu.Lock()
	ss.running[req.ID] = cancel
	ss.mu.Unlock()
	defer func() {
		ss.mu.Lock()
		delete(ss.running, req.ID)
		ss.mu.Unlock()
	}()

	result, err := ss.dispatch(ctx, req)
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

// dispatch routes a request by method, after the lifecycle check.
func (ss *session) dispatch(ctx context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "initialize":
		return ss.initialize(req.Params)
	case "ping":
		// Allowed at any time, even before initialization.
		return struct{}{}, nil
	case "server/discover":
		// Newer clients probe for the stateless 2026 revision first. An
		// error, at once, tells them to fall back to initialize.
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound,
			"method %q not found: this server speaks revision %s; send initialize", req.Method, LatestVersion)
	}
	ss.mu.Lock()
	ready := ss.initialized
	ss.mu.Unlock()
	if !ready {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
			"invalid request: %s before initialize; the session starts with initialize (only ping is allowed before it)", req.Method)
	}
	switch req.Method {
	case "tools/list":
		return ss.listTools(req.Params)
	case "tools/call":
		return ss.callTool(ctx, req.Params)
	}
	return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "method %q not found", req.Method)
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
	case "notifications/initialized":
		// The client is ready for requests from the server; this server
		// sends none before a tool needs one.
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
	// Negotiation: echo the client's revision if we speak it; otherwise
	// offer our latest, and the client decides whether to go on.
	v := p.ProtocolVersion
	if !supportedVersion(v) {
		v = LatestVersion
	}
	ss.initialized, ss.version = true, v
	return &InitializeResult{
		ProtocolVersion: v,
		Capabilities:    ServerCapabilities{Tools: &ToolsCapability{}},
		ServerInfo:      Implementation{Name: "wirelab", Title: "wirelab tool server", Version: ss.srv.version},
	}, nil
}

func (ss *session) listTools(raw json.RawMessage) (*ListToolsResult, error) {
	var p ListToolsParams
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: %v", err)
		}
	}
	if p.Cursor != "" {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: unknown cursor %q", p.Cursor)
	}
	res := &ListToolsResult{Tools: []Tool{}}
	for _, d := range ss.srv.cat.List() {
		res.Tools = append(res.Tools, Tool{
			Name: d.Name, Description: d.Description,
			InputSchema: d.InputSchema, OutputSchema: d.OutputSchema,
		})
	}
	return res, nil
}

func (ss *session) callTool(ctx context.Context, raw json.RawMessage) (*CallToolResult, error) {
	var p CallToolParams
	if err := json.Unmarshal(raw, &p); err != nil || p.Name == "" {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, `invalid params: tools/call needs {"name": string, "arguments": object}`)
	}
	opts := &tools.CallOptions{}
	if p.Meta != nil && len(p.Meta.ProgressToken) > 0 {
		token := p.Meta.ProgressToken
		opts.Progress = func(pr tools.Progress) {
			ss.notify("notifications/progress", ProgressParams{
				ProgressToken: token, Progress: float64(pr.Done), Total: float64(pr.Total), Message: pr.Message,
			})
		}
	}
	out, err := ss.srv.cat.Call(ctx, tools.Request{Name: p.Name, Args: p.Arguments}, opts)
	var te *tools.Error
	switch {
	case err == nil:
		return &CallToolResult{Content: []Content{{Type: "text", Text: string(out)}}, StructuredContent: out}, nil
	case errors.As(err, &te) && te.Code == tools.CodeUnknownTool:
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: %s", te.Message)
	case errors.As(err, &te):
		// The tool refused its arguments or failed: a result the model
		// reads, marked isError, not a protocol error. (Since 2025-11-25
		// that includes arguments that break the input schema, so that a
		// model can correct itself.)
		return &CallToolResult{Content: []Content{{Type: "text", Text: te.Message}}, IsError: true}, nil
	default:
		return nil, fmt.Errorf("%s: %w", p.Name, err)
	}
}

// notify sends a notification. A failure means the client is gone, which
// the read loop will see; there is no one to tell.
func (ss *session) notify(method string, params any) {
	b, err := json.Marshal(params)
	if err != nil {
		return
	}
	_ = ss.send(&jsonrpc.Request{Method: method, Params: b})
}
