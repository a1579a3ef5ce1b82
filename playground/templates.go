package playground

import (
	"encoding/base64"
	"fmt"
	"strings"
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
	Custom    string
	Templates []frameTemplate
}

// frameTemplate is a frame the composer offers. A template may hold
// placeholders the page fills in from what has crossed the wire so far:
// {{host}} (the target's host:port), {{session}} (the last Mcp-Session-Id
// the server gave) and {{task}} (the last A2A task id).
type frameTemplate struct {
	Name   string `json:"name"`   // what it does, e.g. "tools/call word_count"
	Target string `json:"target"` // the target the frame is written for
	Frame  string `json:"frame"`
	// Expect is a piece of the answer the frame gets from the reference
	// server, when the templates are sent in order; the console's tests
	// send every template and look for it.
	Expect string `json:"-"`
}

// consoles are the five wire consoles, in the order the course teaches
// their protocols.
func consoles() []consoleSpec {
	return []consoleSpec{
		{Slug: "stdio", Name: "stdio", Targets: []string{"stdio"}, Custom: "custom-stdio", Templates: stdioTemplates()},
		{Slug: "http", Name: "HTTP", Targets: []string{"http", "http-auth"}, Custom: "custom-http", Templates: append(httpTemplates(), httpAuthTemplates()...)},
		{Slug: "grpc", Name: "gRPC", Targets: []string{"grpc"}, Custom: "custom-grpc", Templates: grpcTemplates()},
		{Slug: "mcp", Name: "MCP", Targets: []string{"mcp-stdio", "mcp-http"}, Custom: "custom-stdio", Templates: append(mcpStdioTemplates(), mcpHTTPTemplates()...)},
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
// catalogue, with arguments the tool accepts.
var toolCalls = []struct{ name, args, expect string }{
	{"word_count", `{"text":"read the wire"}`, `"words":3`},
	{"search", `{"q":"wire"}`, `"hits"`},
	{"weather", `{"city":"Lisbon"}`, `Lisbon`},
	{"deploy_service", `{"service":"api","env":"staging"}`, `deployed`},
}

func stdioTemplates() []frameTemplate {
	var ts []frameTemplate
	for i, c := range toolCalls {
		ts = append(ts, frameTemplate{Name: c.name, Target: "stdio",
			Frame: fmt.Sprintf(`{"id":%d,"name":%q,"args":%s}`, i+1, c.name, c.args), Expect: c.expect})
	}
	return append(ts,
		frameTemplate{Name: "word_count at version 1.0", Target: "stdio", Frame: `{"id":"v1","name":"word_count","args":{"text":"read the wire"},"version":"1.0"}`, Expect: `"id":"v1"`},
		frameTemplate{Name: "invalid arguments (a tool error)", Target: "stdio", Frame: `{"id":7,"name":"word_count","args":{"txt":"read the wire"}}`, Expect: `invalid_arguments`},
		frameTemplate{Name: "unknown tool", Target: "stdio", Frame: `{"id":8,"name":"nope","args":{}}`, Expect: `"error"`},
		frameTemplate{Name: "not JSON (parse error)", Target: "stdio", Frame: `{"id":9,"name":"word_count"`, Expect: `parse_error`},
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
		{Name: "GET /tools", Target: "http", Frame: httpRequest("GET", "/tools", nil, ""), Expect: `word_count`},
		{Name: "GET /openapi.json", Target: "http", Frame: httpRequest("GET", "/openapi.json", nil, ""), Expect: `"openapi"`},
	}
	for _, c := range toolCalls {
		ts = append(ts, frameTemplate{Name: "POST /execute " + c.name, Target: "http",
			Frame:  httpRequest("POST", "/execute", []string{"Content-Type: application/json"}, fmt.Sprintf(`{"name":%q,"args":%s}`, c.name, c.args)),
			Expect: c.expect})
	}
	return append(ts,
		frameTemplate{Name: "invalid arguments (422)", Target: "http", Frame: httpRequest("POST", "/execute", []string{"Content-Type: application/json"}, `{"name":"word_count","args":{"txt":"read the wire"}}`), Expect: `422`},
		frameTemplate{Name: "wrong Content-Type (415)", Target: "http", Frame: httpRequest("POST", "/execute", []string{"Content-Type: text/plain"}, `{"name":"word_count","args":{"text":"read the wire"}}`), Expect: `415`},
		frameTemplate{Name: "wrong method (405)", Target: "http", Frame: httpRequest("DELETE", "/tools", nil, ""), Expect: `405`},
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
		{Name: "GET /tools without a token (401)", Target: "http-auth", Frame: httpRequest("GET", "/tools", nil, ""), Expect: `401`},
		{Name: "GET /tools with an unknown token (401 invalid_token)", Target: "http-auth",
			Frame: httpRequest("GET", "/tools", []string{"Authorization: Bearer guessed"}, ""), Expect: `invalid_token`},
		{Name: "GET /tools with the token reader", Target: "http-auth",
			Frame: httpRequest("GET", "/tools", []string{"Authorization: Bearer reader"}, ""), Expect: `word_count`},
		{Name: "deploy to production without a token (401)", Target: "http-auth",
			Frame: httpRequest("POST", "/execute", jsonBody, deploy), Expect: `401`},
		{Name: "deploy to production with reader, which lacks deploy:production (403)", Target: "http-auth",
			Frame: httpRequest("POST", "/execute", bearer("reader"), deploy), Expect: `insufficient_scope`},
		{Name: "deploy to production with ops, which has deploy:production (200)", Target: "http-auth",
			Frame: httpRequest("POST", "/execute", bearer("ops"), deploy), Expect: `"status":"deployed"`},
	}
}

func grpcTemplates() []frameTemplate {
	ts := []frameTemplate{
		{Name: "ListTools", Target: "grpc", Frame: "tools.v1.ToolServer/ListTools\n{}", Expect: "word_count"},
	}
	// arguments is a bytes field, and ProtoJSON writes bytes as base64:
	// the JSON object is inside, encoded.
	for _, c := range toolCalls {
		ts = append(ts, frameTemplate{Name: "ExecuteTool " + c.name, Target: "grpc",
			Frame:  fmt.Sprintf("tools.v1.ToolServer/ExecuteTool\n{\"toolName\":%q,\"arguments\":%q}", c.name, base64.StdEncoding.EncodeToString([]byte(c.args))),
			Expect: "grpc-status: 0"})
	}
	return append(ts,
		frameTemplate{Name: "ExecuteToolStream deploy_service", Target: "grpc",
			Frame:  fmt.Sprintf("tools.v1.ToolServer/ExecuteToolStream\n{\"toolName\":\"deploy_service\",\"arguments\":%q}", base64.StdEncoding.EncodeToString([]byte(`{"service":"api","env":"staging"}`))),
			Expect: "grpc-status: 0"},
		frameTemplate{Name: "ExecuteTool with metadata", Target: "grpc",
			Frame:  fmt.Sprintf("tools.v1.ToolServer/ExecuteTool\nauthorization: Bearer reader\nx-request-id: console-1\n{\"toolName\":\"word_count\",\"arguments\":%q}", base64.StdEncoding.EncodeToString([]byte(`{"text":"read the wire"}`))),
			Expect: "authorization"},
		frameTemplate{Name: "deploy_service with a 1 ms deadline (DEADLINE_EXCEEDED)", Target: "grpc",
			Frame:  fmt.Sprintf("tools.v1.ToolServer/ExecuteTool\ngrpc-timeout: 1m\n{\"toolName\":\"deploy_service\",\"arguments\":%q}", base64.StdEncoding.EncodeToString([]byte(`{"service":"api","env":"staging"}`))),
			Expect: "DEADLINE_EXCEEDED"},
		frameTemplate{Name: "unknown tool (NOT_FOUND)", Target: "grpc",
			Frame: "tools.v1.ToolServer/ExecuteTool\n{\"toolName\":\"nope\"}", Expect: "grpc-status: 5"},
	)
}

// The MCP templates, the same messages over both transports.
var mcpMessages = []struct{ name, body, expect string }{
	{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"console","version":"1"}}}`, `"protocolVersion":"2025-11-25"`},
	{"notifications/initialized", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ``},
	{"tools/list", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, `"inputSchema"`},
	{"tools/call word_count", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`, `"words":3`},
	{"tools/call with bad arguments (a tool error)", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"word_count","arguments":{"txt":"read the wire"}}}`, `"isError":true`},
	{"tools/call an unknown tool (a protocol error)", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, `-32602`},
	{"resources/list", `{"jsonrpc":"2.0","id":6,"method":"resources/list"}`, `"resources"`},
	{"prompts/list", `{"jsonrpc":"2.0","id":7,"method":"prompts/list"}`, `"prompts"`},
	{"ping", `{"jsonrpc":"2.0","id":8,"method":"ping"}`, `"result":{}`},
	{"logging/setLevel", `{"jsonrpc":"2.0","id":9,"method":"logging/setLevel","params":{"level":"debug"}}`, `"id":9`},
	{"unknown method", `{"jsonrpc":"2.0","id":10,"method":"tools/nope"}`, `-32601`},
	{"deploy to production (the server asks you first)", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"deploy_service","arguments":{"service":"api","env":"production"}}}`, `elicitation/create`},
}

func mcpStdioTemplates() []frameTemplate {
	var ts []frameTemplate
	for _, m := range mcpMessages {
		ts = append(ts, frameTemplate{Name: m.name, Target: "mcp-stdio", Frame: m.body, Expect: m.expect})
	}
	return append(ts, frameTemplate{Name: "not JSON (parse error)", Target: "mcp-stdio", Frame: `{"jsonrpc":"2.0","id":12,`, Expect: `-32700`})
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
		ts = append(ts, frameTemplate{Name: m.name, Target: "mcp-http", Frame: httpRequest("POST", "/mcp", headers(i > 0), m.body), Expect: expect})
	}
	return append(ts,
		frameTemplate{Name: "GET: the server's own stream", Target: "mcp-http", Frame: httpRequest("GET", "/mcp", []string{"Accept: text/event-stream", "Mcp-Session-Id: {{session}}"}, ""), Expect: "text/event-stream"},
		frameTemplate{Name: "DELETE: end the session", Target: "mcp-http", Frame: httpRequest("DELETE", "/mcp", []string{"Mcp-Session-Id: {{session}}"}, ""), Expect: "204 No Content"},
		frameTemplate{Name: "no session (400)", Target: "mcp-http", Frame: httpRequest("POST", "/mcp", headers(false), `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), Expect: "400"},
	)
}

func a2aTemplates() []frameTemplate {
	post := func(body string) string {
		return httpRequest("POST", "/", []string{"A2A-Version: 1.0", "Content-Type: application/json"}, body)
	}
	msg := func(id int, method, text, extra string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"message":{"messageId":"m%d","role":"ROLE_USER","parts":[{"text":%q}]%s}}}`, id, method, id, text, extra)
	}
	return []frameTemplate{
		{Name: "GET the agent card", Target: "a2a", Frame: httpRequest("GET", "/.well-known/agent-card.json", nil, ""), Expect: `"skills"`},
		{Name: "SendMessage count", Target: "a2a", Frame: post(msg(1, "SendMessage", "count read the wire", "")), Expect: "TASK_STATE_COMPLETED"},
		{Name: "SendMessage deploy (asks which environment)", Target: "a2a", Frame: post(msg(2, "SendMessage", "deploy api-gateway", "")), Expect: "TASK_STATE_INPUT_REQUIRED"},
		{Name: "SendStreamingMessage: answer the task", Target: "a2a", Frame: post(msg(3, "SendStreamingMessage", "staging", `,"taskId":"{{task}}"`)), Expect: "TASK_STATE_COMPLETED"},
		{Name: "GetTask", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":4,"method":"GetTask","params":{"id":"{{task}}"}}`), Expect: "{{task}}"},
		{Name: "ListTasks", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":5,"method":"ListTasks","params":{}}`), Expect: `"tasks"`},
		{Name: "CancelTask a finished task (-32002)", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":6,"method":"CancelTask","params":{"id":"{{task}}"}}`), Expect: "-32002"},
		{Name: "SubscribeToTask a finished task (-32004)", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":7,"method":"SubscribeToTask","params":{"id":"{{task}}"}}`), Expect: "-32004"},
		{Name: "GetTask unknown (-32001)", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":8,"method":"GetTask","params":{"id":"no-such-task"}}`), Expect: "-32001"},
		{Name: "0.3: message/send", Target: "a2a", Frame: httpRequest("POST", "/", []string{"Content-Type: application/json"},
			`{"jsonrpc":"2.0","id":9,"method":"message/send","params":{"message":{"kind":"message","messageId":"m9","role":"user","parts":[{"kind":"text","text":"count read the wire"}]}}}`), Expect: `"completed"`},
		{Name: "wrong revision's method (-32601)", Target: "a2a", Frame: post(`{"jsonrpc":"2.0","id":10,"method":"message/send","params":{}}`), Expect: "-32601"},
	}
}
