package wire

import (
	"context"
	"fmt"
	"slices"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Capture records a call this package makes itself. A relay that stands
// between someone else's client and server (wirelab tap) records the
// bytes another way; ReadConnection reads them back into the same
// Frames and Exchanges, so that they print and decode the same.

// Chunk is bytes that crossed a connection one way. A relay records
// chunks in the order they crossed; whole frames or not, the bytes of one
// direction joined in order are what that side sent.
type Chunk struct {
	Dir  Direction
	Data []byte
}

// Connection is an HTTP/2 connection read back from its bytes.
type Connection struct {
	// Frames are every frame, both ways, in the order the chunks were
	// recorded.
	Frames []Frame

	// Calls are the gRPC calls the connection carried, one per stream
	// the client opened with a :path, in the order they opened. Each
	// Exchange's Frames are those of its own stream only: the
	// connection's frames (stream 0) are in Connection.Frames.
	Calls []*Exchange
}

// ReadConnection reads the frames and the gRPC calls of one HTTP/2
// connection out of its recorded chunks. files describes the methods, so
// that messages are decoded with field names and as JSON; it may be nil,
// or lack a method, and then that method's fields are shown by number.
//
// A call whose stream ended without trailers has no status on the wire:
// its Code is CANCELLED when either side reset the stream, UNKNOWN when
// the recording just stops.
func ReadConnection(chunks []Chunk, files *protoregistry.Files) *Connection {
	var sent, recv []chunk
	for i, c := range chunks {
		ch := chunk{seq: i + 1, data: c.Data}
		if c.Dir == ClientToServer {
			sent = append(sent, ch)
		} else {
			recv = append(recv, ch)
		}
	}
	conn := &Connection{Frames: mergeFrames(readFrames(ClientToServer, sent, nil), readFrames(ServerToClient, recv, nil))}
	for _, f := range conn.Frames {
		path := header(f.Headers, ":path")
		if f.Dir != ClientToServer || f.Type != "HEADERS" || path == "" {
			continue
		}
		if slices.ContainsFunc(conn.Calls, func(e *Exchange) bool { return e.StreamID == f.StreamID }) {
			continue // trailers a client-streaming call sent, not a new call
		}
		conn.Calls = append(conn.Calls, &Exchange{Method: path, StreamID: f.StreamID})
	}
	for _, e := range conn.Calls {
		for _, f := range conn.Frames {
			if f.StreamID == e.StreamID {
				e.Frames = append(e.Frames, f)
			}
		}
		e.readCall(noStatus(e.Frames))
		e.describe(files)
	}
	return conn
}

// noStatus is what a call without trailers ended with, as far as the
// wire shows.
func noStatus(frames []Frame) error {
	for _, f := range frames {
		if f.Type == "RST_STREAM" {
			return status.Errorf(codes.Canceled, "no status on the wire: the %s reset the stream (%s)", sender(f.Dir), f.Detail)
		}
	}
	return status.Error(codes.Unknown, "no status on the wire: the recording ends before the trailers")
}

func sender(d Direction) string {
	if d == ClientToServer {
		return "client"
	}
	return "server"
}

// describe decodes the call's messages with the method's descriptor, if
// files has it; otherwise by field number alone.
func (e *Exchange) describe(files *protoregistry.Files) {
	if files != nil {
		if service, name, err := splitMethod(e.Method); err == nil {
			if md, err := findMethod(files, service, name); err == nil {
				types := dynamicpb.NewTypes(files)
				for i := range e.Requests {
					describe(&e.Requests[i], md.Input(), types, header(e.RequestHeaders, "grpc-encoding"))
				}
				for i := range e.Responses {
					describe(&e.Responses[i], md.Output(), types, header(e.ResponseHeaders, "grpc-encoding"))
				}
				return
			}
		}
	}
	for _, msgs := range [][]Message{e.Requests, e.Responses} {
		for i := range msgs {
			if !msgs[i].Compressed {
				msgs[i].Fields = decodeFields(msgs[i].Payload, nil)
			}
		}
	}
}

// unreachable says that nothing at target took part in a gRPC call:
// nothing listens there (connection refused), or what answers does not
// speak HTTP/2 as gRPC does (a protocol error, a header block without
// end). gRPC calls each UNAVAILABLE; the cause, wrapped, tells which.
func unreachable(target string, err error) error {
	return fmt.Errorf("cannot reach a gRPC server at %s: %w", target, err)
}

// Reflect asks the server at target, by reflection, for the files that
// describe service and everything they import, over a connection of its
// own. A nil creds means plaintext HTTP/2.
func Reflect(ctx context.Context, target, service string, creds credentials.TransportCredentials) (*protoregistry.Files, error) {
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	files, err := askServer(ctx, target, service, creds, nil)
	if status.Code(err) == codes.Unavailable {
		return nil, unreachable(target, err)
	}
	return files, err
}
