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
	against := fs.String("against", "", `the server: a command line ("wirelab server mcp") for a stdio recording, a URL for an HTTP one`)
	wait := fs.Duration("wait", tap.DefaultWait, "how long to wait for each recorded answer before going on without it")
	token := fs.String("token", "", "HTTP: sent as \"Authorization: Bearer TOKEN\" where the recording has a masked one")
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
	events, err := readRecording(file)
	if err != nil {
		return exitFailure, err
	}
	for _, e := range events {
		if e.Kind == tap.KindFrame {
			return exitUsage, usageErrorf("replay: %s is a recording of gRPC; replay sends stdio and HTTP recordings only (tap check --wire shows its calls)", file)
		}
	}
	var diffs []tap.Difference
	start := time.Now()
	if strings.HasPrefix(*against, "http://") || strings.HasPrefix(*against, "https://") {
		diffs, err = tap.ReplayHTTP(ctx, events, *against, *wait, *token, nil)
	} else {
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
		fmt.Fprintf(env.Stdout, "replay: %d differences from %s\n", len(diffs), file)
		return exitToolError, nil
	}
	fmt.Fprintf(env.Stdout, "replay: the answers agree with %s (%v)\n", file, time.Since(start).Round(time.Millisecond))
	return exitOK, nil
}
