package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/wirelab/wirelab/protocols/mcp"
)

// shutdownTimeout bounds how long in-flight calls (a deploy takes about a
// second) may finish after Ctrl-C. The timeouts of serving are in
// timeouts.go.
const shutdownTimeout = 5 * time.Second

// listen opens a TCP listener and announces it on stderr with the one line
// scripts wait for: "wirelab: PROTO server listening on SCHEMEHOST:PORT".
// Port 0 picks a free port; the line shows which. The scheme is "http://"
// for HTTP servers and "" for gRPC, whose clients take a bare host:port.
// flagName is the flag that chose addr ("--addr", "--listen"), which the
// advice for a port in use names; "" for an address the user did not
// choose.
func listen(addr, flagName, proto, scheme string, stderr io.Writer) (net.Listener, bool, error) {
	return listenReachable(addr, flagName, proto, scheme, reachableWarning, stderr)
}

// reachableWarning is what listen says of a listener that other machines
// can reach, which the servers of a lesson rarely mean to be.
const reachableWarning = "wirelab: WARNING: %s is reachable from other machines; use 127.0.0.1 unless you mean it\n"

// listenReachable is listen with its own line, a format taking the
// address, for a listener other machines can reach, in place of the
// warning: a classroom means to be reached.
func listenReachable(addr, flagName, proto, scheme, reachable string, stderr io.Writer) (net.Listener, bool, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		advice := "choose another port"
		if flagName != "" {
			advice = fmt.Sprintf("choose another with %s, or %s %s for any free port", flagName, flagName, anyPort(addr))
		}
		return nil, false, fmt.Errorf("cannot listen on %s: the port is already in use (is another wirelab running?); %s", addr, advice)
	}
	if err != nil {
		return nil, false, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	loopback := isLoopback(ln.Addr())
	if !loopback {
		fmt.Fprintf(stderr, reachable, ln.Addr())
	}
	fmt.Fprintf(stderr, "wirelab: %s server listening on %s%s\n", proto, scheme, ln.Addr())
	if strings.HasPrefix(proto, "mcp") && scheme == "http://" {
		// An MCP client is given the endpoint, not the server's root:
		// the line above stays what scripts wait for, and this one
		// names what to paste into a client.
		fmt.Fprintf(stderr, "wirelab: %s endpoint: http://%s%s\n", proto, ln.Addr(), mcp.Endpoint)
	}
	return ln, loopback, nil
}

// anyPort is addr with port 0, which picks a free one on the same host.
func anyPort(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "127.0.0.1:0"
	}
	return net.JoinHostPort(host, "0")
}

func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// serveHTTP serves h on ln until ctx ends, then shuts down gracefully.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := newHTTPServer(h)
	errc := make(chan error, 1)
	// This goroutine ends when Serve returns, which Shutdown below causes.
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving: %w", err)
	}
	return nil
}
