package main

import (
	"io"
	"log"
	"os"
	"strings"
)

// Example is the whole session: four messages in, three answers out,
// since notifications/initialized is not answered. Then a tool error and
// a protocol error, side by side.
func Example() {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"by-hand","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"word_count","arguments":{}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}
`)
	s := &server{log: log.New(io.Discard, "", 0)}
	s.serve(in, os.Stdout)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"mcp-server","version":"1.0.0"}}}
	// {"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"word_count","description":"Count the words (whitespace-separated) and characters (Unicode code points) in a text.","inputSchema":{"type":"object","properties":{"text":{"type":"string","description":"The text to count."}},"required":["text"],"additionalProperties":false},"outputSchema":{"type":"object","properties":{"words":{"type":"integer","minimum":0},"chars":{"type":"integer","minimum":0}},"required":["words","chars"],"additionalProperties":false}}]}}
	// {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13}}}
	// {"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"word_count: invalid arguments: \"text\" is required and must be a string"}],"isError":true}}
	// {"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid params: unknown tool \"nope\"; this server has: word_count"}}
}
