// Package a2a is the Agent2Agent protocol: how one agent hands work to
// another. A caller reads the other agent's Agent Card to learn what it
// can do and where to reach it, then sends it messages; the work becomes
// a task that moves through states (submitted, working, input-required,
// completed, ...) and produces artifacts. The messages are JSON-RPC 2.0
// (package jsonrpc) over HTTP, and a stream of task events is SSE.
//
// Two revisions are in use and they are not compatible: 1.0 (2026-03),
// whose JSON is the ProtoJSON form of the specification's a2a.proto
// (wire.go), and 0.3, which many tools still speak (v03.go). A request
// says which it speaks in the A2A-Version header; none means 0.3.
package a2a
