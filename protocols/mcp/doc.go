// Package mcp is the Model Context Protocol: the protocol an agent's host
// uses to find and call tools. Its messages are JSON-RPC 2.0 (package
// jsonrpc), over two transports: stdio, one message per line, and
// Streamable HTTP, one POST per message.
//
// MCP has two eras, and this package speaks both at once (era.go):
// revision 2025-11-25 and those before it open a session with initialize;
// revision 2026-07-28 has no session, and every request says who is
// asking and what it can do. The server picks the era from what the
// client sends, message by message.
//
// # One request, no session (2026-07-28)
//
// From testdata/modern.txtar: the revision and the client's capabilities
// travel in every request's _meta, so one message is enough:
//
//	-> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"},
//	    "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
//	<- {"jsonrpc":"2.0","id":2,"result":{"content":[...],"structuredContent":{"words":3,"chars":13},
//	    "resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"wirelab",...}}}}
//
// A server that keeps nothing between requests can run as many copies
// behind a load balancer as it likes: that is why the session went.
// server/discover says which revisions a server speaks. A request whose
// _meta lacks a required key is -32602; a revision the server does not
// speak is -32022, with the ones it does in data.supported. When the
// server needs the user (a deploy to production), it cannot send a
// request of its own, as a 2025-11-25 server does: it answers
// "resultType":"input_required" with the question under a key and a
// signed requestState, and the client sends the same request again with
// the answer and the state (testdata/modern_input.txtar, modern.go,
// requeststate.go). Over HTTP the method and the tool's name are repeated
// in headers, Mcp-Method and Mcp-Name, for gateways that route without
// reading JSON; a header that disagrees with the body is 400 with -32020
// (testdata/http/modern.txtar, httpmodern.go). A slow call (a deploy)
// from a client that declares the tasks extension is answered at once
// with a task, a handle the client polls with tasks/get until the result
// is there, answering the task's questions with tasks/update (tasks.go,
// testdata/tasks/), or hears change by change on a subscriptions/listen
// stream that names it (subscriptions.go).
//
// # A whole session (2025-11-25)
//
// Four messages from the client, three answers. From
// testdata/handshake.txtar (tool list shortened):
//
//	-> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"by-hand","version":"1"}}}
//	<- {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false}},"serverInfo":{...}}}
//	-> {"jsonrpc":"2.0","method":"notifications/initialized"}
//	-> {"jsonrpc":"2.0","id":2,"method":"tools/list"}
//	<- {"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"word_count","description":"...","inputSchema":{...},"outputSchema":{...}},...]}}
//	-> {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}
//	<- {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13}}}
//
// initialize agrees on a revision: the server echoes the client's if it
// speaks it, and otherwise offers its latest; the client then decides
// whether to go on. notifications/initialized has no id, so nothing
// answers it. A tool's output comes twice: as content, text a model
// reads, and as structuredContent, JSON a program reads, which must match
// the tool's outputSchema.
//
// # Two kinds of error
//
// A protocol error is a JSON-RPC error in place of a result: an unknown
// method (-32601), an unknown tool or params of the wrong shape (-32602),
// a request before initialize. It means the client has a bug. A tool
// error is a normal result with isError true: the tool ran and failed, or
// refused its arguments, and the text says why, for the model to read and
// perhaps correct. From testdata/tool_errors.txtar:
//
//	<- {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"weather failed: upstream ..."}],"isError":true}}
//	<- {"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"invalid params: unknown tool \"nope\"; ..."}}
//
// A client that reads result.content without checking isError feeds the
// error text to the model as if the tool had worked.
//
// # Beyond tools
//
// initialize's answer lists what else the server offers. Resources are
// things to read, named by URI (wirelab://notes/mcp), and a client may
// subscribe to one and hear notifications/resources/updated when it
// changes. Prompts are messages for the user to pick and fill in.
// completion/complete suggests argument values as the user types.
// logging/setLevel asks for notifications/message. And the server may ask
// the client, too: before a deploy to production it sends
// elicitation/create, a request with its own id, and waits for the
// user's answer (testdata/elicitation.txtar).
//
// # Streamable HTTP
//
// Over HTTP the same messages travel in POST bodies to one endpoint,
// /mcp. The answer to initialize carries a header the client repeats on
// every later request:
//
//	POST /mcp HTTP/1.1
//	Accept: application/json, text/event-stream
//	Content-Type: application/json
//
//	{"jsonrpc":"2.0","id":1,"method":"initialize","params":{...}}
//
//	HTTP/1.1 200 OK
//	Content-Type: application/json
//	Mcp-Session-Id: 3f9c0a...
//
//	{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25",...}}
//
// A notification or a response gets 202 and no body. A request gets
// either one JSON body or, when the server has something to say before
// the answer (progress, a log message, a question for the user), an SSE
// stream: "data: {...}" events, the last of which is the answer. A GET
// opens a stream for messages that belong to no request; DELETE ends the
// session. Requests without the session id get 400, with an unknown one
// 404; a web page from another site gets 403. The server ends sessions
// too, which the spec allows: one idle for DefaultSessionIdle, and, when
// DefaultMaxSessions are open, the idle one unused longest to make room
// for a new one; the next request in it gets 404, with the reason, and
// the client starts over with initialize. With tokens, a request
// without one gets 401 and a WWW-Authenticate header that names the
// document (RFC 9728) saying how to get one. Tokens are either static
// secrets handed out beforehand (that document then names no
// authorization server: auth.go says why) or OAuth access tokens, which
// the server checks itself against the keys of the authorization server
// it trusts, refusing with a reason a person can act on: expired, issued
// for another resource, by another issuer, badly signed (authverify.go).
// A token says who calls as well as what it may do, and what a caller
// opens is its own: a session, or a task of the tasks extension, answers
// only the caller that opened it. Its id with anyone else's token gets
// what a made-up id gets, 404 for a session and -32602 for a task, so a
// leaked id opens nothing.
//
// # Reading order
//
// wire.go and era.go (the messages of both eras); server.go (the session:
// lifecycle, dispatch, cancellation); modern.go (a request without a
// session), requeststate.go (its signed state), subscriptions.go
// (subscriptions/listen, the newer way to hear about changes) and tasks.go
// (the tasks extension: work that outlives its request);
// exchange.go (what the server says while a request runs: progress,
// logs, questions for the client, asked as requests or as
// input_required); tools.go, resources.go, prompts.go (the features);
// stdio.go (one message per line); http.go, http_sessions.go,
// httpmodern.go, sse.go, resume.go, auth.go and authverify.go
// (Streamable HTTP). The other side: client.go and
// clientmodern.go (the two eras, and telling which a server speaks),
// clientfeatures.go (the calls), clientinput.go (the server's questions),
// clientstdio.go, clienthttp.go and clientheaders.go (the transports).
// conformance.go, conformance_modern.go and conformance_tasks.go hold the
// official conformance suite's fixtures and teach nothing.
package mcp
