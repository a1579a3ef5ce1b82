// Package stdio is the simplest tool protocol: the client starts the tool
// server as a child process and they talk over its stdin and stdout, one
// JSON object per line.
//
// # The wire
//
// The client writes a request line; the server answers with one line.
// From testdata/word_count.txtar and testdata/ids.txtar:
//
//	-> {"name":"word_count","args":{"text":"read the wire"}}
//	<- {"result":{"words":3,"chars":13}}
//	-> {"id":"call-7","name":"word_count","args":{"text":"a string id"}}
//	<- {"id":"call-7","result":{"words":3,"chars":11}}
//
// A request has the lowercase keys id (optional, echoed exactly), name,
// args and version (optional). A response has the id and exactly one of
// result and error. An error has a code, a message, and for some codes the
// detail a client needs to fix its call (the broken fields, the versions
// served). From testdata/tool_errors.txtar:
//
//	-> {"id":5,"name":"weather","args":{"city":"Lisbon"}}
//	<- {"id":5,"error":{"code":"tool_failed","message":"weather failed: upstream ..."}}
//
// # Rules both sides keep
//
//   - One message per line. JSON written by encoding/json never contains a
//     raw newline, so the newline is a safe frame boundary.
//   - stdout carries only responses. A server that prints "starting..." on
//     stdout corrupts the stream; logs go to stderr, which the client can
//     show or discard.
//   - Every request line gets exactly one answer, even a line that is not
//     JSON or is too long (DefaultMaxLine, 1 MiB): a client must never wait
//     forever for a reply to a line the server dropped.
//   - EOF on stdin means the client is done: the server finishes the call
//     in progress and exits cleanly.
//
// There is no authentication: the server runs as the user who started it,
// with that user's rights, so every call is allowed. There is no discovery
// either: the client must know the tool names, or ask another protocol.
//
// # Reading order
//
// wire.go (the messages), lines.go (framing, and why not bufio.Scanner),
// server.go (the loop), client.go and process.go (one long-lived child,
// ids to match answers, and a shutdown that never leaves a process behind).
package stdio
