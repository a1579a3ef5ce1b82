// Package frames grades the frame exercises: the ones done by typing
// messages in the playground's wire console. A check reads the session's
// transcript, the events the playground recorded as the messages crossed
// the wire, and says for each step of the exercise whether it shows.
//
// # Reading a transcript
//
// A check first turns the flat list of events back into exchanges, the
// way each protocol pairs a request with its answer (transcript.go,
// jsonrpc.go):
//
//   - stdio: a server answers every non-blank line once, in order, so
//     the nth line that comes back answers the nth line sent; a restart
//     (the "exit" note) drops the lines still waiting.
//   - JSON-RPC (MCP over stdio): answers are matched by id, and a
//     notification has none. A session is one run of the server.
//   - HTTP (http-auth, mcp-http, a2a): every event of an exchange carries
//     the id of the frame that started it. An MCP session over HTTP is
//     the Mcp-Session-Id that the answer to initialize gave.
//   - gRPC: the first line of the decoded exchange gives the call's
//     status as the client concluded it, which is how a deadline shows:
//     the client resets the stream and the server often says nothing.
//
// Steps are judged in order: each one looks only at what came after the
// step before it. A step not done says what the transcript shows instead,
// in English and in Russian, the way a tutor looking over the learner's
// shoulder would.
//
// # Tests
//
// testdata/<id>/pass.jsonl and fail.jsonl are transcripts recorded from
// the reference servers through the playground's hub, one event per
// line exactly as the hub sent it: the exercise's solution, and a
// learner's classic mistake. The playground's TestFrameExercises sends
// the same frames on every run and checks the live transcript too;
// `go test ./playground -run FrameExercises -record` rewrites the files.
package frames
