// Package mcp is the Model Context Protocol, revision 2025-11-25: the
// protocol an agent's host uses to find and call tools. Its messages are
// JSON-RPC 2.0 (package jsonrpc); this package is the session on top of
// them and the stdio transport, one message per line.
//
// # A whole session
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
// # Reading order
//
// wire.go (the messages), server.go (the session: lifecycle, tools,
// progress, cancellation), stdio.go (one message per line).
package mcp
