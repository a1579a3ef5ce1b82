package playground

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/protocols/mcp"
)

// consoleSpec is one wire console: the protocol it speaks, the targets
// it can send to, and a template for every method of that protocol.
type consoleSpec struct {
	Slug    string   // the console's path: /console/{Slug}
	Name    string   // the protocol, as the page names it
	Targets []string // the playground's targets, the default first
	// Custom is the target the learner's own server is reached by:
	// "custom-stdio" (a command), "custom-http" (a URL) or "custom-grpc"
	// (host:port).
	Custom string
	// AlsoCustom are more targets for the learner's own server, for a
	// protocol spoken over more than one transport: the MCP console
	// reaches a stdio server by command and a Streamable HTTP one by URL
	// ("custom-http").
	AlsoCustom []string
	Templates  []frameTemplate
}

// frameTemplate is a frame the composer offers. A template may hold
// placeholders the page fills in from what has crossed the wire so far:
// {{host}} (the target's host:port), {{session}} (the last Mcp-Session-Id
// the server gave), {{requestState}} (the requestState of the last MCP
// input_required result), {{task}} (the last A2A task id), and the
// OAuth flow's five (templates_oauth.go).
type frameTemplate struct {
	Name string `json:"name"` // what it does, e.g. "tools/call word_count"
	// NameRU is Name for a Russian page: the prose translated, the words
	// of the wire (methods, headers, status codes, JSON keys, tool and
	// target names) kept as the wire has them. The page sends it in
	// place of Name (localized).
	NameRU string `json:"-"`
	Target string `json:"target"` // the target the frame is written for
	// Group is the era of the protocol the frame speaks, when it has
	// more than one (MCP: "2025-11-25" or "2026-07-28"); the composer
	// lists the templates by group, under the group's name in the page's
	// text. "" for none.
	Group string `json:"group,omitempty"`
	Frame string `json:"frame"`
	// Expect is a piece of the answer the frame gets from the reference
	// server, when the templates are sent in order; the console's tests
	// send every template and look for it.
	Expect string `json:"-"`
}

// localized is ts as a page in l names them: on a Russian page each
// template goes by its NameRU. The result is a copy, never nil, so that
// a console without templates still lists an empty array.
func localized(ts []frameTemplate, l lang) []frameTemplate {
	out := make([]frameTemplate, len(ts))
	copy(out, ts)
	if l != ru {
		return out
	}
	for i := range out {
		if out[i].NameRU != "" {
			out[i].Name = out[i].NameRU
		}
	}
	return out
}

// consoles are the five wire consoles, in the order the course teaches
// their protocols.
func consoles() []consoleSpec {
	return []consoleSpec{
		{Slug: "stdio", Name: "stdio", Targets: []string{"stdio"}, Custom: "custom-stdio", Templates: stdioTemplates()},
		{Slug: "http", Name: "HTTP", Targets: []string{"http", "http-auth"}, Custom: "custom-http", Templates: append(httpTemplates(), httpAuthTemplates()...)},
		{Slug: "grpc", Name: "gRPC", Targets: []string{"grpc"}, Custom: "custom-grpc", Templates: grpcTemplates()},
		{Slug: "mcp", Name: "MCP", Targets: []string{"mcp-stdio", "mcp-http", "mcp-auth", "oauth", "mcp-hostile"}, Custom: "custom-stdio", AlsoCustom: []string{"custom-http"},
			Templates: append(append(append(mcpStdioTemplates(), mcpHTTPTemplates()...), oauthTemplates()...), hostileTemplates()...)},
		{Slug: "a2a", Name: "A2A", Targets: []string{"a2a"}, Custom: "custom-http", Templates: a2aTemplates()},
	}
}

// consoleFor returns the console at slug.
func consoleFor(slug string) (consoleSpec, bool) {
	for _, c := range consoles() {
		if c.Slug == slug {
			return c, true
		}
	}
	return consoleSpec{}, false
}

// The calls every protocol's templates make, one per tool of the
// catalogue, with arguments the tool accepts. Each shows its tool at
// work: search looks for a word its notes (protocols/tools/corpus.json)
// hold, in four of them, so the answer has hits, ranked, and a total
// above the three hits it returns by default. weather fails, as its
// upstream always does, and its name says so, so that the failure reads
// as the example it is: a tool error, not a broken server.
var toolCalls = []struct{ name, args, expect, note, noteRU string }{
	{"word_count", `{"text":"read the wire"}`, `"words":3`, "", ""},
	{"search", `{"q":"grpc"}`, `"hits":[{"id":"grpc"`, "", ""},
	{"weather", `{"city":"Lisbon"}`, `forecast service unavailable`, " (its upstream is down: a tool error)", " (его источник недоступен: ошибка инструмента)"},
	{"deploy_service", `{"service":"api","env":"staging"}`, `deployed`, "", ""},
}

func stdioTemplates() []frameTemplate {
	var ts []frameTemplate
	for i, c := range toolCalls {
		ts = append(ts, frameTemplate{Name: c.name + c.note, NameRU: c.name + c.noteRU, Target: "stdio",
			Frame: fmt.Sprintf(`{"id":%d,"name":%q,"args":%s}`, i+1, c.name, c.args), Expect: c.expect})
	}
	return append(ts,
		frameTemplate{Name: "word_count at version 1.0", NameRU: "word_count версии 1.0", Target: "stdio", Frame: `{"id":"v1","name":"word_count","args":{"text":"read the wire"},"version":"1.0"}`, Expect: `"id":"v1"`},
		frameTemplate{Name: "invalid arguments (a tool error)", NameRU: "неверные аргументы (ошибка инструмента)", Target: "stdio", Frame: `{"id":7,"name":"word_count","args":{"txt":"read the wire"}}`, Expect: `invalid_arguments`},
		frameTemplate{Name: "unknown tool", NameRU: "неизвестный инструмент", Target: "stdio", Frame: `{"id":8,"name":"nope","args":{}}`, Expect: `"error"`},
		frameTemplate{Name: "not JSON (parse error)", NameRU: "не JSON (parse_error)", Target: "stdio", Frame: `{"id":9,"name":"word_count"`, Expect: `parse_error`},
	)
}

// httpRequest writes a request the way the templates show it: the body's
// length is left for the playground to fill in, which it says it does.
func httpRequest(method, path string, headers []string, body string) string {
	lines := []string{method + " " + path + " HTTP/1.1", "Host: {{host}}"}
	lines = append(lines, headers...)
	return strings.Join(lines, "\n") + "\n\n" + body
}

func httpTemplates() []frameTemplate {
	ts := []frameTemplate{
		{Name: "GET /tools", NameRU: "GET /tools", Target: "http", Frame: httpRequest("GET", "/tools", nil, ""), Expect: `word_count`},
		{Name: "GET /openapi.json", NameRU: "GET /openapi.json", Target: "http", Frame: httpRequest("GET", "/openapi.json", nil, ""), Expect: `"openapi"`},
	}
	for _, c := range toolCalls {
		ts = append(ts, frameTemplate{Name: "POST /execute " + c.name + c.note, NameRU: "POST /execute " + c.name + c.noteRU, Target: "http",
			Frame:  httpRequest("POST", "/execute", []string{"Content-Type: application/json"}, fmt.Sprintf(`{"name":%q,"args":%s}`, c.name, c.args)),
			Expect: c.expect})
	}
	return append(ts,
		frameTemplate{Name: "invalid arguments (422)", NameRU: "неверные аргументы (422)", Target: "http", Frame: httpRequest("POST", "/execute", []string{"Content-Type: application/json"}, `{"name":"word_count","args":{"txt":"read the wire"}}`), Expect: `422`},
		frameTemplate{Name: "wrong Content-Type (415)", NameRU: "не тот Content-Type (415)", Target: "http", Frame: httpRequest("POST", "/execute", []string{"Content-Type: text/plain"}, `{"name":"word_count","args":{"text":"read the wire"}}`), Expect: `415`},
		frameTemplate{Name: "wrong method (405)", NameRU: "не тот метод (405)", Target: "http", Frame: httpRequest("DELETE", "/tools", nil, ""), Expect: `405`},
	)
}

// AuthTokens are the bearer tokens that the server behind the http-auth
// target accepts, written as tools.ParseToken reads them: "reader" may
// list and call tools, and "ops" may also deploy to production (the
// deploy:production scope). The templates below, and the learners, use
// them by these names.
func AuthTokens() []string { return []string{"reader", "ops:deploy:production"} }

// httpAuthTemplates walk through bearer tokens (RFC 6750) in the order a
// learner meets them: no token and an unknown token are 401, a token the
// server knows without the scope a call needs is 403, and the token with
// the scope gets 200.
func httpAuthTemplates() []frameTemplate {
	jsonBody := []string{"Content-Type: application/json"}
	bearer := func(token string) []string { return append([]string{"Authorization: Bearer " + token}, jsonBody...) }
	deploy := `{"name":"deploy_service","args":{"service":"api","env":"production"}}`
	return []frameTemplate{
		{Name: "GET /tools without a token (401)", NameRU: "GET /tools без токена (401)", Target: "http-auth", Frame: httpRequest("GET", "/tools", nil, ""), Expect: `401`},
		{Name: "GET /tools with an unknown token (401 invalid_token)", NameRU: "GET /tools с незнакомым токеном (401 invalid_token)", Target: "http-auth",
			Frame: httpRequest("GET", "/tools", []string{"Authorization: Bearer guessed"}, ""), Expect: `invalid_token`},
		{Name: "GET /tools with the token reader", NameRU: "GET /tools с токеном reader", Target: "http-auth",
			Frame: httpRequest("GET", "/tools", []string{"Authorization: Bearer reader"}, ""), Expect: `word_count`},
		{Name: "deploy to production without a token (401)", NameRU: "деплой в production без токена (401)", Target: "http-auth",
			Frame: httpRequest("POST", "/execute", jsonBody, deploy), Expect: `401`},
		{Name: "deploy to production with reader, which lacks deploy:production (403)", NameRU: "деплой в production с токеном reader, у которого нет deploy:production (403)", Target: "http-auth",
			Frame: httpRequest("POST", "/execute", bearer("reader"), deploy), Expect: `insufficient_scope`},
		{Name: "deploy to production with ops, which has deploy:production (200)", NameRU: "деплой в production с токеном ops, у которого есть deploy:production (200)", Target: "http-auth",
			Frame: httpRequest("POST", "/execute", bearer("ops"), deploy), Expect: `"status":"deployed"`},
	}
}

func grpcTemplates() []frameTemplate {
	ts := []frameTemplate{
		{Name: "ListTools", NameRU: "ListTools", Target: "grpc", Frame: "tools.v1.ToolServer/ListTools\n{}", Expect: "word_count"},
	}
	// arguments is a bytes field, and ProtoJSON writes bytes as base64:
	// the JSON object is inside, encoded.
	for _, c := range toolCalls {
		ts = append(ts, frameTemplate{Name: "ExecuteTool " + c.name + c.note, NameRU: "ExecuteTool " + c.name + c.noteRU, Target: "grpc",
			Frame:  fmt.Sprintf("tools.v1.ToolServer/ExecuteTool\n{\"toolName\":%q,\"arguments\":%q}", c.name, base64.StdEncoding.EncodeToString([]byte(c.args))),
			Expect: "grpc-status: 0"})
	}
	return append(ts,
		frameTemplate{Name: "ExecuteToolStream deploy_service", NameRU: "ExecuteToolStream deploy_service", Target: "grpc",
			Frame:  fmt.Sprintf("tools.v1.ToolServer/ExecuteToolStream\n{\"toolName\":\"deploy_service\",\"arguments\":%q}", base64.StdEncoding.EncodeToString([]byte(`{"service":"api","env":"staging"}`))),
			Expect: "grpc-status: 0"},
		frameTemplate{Name: "ExecuteTool with metadata", NameRU: "ExecuteTool с метаданными", Target: "grpc",
			Frame:  fmt.Sprintf("tools.v1.ToolServer/ExecuteTool\nauthorization: Bearer reader\nx-request-id: console-1\n{\"toolName\":\"word_count\",\"arguments\":%q}", base64.StdEncoding.EncodeToString([]byte(`{"text":"read the wire"}`))),
			Expect: "authorization"},
		frameTemplate{Name: "deploy_service with a 1 ms deadline (DEADLINE_EXCEEDED)", NameRU: "deploy_service с дедлайном 1 мс (DEADLINE_EXCEEDED)", Target: "grpc",
			Frame:  fmt.Sprintf("tools.v1.ToolServer/ExecuteTool\ngrpc-timeout: 1m\n{\"toolName\":\"deploy_service\",\"arguments\":%q}", base64.StdEncoding.EncodeToString([]byte(`{"service":"api","env":"staging"}`))),
			Expect: "DEADLINE_EXCEEDED"},
		frameTemplate{Name: "unknown tool (NOT_FOUND)", NameRU: "неизвестный инструмент (NOT_FOUND)", Target: "grpc",
			Frame: "tools.v1.ToolServer/ExecuteTool\n{\"toolName\":\"nope\"}", Expect: "grpc-status: 5"},
	)
}

// The MCP templates come in two groups, one per era of the protocol
// (protocols/mcp/era.go), and the composer lists them so: first the
// 2025-11-25 session, which opens with initialize and
// notifications/initialized before any request; then 2026-07-28, whose
// every request stands alone, carrying its revision and the client's
// capabilities in params._meta. A group's key is its revision.

// mcpMessages are the 2025-11-25 templates, the same messages over both
// transports, in the order a session goes.
var mcpMessages = []struct{ name, nameRU, body, expect string }{
	{"initialize", "initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"console","version":"1"}}}`, `"protocolVersion":"2025-11-25"`},
	{"notifications/initialized", "notifications/initialized", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ``},
	{"tools/list", "tools/list", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, `"inputSchema"`},
	{"tools/call word_count", "tools/call word_count", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`, `"words":3`},
	{"tools/call with bad arguments (a tool error)", "tools/call с неверными аргументами (ошибка инструмента)", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"word_count","arguments":{"txt":"read the wire"}}}`, `"isError":true`},
	{"tools/call an unknown tool (a protocol error)", "tools/call неизвестного инструмента (ошибка протокола)", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, `-32602`},
	{"resources/list", "resources/list", `{"jsonrpc":"2.0","id":6,"method":"resources/list"}`, `"resources"`},
	{"prompts/list", "prompts/list", `{"jsonrpc":"2.0","id":7,"method":"prompts/list"}`, `"prompts"`},
	{"ping", "ping", `{"jsonrpc":"2.0","id":8,"method":"ping"}`, `"result":{}`},
	{"logging/setLevel", "logging/setLevel", `{"jsonrpc":"2.0","id":9,"method":"logging/setLevel","params":{"level":"debug"}}`, `"id":9`},
	{"unknown method", "неизвестный метод", `{"jsonrpc":"2.0","id":10,"method":"tools/nope"}`, `-32601`},
	{"deploy to production (the server asks you first)", "деплой в production (сервер сначала спросит вас)", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"deploy_service","arguments":{"service":"api","env":"production"}}}`, `elicitation/create`},
}

// statelessMeta is the params._meta of a 2026-07-28 request: the
// revision it speaks, what the client can do (caps, a JSON object), and
// who the client is, which a client SHOULD say on every request.
func statelessMeta(version, caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientCapabilities":` + caps +
		`,"io.modelcontextprotocol/clientInfo":{"name":"console","version":"1"}}`
}

// statelessRequest writes a 2026-07-28 request.
func statelessRequest(m statelessMessage) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s}}`, m.id, m.method, m.members())
}

// statelessMessage is a 2026-07-28 template, over both transports unless
// only says which one it is for. Over HTTP it goes with the headers that
// repeat the body (statelessHeaders); header, when set, is one of them
// written otherwise.
type statelessMessage struct {
	name, nameRU, method, params, meta, expect string
	id                                         int
	only                                       string // "mcp-stdio" or "mcp-http"; "" for both
	header                                     string // "Name: value", in place of the header of that name
}

// members are the request's params without their braces: the method's
// own, then the _meta, if any.
func (m statelessMessage) members() string {
	if m.params == "" || m.meta == "" {
		return m.params + m.meta
	}
	return m.params + "," + m.meta
}

// The deploy to production that asks first, and its retry: the same call
// with the answer in inputResponses (under the key the question had) and
// requestState echoed as it came, which the page fills from the last
// input_required answer.
const (
	statelessDeploy      = `"name":"deploy_service","arguments":{"service":"api","env":"production"}`
	statelessDeployRetry = statelessDeploy + `,"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}},"requestState":"{{requestState}}"`
)

// statelessTasksCaps are the capabilities of a client that takes tasks.
const statelessTasksCaps = `{"extensions":{"` + mcp.ExtensionTasks + `":{}}}`

// statelessMessages are the 2026-07-28 templates: the requests a client
// makes, each on its own, then the refusals in the era's own terms. Their
// ids go on from 21, apart from the session's, since on stdio both eras
// share one server process.
var statelessMessages = []statelessMessage{
	{name: "server/discover (revisions and capabilities)", nameRU: "server/discover (редакции и возможности)", id: 21, method: "server/discover", meta: statelessMeta(mcp.ModernVersion, `{}`), expect: `"supportedVersions":["2026-07-28"`},
	{name: "tools/list, on its own", nameRU: "tools/list без сессии", id: 22, method: "tools/list", meta: statelessMeta(mcp.ModernVersion, `{}`), expect: `"ttlMs":`},
	{name: "tools/call word_count, on its own", nameRU: "tools/call word_count без сессии", id: 23, method: "tools/call", params: `"name":"word_count","arguments":{"text":"read the wire"}`,
		meta: statelessMeta(mcp.ModernVersion, `{}`), expect: `"structuredContent":{"words":3,"chars":13}`},
	{name: "resources/read wirelab://notes/mcp", nameRU: "resources/read wirelab://notes/mcp", id: 24, method: "resources/read", params: `"uri":"wirelab://notes/mcp"`,
		meta: statelessMeta(mcp.ModernVersion, `{}`), expect: `"cacheScope":"public"`},
	{name: "prompts/get explain", nameRU: "prompts/get explain", id: 25, method: "prompts/get", params: `"name":"explain","arguments":{"topic":"mcp"}`,
		meta: statelessMeta(mcp.ModernVersion, `{}`), expect: `"resultType":"complete"`},
	{name: "deploy to production (input_required: the server asks in its result)", nameRU: "деплой в production (input_required: сервер спрашивает в своём результате)", id: 26, method: "tools/call", params: statelessDeploy,
		meta: statelessMeta(mcp.ModernVersion, `{"elicitation":{}}`), expect: `"resultType":"input_required"`},
	{name: "deploy to production again, with inputResponses and requestState", nameRU: "деплой в production ещё раз, с inputResponses и requestState", id: 27, method: "tools/call", params: statelessDeployRetry,
		meta: statelessMeta(mcp.ModernVersion, `{"elicitation":{}}`), expect: `"status":"deployed"`},
	// The tasks extension: a client that declares it may get a task for
	// a slow call, and asks about it by the task's id, {{task}}.
	{name: "deploy as a task (the tasks extension)", nameRU: "деплой как задача (расширение tasks)", id: 41, method: "tools/call", params: `"name":"deploy_service","arguments":{"service":"api","env":"staging"}`,
		meta: statelessMeta(mcp.ModernVersion, statelessTasksCaps), expect: `"resultType":"task"`},
	{name: "tasks/get: how the task goes", nameRU: "tasks/get: как идёт задача", id: 42, method: "tasks/get", params: `"taskId":"{{task}}"`,
		meta: statelessMeta(mcp.ModernVersion, statelessTasksCaps), expect: `"taskId":"{{task}}"`},
	{name: "subscriptions/listen: hear the task change (notifications/tasks)", nameRU: "subscriptions/listen: слушать, как меняется задача (notifications/tasks)", id: 44, method: "subscriptions/listen", params: `"notifications":{"taskIds":["{{task}}"]}`,
		meta: statelessMeta(mcp.ModernVersion, statelessTasksCaps), expect: `"method":"notifications/tasks"`},
	{name: "tasks/cancel the task", nameRU: "tasks/cancel: отменить задачу", id: 43, method: "tasks/cancel", params: `"taskId":"{{task}}"`,
		meta: statelessMeta(mcp.ModernVersion, statelessTasksCaps), expect: `"id":43,"result"`},
	// On stdio a request without any _meta belongs to the session the
	// process may have (it is served there, or refused as coming before
	// initialize); one whose _meta names the revision but lacks the
	// client's capabilities is this era's, and malformed.
	{name: "_meta without clientCapabilities (-32602)", nameRU: "_meta без clientCapabilities (-32602)", id: 28, method: "tools/list", only: "mcp-stdio",
		meta: `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`, expect: `-32602`},
	// Over HTTP a POST without a session whose MCP-Protocol-Version says
	// 2026-07-28 is this era's, so a body without _meta is malformed.
	{name: "no _meta (-32602)", nameRU: "без _meta (-32602)", id: 28, method: "tools/list", only: "mcp-http", expect: `-32602`},
	{name: "an unknown revision (-32022)", nameRU: "неизвестная редакция (-32022)", id: 29, method: "tools/list", meta: statelessMeta("2099-01-01", `{}`), expect: `-32022`},
	{name: "ping, which has no place without a session (-32601)", nameRU: "ping, которому без сессии нет места (-32601)", id: 30, method: "ping", meta: statelessMeta(mcp.ModernVersion, `{}`), expect: `-32601`},
	{name: "Mcp-Name disagrees with the body (-32020, 400)", nameRU: "Mcp-Name расходится с телом (-32020, 400)", id: 31, method: "tools/call", params: `"name":"word_count","arguments":{"text":"read the wire"}`,
		meta: statelessMeta(mcp.ModernVersion, `{}`), only: "mcp-http", header: "Mcp-Name: search", expect: `-32020`},
}

// statelessHeaders are the headers of a 2026-07-28 POST: those every MCP
// POST has, then what a gateway routes on, said again from the body:
// MCP-Protocol-Version (the revision in _meta), Mcp-Method, and for
// tools/call, prompts/get and resources/read, Mcp-Name (params.name, or
// params.uri). A body without a revision is still sent with this era's
// in the header, so that the server takes it for this era's.
func statelessHeaders(m statelessMessage) []string {
	var p struct {
		Name   string                     `json:"name"`
		URI    string                     `json:"uri"`
		TaskID string                     `json:"taskId"`
		Meta   map[string]json.RawMessage `json:"_meta"`
	}
	// {{requestState}} sits inside a string: the params are JSON as they
	// are.
	json.Unmarshal([]byte("{"+m.members()+"}"), &p)
	version := mcp.ModernVersion
	json.Unmarshal(p.Meta[mcp.MetaProtocolVersion], &version)
	h := []string{"Accept: application/json, text/event-stream", "Content-Type: application/json",
		"MCP-Protocol-Version: " + version, "Mcp-Method: " + m.method}
	switch m.method {
	case "tools/call", "prompts/get":
		h = append(h, "Mcp-Name: "+p.Name)
	case "resources/read":
		h = append(h, "Mcp-Name: "+p.URI)
	case "tasks/get", "tasks/update", "tasks/cancel":
		h = append(h, "Mcp-Name: "+p.TaskID)
	}
	if m.header != "" {
		name, _, _ := strings.Cut(m.header, ":")
		for i, line := range h {
			if strings.HasPrefix(line, name+":") {
				h[i] = m.header
			}
		}
	}
	return h
}
func mcpStdioTemplates() []frameTemplate {
	var ts []frameTemplate
	for _, m := range mcpMessages {
		ts = append(ts, frameTemplate{Name: m.name, NameRU: m.nameRU, Target: "mcp-stdio", Group: mcp.LegacyVersion, Frame: m.body, Expect: m.expect})
	}
	ts = append(ts, frameTemplate{Name: "not JSON (parse error)", NameRU: "не JSON (-32700)", Target: "mcp-stdio", Group: mcp.LegacyVersion, Frame: `{"jsonrpc":"2.0","id":12,`, Expect: `-32700`})
	for _, m := range statelessMessages {
		if m.only == "" || m.only == "mcp-stdio" {
			ts = append(ts, frameTemplate{Name: m.name, NameRU: m.nameRU, Target: "mcp-stdio", Group: mcp.ModernVersion, Frame: statelessRequest(m), Expect: m.expect})
		}
	}
	return ts
}

func mcpHTTPTemplates() []frameTemplate {
	headers := func(session bool) []string {
		h := []string{"Accept: application/json, text/event-stream", "Content-Type: application/json"}
		if session {
			h = append(h, "Mcp-Session-Id: {{session}}", "MCP-Protocol-Version: 2025-11-25")
		}
		return h
	}
	var ts []frameTemplate
	for i, m := range mcpMessages {
		expect := m.expect
		if expect == "" {
			expect = "202 Accepted"
		}
		ts = append(ts, frameTemplate{Name: m.name, NameRU: m.nameRU, Target: "mcp-http", Group: mcp.LegacyVersion, Frame: httpRequest("POST", "/mcp", headers(i > 0), m.body), Expect: expect})
	}
	ts = append(ts,
		frameTemplate{Name: "GET: the server's own stream", NameRU: "GET: собственный поток сервера", Target: "mcp-http", Group: mcp.LegacyVersion,
			Frame: httpRequest("GET", "/mcp", []string{"Accept: text/event-stream", "Mcp-Session-Id: {{session}}"}, ""), Expect: "text/event-stream"},
		frameTemplate{Name: "DELETE: end the session", NameRU: "DELETE: завершить сессию", Target: "mcp-http", Group: mcp.LegacyVersion,
			Frame: httpRequest("DELETE", "/mcp", []string{"Mcp-Session-Id: {{session}}"}, ""), Expect: "204 No Content"},
		frameTemplate{Name: "no session (400)", NameRU: "без сессии (400)", Target: "mcp-http", Group: mcp.LegacyVersion,
			Frame: httpRequest("POST", "/mcp", headers(false), `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), Expect: "400"},
	)
	for _, m := range statelessMessages {
		if m.only == "" || m.only == "mcp-http" {
			ts = append(ts, frameTemplate{Name: m.name, NameRU: m.nameRU, Target: "mcp-http", Group: mcp.ModernVersion,
				Frame: httpRequest("POST", "/mcp", statelessHeaders(m), statelessRequest(m)), Expect: m.expect})
		}
	}
	return ts
}

func a2aTemplates() []frameTemplate {
	post := func(body string) string {
		return httpRequest("POST", "/", []string{"A2A-Version: 1.0", "Content-Type: application/json"}, body)
	}
	msg := func(id int, method, text, extra string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"message":{"messageId":"m%d","role":"ROLE_USER","parts":[{"text":%q}]%s}}}`, id, method, id, text, extra)
	}
	return []frameTemplate{
		{Name: "GET the agent card", NameRU: "GET карточки агента", Target: "a2a", Frame: httpRequest("GET", "/.well-known/agent-card.json", nil, ""), Expect: `"skills"`},
		{Name: "SendMessage count", NameRU: "SendMessage count", Target: "a2a", Frame: post(msg(1, "SendMessage", "count read the wire", "")), Expect: "TASK_STATE_COMPLETED"},
		{Name: "SendMessage deploy (asks which environment)", NameRU: "SendMessage deploy (агент спросит, какое окружение)", Target: "a2a", Frame: post(msg(2, "SendMessage", "deploy api-gateway", "")), Expect: "TASK_STATE_INPUT_REQUIRED"},
		{Name: "SendStreamingMessage: answer the task", NameRU: "SendStreamingMessage: ответить на вопрос задачи", Target: "a2a", Frame: post(msg(3, "SendStreamingMessage", "staging", `,"taskId":"{{task}}"`)), Expect: "TASK_STATE_COMPLETED"},
		{Name: "GetTask", NameRU: "GetTask", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":4,"method":"GetTask","params":{"id":"{{task}}"}}`), Expect: "{{task}}"},
		{Name: "ListTasks", NameRU: "ListTasks", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":5,"method":"ListTasks","params":{}}`), Expect: `"tasks"`},
		{Name: "CancelTask a finished task (-32002)", NameRU: "CancelTask завершённой задачи (-32002)", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":6,"method":"CancelTask","params":{"id":"{{task}}"}}`), Expect: "-32002"},
		{Name: "SubscribeToTask a finished task (-32004)", NameRU: "SubscribeToTask на завершённую задачу (-32004)", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":7,"method":"SubscribeToTask","params":{"id":"{{task}}"}}`), Expect: "-32004"},
		{Name: "GetTask unknown (-32001)", NameRU: "GetTask неизвестной задачи (-32001)", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":8,"method":"GetTask","params":{"id":"no-such-task"}}`), Expect: "-32001"},
		{Name: "0.3: message/send", NameRU: "0.3: message/send", Target: "a2a", Frame: httpRequest("POST", "/", []string{"Content-Type: application/json"},
			`{"jsonrpc":"2.0","id":9,"method":"message/send","params":{"message":{"kind":"message","messageId":"m9","role":"user","parts":[{"kind":"text","text":"count read the wire"}]}}}`), Expect: `"completed"`},
		{Name: "wrong revision's method (-32601)", NameRU: "метод другой редакции (-32601)", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":10,"method":"message/send","params":{}}`), Expect: "-32601"},
	}
}
