package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// The modern era (2026-07-28) has no session: everything the server needs
// to know about its client comes with each request, in params._meta:
//
//	{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"},
//	 "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
//
// and every result says what it is, "resultType":"complete" (or
// "input_required", see ask), and who answered, in its own _meta.

// modernCall is one modern request's view of its client, read from its
// _meta, plus the answers it brought to earlier questions.
type modernCall struct {
	version  string
	client   ClientCapabilities
	logLevel int // index into logLevels of the lowest level wanted; -1: none asked for

	// answers holds the client's answers by question key: this request's
	// inputResponses, with those of earlier rounds that the verified
	// requestState carried.
	answers map[string]json.RawMessage
	// stateVerified says the request brought a requestState and it
	// verified.
	stateVerified bool
}

// inputRequired is the "not yet" of the modern era: the handler needs
// answers the request did not bring. It is not an error on the wire:
// dispatchModern turns it into an InputRequiredResult.
type inputRequired struct {
	requests map[string]InputRequest
}

func (e *inputRequired) Error() string {
	return fmt.Sprintf("input required: %d question(s) for the client", len(e.requests))
}

// isModern reports whether a request speaks the modern era: it is
// server/discover, which only the modern era has, or its params._meta has
// a key of the modern era. (A progressToken alone does not count: legacy
// requests have that too.) A _meta that is not an object counts too: it is
// malformed in either era, and the modern answer, -32602 naming the field,
// tells the client what to fix, where a session not yet begun would only
// say "initialize first". A request that is not modern belongs to a
// legacy session.
func isModern(req *jsonrpc.Request) bool {
	if req.Method == "server/discover" {
		return true
	}
	if !bytes.Contains(req.Params, []byte(`"_meta"`)) {
		return false // the common case of a legacy session, without decoding
	}
	meta := rawMeta(req.Params)
	if meta == nil {
		return false
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(meta, &keys) != nil {
		return true // not an object: malformed, and readModernCall says how
	}
	for k := range keys {
		if strings.HasPrefix(k, "io.modelcontextprotocol/") {
			return true
		}
	}
	return false
}

// rawMeta returns params._meta as sent, or nil when there is none. A
// null _meta counts as none: some encoders write null for an empty map.
func rawMeta(params json.RawMessage) json.RawMessage {
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil || string(p.Meta) == "null" {
		return nil
	}
	return p.Meta
}

// modernParams are the members every modern request may carry besides its
// own: its _meta, and, when it is sent again after an input_required
// result, the client's answers and the server's state, echoed.
type modernParams struct {
	Meta           map[string]json.RawMessage `json:"_meta"`
	InputResponses json.RawMessage            `json:"inputResponses"`
	RequestState   *string                    `json:"requestState"`
}

// readModernCall reads a modern request's _meta. A missing or malformed
// required field is -32602, a revision the server does not speak -32022.
func readModernCall(req *jsonrpc.Request) (*modernCall, *modernParams, error) {
	var p modernParams
	// A member of the wrong type, _meta that is not an object among them,
	// is -32602 naming it (decodeParams).
	if err := decodeParams(req.Method, req.Params, &p); err != nil {
		return nil, nil, err
	}
	missing := func(what string) error {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			"invalid params: %s: params._meta has no %s; in revision %s every request carries %s (a string) and %s (an object, {} for none); a %s session begins with initialize instead",
			req.Method, what, ModernVersion, MetaProtocolVersion, MetaClientCapabilities, LegacyVersion)
	}
	rawVersion, ok := p.Meta[MetaProtocolVersion]
	if !ok {
		return nil, nil, missing(MetaProtocolVersion)
	}
	c := &modernCall{logLevel: -1}
	if json.Unmarshal(rawVersion, &c.version) != nil || c.version == "" {
		return nil, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			"invalid params: %s: %s must be a revision, such as %q; got %s", req.Method, MetaProtocolVersion, ModernVersion, compact(rawVersion))
	}
	if c.version != ModernVersion {
		why := "this server does not speak it"
		if isLegacy(c.version) {
			why = "it is a revision with sessions: open it with initialize instead"
		}
		data, _ := json.Marshal(UnsupportedVersionData{Supported: []string{ModernVersion}, Requested: c.version})
		return nil, nil, &jsonrpc.Error{Code: CodeUnsupportedVersion, Data: data,
			Message: fmt.Sprintf("unsupported protocol version %q in %s: %s; per request this server speaks %s", c.version, MetaProtocolVersion, why, ModernVersion)}
	}
	rawCaps, ok := p.Meta[MetaClientCapabilities]
	if !ok {
		return nil, nil, missing(MetaClientCapabilities)
	}
	if err := json.Unmarshal(rawCaps, &c.client); err != nil || !isObject(rawCaps) {
		return nil, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			"invalid params: %s: %s must be an object, {} for none; got %s", req.Method, MetaClientCapabilities, compact(rawCaps))
	}
	if raw, ok := p.Meta[MetaClientInfo]; ok {
		var info Implementation
		if json.Unmarshal(raw, &info) != nil || !isObject(raw) {
			return nil, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
				`invalid params: %s: %s must be {"name": string, "version": string}; got %s`, req.Method, MetaClientInfo, compact(raw))
		}
	}
	if raw, ok := p.Meta[MetaLogLevel]; ok {
		var level string
		json.Unmarshal(raw, &level)
		if c.logLevel = slices.Index(logLevels, level); c.logLevel < 0 {
			return nil, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
				"invalid params: %s: %s must be one of %v; got %s", req.Method, MetaLogLevel, logLevels, compact(raw))
		}
	}
	return c, &p, nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return strings.HasPrefix(s, "{")
}

// handleModern answers one modern request. It needs no session: the
// request says everything. ss is the connection's session (stdio) or the
// handler's (HTTP), used only so that notifications/cancelled can find
// the request while it runs. who is the caller (auth.go): its scopes
// decide what it may do, and its id which tasks it may see.
func (ss *session) handleModern(ctx context.Context, req *jsonrpc.Request, send func(any) error, who caller) *jsonrpc.Response {
	x := &exchange{ss: ss, send: send, who: who}
	return ss.respond(ctx, req, x, ss.dispatchModern)
}

// dispatchModern reads the request's _meta, routes it, and turns the
// handler's answer into a modern result.
func (ss *session) dispatchModern(ctx context.Context, x *exchange, req *jsonrpc.Request) (any, error) {
	call, p, err := readModernCall(req)
	if err != nil {
		return nil, err
	}
	x.modern = call
	if err := ss.srv.readAnswers(req, x.who, call, p); err != nil {
		return nil, err
	}
	result, err := ss.routeModern(ctx, x, req)
	var created *taskCreated
	if errors.As(err, &created) {
		return created.result, nil // the work goes on as a task (tasks.go)
	}
	var more *inputRequired
	if errors.As(err, &more) {
		if !acceptsInput(req.Method) {
			return nil, fmt.Errorf("%s asked the client a question, which the modern era allows only in tools/call, prompts/get and resources/read", req.Method)
		}
		state, err := ss.srv.signState(req, x.who, call.answers)
		if err != nil {
			return nil, err
		}
		return &InputRequiredResult{ResultFields: ResultFields{ResultType: ResultInputRequired},
			InputRequests: more.requests, RequestState: state}, nil
	}
	if err != nil {
		return nil, err
	}
	ss.srv.complete(req.Method, result)
	return result, nil
}

// acceptsInput reports whether a method may answer input_required: the
// three whose handlers may need the user.
func acceptsInput(method string) bool {
	return method == "tools/call" || method == "prompts/get" || method == "resources/read"
}

// routeModern routes a modern request by method. The methods that lean on
// a session are not part of this era: initialize (there is nothing to
// open), ping (nothing to keep alive), logging/setLevel (the level comes
// with each request) and resources/subscribe.
func (ss *session) routeModern(ctx context.Context, x *exchange, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "server/discover":
		return ss.srv.discover(), nil
	case "tools/list":
		return ss.listTools(req.Params)
	case "tools/call":
		if runsAsTask(req.Params) {
			return x.asTask(ctx, taskOptional, func(ctx context.Context, x *exchange) (*CallToolResult, error) {
				return ss.callTool(ctx, x, req.Params)
			})
		}
		return ss.callTool(ctx, x, req.Params)
	case "tasks/get", "tasks/update", "tasks/cancel":
		return ss.srv.tasks.handle(x, req)
	case "resources/list":
		return ss.listResources(req.Params)
	case "resources/templates/list":
		return ss.listTemplates(req.Params)
	case "resources/read":
		res, err := ss.readResource(req.Params)
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == CodeResourceNotFound {
			// -32002 was a code of its own until 2025-11-25; this era
			// calls an unknown URI what it is, an invalid param.
			rpcErr.Code = jsonrpc.CodeInvalidParams
		}
		return res, err
	case "prompts/list":
		return ss.listPrompts(req.Params)
	case "prompts/get":
		return ss.getPrompt(ctx, x, req.Params)
	case "completion/complete":
		return ss.complete(req.Params)
	case "subscriptions/listen":
		return ss.listen(ctx, x, req.Params)
	case "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound,
			"method %q not found in revision %s, which has no sessions; send it without io.modelcontextprotocol/* keys in _meta to use it in a %s session", req.Method, ModernVersion, LegacyVersion)
	}
	return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "method %q not found", req.Method)
}

// capabilities lists what the server offers: tools always, resources
// and prompts when it has some (the hostile server has neither), and
// completion of their arguments with them. Resources can be watched in
// both eras (resources/subscribe in a session, subscriptions/listen
// without); only the legacy era has logging/setLevel, and only the
// modern one the tasks extension.
func (s *Server) capabilities(modern bool) ServerCapabilities {
	c := ServerCapabilities{Tools: &ToolsCapability{ListChanged: s.toolsChange}}
	if len(s.resources)+len(s.templates) > 0 {
		c.Resources = &ResourcesCapability{Subscribe: true}
	}
	if len(s.prompts) > 0 {
		c.Prompts = &PromptsCapability{}
	}
	if c.Resources != nil || c.Prompts != nil {
		c.Completions = &struct{}{}
	}
	if !modern {
		c.Logging = &struct{}{}
	} else {
		c.Extensions = map[string]struct{}{ExtensionTasks: {}}
	}
	return c
}

// discover answers server/discover.
func (s *Server) discover() *DiscoverResult {
	return &DiscoverResult{SupportedVersions: SupportedVersions(), Capabilities: s.capabilities(true)}
}

// listTTL is how long, in milliseconds, a client may keep a list before
// asking again: the catalogue is fixed while the server runs.
const listTTL = 60_000

// complete fills in the members every modern result carries: resultType,
// the server's name in _meta, and, on the results a client may cache, how
// long (ttlMs) and for whom (cacheScope). Everything here is the same for
// every caller, so "public"; the deploy log changes with every deploy, so
// it is never fresh.
func (s *Server) complete(method string, result any) {
	r, ok := result.(interface{ resultFields() *ResultFields })
	if !ok {
		return
	}
	f := r.resultFields()
	f.ResultType = ResultComplete
	if f.Meta == nil {
		f.Meta = s.infoMeta
	} else {
		// The result has _meta of its own (a listen stream's id): add
		// the server's name to it.
		var m map[string]json.RawMessage
		json.Unmarshal(f.Meta, &m)
		m[MetaServerInfo], _ = json.Marshal(s.identity)
		f.Meta, _ = json.Marshal(m)
	}
	switch method {
	case "server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list", "resources/read":
		ttl := int64(listTTL)
		if rr, ok := result.(*ReadResourceResult); ok && len(rr.Contents) > 0 && rr.Contents[0].URI == deployLogURI {
			ttl = 0
		}
		if method == "tools/list" && s.toolsChange {
			ttl = 0 // the list changes: promise nothing
		}
		f.TTLMs, f.CacheScope = &ttl, "public"
	}
}

// modernStatus is the HTTP status of a modern answer: 404 for an unknown
// method, 400 for a request the client must change, 200 otherwise (a
// tool error is a result, so 200 too).
func modernStatus(resp *jsonrpc.Response) int {
	if resp == nil || resp.Error == nil {
		return http.StatusOK
	}
	switch resp.Error.Code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams, jsonrpc.CodeInvalidRequest, CodeHeaderMismatch, CodeMissingClientCapability, CodeUnsupportedVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
