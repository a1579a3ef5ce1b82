package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/tap"
)

// replayCmd is `wirelab replay FILE --against COMMAND|URL`: the host's
// side of a recording sent to a fresh server, its answers compared with
// the recorded ones. Exit 0 when they agree, 1 with the differences.
func replayCmd(ctx context.Context, args []string, env Env) (int, error) {
	fs := flags("replay")
	against := fs.String("against", "", `the server: a command line ("wirelab server mcp") for a stdio recording, a URL for an HTTP one, host:port for a gRPC one`)
	wait := fs.Duration("wait", tap.DefaultWait, "how long to wait for each recorded answer before going on without it")
	token := fs.String("token", "", "sent as the bearer token (HTTP: \"Authorization: Bearer TOKEN\"; gRPC: authorization metadata) where the recording has a masked one")
	caFile := fs.String("cacert", "", "gRPC: reach the server over TLS, trusting this CA (PEM); a recording of a TLS upstream needs TLS")
	certFile := fs.String("cert", "", "gRPC: present this client certificate (PEM) to a server that asks for one (mutual TLS); with --key")
	keyFile := fs.String("key", "", "gRPC: the private key (PEM) of --cert")
	file, rest := positional(args)
	if err := parse(fs, rest); err != nil {
		return exitUsage, err
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if file == "" || fs.NArg() > 0 {
		return exitUsage, usageErrorf("replay takes one recording")
	}
	if *against == "" {
		return exitUsage, usageErrorf("replay needs --against COMMAND or --against URL")
	}
	events, err := tap.ReadFile(file)
	if err != nil {
		return exitFailure, err
	}
	var diffs []tap.Difference
	start := time.Now()
	switch {
	case isGRPCRecording(events):
		opts, aerr := grpcReplayOptions(events, *against, grpcTLSFiles{ca: *caFile, cert: *certFile, key: *keyFile}, *wait, *token)
		if aerr != nil {
			return exitUsage, aerr
		}
		diffs, err = tap.ReplayGRPC(ctx, events, grpcAddress(*against), opts)
	case *caFile != "" || *certFile != "" || *keyFile != "":
		return exitUsage, usageErrorf("replay: --cacert, --cert and --key are for a recording of gRPC; an https:// server is trusted as the system trusts it")
	case strings.HasPrefix(*against, "http://") || strings.HasPrefix(*against, "https://"):
		diffs, err = tap.ReplayHTTP(ctx, events, *against, *wait, *token, nil)
	default:
		argv, aerr := serverCommand(*against, env)
		if aerr != nil {
			return exitUsage, aerr
		}
		diffs, err = tap.ReplayStdio(ctx, events, argv, *wait, env.Stderr)
	}
	if err != nil {
		return exitFailure, fmt.Errorf("replay: %w", err)
	}
	for _, d := range diffs {
		fmt.Fprintln(env.Stdout, d)
	}
	if len(diffs) > 0 {
		fmt.Fprintf(env.Stdout, "replay: %s from %s\n", count(len(diffs), "difference", "differences"), file)
		return exitToolError, nil
	}
	fmt.Fprintf(env.Stdout, "replay: the answers agree with %s (%v)\n", file, time.Since(start).Round(time.Millisecond))
	return exitOK, nil
}
