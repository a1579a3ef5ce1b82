package cli

import (
	"net"
	"strings"
	"time"

	"google.golang.org/grpc/credentials"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/protocols/grpctool"
)

// isGRPCRecording tells a recording of the gRPC relay by its frames.
func isGRPCRecording(events []tap.Event) bool {
	for _, e := range events {
		if e.Kind == tap.KindFrame {
			return true
		}
	}
	return false
}

// grpcAddress is the host:port of --against, which may be written as
// grpc://host:port or grpcs://host:port, as a recording names its
// upstream.
func grpcAddress(against string) string {
	return strings.TrimPrefix(strings.TrimPrefix(against, "grpcs://"), "grpc://")
}

// grpcTLSFiles are replay's TLS flags: the CA that signed the server's
// certificate, and a client certificate with its key for a server that
// asks for one (mutual TLS).
type grpcTLSFiles struct{ ca, cert, key string }

// grpcReplayOptions checks --against for a gRPC recording and chooses
// the connection: TLS, trusting the CA file, when it is given, when
// against says grpcs://, or when the tap reached its upstream over TLS
// (then the CA file is needed, since the tap's CA is rarely the
// system's); with a client certificate when one is given.
func grpcReplayOptions(events []tap.Event, against string, files grpcTLSFiles, wait time.Duration, token string) (*tap.GRPCReplayOptions, error) {
	if _, _, err := net.SplitHostPort(grpcAddress(against)); err != nil {
		return nil, usageErrorf("replay: this recording is of gRPC: --against takes the server's host:port, not %q", against)
	}
	recordedTLS := len(events) > 0 && strings.HasPrefix(events[0].Upstream, "grpcs://")
	opts := &tap.GRPCReplayOptions{Wait: wait, Token: token}
	if (files.cert == "") != (files.key == "") {
		return nil, usageErrorf("replay: --cert and --key go together: a client certificate and its private key")
	}
	if files.ca == "" && files.cert == "" && !strings.HasPrefix(against, "grpcs://") {
		if recordedTLS {
			return nil, usageErrorf("replay: the tap reached %s over TLS: give --cacert CA.pem to replay over TLS too", strings.TrimPrefix(events[0].Upstream, "grpcs://"))
		}
		return opts, nil
	}
	cfg, err := grpctool.ClientTLS(files.ca, files.cert, files.key)
	if err != nil {
		return nil, usageErrorf("replay: %v", err)
	}
	opts.Creds = credentials.NewTLS(cfg)
	return opts, nil
}
