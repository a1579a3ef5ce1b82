package grpctool

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/tools"
)

// DefaultMaxMessageSize is the largest request message the server accepts,
// 1 MiB: the same limit as the stdio and HTTP servers, so one tool call
// fits everywhere or nowhere. (grpc-go's own default is 4 MiB.) A bigger
// message is refused with RESOURCE_EXHAUSTED before the handler runs.
const DefaultMaxMessageSize = 1 << 20

// How long a connection may stay without doing its part. A peer that
// connects and says nothing, or connects and never calls, holds a socket
// and goroutines; these let the server close it. Clients reconnect on
// their own at their next call.
const (
	// DefaultHandshakeTimeout bounds the connection's start: TLS, if any,
	// and HTTP/2's preface and first SETTINGS, which a real client sends
	// at once.
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultMaxConnectionIdle closes, with GOAWAY, a connection that has
	// had no call for this long.
	DefaultMaxConnectionIdle = 5 * time.Minute
	// keepaliveMinTime is the shortest interval between a client's
	// keepalive pings that the server tolerates: one that pings more often
	// is told GOAWAY "too_many_pings" (gRPC's keepalive enforcement),
	// since every ping costs the server an answer.
	keepaliveMinTime = 10 * time.Second
)

// ServerOptions configures [NewServer]. A nil *ServerOptions means defaults.
type ServerOptions struct {
	// Tokens, when enabled, are the bearer tokens ToolServer accepts in the
	// "authorization" metadata. Health and reflection stay open, so that
	// load balancers and tools like grpcurl can look before they log in.
	Tokens *tools.Tokens

	// Creds secure the connection (TLS or mutual TLS). Nil: plaintext.
	Creds credentials.TransportCredentials

	// MaxMessageSize overrides DefaultMaxMessageSize.
	MaxMessageSize int

	// Log receives one line per call. Nil: no logging.
	Log *slog.Logger

	// HandshakeTimeout, MaxConnectionIdle and RequestTimeout override
	// DefaultHandshakeTimeout, DefaultMaxConnectionIdle and
	// DefaultRequestTimeout.
	HandshakeTimeout  time.Duration
	MaxConnectionIdle time.Duration
	RequestTimeout    time.Duration
}

// NewServer returns a gRPC server that serves cat as tools.v1.ToolServer,
// with the standard health service (grpc.health.v1) and server reflection
// (grpc.reflection.v1 and v1alpha) beside it. The caller owns it: call
// Serve with a listener, and Stop or GracefulStop to end it.
func NewServer(cat *tools.Catalogue, opts *ServerOptions) *grpc.Server {
	if opts == nil {
		opts = &ServerOptions{}
	}
	maxMsg := opts.MaxMessageSize
	if maxMsg <= 0 {
		maxMsg = DefaultMaxMessageSize
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	handshake := cmp.Or(opts.HandshakeTimeout, DefaultHandshakeTimeout)
	idle := cmp.Or(opts.MaxConnectionIdle, DefaultMaxConnectionIdle)
	a := &authenticator{tokens: opts.Tokens}
	rt := requestTimer{timeout: cmp.Or(opts.RequestTimeout, DefaultRequestTimeout)}
	serverOpts := []grpc.ServerOption{
		grpc.MaxRecvMsgSize(maxMsg),
		grpc.ConnectionTimeout(handshake),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: idle}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: keepaliveMinTime, PermitWithoutStream: true}),
		grpc.MaxConcurrentStreams(maxConcurrentStreams),
		// grpc-go marks InTapHandle experimental; it is the one hook that
		// runs before a unary call's request is read (limits.go).
		grpc.InTapHandle(rt.tap),
		// Interceptors run in order: the request timer first, as the
		// request is in; then log, so refused calls are logged too.
		grpc.ChainUnaryInterceptor(rt.unary, logUnary(log), a.unary),
		grpc.ChainStreamInterceptor(rt.stream, logStream(log), a.stream),
	}
	if opts.Creds != nil {
		serverOpts = append(serverOpts, grpc.Creds(opts.Creds))
	}
	s := grpc.NewServer(serverOpts...)
	toolsv1.RegisterToolServerServer(s, &service{cat: cat})

	// The health service answers "" (the whole server) and each service by
	// name. A real server would flip these to NOT_SERVING while draining.
	hs := health.NewServer()
	hs.SetServingStatus(toolsv1.ToolServer_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, hs)

	// Reflection lets a client that has no .proto file ask for one.
	reflection.Register(s)
	return s
}

// service implements tools.v1.ToolServer over a catalogue.
type service struct {
	// Embedding the generated type makes methods added to the contract
	// later answer UNIMPLEMENTED instead of breaking the build.
	toolsv1.UnimplementedToolServerServer
	cat *tools.Catalogue
}

func (s *service) ListTools(ctx context.Context, req *toolsv1.ListToolsRequest) (*toolsv1.ListToolsResponse, error) {
	resp := &toolsv1.ListToolsResponse{}
	for _, d := range s.cat.List() {
		if req.GetVersion() != "" && !d.Serves(req.GetVersion()) {
			continue
		}
		resp.Tools = append(resp.Tools, &toolsv1.ToolDefinition{
			Name:               d.Name,
			Description:        d.Description,
			Schema:             string(d.InputSchema),
			Version:            d.Version,
			CompatibleVersions: d.CompatibleVersions,
			OutputSchema:       string(d.OutputSchema),
		})
	}
	return resp, nil
}

func (s *service) ExecuteTool(ctx context.Context, req *toolsv1.ExecuteToolRequest) (*toolsv1.ExecuteToolResponse, error) {
	return s.execute(ctx, req, nil)
}

func (s *service) ExecuteToolStream(req *toolsv1.ExecuteToolRequest, stream grpc.ServerStreamingServer[toolsv1.ExecuteToolEvent]) error {
	var sendErr error
	// The catalogue calls progress on this goroutine, between the tool's
	// steps, so Send is never called concurrently. A failed Send means the
	// client has gone; the tool then stops through the context.
	progress := func(p tools.Progress) {
		if sendErr != nil {
			return
		}
		sendErr = stream.Send(&toolsv1.ExecuteToolEvent{Event: &toolsv1.ExecuteToolEvent_Progress{
			Progress: &toolsv1.Progress{Done: int32(p.Done), Total: int32(p.Total), Message: p.Message},
		}})
	}
	resp, err := s.execute(stream.Context(), req, progress)
	if err != nil {
		return err
	}
	if sendErr != nil {
		return sendErr
	}
	return stream.Send(&toolsv1.ExecuteToolEvent{Event: &toolsv1.ExecuteToolEvent_Result{Result: resp}})
}

// execute runs one call. It sorts the outcome into the two kinds a gRPC
// client sees: a response (the tool ran; maybe it failed) or a status (the
// call itself was wrong or could not finish).
func (s *service) execute(ctx context.Context, req *toolsv1.ExecuteToolRequest, progress func(tools.Progress)) (*toolsv1.ExecuteToolResponse, error) {
	if req.GetToolName() == "" {
		return nil, badRequest("tool_name is required", fieldViolation("tool_name", "is required"))
	}
	// Protobuf guarantees the bytes arrived intact, not that they are JSON.
	if args := req.GetArguments(); len(args) > 0 && !json.Valid(args) {
		return nil, badRequest("arguments: not valid JSON; send a JSON object such as {\"text\":\"read the wire\"}",
			fieldViolation("arguments", "is not valid JSON"))
	}
	result, err := s.cat.Call(ctx, tools.Request{
		Name:    req.GetToolName(),
		Version: req.GetVersion(),
		Args:    req.GetArguments(),
	}, &tools.CallOptions{Allow: allowed(ctx), Progress: progress})

	var te *tools.Error
	switch {
	case err == nil:
		return &toolsv1.ExecuteToolResponse{Result: result}, nil
	case errors.As(err, &te) && te.Code == tools.CodeToolFailed:
		return &toolsv1.ExecuteToolResponse{Error: &toolsv1.ToolError{Code: string(te.Code), Message: te.Message}}, nil
	default:
		return nil, statusOf(err)
	}
}

// logUnary and logStream log one line per call, with its status code.
func logUnary(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := next(ctx, req)
		logCall(log, info.FullMethod, start, err)
		return resp, err
	}
}

func logStream(log *slog.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		start := time.Now()
		err := next(srv, ss)
		logCall(log, info.FullMethod, start, err)
		return err
	}
}

func logCall(log *slog.Logger, method string, start time.Time, err error) {
	code := status.Code(err)
	level := slog.LevelInfo
	if code != codes.OK {
		level = slog.LevelWarn
	}
	log.Log(context.Background(), level, "call", "method", method, "code", code.String(),
		"took", time.Since(start).Round(time.Millisecond))
}
