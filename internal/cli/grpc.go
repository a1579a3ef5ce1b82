package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/tools"
)

const defaultGRPCAddr = "127.0.0.1:8020"

func serverGRPC(ctx context.Context, args []string, env Env) error {
	fs := flags("server grpc")
	addr := fs.String("addr", defaultGRPCAddr, "address to listen on; port 0 picks a free one")
	var tokens repeated
	fs.Var(&tokens, "token", "accepted bearer token, SECRET or SECRET:SCOPE,... (repeatable)")
	useTLS := fs.Bool("tls", false, "serve TLS, with certificates from a throwaway CA made at start")
	mutual := fs.Bool("mtls", false, "serve mutual TLS: clients also need a certificate from the throwaway CA")
	certDir := fs.String("cert-dir", "", "where to write ca.pem, client.pem and client-key.pem (default: a temporary directory, removed at exit)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("server grpc takes no arguments, got %q", fs.Arg(0))
	}
	if *certDir != "" && !*useTLS && !*mutual {
		return usageErrorf("--cert-dir needs --tls or --mtls")
	}
	ts, err := tools.ParseTokens(tokens)
	if err != nil {
		return usageErrorf("%v", err)
	}
	opts := &grpctool.ServerOptions{Tokens: ts, Log: logger(env.Stderr)}
	if *useTLS || *mutual {
		creds, cleanup, err := throwawayTLS(*mutual, *certDir, env)
		if err != nil {
			return err
		}
		defer cleanup()
		opts.Creds = creds
	}
	ln, _, err := listen(*addr, "--addr", "grpc", "", env.Stderr)
	if err != nil {
		return err
	}
	return serveGRPC(ctx, ln, grpctool.NewServer(tools.New(nil), opts))
}

// throwawayTLS makes a CA and certificates, writes what clients need, and
// tells the learner how to use them.
func throwawayTLS(mutual bool, dir string, env Env) (credentials.TransportCredentials, func(), error) {
	certs, err := grpctool.NewCerts()
	if err != nil {
		return nil, nil, fmt.Errorf("making certificates: %w", err)
	}
	cleanup := func() {}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "wirelab-grpc-certs-"); err != nil {
			return nil, nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("making the folder for the certificates: %w", err)
	}
	files, err := certs.WriteFiles(dir)
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("writing certificates: %w", err)
	}
	cfg, err := certs.ServerTLS(mutual)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	if mutual {
		fmt.Fprintf(env.Stderr, "wirelab: mutual TLS; clients need --cacert %s --cert %s --key %s\n", files.CA, files.ClientCert, files.ClientKey)
	} else {
		fmt.Fprintf(env.Stderr, "wirelab: TLS; clients trust the throwaway CA with --cacert %s\n", files.CA)
	}
	return credentials.NewTLS(cfg), cleanup, nil
}

// serveGRPC serves s on ln until ctx ends, then lets calls in progress
// finish for a while before cutting them off.
func serveGRPC(ctx context.Context, ln net.Listener, s *grpc.Server) error {
	errc := make(chan error, 1)
	// This goroutine ends when Serve returns, which GracefulStop or Stop causes.
	go func() { errc <- s.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	stopped := make(chan struct{})
	// This goroutine ends when GracefulStop returns, at the latest right
	// after Stop below.
	go func() { s.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(shutdownTimeout):
		s.Stop()
		<-stopped
	}
	if err := <-errc; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return fmt.Errorf("serving: %w", err)
	}
	return nil
}

// grpcFlags are the client flags only gRPC has.
type grpcFlags struct {
	addr, token       string
	useTLS            bool
	caFile, cert, key string
	stream            bool
	wire              bool
	method, data      string
}

func (g *grpcFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.addr, "addr", defaultGRPCAddr, "host:port of the gRPC tool server")
	fs.StringVar(&g.token, "token", "", "bearer token to send in the authorization metadata")
	fs.BoolVar(&g.useTLS, "tls", false, "use TLS (implied by --cacert and --cert)")
	fs.StringVar(&g.caFile, "cacert", "", "PEM file of the CA to trust (e.g. the ca.pem a --tls server printed)")
	fs.StringVar(&g.cert, "cert", "", "PEM client certificate, for a --mtls server")
	fs.StringVar(&g.key, "key", "", "PEM key of the client certificate")
	fs.BoolVar(&g.stream, "stream", false, "call ExecuteToolStream and print progress on stderr")
	fs.BoolVar(&g.wire, "wire", false, "print every HTTP/2 frame of the call on stderr, with each message byte by byte")
	fs.StringVar(&g.method, "method", "", "call this method (package.Service/Method) of any server with reflection, instead of a tool")
	fs.StringVar(&g.data, "data", "", "with --method: the request as JSON (ProtoJSON), e.g. '{}'")
}

func (g *grpcFlags) options() (*grpctool.ClientOptions, error) {
	opts := &grpctool.ClientOptions{Token: g.token}
	if g.useTLS || g.caFile != "" || g.cert != "" || g.key != "" {
		cfg, err := grpctool.ClientTLS(g.caFile, g.cert, g.key)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		opts.Creds = credentials.NewTLS(cfg)
	}
	return opts, nil
}

func clientGRPC(ctx context.Context, g *grpcFlags, tool string, args json.RawMessage, version string, timeout time.Duration, env Env) (int, error) {
	call := callGRPC
	if g.wire || g.method != "" {
		call = captureGRPC
	}
	code, err := call(ctx, g, tool, args, version, env)
	if se, ok := err.(*statusError); ok {
		se.hint = grpcHint(se.st, g, timeout)
	}
	return code, err
}

// callGRPC calls the tool with the generated client.
func callGRPC(ctx context.Context, g *grpcFlags, tool string, args json.RawMessage, version string, env Env) (int, error) {
	opts, err := g.options()
	if err != nil {
		return exitUsage, err
	}
	c, err := grpctool.NewClient(g.addr, opts)
	if err != nil {
		return exitUsage, usageErrorf("--addr %q: %v", g.addr, err)
	}
	defer c.Close()
	var result json.RawMessage
	if g.stream {
		result, err = c.Stream(ctx, tool, args, version, func(p *toolsv1.Progress) {
			fmt.Fprintf(env.Stderr, "wirelab: progress %d/%d: %s\n", p.GetDone(), p.GetTotal(), p.GetMessage())
		})
	} else {
		result, err = c.Call(ctx, tool, args, version)
	}
	return reportGRPC(result, err, env)
}

// reportGRPC prints a gRPC call's outcome with the exit codes of the other
// clients: 1 when the tool failed or refused its arguments
// (INVALID_ARGUMENT), 2 for any other status.
func reportGRPC(result json.RawMessage, err error, env Env) (int, error) {
	var te *grpctool.ToolError
	switch {
	case err == nil:
		fmt.Fprintf(env.Stdout, "%s\n", result)
		return exitOK, nil
	case errors.As(err, &te):
		b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": te.Code, "message": te.Message}})
		fmt.Fprintf(env.Stdout, "%s\n", b)
		return exitToolError, fmt.Errorf("tool error (%s): %s", te.Code, te.Message)
	}
	st := status.Convert(err)
	name := code.Code_name[int32(st.Code())] // the spec's name, e.g. NOT_FOUND
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": name, "message": st.Message()}})
	fmt.Fprintf(env.Stdout, "%s\n", b)
	err = &statusError{st: st, name: name}
	if st.Code() == codes.InvalidArgument {
		return exitToolError, err
	}
	return exitProtocol, err
}

// statusError is a gRPC status as the client command reports it.
type statusError struct {
	st   *status.Status
	name string
	hint string // what to try next, if we know
}

func (e *statusError) Error() string {
	msg := fmt.Sprintf("grpc status %d %s: %s", e.st.Code(), e.name, e.st.Message())
	if e.hint != "" {
		msg += "\nwirelab: hint: " + e.hint
	}
	return msg
}

// grpcHint says what to try next for the failures learners meet first,
// most of which grpc-go reports as a bare UNAVAILABLE.
func grpcHint(st *status.Status, g *grpcFlags, timeout time.Duration) string {
	msg := st.Message()
	switch {
	case st.Code() == codes.DeadlineExceeded:
		return fmt.Sprintf("the call did not finish within --timeout %s; the client sent that deadline as grpc-timeout and the server stopped the tool", timeout)
	case st.Code() == codes.Unauthenticated && g.token == "":
		return "this server wants a token: add --token SECRET"
	case strings.Contains(msg, "connection refused"):
		return fmt.Sprintf("nothing listens on %s; start a server with: wirelab server grpc --addr %s", g.addr, g.addr)
	case strings.Contains(msg, "certificate signed by unknown authority"):
		return "the server's certificate comes from a CA this client does not trust; add --cacert with the ca.pem the server printed"
	case strings.Contains(msg, "certificate required"):
		return "the server wants mutual TLS: add --cert and --key with the client certificate the server printed"
	case g.caFile != "" && g.cert == "" && (strings.Contains(msg, "broken pipe") || strings.Contains(msg, "connection reset")):
		// With TLS 1.3 the server checks the client's certificate after
		// the client thinks the handshake is over, so the refusal can
		// arrive as a dropped connection instead of a TLS alert.
		return "the server dropped the connection after the TLS handshake; if it wants mutual TLS, add --cert and --key with the client certificate the server printed"
	case !g.useTLS && g.caFile == "" && strings.Contains(msg, "error reading server preface"):
		// A TLS server closes (EOF) or resets a connection that opens
		// with plaintext HTTP/2.
		return "the server closed the connection at once; if it serves TLS, add --cacert CA.pem (a --tls server prints its path)"
	case strings.Contains(msg, "does not look like a TLS handshake"):
		return "the server speaks plaintext: drop --tls, --cacert, --cert and --key"
	}
	return ""
}
