package cli

import (
	"context"
	"fmt"

	"github.com/wirelab/wirelab/playground"
	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/tools"
)

// serve starts the playground and, beside it, an HTTP and a gRPC tool
// server on free loopback ports for the page to point at.
func serve(ctx context.Context, args []string, env Env) error {
	fs := flags("serve")
	addr := fs.String("addr", defaultServeAddr, "address of the playground")
	noOpen := fs.Bool("no-open", false, "do not open a browser")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("serve takes no arguments, got %q", fs.Arg(0))
	}
	cat := tools.New(nil)

	ln, loopback, err := listen(*addr, "playground", "http://", env.Stderr)
	if err != nil {
		return err
	}
	httpLn, _, err := listen("127.0.0.1:0", "http", "http://", env.Stderr)
	if err != nil {
		ln.Close()
		return err
	}
	grpcLn, _, err := listen("127.0.0.1:0", "grpc", "", env.Stderr)
	if err != nil {
		ln.Close()
		httpLn.Close()
		return err
	}
	httpURL := "http://" + httpLn.Addr().String()
	httpSrv := httpjson.NewServer(cat, &httpjson.ServerOptions{Loopback: true, Log: logger(env.Stderr)})
	grpcSrv := grpctool.NewServer(cat, &grpctool.ServerOptions{Log: logger(env.Stderr)})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	// These goroutines end when ctx ends (cancel above runs when serve returns).
	go func() { errc <- serveHTTP(ctx, httpLn, httpSrv) }()
	go func() { errc <- serveGRPC(ctx, grpcLn, grpcSrv) }()

	url := "http://" + ln.Addr().String()
	if !*noOpen && env.OpenBrowser != nil {
		if err := env.OpenBrowser(url); err != nil {
			fmt.Fprintf(env.Stderr, "wirelab: could not open a browser (%v); open %s yourself\n", err, url)
		}
	}
	err = serveHTTP(ctx, ln, playground.New(cat, &playground.Options{
		HTTPURL: httpURL, GRPCAddr: grpcLn.Addr().String(), Loopback: loopback,
	}))
	cancel()
	for range 2 {
		if serr := <-errc; err == nil {
			err = serr
		}
	}
	return err
}
