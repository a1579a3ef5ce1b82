package cli

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// Default addresses, one port per protocol so lessons can name them.
const (
	defaultServeAddr = "127.0.0.1:8018"
	defaultHTTPAddr  = "127.0.0.1:8019"
)

func server(ctx context.Context, args []string, env Env) error {
	proto, rest, err := sub("server", args, "stdio", "http", "grpc", "mcp", "a2a", "oauth")
	if err != nil {
		return err
	}
	switch proto {
	case "stdio":
		return serverStdio(ctx, rest, env)
	case "grpc":
		return serverGRPC(ctx, rest, env)
	case "mcp":
		return serverMCP(ctx, rest, env)
	case "a2a":
		return serverA2A(ctx, rest, env)
	case "oauth":
		return serverOAuth(ctx, rest, env)
	default:
		return serverHTTP(ctx, rest, env)
	}
}

func serverStdio(ctx context.Context, args []string, env Env) error {
	fs := flags("server stdio")
	maxLine := fs.Int("max-line", stdio.DefaultMaxLine, "longest request line in bytes")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("server stdio takes no arguments, got %q", fs.Arg(0))
	}
	s := stdio.NewServer(tools.New(nil), &stdio.ServerOptions{MaxLine: *maxLine, Log: logger(env.Stderr)})
	err := s.Serve(ctx, env.Stdin, env.Stdout)
	if errors.Is(err, context.Canceled) {
		return nil // Ctrl-C or SIGTERM: a normal way to stop
	}
	return err
}

func serverHTTP(ctx context.Context, args []string, env Env) error {
	fs := flags("server http")
	addr := fs.String("addr", defaultHTTPAddr, "address to listen on; port 0 picks a free one")
	var tokens repeated
	fs.Var(&tokens, "token", "accepted bearer token, SECRET or SECRET:SCOPE,... (repeatable)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("server http takes no arguments, got %q", fs.Arg(0))
	}
	ts, err := tools.ParseTokens(tokens)
	if err != nil {
		return usageErrorf("%v", err)
	}
	ln, loopback, err := listen(*addr, "http", "http://", env.Stderr)
	if err != nil {
		return err
	}
	h := httpjson.NewServer(tools.New(nil), &httpjson.ServerOptions{Tokens: ts, Loopback: loopback, Log: logger(env.Stderr)})
	return serveHTTP(ctx, ln, h)
}

// logger writes a server's log lines to stderr, without timestamps: the
// learner is watching them happen.
func logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
}

func serverMCP(ctx context.Context, args []string, env Env) error {
	fs := flags("server mcp")
	addr := fs.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio, e.g. 127.0.0.1:8021 (port 0 picks a free one)")
	var tokens repeated
	fs.Var(&tokens, "token", "with --http: accepted bearer token, SECRET or SECRET:SCOPE,... (repeatable)")
	fixtures := fs.String("fixtures", "", `add test fixtures: "conformance" adds what the official MCP conformance suite calls`)
	pageSize := fs.Int("page-size", mcp.DefaultPageSize, "most items per page of tools/list, resources/list and prompts/list")
	maxSessions := fs.Int("max-sessions", mcp.DefaultMaxSessions, "with --http: most sessions open at once; when full, a new one ends the idle session unused longest")
	sessionIdle := fs.Duration("session-idle", mcp.DefaultSessionIdle, "with --http: how long a session with no request running and no GET stream open is kept")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("server mcp takes no arguments, got %q", fs.Arg(0))
	}
	if *maxSessions < 1 || *sessionIdle <= 0 {
		return usageErrorf("--max-sessions must be at least 1 and --session-idle above 0")
	}
	if *fixtures != "" && *fixtures != "conformance" {
		return usageErrorf(`--fixtures takes "conformance", not %q`, *fixtures)
	}
	ts, err := tools.ParseTokens(tokens)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if ts.Enabled() && *addr == "" {
		return usageErrorf("--token needs --http: on stdio the user who starts the server is the only caller")
	}
	s := mcp.NewServer(tools.New(nil), &mcp.ServerOptions{
		Version: implVersion(), Log: logger(env.Stderr), PageSize: *pageSize, Fixtures: *fixtures == "conformance",
	})
	if *addr == "" {
		err := s.ServeStdio(ctx, env.Stdin, env.Stdout)
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	ln, loopback, err := listen(*addr, "mcp", "http://", env.Stderr)
	if err != nil {
		return err
	}
	h := s.HTTPHandler(&mcp.HTTPOptions{Tokens: ts, Loopback: loopback, MaxSessions: *maxSessions, SessionIdle: *sessionIdle})
	// Open GET streams last as long as their sessions: end the sessions
	// first, or the graceful shutdown would wait for them in vain.
	stop := context.AfterFunc(ctx, h.Close)
	defer stop()
	return serveHTTP(ctx, ln, h)
}
