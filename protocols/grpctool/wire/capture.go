package wire

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Options configures Capture. A nil *Options means plaintext, no
// metadata, no deadline, and descriptors from the server's reflection.
type Options struct {
	// Creds secure the connection, e.g. credentials.NewTLS(cfg). Nil means
	// plaintext HTTP/2 (insecure.NewCredentials()).
	Creds credentials.TransportCredentials

	// Metadata is sent as request headers, e.g.
	// metadata.Pairs("authorization", "Bearer s3cret").
	Metadata metadata.MD

	// Timeout, if > 0, is the call's deadline, which the client sends to
	// the server in the grpc-timeout header.
	Timeout time.Duration

	// Files describe the method and its messages. Nil means ask the
	// server by reflection (grpc.reflection.v1, or v1alpha when the server
	// answers UNIMPLEMENTED to v1), over a connection of its own so that
	// the capture holds only the call.
	Files *protoregistry.Files
}

// Capture makes one call of method on the gRPC server at target
// ("host:port") and returns the exchange as it crossed the wire.
//
// method is "pkg.Service/Method"; a leading "/" is accepted. request is
// ProtoJSON: one JSON object for a unary or server-streaming method (none
// at all means an empty message), and zero or more objects one after
// another for a client-streaming or bidirectional one. The requests are
// all sent before the first response is read.
//
// Capture returns an error only when the call could not be made: a
// malformed method name, a method the server does not describe, request
// JSON that does not fit the method's message, or no server at target.
// Once the call has gone out, every outcome, OK or not, is in the Exchange
// and the error is nil. A server-streaming call lasts until the server ends
// it, so give ctx or Options.Timeout a deadline for a stream that may not.
func Capture(ctx context.Context, target, method string, request []byte, opts *Options) (*Exchange, error) {
	if opts == nil {
		opts = &Options{}
	}
	c := NewClient(target, opts.Creds)
	defer c.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.capture(ctx, method, request, opts, true)
}

// capture makes one call on c's connection. With last, the connection is
// closed before its bytes are read, so that the capture ends with the
// client's GOAWAY. The caller holds c.mu.
func (c *Client) capture(ctx context.Context, method string, request []byte, opts *Options, last bool) (*Exchange, error) {
	service, name, err := splitMethod(method)
	if err != nil {
		return nil, err
	}
	files, err := c.descriptors(ctx, service, opts)
	if status.Code(err) == codes.Unavailable {
		return nil, unreachable(c.target, err)
	}
	if err != nil {
		return nil, err
	}
	md, err := findMethod(files, service, name)
	if err != nil {
		return nil, err
	}
	types := dynamicpb.NewTypes(files)
	reqs, err := parseRequests(request, md.Input(), types)
	if err != nil {
		return nil, err
	}
	if !md.IsStreamingClient() {
		switch len(reqs) {
		case 0:
			reqs = append(reqs, new(emptypb.Empty)) // an empty message: no fields at all
		case 1:
		default:
			return nil, fmt.Errorf("%s takes one request message, not %d", method, len(reqs))
		}
	}

	conn, rec, err := c.conn()
	if err != nil {
		return nil, err
	}
	path := "/" + service + "/" + name
	callErr := call(ctx, conn, path, md, reqs, opts)
	if code := status.Code(callErr); code == codes.DeadlineExceeded || code == codes.Canceled {
		// The client ended the stream itself, and its RST_STREAM may not
		// have been written yet: closing the connection writes it, so the
		// capture shows it, and the next call gets a new connection.
		last = true
	}
	if last {
		// Close waits for the connection's goroutines, so the recording
		// is complete.
		conn.Close()
	}
	e := exchangeFrom(rec.take(), path)
	if e == nil {
		if status.Code(callErr) == codes.Unavailable {
			return nil, unreachable(c.target, callErr)
		}
		return nil, fmt.Errorf("calling %s at %s: %w", path, c.target, callErr)
	}
	e.readCall(callErr)
	for i := range e.Requests {
		describe(&e.Requests[i], md.Input(), types, header(e.RequestHeaders, "grpc-encoding"))
	}
	for i := range e.Responses {
		describe(&e.Responses[i], md.Output(), types, header(e.ResponseHeaders, "grpc-encoding"))
	}
	return e, nil
}

// splitMethod splits "pkg.Service/Method" (or "/pkg.Service/Method").
func splitMethod(method string) (service, name string, err error) {
	service, name, ok := strings.Cut(strings.TrimPrefix(method, "/"), "/")
	if !ok || service == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("method %q is not of the form package.Service/Method", method)
	}
	return service, name, nil
}

// findMethod looks a method up in files, naming what is there instead
// when it is not.
func findMethod(files *protoregistry.Files, service, name string) (protoreflect.MethodDescriptor, error) {
	d, err := files.FindDescriptorByName(protoreflect.FullName(service))
	if err != nil {
		return nil, fmt.Errorf("no service %s in Options.Files", service)
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a service", service)
	}
	md := sd.Methods().ByName(protoreflect.Name(name))
	if md == nil {
		var names []string
		for i := range sd.Methods().Len() {
			names = append(names, string(sd.Methods().Get(i).Name()))
		}
		return nil, fmt.Errorf("service %s has no method %s; it has: %s", service, name, strings.Join(names, ", "))
	}
	return md, nil
}

// call makes the call on conn and returns its status as the client saw
// it (nil for OK).
func call(ctx context.Context, conn *grpc.ClientConn, path string, md protoreflect.MethodDescriptor, reqs []proto.Message, opts *Options) error {
	// Connect before the deadline starts: the deadline is the call's, as
	// on a connection a client already holds, and the capture should not
	// end in a dial that ran out of time before the call could leave.
	if st := conn.GetState(); st != connectivity.Ready {
		conn.Connect()
		for ; st != connectivity.Ready; st = conn.GetState() {
			if st == connectivity.TransientFailure || st == connectivity.Shutdown {
				break // the call below fails, with the status that says why
			}
			if !conn.WaitForStateChange(ctx, st) {
				return ctx.Err()
			}
		}
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	if len(opts.Metadata) > 0 {
		old, _ := metadata.FromOutgoingContext(ctx)
		ctx = metadata.NewOutgoingContext(ctx, metadata.Join(old, opts.Metadata))
	}
	if !md.IsStreamingClient() && !md.IsStreamingServer() {
		// A unary call as generated code makes it: one request, one
		// response, and no goroutine of grpc-go's watching the stream.
		return conn.Invoke(ctx, path, reqs[0], dynamicpb.NewMessage(md.Output()))
	}
	desc := &grpc.StreamDesc{
		StreamName:    string(md.Name()),
		ClientStreams: md.IsStreamingClient(),
		ServerStreams: md.IsStreamingServer(),
	}
	stream, err := conn.NewStream(ctx, desc, path)
	if err != nil {
		return err
	}
	for _, req := range reqs {
		// io.EOF means the server has already ended the call; RecvMsg
		// below returns the status it ended it with.
		if err := stream.SendMsg(req); err != nil {
			break
		}
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	for {
		err := stream.RecvMsg(dynamicpb.NewMessage(md.Output()))
		if err == io.EOF {
			return nil
		}
		if err != nil || !desc.ServerStreams {
			return err
		}
	}
}

// exchangeFrom parses what the connections carried since the last
// capture and keeps the connection that carried the call: the last one
// whose client sent HEADERS for path, from the last such HEADERS. It
// returns nil if the call never went out.
func exchangeFrom(conns []connBytes, path string) *Exchange {
	var e *Exchange
	var carrier *recordedConn
	for _, b := range conns {
		// Every connection's header blocks are decoded, the call's or
		// not, so that its HPACK tables stay in step for the next call.
		var sentHeaders, recvHeaders *headerDecoder // fresh, for bytes made by hand in tests
		if b.conn != nil {
			sentHeaders, recvHeaders = b.conn.sentHeaders, b.conn.recvHeaders
		}
		sent, recv := readFrames(ClientToServer, b.sent, sentHeaders), readFrames(ServerToClient, b.recv, recvHeaders)
		frames := mergeFrames(sent, recv)
		for _, f := range frames {
			if f.Dir == ClientToServer && f.Type == "HEADERS" && header(f.Headers, ":path") == path {
				e = &Exchange{Method: path, StreamID: f.StreamID, Frames: frames}
				carrier = b.conn
			}
		}
	}
	if carrier != nil {
		e.Opened, e.EarlierCalls = carrier.opened, carrier.calls
		carrier.calls++
	}
	return e
}

// readCall reads the call's headers, messages and status out of e.Frames.
// clientErr is the status the client concluded, used when the server sent
// none.
func (e *Exchange) readCall(clientErr error) {
	for _, f := range e.Frames {
		if f.StreamID != e.StreamID || f.Type != "HEADERS" {
			continue
		}
		switch {
		case f.Dir == ClientToServer:
			if e.RequestHeaders == nil {
				e.RequestHeaders = f.Headers
			}
		case e.ResponseHeaders == nil && e.Trailers == nil && slices.Contains(f.Flags, "END_STREAM"):
			// The first HEADERS from the server also ends the stream:
			// there is nothing but a status to send (PROTOCOL-HTTP2.md,
			// "Trailers-Only").
			e.Trailers, e.TrailersOnly = f.Headers, true
		case e.ResponseHeaders == nil && e.Trailers == nil:
			e.ResponseHeaders = f.Headers
		default:
			e.Trailers = f.Headers
		}
	}
	e.Requests = splitMessages(streamData(e.Frames, ClientToServer, e.StreamID))
	e.Responses = splitMessages(streamData(e.Frames, ServerToClient, e.StreamID))

	st := status.Convert(clientErr)
	e.Code, e.StatusMessage = st.Code(), st.Message()
	if v := header(e.Trailers, "grpc-status"); v != "" {
		if n, err := strconv.ParseUint(v, 10, 32); err == nil {
			e.Code = codes.Code(n)
			e.StatusMessage = percentDecode(header(e.Trailers, "grpc-message"))
		}
	}
}

// header returns the value of the first field named name, or "".
func header(fields []HeaderField, name string) string {
	for _, f := range fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// percentDecode undoes the encoding of grpc-message, which sends bytes
// outside printable ASCII, and "%" itself, as %XX (PROTOCOL-HTTP2.md). A
// malformed escape is kept as it is, as the spec asks of decoders.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
