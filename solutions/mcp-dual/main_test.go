package main

import (
	"io"
	"log"
	"os"
	"strings"
)

// Example serves both eras in one process: a 2026-07-28 call with no
// initialize, the 2025-11-25 session, then 2026-07-28 requests again,
// refused for what their _meta lacks or asks for. The session changes
// nothing for them.
func Example() {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"},` + meta + `}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}
{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"by-hand","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}
{"jsonrpc":"2.0","id":5,"method":"server/discover","params":{` + meta + `}}
{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":8,"method":"ping","params":{` + meta + `}}
`)
	s := &server{log: log.New(io.Discard, "", 0)}
	s.serve(in, os.Stdout)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13},"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-dual","version":"1.0.0"}}}}
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: tools/call before initialize; a session starts with initialize, and a 2026-07-28 request carries params._meta"}}
	// {"jsonrpc":"2.0","id":3,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"mcp-dual","version":"1.0.0"}}}
	// {"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13}}}
	// {"jsonrpc":"2.0","id":5,"result":{"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26"],"capabilities":{"tools":{}},"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-dual","version":"1.0.0"}}}}
	// {"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"invalid params: a 2026-07-28 request declares the client's capabilities in params._meta[\"io.modelcontextprotocol/clientCapabilities\"], {} for none"}}
	// {"jsonrpc":"2.0","id":7,"error":{"code":-32022,"message":"unsupported protocol version \"2099-01-01\": this server serves requests with _meta in 2026-07-28, and opens a session for the older revisions with initialize","data":{"supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26"],"requested":"2099-01-01"}}}
	// {"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"method \"ping\" not found in revision 2026-07-28"}}
}
