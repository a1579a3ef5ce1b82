// Package grpctool serves the tool catalogue over gRPC, and calls it.
//
// gRPC is the production protocol of the course: a strict contract in
// Protobuf (tools/v1/tools.proto), code generated from it for both sides,
// HTTP/2 underneath, deadlines that travel with every call, metadata for
// authentication, and standard services for health and discovery.
//
// # The contract
//
// tools.v1.ToolServer has three methods: ListTools, ExecuteTool, and
// ExecuteToolStream, which streams progress reports from a slow tool and
// then its result. Arguments and results are JSON inside bytes fields, so
// one contract serves every tool; each tool's JSON Schema travels in its
// ToolDefinition. The Go types in tools/v1 are generated and committed;
// generate.go says how to regenerate them.
//
// # Outcomes
//
// A call ends with a status. Mistakes the caller must fix are statuses
// with the code gRPC defines for them, and a message a person can act on:
//
//	NOT_FOUND            unknown tool
//	INVALID_ARGUMENT     arguments that break the tool's schema, or are not JSON;
//	                     a google.rpc.BadRequest detail names each field
//	FAILED_PRECONDITION  a version of the tool the server does not serve;
//	                     the message and a google.rpc.ErrorInfo list those it does
//	UNAUTHENTICATED      no token, or one the server does not know
//	PERMISSION_DENIED    a known token without the scope the call needs
//	DEADLINE_EXCEEDED    the caller's deadline passed; the server stopped the tool
//	CANCELLED            the caller went away; the server stopped the tool
//	RESOURCE_EXHAUSTED   a request bigger than DefaultMaxMessageSize
//	UNIMPLEMENTED        a method the server does not have
//	INTERNAL             a request message that is not valid Protobuf: grpc-go
//	                     decodes it before any handler or interceptor runs, and
//	                     chooses this code itself
//
// A tool that ran and failed (its upstream is down) is different: the call
// worked, so it ends OK and ExecuteToolResponse.error says what broke.
// Keeping the two apart lets a client retry or fix protocol mistakes and
// pass tool failures on to whoever asked for the tool.
//
// # Limits
//
// A peer that holds resources without using them is cut off:
//
//	DefaultHandshakeTimeout   10 s to finish TLS and HTTP/2's preface
//	DefaultMaxConnectionIdle  5 min with no call open, then GOAWAY
//	DefaultRequestTimeout     30 s for a call's request message to arrive after
//	                          its headers; then the call ends CANCELLED
//	maxConcurrentStreams      100 calls open at once on one connection; the
//	                          next stream is refused (REFUSED_STREAM), and
//	                          grpc-go clients queue instead of sending it
//	DefaultMaxMessageSize     1 MiB per request message (RESOURCE_EXHAUSTED)
//
// The request timeout covers only the arrival of the request: a deploy
// that streams progress for minutes is not cut short by it (limits.go).
//
// # Seeing it work
//
// With the server running (wirelab server grpc), grpcurl needs no .proto
// file, because the server answers reflection:
//
//	$ grpcurl -plaintext 127.0.0.1:8020 list
//	grpc.health.v1.Health
//	grpc.reflection.v1.ServerReflection
//	grpc.reflection.v1alpha.ServerReflection
//	tools.v1.ToolServer
//
// The frames of a call, byte by byte, are what package wire shows
// (wirelab client grpc --wire prints them).
//
// # Security
//
// Tokens travel as "authorization: Bearer SECRET" metadata, checked by an
// interceptor before any handler runs (auth.go). Without TLS they cross
// the network in the clear, which is why the server can serve TLS and
// mutual TLS with certificates from a throwaway authority made at start
// (certs.go). Browsers cannot speak this protocol directly (they cannot
// read HTTP/2 trailers), so the Host and Origin checks the HTTP servers
// need against DNS rebinding do not apply here.
//
// # Reading order
//
// tools/v1/tools.proto (the contract), server.go (the service and what is
// registered beside it), limits.go, auth.go, status.go (errors in gRPC's
// terms), client.go, certs.go.
package grpctool
