// Package jsonrpc is JSON-RPC 2.0, the message format under MCP and A2A:
// the messages, their rules, and the answers the specification gives to
// messages that break them. It knows nothing of transports: a message
// arrives as bytes (a line on stdin, an HTTP body, an SSE event) and
// leaves as bytes.
//
// # Three shapes
//
// A request names a method and carries an id; the answer is a response
// with the same id and exactly one of result and error:
//
//	-> {"jsonrpc":"2.0","id":1,"method":"tools/list"}
//	<- {"jsonrpc":"2.0","id":1,"result":{"tools":[...]}}
//
// A notification is a request without an id. Nobody answers it, not even
// with an error, because there is no id to answer to:
//
//	-> {"jsonrpc":"2.0","method":"notifications/initialized"}
//
// # Ids
//
// An id is a string or an integer, chosen by the sender, and the answer
// must carry it back exactly: 7 and "7" are different ids, and 0 is a
// valid one. So [ID] keeps the id's JSON text as it arrived. MCP forbids
// null ids in requests; the only response with "id": null is an error
// about a message whose id could not be read.
//
// # Errors
//
// The specification reserves five codes, and [Decode] answers broken
// messages with the first two:
//
//	-32700 parse error       the bytes are not JSON
//	-32600 invalid request   JSON, but not a JSON-RPC message
//	-32601 method not found  the receiver has no such method
//	-32602 invalid params    the method exists; its params are wrong
//	-32603 internal error    the receiver failed
//
// Protocols built on JSON-RPC add their own codes outside that range (MCP's
// -32002 resource not found, for example).
//
// JSON nested more than 10,000 levels deep is a -32700 parse error that
// says so: the limit of encoding/json's parser, which checks the bytes
// without recursing, so that no depth can exhaust the stack.
//
// # No batches
//
// JSON-RPC lets a client send an array of messages at once. MCP allowed
// that in revision 2025-03-26 and removed it in 2025-06-18, and A2A never
// had it, so Decode refuses an array with one -32600 error that says so.
//
// # Reading order
//
// message.go (the types and how they look on the wire), decode.go (the
// rules, checked in order), errors.go (the codes), params.go (what is
// wrong with a request's params, in the wire's words).
package jsonrpc
