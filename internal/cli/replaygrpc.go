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

// grpcReplayOptions checks --against for a gRPC recording and chooses
// the connection: TLS, trusting caFile, when it is given, when against
// says grpcs://, or when the tap reached its upstream over TLS (then
// caFile is needed, since the tap's CA is rarely the system's).
func grpcReplayOptions(events []tap.Event, against, caFile string, wait time.Duration, token string) (*tap.GRPCReplayOptions, error) {
	if _, _, err := net.SplitHostPort(grpcAddress(against)); err != nil {
		return nil, usageErrorf("replay: this recording is of gRPC: --against takes the server's host:port, not %q", against)
	}
	recordedTLS := len(events) > 0 && strings.HasPrefix(events[0].Upstream, "grpcs://")
	opts := &tap.GRPCReplayOptions{Wait: wait, Token: token}
	if caFile == "" && !strings.HasPrefix(against, "grpcs://") {
		if recordedTLS {
			return nil, usageErrorf("replay: the tap reached %s over TLS: give --cacert CA.pem to replay over TLS too", strings.TrimPrefix(events[0].Upstream, "grpcs://"))
		}
		return opts, nil
	}
	cfg, err := grpctool.ClientTLS(caFile, "", "")
	if err != nil {
		return nil, usageErrorf("replay: %v", err)
	}
	opts.Creds = credentials.NewTLS(cfg)
	return opts, nil
}
