package main

import (
	"os"
	"strings"
)

// Example asks for the same count five ways: at the current version, with
// no version (the current one too), at the two compatible versions (the
// 1.x shape), and at "1", which is not "1.0" and is refused with the list
// of versions served.
func Example() {
	in := strings.NewReader(`{"id":1,"name":"word_count","version":"2.0","args":{"text":"read\nthe wire"}}
{"id":2,"name":"word_count","args":{"text":"read\nthe wire"}}
{"id":3,"name":"word_count","version":"1.1","args":{"text":"read\nthe wire"}}
{"id":4,"name":"word_count","version":"1.0","args":{"text":"read\nthe wire"}}
{"id":5,"name":"word_count","version":"1","args":{"text":"read\nthe wire"}}
`)
	serve(in, os.Stdout)
	// Output:
	// {"id":1,"result":{"words":3,"characters":13,"lines":2}}
	// {"id":2,"result":{"words":3,"characters":13,"lines":2}}
	// {"id":3,"result":{"words":3,"chars":13}}
	// {"id":4,"result":{"words":3,"chars":13}}
	// {"id":5,"error":{"code":"incompatible_version","message":"word_count: version \"1\" is not served; served versions: 2.0, 1.1, 1.0","versions":["2.0","1.1","1.0"]}}
}
