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
//
// # A conversation
//
// The card comes first (GET /.well-known/agent-card.json). This server
// lists one URL twice in supportedInterfaces, once per protocolVersion,
// and adds the url, protocolVersion and preferredTransport that 0.3
// clients read instead (card.go, v03card.go).
//
// Then a message, POSTed to that URL:
//
//	A2A-Version: 1.0
//
//	{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":
//	  {"messageId":"m1","role":"ROLE_USER","parts":[{"text":"deploy api-gateway"}]}}}
//
// The agent makes it a task and, because it needs to know where to
// deploy, stops at TASK_STATE_INPUT_REQUIRED with a question in the
// status message. The caller answers with a new message that carries the
// task's taskId; the task goes on. Sent with SendStreamingMessage, the
// answer comes back as Server-Sent Events: the task, then each status
// change and each artifact chunk, and the stream ends with the state that
// ends the task or waits for the caller (stream.go). testdata/ holds each
// of these exchanges byte for byte, in both revisions.
//
// # Tasks
//
// A task's state tells the caller what to do next. Submitted and working:
// wait (stream, or poll GetTask). Input-required and auth-required
// (interrupted): answer in the same task, with a token that allows more
// for auth-required. Completed, failed, canceled and rejected (terminal):
// nothing more will happen; a new request starts a new task, and the same
// contextId keeps it in the same conversation. A terminal task cannot be
// changed, canceled or subscribed to; each refusal has its own error code
// (errors.go). Tasks live in memory, so the store forgets: a task that
// waits for an answer longer than InterruptedTTL is canceled, and when
// the store is full the oldest finished task, then the oldest waiting
// one, makes room for a new one (store.go).
//
// Who may see a task is for each agent to decide. This one is for
// learning on one machine: a token decides what a caller may do (deploy
// to production or not), not which tasks it sees, so any caller with a
// valid token may read, list and cancel every task.
//
// Failure has two layers here, as in MCP. A task that failed (the
// weather service is down) is a successful answer whose task says
// TASK_STATE_FAILED; a request the protocol cannot serve (no such task, a
// malformed part) is a JSON-RPC error. Transport problems (a wrong
// Content-Type, a missing token, a body too large) are HTTP statuses.
//
// # Reading order
//
// wire.go (the 1.0 messages), agent.go (the skills, and the states they
// reach), tasks.go (sending, continuing, canceling), store.go (where
// tasks live, and how streams of one task stay in order), rpc.go and
// stream.go (the JSON-RPC binding), client.go, and last v03.go, the
// differences between the revisions.
package a2a
