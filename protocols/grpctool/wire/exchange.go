package wire

import (
	"encoding/json"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protowire"
)

// Exchange is one gRPC call as it crossed the wire: every HTTP/2 frame of
// its connection, and the call's headers, messages and status read back out
// of those frames. Nothing in it is re-encoded; every byte slice holds bytes
// that were sent.
type Exchange struct {
	// Method is the call's full path, as in the :path header:
	// "/tools.v1.ToolServer/ExecuteTool".
	Method string

	// StreamID is the HTTP/2 stream that carried the call. Frames on
	// stream 0 belong to the connection, not to the call.
	StreamID uint32

	// RequestHeaders are the HEADERS the client opened the stream with,
	// decoded from HPACK, in wire order: pseudo-headers (:method, :scheme,
	// :path, :authority) first, then content-type, user-agent, te,
	// grpc-timeout and the call's metadata.
	RequestHeaders []HeaderField

	// Requests are the gRPC messages the client sent, in order.
	Requests []Message

	// ResponseHeaders are the first HEADERS the server answered with
	// (:status, content-type, ...). Nil when the server answered
	// trailers-only.
	ResponseHeaders []HeaderField

	// Responses are the gRPC messages the server sent, in order.
	Responses []Message

	// Trailers are the HEADERS that ended the stream: grpc-status,
	// grpc-message, grpc-status-details-bin. Nil if none arrived, for
	// example when the client gave up at its deadline first.
	Trailers []HeaderField

	// TrailersOnly is true when the server answered with a single HEADERS
	// frame carrying END_STREAM, and so with no response headers and no
	// messages: the usual shape of an error. Trailers then holds :status
	// and content-type as well as grpc-status.
	TrailersOnly bool

	// Code is the call's status: grpc-status from the trailers, or, when no
	// trailers arrived, the status the client itself concluded (such as
	// DEADLINE_EXCEEDED or CANCELLED).
	Code codes.Code

	// StatusMessage is grpc-message, percent-decoded, or the client's own
	// message when no trailers arrived.
	StatusMessage string

	// Frames are every HTTP/2 frame of the call's connection, both ways,
	// in the order they crossed. The client's side opens with its 24-byte
	// connection preface, shown as a frame of type "PREFACE". On a
	// connection a Client reused (EarlierCalls > 0), they are the frames
	// since the previous call's capture ended: the preface and SETTINGS
	// are in the first call's.
	Frames []Frame

	// Opened is when the call's connection was opened.
	Opened time.Time

	// EarlierCalls is how many calls the connection carried before this
	// one: 0 for a new connection.
	EarlierCalls int
}

// HeaderField is one decoded header: a name and a value as HPACK carried
// them. Names are lowercase on HTTP/2.
type HeaderField struct {
	Name, Value string
}

// Message is one gRPC message: a 5-byte prefix, then the Protobuf bytes.
type Message struct {
	// Prefix is the 5-byte prefix exactly as sent: a compressed flag (0 or
	// 1), then the payload's length as a 4-byte big-endian number.
	Prefix []byte

	// Compressed is the prefix's flag: the payload is compressed with the
	// algorithm named in the grpc-encoding header.
	Compressed bool

	// Payload is the Protobuf encoding of the message, exactly as sent.
	Payload []byte

	// Fields is Payload decoded field by field, using the method's
	// descriptor for names and types. A compressed payload is inflated
	// first (gzip only), so then the fields' bytes are not the wire's.
	Fields []Field

	// JSON is the message as ProtoJSON, decoded through the descriptor.
	// Nil if the payload could not be decoded.
	JSON json.RawMessage
}

// Field is one field of a Protobuf message as it is encoded: a tag (the
// field number and wire type as one varint), then a value.
type Field struct {
	// Number is the field number from the tag.
	Number protowire.Number

	// Name is the field's name in the .proto file, or "" if the
	// descriptor does not know the number (an unknown field).
	Name string

	// WireType is the encoding's name for how the value is laid out:
	// "varint", "i64", "len", "sgroup", "egroup" or "i32".
	WireType string

	// Bytes is the whole field as on the wire: the tag, then the value
	// (for "len", the length varint and the bytes it counts).
	Bytes []byte

	// Value is the value written for a reader: a number, a quoted string,
	// an enum's name, bytes as text when they are JSON or printable text
	// and as hex otherwise. Empty for a nested message, whose fields are
	// in Fields.
	Value string

	// Fields holds a nested message's own fields, when the descriptor says
	// the field is a message.
	Fields []Field
}

// Frame is one HTTP/2 frame: a 9-byte header (length, type, flags, stream)
// and a payload.
type Frame struct {
	// Dir says who sent the frame.
	Dir Direction

	// Type is the frame type's name in RFC 9113: "DATA", "HEADERS",
	// "SETTINGS", "WINDOW_UPDATE", "PING", "RST_STREAM", "GOAWAY",
	// "CONTINUATION", ...; "PREFACE" for the client's connection preface,
	// which is not a frame but opens every HTTP/2 connection.
	Type string

	// StreamID is the stream the frame belongs to; 0 for the connection.
	StreamID uint32

	// Flags are the names of the flags set, such as END_STREAM,
	// END_HEADERS or ACK.
	Flags []string

	// Length is the payload's length from the frame header.
	Length int

	// Bytes is the whole frame as on the wire: the 9-byte header, then the
	// payload.
	Bytes []byte

	// Headers are the decoded header block of a HEADERS frame, including
	// any CONTINUATION frames that complete it.
	Headers []HeaderField

	// Detail says what the payload of a control frame means: SETTINGS
	// values, a WINDOW_UPDATE increment, PING data, a RST_STREAM or GOAWAY
	// error code.
	Detail string
}

// Direction says which way a frame went.
type Direction string

// The two directions of a connection.
const (
	ClientToServer Direction = "->"
	ServerToClient Direction = "<-"
)
