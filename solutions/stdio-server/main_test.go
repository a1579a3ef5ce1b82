package main

import (
	"io"
	"log"
	"os"
	"strings"
)

// Example serves four request lines: a call with an id, a line that is
// not JSON, a tool that does not exist, and a call without an id. Every
// line gets exactly one answer, and the server goes on after each error.
func Example() {
	in := strings.NewReader(`{"id":7,"name":"word_count","args":{"text":"read the wire"}}
{not json
{"id":"b","name":"nope","args":{}}
{"name":"word_count","args":{"text":"привет, мир"}}
`)
	serve(in, os.Stdout, log.New(io.Discard, "", 0))
	// Output:
	// {"id":7,"result":{"words":3,"chars":13}}
	// {"error":{"code":"parse_error","message":"the line is not valid JSON"}}
	// {"id":"b","error":{"code":"unknown_tool","message":"unknown tool \"nope\"; this server has: word_count"}}
	// {"result":{"words":2,"chars":11}}
}
