// Package tools is the catalogue that every wirelab protocol serves.
//
// A tool server does two things, whatever protocol carries them: it lists
// its tools, and it executes one by name with arguments. This package is
// that idea with no protocol attached. The stdio, HTTP, gRPC, MCP and A2A
// packages each translate their own bytes into a [Request], hand it to
// [Catalogue.Call], and translate the answer back. Reading this package
// first explains what every other one is carrying.
//
// # Definitions
//
// Each tool is described by a [Definition]: a name, a description, a JSON
// Schema for its arguments, a JSON Schema for its result, a version, and
// the older versions it is still compatible with. The schemas are what a
// client (or a language model) reads to learn how to call the tool.
//
//	word_count      {text}                 -> {words, chars}
//	search          {q, limit?}            -> {hits, total}
//	deploy_service  {service, env}         -> {service, env, status, url, steps}
//	weather         {city}                 -> always fails: its upstream is down
//
// # What Call checks, in order
//
//  1. The tool exists, else [CodeUnknownTool].
//  2. The requested version is the current one or listed as compatible,
//     else [CodeIncompatibleVersion], naming the versions that are served.
//     An empty version means "the current one".
//  3. The arguments satisfy the input schema, else [CodeInvalidArguments],
//     naming each field and the schema rule it broke. Validation uses a
//     JSON Schema library, not hand-written checks.
//  4. The caller holds the scopes the call needs, else [CodeForbidden].
//     Only deploy_service to production needs one: [ScopeDeployProduction].
//  5. The tool runs. If it fails, the failure is a [CodeToolFailed] error:
//     the call was well formed and the tool itself could not do the job.
//
// # Three kinds of failure
//
// Keep them apart; every protocol in the course does, in its own words.
//
//   - Transport failures are ordinary Go errors: a closed pipe, a refused
//     connection. The call may not have reached the server at all.
//   - Protocol errors say the request itself was wrong: unknown tool,
//     unserved version, missing permission. A client that sees one has a bug
//     or a configuration problem.
//   - Tool errors say the tool ran and failed ([CodeToolFailed]), or was
//     called with arguments it cannot accept ([CodeInvalidArguments]). They
//     are normal events that an agent should read and react to.
//     [Error.ToolError] tells which kind an [*Error] is.
//
// Cancellation is none of these: when the caller's context ends, Call
// returns the context's error (context.Canceled or
// context.DeadlineExceeded) and each protocol reports it its own way.
//
// # Permissions
//
// Network transports authenticate callers with bearer tokens, configured
// as "SECRET" (may list and call tools) or "SECRET:SCOPE,..." (may also do
// what the scopes allow); see [ParseToken]. The only scope today is
// [ScopeDeployProduction]. stdio has no tokens: the server runs as the user
// who started it, so every call is allowed.
package tools
