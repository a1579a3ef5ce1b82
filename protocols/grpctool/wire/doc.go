// Package wire makes one gRPC call and shows what crossed the wire: every
// HTTP/2 frame both ways, the headers inside them, and each gRPC message
// byte by byte.
//
// Nothing is re-encoded for display. The bytes are recorded on the
// connection beneath grpc-go's HTTP/2 transport while a real call runs,
// and afterwards parsed: frames, then header blocks, then messages, then
// the fields of each message.
//
// # A call on HTTP/2
//
// A gRPC call is an HTTP/2 POST to the path /package.Service/Method, on a
// stream of its own. From testdata/word_count.txtar (-> is the client,
// <- the server; the digits of the port, the timeout and the version vary,
// so the transcript replaces them):
//
//	-> HEADERS stream=1 len=N END_HEADERS
//	    :method: POST
//	    :scheme: http
//	    :path: /tools.v1.ToolServer/ExecuteTool
//	    :authority: 127.0.0.1:PORT
//	    content-type: application/grpc
//	    user-agent: grpc-go/VERSION
//	    te: trailers
//	    grpc-timeout: TIMEOUT
//	    authorization: Bearer s3cret
//	-> DATA stream=1 len=43 END_STREAM
//	    message 1: 00 00 00 00 26 = not compressed, 38 bytes
//	      0a 0a 77 6f 72 64 5f 63 6f 75 6e 74      field 1 tool_name (len) = "word_count"
//	      1a 18 7b 22 74 65 78 74 22 3a 22 72 ...  field 3 arguments (len) = {"text":"read the wire"}
//	      as JSON: {"toolName":"word_count","arguments":"eyJ0ZXh0IjoicmVhZCB0aGUgd2lyZSJ9"}
//	<- HEADERS stream=1 len=14 END_HEADERS
//	    :status: 200
//	    content-type: application/grpc
//	<- DATA stream=1 len=29
//	    message 1: 00 00 00 00 18 = not compressed, 24 bytes
//	      0a 16 7b 22 77 6f 72 64 73 22 3a 33 ...  field 1 result (len) = {"words":3,"chars":13}
//	      as JSON: {"result":"eyJ3b3JkcyI6MywiY2hhcnMiOjEzfQ=="}
//	<- HEADERS stream=1 len=24 END_STREAM END_HEADERS
//	    grpc-status: 0
//	    grpc-message:
//
// The request headers say which method (:path), that the body is gRPC
// (content-type), that the client understands trailers (te; a proxy that
// would drop them must refuse the call instead), and how long the client
// will wait (grpc-timeout, so that the server can stop working when the
// client has given up). Metadata, such as authorization, are ordinary
// headers after those. The client's DATA frame carries END_STREAM: a unary
// call has nothing more to send.
//
// # The 5-byte prefix
//
// HTTP/2 frames a stream into DATA frames, but those boundaries are not
// the message boundaries: a big message spans frames, and small ones may
// share one. So gRPC frames its messages itself. Each starts with one
// byte saying whether it is compressed, then its length as four bytes,
// big-endian: 00 00 00 00 26 is an uncompressed message of 0x26 = 38
// bytes. Then comes the Protobuf encoding, where each field is a tag
// (field number << 3 | wire type: 0x0a is field 1, LEN) and a value.
// Names are not on the wire; only the .proto knows that field 1 is
// tool_name, which is why a client without the .proto asks the server's
// reflection service for it.
//
// # Trailers and trailers-only
//
// The outcome of a call comes last, in trailers: a second HEADERS frame
// that ends the stream, with grpc-status (0 is OK) and grpc-message
// (percent-encoded), and sometimes grpc-status-details-bin, a
// google.rpc.Status in base64. The HTTP status is 200 even for errors:
// it says only that the HTTP exchange worked.
//
// A call that fails before any answer is sent needs no separate headers,
// so the server sends a single HEADERS frame with END_STREAM that holds
// everything. From testdata/unauthenticated.txtar:
//
//	<- HEADERS stream=1 len=92 END_STREAM END_HEADERS
//	    :status: 200
//	    content-type: application/grpc
//	    grpc-status: 16
//	    grpc-message: missing "authorization" metadata; send "authorization: Bearer <token>"
//
// A call that runs out of time usually ends with no status on the wire at
// all. When the deadline passes, the client resets the stream
// (RST_STREAM with CANCEL) and grpc-go's server, which started the same
// clock from grpc-timeout, does the same; DEADLINE_EXCEEDED is what the
// client concludes on its own. So Exchange.Code comes from the trailers
// when there are some, and from the client otherwise.
//
// # The connection around the call
//
// Frames on stream 0 belong to the connection, not to the call. The
// client opens with a 24-byte preface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
// and each side sends SETTINGS and acknowledges the other's; grpc-go's
// client opens no stream before the server's SETTINGS have arrived. When
// DATA arrives and no measurement is under way, grpc-go sends a PING and
// times the answer, to estimate how much the link holds and size its
// flow-control windows to match; just before each such PING it sends a
// WINDOW_UPDATE returning the bytes received so far, so that a proxy does
// not take the PINGs for abuse. Closing, the client says GOAWAY. These
// interleave with the call in whatever order the timing makes, so
// Exchange.Frames keeps the order in which the bytes were seen, and the
// golden transcripts keep only the call's stream, whose order is fixed.
//
// # Limits
//
// The server may be anyone's, so every step reads within a limit and says
// so when it stops, instead of failing: a capture keeps at most 8 MiB
// (maxRecorded); reflection asks for at most 1,000 files
// (maxReflectedFiles); a frame whose header announces more bytes than arrived
// is shown as UNREADABLE, cut short; a header block decodes to at most
// 1 MiB of names and values, counted as SETTINGS_MAX_HEADER_LIST_SIZE
// counts them (maxHeaderList), and a block HPACK cannot read leaves the
// blocks after it unreadable too, since each refers to what the ones
// before it sent; a compressed message inflates to at most 16 MiB
// (maxDecompressed); and the field dump follows nested messages 100
// levels deep (maxFieldDepth, the default of Protobuf's C++ and Java
// parsers) and splits out 10,000 fields (maxFields). Past a limit the
// bytes are shown as they are, in hex, with a note saying which limit it
// was: a message nested 700,000 levels deep, which a decoder recursing
// once per level would overflow the stack on, shows 100 levels and then
// "nested deeper than 100 levels; shown as bytes".
//
// # Where to start reading
//
// testdata/*.txtar shows whole calls: success, trailers-only errors, a
// server stream, a service reached through reflection. Then exchange.go
// (what a capture holds), capture.go (one call from start to end),
// recorder.go (recording under TLS), frames.go (HTTP/2 frames and HPACK),
// messages.go (the 5-byte prefix), fields.go (Protobuf's wire format),
// reflection.go (asking the server for its .proto) and format.go.
package wire
