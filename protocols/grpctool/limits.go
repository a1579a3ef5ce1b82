package grpctool

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/tap"
)

// maxConcurrentStreams bounds the calls one connection may have open at
// once; the server refuses the next stream with RST_STREAM
// REFUSED_STREAM, and a grpc-go client, which reads the limit from the
// server's SETTINGS, queues its calls instead of sending them. Each open
// stream holds buffers and a goroutine (about 11 KB even for a call that
// has sent nothing), and HTTP/2 puts no limit on them unless the server
// does. RFC 9113 section 6.5.2: "It is recommended that this value be no
// smaller than 100, so as to not unnecessarily limit parallelism."
const maxConcurrentStreams = 100

// DefaultRequestTimeout bounds how long a call may take to send its
// request message once its headers are in. A real client sends it at
// once; a request is at most DefaultMaxMessageSize, which even a slow
// link carries in seconds. Without the bound, a stream that sends the
// 5-byte prefix promising a message, and then nothing, is held until the
// client goes away: MaxConnectionIdle does not count a connection with
// an open stream as idle. The call's own deadline (grpc-timeout), if it
// sets one, still applies too.
const DefaultRequestTimeout = 30 * time.Second

// requestTimer ends every call whose request message has not arrived
// within timeout. Three pieces work together, since grpc-go reads a
// unary call's request before any interceptor runs:
//
//   - tap, which grpc-go calls when a stream's headers arrive, gives the
//     stream a context that a timer cancels; the request is read under
//     that context, so the read stops, and the client gets CANCELLED
//     "context canceled".
//   - unary runs once the request has been read, and stops the timer.
//   - stream stops it when a streaming handler's first RecvMsg returns
//     the request (ExecuteToolStream, health's Watch, reflection).
//
// Only the first message is timed. For the server-streaming methods
// that is the whole of what the client sends; reflection's bidirectional
// stream is bounded by maxConcurrentStreams and MaxConnectionIdle.
type requestTimer struct {
	timeout time.Duration
}

// requestTimerKey is the context key of a call's timer.
type requestTimerKey struct{}

// tap is a tap.ServerInHandle: it starts the clock on a new stream.
// grpc-go calls it on the connection's reading goroutine, so it must be
// quick, as starting a timer is.
func (rt requestTimer) tap(ctx context.Context, _ *tap.Info) (context.Context, error) {
	ctx, cancel := context.WithCancel(ctx)
	timer := time.AfterFunc(rt.timeout, cancel)
	// When the call ends, its context does, and the timer goes with it.
	context.AfterFunc(ctx, func() { timer.Stop() })
	return context.WithValue(ctx, requestTimerKey{}, timer), nil
}

// arrived stops the timer of the call ctx belongs to: its request is in.
func arrived(ctx context.Context) {
	if timer, ok := ctx.Value(requestTimerKey{}).(*time.Timer); ok {
		timer.Stop()
	}
}

func (rt requestTimer) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	arrived(ctx)
	return next(ctx, req)
}

func (rt requestTimer) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	return next(srv, &timedStream{ServerStream: ss})
}

// timedStream stops the call's timer when its first message arrives.
type timedStream struct {
	grpc.ServerStream
}

func (s *timedStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if err == nil {
		arrived(s.Context())
	}
	return err
}
