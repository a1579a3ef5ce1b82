package grpctool

import (
	"context"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/tools"
)

// authenticator checks the bearer token of every ToolServer call before
// the handler runs. gRPC metadata are HTTP/2 headers, so the token travels
// exactly as it does over HTTP: "authorization: Bearer SECRET".
//
// It only authenticates (who is calling). Authorization (may this caller
// deploy to production?) depends on the arguments, so the catalogue decides
// it inside the call, with the token this puts in the context.
type authenticator struct {
	tokens *tools.Tokens // nil or empty: every call is allowed
}

// tokenKey is the context key for the caller's tools.Token.
type tokenKey struct{}

func (a *authenticator) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	ctx, err := a.check(ctx, info.FullMethod)
	if err != nil {
		return nil, err
	}
	return next(ctx, req)
}

func (a *authenticator) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	ctx, err := a.check(ss.Context(), info.FullMethod)
	if err != nil {
		return err
	}
	return next(srv, &streamWithContext{ServerStream: ss, ctx: ctx})
}

// check returns ctx carrying the caller's token, or UNAUTHENTICATED. The
// status message tells a learner what to send, never which tokens exist.
func (a *authenticator) check(ctx context.Context, method string) (context.Context, error) {
	// Health checks and reflection are open: only the tools need a token.
	if !a.tokens.Enabled() || !strings.HasPrefix(method, "/"+toolsv1.ToolServer_ServiceDesc.ServiceName+"/") {
		return ctx, nil
	}
	md, _ := metadata.FromIncomingContext(ctx) // keys are lowercase
	values := md.Get("authorization")
	if len(values) == 0 {
		return nil, status.Error(codes.Unauthenticated,
			`missing "authorization" metadata; send "authorization: Bearer <token>"`)
	}
	scheme, secret, ok := strings.Cut(values[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return nil, status.Error(codes.Unauthenticated,
			`"authorization" metadata must be "Bearer <token>"`)
	}
	tok, ok := a.tokens.Lookup(secret)
	if !ok {
		return nil, status.Error(codes.Unauthenticated, "invalid token")
	}
	return context.WithValue(ctx, tokenKey{}, tok), nil
}

// allowed returns the scope check for the caller in ctx, or nil (allow
// everything) when the server runs without tokens.
func allowed(ctx context.Context) func(tools.Scope) bool {
	tok, ok := ctx.Value(tokenKey{}).(tools.Token)
	if !ok {
		return nil
	}
	return tok.Allows
}

// streamWithContext hands a stream handler the context check returned.
type streamWithContext struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *streamWithContext) Context() context.Context { return s.ctx }
