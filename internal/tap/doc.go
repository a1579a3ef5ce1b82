// Package tap sits between a real host and a real server, relays every
// byte unchanged, and records what passes.
//
// Three relays: Stdio starts the server as a child in a process group of
// its own and relays the host's stdin, stdout and stderr as the bytes
// come (a partial line is passed on at once; a line of any length passes
// whole), forwards signals, and returns the server's exit status. Proxy
// is a reverse proxy for an HTTP server (Streamable HTTP MCP, A2A, plain
// JSON): it changes only hop-by-hop headers and, for a server on another
// machine, Host, and passes event streams event by event. GRPC relays
// HTTP/2 connections byte for byte (h2c from the host; h2c or TLS to the
// upstream) and records each frame.
//
// # The recording
//
// A Recorder numbers events, keeps the newest in memory (bounded),
// writes each to a file as it happens and hands it to live subscribers,
// which are dropped, never waited for, when they fall behind. A file is
// JSON Lines, one Event per line; its first line is the start event:
//
//	{"seq":1,"t":"2026-11-25T21:18:37.649267186Z","kind":"start","command":["wirelab","server","mcp"],"format":"wirelab-tap/1"}
//	{"seq":2,"t":"...","dir":"out","kind":"line","data":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",...}","size":146}
//	{"seq":3,"t":"...","dir":"in","kind":"line","data":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{...}}","size":260}
//	{"seq":9,"t":"...","kind":"exit","data":"exit status 0","exitCode":0}
//
// Members: seq (from 1); t (RFC 3339, nanoseconds); dir, from the host's
// side: "out" host to server (stdin, a request), "in" server to host
// (stdout, a response), "err" the server's stderr; kind: start, line,
// http-request, http-response, http-body, sse-event, http-end, h2-frame,
// note (the tap saw something break), exit. data holds the bytes as text without
// the line's newline, or base64 holds them when they are not UTF-8; size
// is the real length, and truncated marks data cut at the bound
// (DefaultMaxData); noEOL marks a last line that had no newline. HTTP
// events carry exchange (pairing a request with its answer), method,
// url, status and header; a request's body is its data, an SSE event's
// data is the event as it passed ("id: ...\ndata: ...").
//
// An h2-frame is one HTTP/2 frame of a gRPC connection, its 9-byte header
// and payload always as base64 (the client's 24-byte preface is one too,
// frame "PREFACE"); conn numbers the host's connection, frame and stream
// are read from the header, for a reader of the file:
//
//	{"seq":7,"t":"...","dir":"out","kind":"h2-frame","base64":"AABfAQQAAAAB...","size":104,"conn":1,"frame":"HEADERS","stream":1}
//
// A connection's frames one way, joined in order, are the bytes that side
// sent; protocols/grpctool/wire.ReadConnection reads them back into calls.
// The start event's upstream is grpc://host:port, or grpcs:// over TLS.
// A grpc-descriptors event holds the upstream's descriptors, asked for by
// reflection, to decode messages by name (KindDescriptors). A secret in
// the metadata is masked inside its header block, each character a "*"
// (grpcmask.go), so that HPACK's table reads back in step. A block the
// masker cannot read (HPACK it cannot follow, a frame longer than
// MaxData, a block past 1 MiB) may hold a secret it cannot find: it and
// every later block of that direction of the connection are left out,
// and a note says so, "the joined frames" then lacking them.
//
// Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key and
// Api-Key values are masked ("Bearer ***") unless KeepSecrets is set.
// Session ids are not secrets and are kept; replay maps them. Tokens
// inside bodies are not guessed at.
//
// # Replay
//
// ReplayStdio and ReplayHTTP send the host's side of a recording to a
// fresh server, waiting for answers as the recording did, and compare
// the answers with the recorded ones, normalised: timestamps, session
// ids, requestState values and the ids of the server's own requests
// become placeholders. ReplayGRPC makes a gRPC recording's calls again
// and compares status, trailers and response messages field by field.
// Each Difference names the recorded event.
package tap
