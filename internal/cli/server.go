package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"

	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/oauth"
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
	ln, loopback, err := listen(*addr, "--addr", "http", "http://", env.Stderr)
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
	authURL := fs.String("auth", "", `with --http: accept OAuth access tokens issued by the authorization server at URL (its issuer), or "builtin" to start wirelab's own`)
	authAddr := fs.String("auth-addr", "", "with --auth builtin: where the authorization server listens (default 127.0.0.1:0, a free port)")
	resource := fs.String("resource", "", "with --auth: this server's URL, which tokens must name as their audience (default http://ADDR/mcp)")
	fixtures := fs.String("fixtures", "", `add test fixtures: "conformance" adds what the official MCP conformance suite calls; "hostile" makes a server a host must not trust, for the lesson on MCP security (its tools replace the catalogue; it does no harm)`)
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
	if *fixtures != "" && *fixtures != "conformance" && *fixtures != "hostile" {
		return usageErrorf(`--fixtures takes "conformance" or "hostile", not %q`, *fixtures)
	}
	ts, err := tools.ParseTokens(tokens)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if ts.Enabled() && *addr == "" {
		return usageErrorf("--token needs --http: on stdio the user who starts the server is the only caller")
	}
	switch {
	case *authURL != "" && ts.Enabled():
		return usageErrorf("--auth and --token exclude each other: the server takes OAuth access tokens or static ones")
	case *authURL != "" && *addr == "":
		return usageErrorf("--auth needs --http: on stdio the user who starts the server is the only caller")
	case *authAddr != "" && *authURL != "builtin":
		return usageErrorf("--auth-addr goes with --auth builtin")
	case *resource != "" && *authURL == "":
		return usageErrorf("--resource goes with --auth")
	case *resource != "" && !isHTTPURL(*resource):
		return usageErrorf("--resource takes this server's URL, such as http://mcp.example:8021/mcp; got %q", *resource)
	case *authURL != "" && *authURL != "builtin" && !isHTTPURL(*authURL):
		return usageErrorf(`--auth takes the authorization server's issuer, an http(s) URL such as http://127.0.0.1:8023, or "builtin"; got %q`, *authURL)
	}
	s := mcp.NewServer(tools.New(nil), &mcp.ServerOptions{
		Version: implVersion(), Log: logger(env.Stderr), PageSize: *pageSize,
		Fixtures: *fixtures == "conformance", Hostile: *fixtures == "hostile",
	})
	// Last of all (defers run in reverse), once the transport has ended:
	// stop the work of tasks still running.
	defer s.Close()
	if *addr == "" {
		err := s.ServeStdio(ctx, env.Stdin, env.Stdout)
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	ln, loopback, err := listen(*addr, "--http", "mcp", "http://", env.Stderr)
	if err != nil {
		return err
	}
	opts := &mcp.HTTPOptions{Tokens: ts, Loopback: loopback, MaxSessions: *maxSessions, SessionIdle: *sessionIdle}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var asDone chan error // the built-in authorization server's end, if one runs
	if *authURL != "" {
		res := *resource
		if res == "" {
			if !loopback {
				ln.Close()
				return usageErrorf("--auth on an address other machines reach needs --resource URL: the URL they call this server at, which their tokens must name")
			}
			res = "http://" + ln.Addr().String() + mcp.Endpoint
		}
		issuer := *authURL
		if issuer == "builtin" {
			asLn, asLoopback, err := listen(cmp.Or(*authAddr, "127.0.0.1:0"), "--auth-addr", "oauth", "http://", env.Stderr)
			if err != nil {
				ln.Close()
				return err
			}
			issuer = issuerFor(asLn.Addr())
			// The built-in server issues tokens for this MCP server only:
			// asked for another resource, it answers invalid_target.
			as := oauth.NewServer(oauth.Options{Issuer: issuer, Resources: []string{res}, Loopback: asLoopback, Log: logger(env.Stderr)})
			asDone = make(chan error, 1)
			// This goroutine ends when ctx does (cancel runs when serverMCP
			// returns); if the server fails, it ends the MCP server too.
			go func() {
				err := serveHTTP(ctx, asLn, as)
				cancel()
				asDone <- err
			}()
		}
		opts.Verifier = mcp.NewVerifier(issuer, res, nil)
		fmt.Fprintf(env.Stderr, "wirelab: mcp server takes OAuth access tokens for %s from the authorization server %s\n", res, issuer)
		// Read the authorization server's metadata and keys now, so that
		// a wrong URL shows at once; if it is not up yet, the first token
		// tries again.
		if err := opts.Verifier.Discover(ctx); err != nil {
			fmt.Fprintf(env.Stderr, "wirelab: WARNING: %v; tokens will be refused with 503 until it answers\n", err)
		}
	}
	h := s.HTTPHandler(opts)
	// Open GET streams last as long as their sessions: end the sessions
	// first, or the graceful shutdown would wait for them in vain.
	stop := context.AfterFunc(ctx, h.Close)
	defer stop()
	err = serveHTTP(ctx, ln, h)
	if asDone != nil {
		cancel()
		if asErr := <-asDone; err == nil {
			err = asErr
		}
	}
	return err
}

// isHTTPURL reports whether s is an absolute http or https URL.
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
