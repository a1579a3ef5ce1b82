package cli

import (
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/grpctool"
)

// tapCmd is `wirelab tap`: a stdio server started behind the tap
// (`-- COMMAND ARGS...`), an HTTP server behind a proxy (--listen and
// --upstream), or the subcommands that read a recording (check, export,
// open).
func tapCmd(ctx context.Context, args []string, env Env) (int, error) {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return tapCheckCmd(ctx, args[1:], env)
		case "export":
			return tapExportCmd(args[1:], env)
		case "open":
			return tapOpenCmd(ctx, args[1:], env)
		}
	}
	fs := flags("tap")
	record := fs.String("record", "", "write every event to this file, one JSON object per line")
	keepSecrets := fs.Bool("keep-secrets", false, "record Authorization, Cookie and API-key headers as they are, not masked")
	listenAddr := fs.String("listen", "", "HTTP: listen here, e.g. 127.0.0.1:8030 (port 0 picks a free one)")
	upstream := fs.String("upstream", "", "HTTP: the server's URL, e.g. http://127.0.0.1:8021/mcp; gRPC: its host:port")
	grpcRelay := fs.Bool("grpc", false, "relay gRPC (HTTP/2) to --upstream host:port and record every frame")
	caFile := fs.String("cacert", "", "gRPC: reach the upstream over TLS, trusting this CA (PEM)")
	certFile := fs.String("cert", "", "gRPC: a client certificate (PEM) for an upstream that asks for one (mutual TLS)")
	keyFile := fs.String("key", "", "gRPC: the key of --cert")
	listenTLS := fs.Bool("tls", false, "gRPC: listen with TLS too, with a certificate from a throwaway CA made at start (the host trusts its ca.pem)")
	certDir := fs.String("cert-dir", "", "gRPC with --tls: where to write ca.pem (default: a temporary directory, removed at exit)")
	quiet := fs.Bool("quiet", false, "print no summary of findings at exit")
	lang := langFlag(fs, "language of the summary of findings at exit")
	playgroundURL := fs.String("playground", "", "publish the events live to the playground at this URL, e.g. http://127.0.0.1:8018 (its /taps lists them)")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	argv := fs.Args()
	if err := checkLang(*lang); err != nil {
		return exitUsage, err
	}
	if (*listenAddr == "") != (*upstream == "") {
		return exitUsage, usageErrorf("tap: --listen and --upstream go together")
	}
	if *listenAddr == "" && len(argv) == 0 {
		return exitUsage, usageErrorf("tap needs a server: -- COMMAND ARGS..., or --listen ADDR --upstream URL")
	}
	if *listenAddr != "" && len(argv) > 0 {
		return exitUsage, usageErrorf("tap: a command and --upstream cannot both be the server")
	}
	if !*grpcRelay && (*caFile+*certFile+*keyFile+*certDir != "" || *listenTLS) {
		return exitUsage, usageErrorf("tap: --cacert, --cert, --key, --tls and --cert-dir are for --grpc; an https:// upstream is trusted as the system trusts it")
	}
	if *certDir != "" && !*listenTLS {
		return exitUsage, usageErrorf("tap: --cert-dir needs --tls")
	}
	var upstreamTLS *tls.Config
	if *grpcRelay {
		if *listenAddr == "" {
			return exitUsage, usageErrorf("tap --grpc needs --listen ADDR --upstream HOST:PORT")
		}
		if *caFile+*certFile+*keyFile != "" {
			cfg, err := grpctool.ClientTLS(*caFile, *certFile, *keyFile)
			if err != nil {
				return exitUsage, usageErrorf("tap: %v", err)
			}
			upstreamTLS = cfg
		}
	}
	opts := &tap.RecorderOptions{KeepSecrets: *keepSecrets}
	if *record != "" {
		f, err := os.Create(*record)
		if err != nil {
			return exitFailure, fmt.Errorf("tap: %w", err)
		}
		defer f.Close()
		opts.File = f
	}
	rec := tap.NewRecorder(opts)
	if *playgroundURL != "" {
		name := *upstream
		if name == "" {
			name = strings.Join(argv, " ")
		}
		pub, err := wire.Publish(*playgroundURL, name, rec, &wire.PublishOptions{Report: publishReport(*playgroundURL, env)})
		if err != nil {
			return exitUsage, usageErrorf("tap: --playground: %v", err)
		}
		// Deferred after the record file's Close, so it runs first: the
		// last events (the server's exit) reach the playground too.
		defer pub.Close()
	}

	var code int
	var err error
	switch {
	case *grpcRelay:
		var listenCfg *tls.Config
		if *listenTLS {
			cfg, cleanup, terr := tapCerts(*certDir, env)
			if terr != nil {
				return exitFailure, terr
			}
			defer cleanup()
			listenCfg = cfg
		}
		err = tapGRPC(ctx, *listenAddr, *upstream, listenCfg, upstreamTLS, rec, env)
	case *listenAddr != "":
		err = tapHTTP(ctx, *listenAddr, *upstream, rec, env)
	default:
		code, err = tapStdio(ctx, argv, rec, env)
	}
	if ferr := rec.FileErr(); ferr != nil && err == nil {
		fmt.Fprintf(env.Stderr, "wirelab tap: %v\n", ferr)
	}
	// A tap that never started (its port was taken, its command was not
	// found) recorded no traffic: a summary of nothing would only hide
	// the error above it.
	if events := rec.Events(); !*quiet && crossed(events) {
		// stderr, never stdout: on stdio, stdout belongs to the host.
		printSummary(env.Stderr, tapcheck.Check(events), *lang == "ru")
	}
	return code, err
}

// crossed reports whether a recording holds anything that crossed the
// tap, beyond its start and its notes.
func crossed(events []tap.Event) bool {
	for _, e := range events {
		if e.Kind != tap.KindStart && e.Kind != tap.KindNote {
			return true
		}
	}
	return false
}

// publishReport says on stderr when the tap reaches the playground and
// when it loses it, once each time: while the playground is away the
// tap tries again quietly, and the relay goes on regardless.
func publishReport(url string, env Env) func(error) {
	connected, said := false, false
	return func(err error) {
		switch {
		case err == nil:
			connected, said = true, false
			fmt.Fprintf(env.Stderr, "wirelab tap: publishing to the playground at %s (%s/taps)\n", url, strings.TrimSuffix(url, "/"))
		case connected || !said:
			connected, said = false, true
			fmt.Fprintf(env.Stderr, "wirelab tap: the playground at %s is not reachable (%v); the tap goes on, and tries again now and then\n", url, err)
		}
	}
}

// tapStdio runs the server behind the tap. Signals are the tap's to pass
// on: the server is in a process group of its own, and the host means
// the server when it signals the tap. So the context's cancellation
// (which main ties to the same signals) does not stop the server; the
// forwarded signal does, and the tap exits with the server's status.
func tapStdio(ctx context.Context, argv []string, rec *tap.Recorder, env Env) (int, error) {
	sigs := make(chan os.Signal, 4)
	// SIGPIPE too: without a handler, a write to a host that has gone
	// would kill the tap at once, leaving nothing recorded about it. A
	// handler, unlike ignoring it, is reset for the child by exec.
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	defer signal.Stop(sigs)
	forward := make(chan os.Signal, 4)
	// Ends when sigs is no longer fed and done closes.
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sigs:
				if s == syscall.SIGPIPE {
					continue
				}
				select {
				case forward <- s:
				case <-done:
					return
				}
			case <-done:
				return
			}
		}
	}()
	s := &tap.Stdio{Argv: argv, Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr, Recorder: rec, Signals: forward}
	return s.Run(context.WithoutCancel(ctx))
}

// tapHTTP serves the proxy until ctx ends (Ctrl-C).
func tapHTTP(ctx context.Context, addr, upstream string, rec *tap.Recorder, env Env) error {
	ln, loopback, err := listen(addr, "--listen", "tap", "http://", env.Stderr)
	if err != nil {
		return err
	}
	p, err := tap.NewProxy(upstream, rec, &tap.ProxyOptions{Loopback: loopback})
	if err != nil {
		ln.Close()
		return usageErrorf("tap: %v", err)
	}
	rec.Add(tap.Event{Kind: tap.KindStart, Format: tap.Format, Upstream: p.Upstream(), URL: "http://" + ln.Addr().String()})
	// The host is pointed at the endpoint itself, path and all, as it
	// was at the upstream's; the tap's "/" leads there too.
	at := "http://" + ln.Addr().String()
	if u, err := url.Parse(p.Upstream()); err == nil && u.Path != "" && u.Path != "/" {
		at += u.EscapedPath()
	}
	fmt.Fprintf(env.Stderr, "wirelab: tap relays to %s; point the host at %s instead\n", p.Upstream(), at)
	// From Ctrl-C on, an exchange cut short is the tap's doing.
	stop := context.AfterFunc(ctx, p.Stop)
	defer stop()
	return serveHTTP(ctx, ln, p)
}

// tapGRPC relays gRPC connections until ctx ends (Ctrl-C). The tap
// listens in plaintext, so that a host's gRPC client is pointed at it
// with insecure credentials, or, with listenTLS, over TLS with a
// certificate of its own, which the host must then trust; either way it
// keeps TLS to the upstream when it has a CA for it. It decrypts and
// encrypts again, so the frames it records are the plaintext HTTP/2.
func tapGRPC(ctx context.Context, addr, upstream string, listenTLS, upstreamTLS *tls.Config, rec *tap.Recorder, env Env) error {
	g, err := tap.NewGRPC(upstream, rec, &tap.GRPCOptions{TLS: upstreamTLS})
	if err != nil {
		return usageErrorf("tap: %v", err)
	}
	scheme, how := "h2c://", "in plaintext"
	if listenTLS != nil {
		scheme, how = "h2://", "over TLS"
	}
	ln, _, err := listen(addr, "--listen", "tap", scheme, env.Stderr)
	if err != nil {
		return err
	}
	if listenTLS != nil {
		ln = tls.NewListener(ln, listenTLS)
	}
	rec.Add(tap.Event{Kind: tap.KindStart, Format: tap.Format, Upstream: g.Upstream(), URL: scheme + ln.Addr().String()})
	fmt.Fprintf(env.Stderr, "wirelab: tap relays gRPC to %s; point the host at %s instead, %s\n", g.Upstream(), ln.Addr(), how)
	return g.Serve(ctx, ln)
}

// tapCerts makes a throwaway CA and a server certificate for the tap
// to listen with, as wirelab server grpc --tls does, and writes ca.pem
// for the host to trust.
func tapCerts(dir string, env Env) (*tls.Config, func(), error) {
	certs, err := grpctool.NewCerts()
	if err != nil {
		return nil, nil, fmt.Errorf("tap: making certificates: %w", err)
	}
	cleanup := func() {}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "wirelab-tap-certs-"); err != nil {
			return nil, nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("tap: making the folder for the certificates: %w", err)
	}
	files, err := certs.WriteFiles(dir)
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("tap: writing certificates: %w", err)
	}
	cfg, err := certs.ServerTLS(false)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	cfg.NextProtos = []string{"h2"} // gRPC over TLS is HTTP/2, chosen by ALPN
	fmt.Fprintf(env.Stderr, "wirelab: the tap listens with TLS; hosts trust its throwaway CA in %s\n", files.CA)
	return cfg, cleanup, nil
}

// printSummary prints the findings, one line each, and their count.
func printSummary(w io.Writer, r *tapcheck.Report, ru bool) {
	for _, f := range inEventOrder(r.Findings) {
		if ru {
			fmt.Fprintf(w, "wirelab tap: событие %d: %s %s: %s\n", f.Event, severityRU[f.Severity], f.Code, f.DetailRU)
		} else {
			fmt.Fprintf(w, "wirelab tap: event %d: %s %s: %s\n", f.Event, f.Severity, f.Code, f.Detail)
		}
	}
	if ru {
		fmt.Fprintf(w, "wirelab tap: %s\n", summaryLineRU(r))
	} else {
		fmt.Fprintf(w, "wirelab tap: %s\n", summaryLine(r))
	}
}

// summaryLine counts what a report holds: messages (or gRPC calls) and
// findings by severity.
func summaryLine(r *tapcheck.Report) string {
	what := count(len(r.Messages), "message", "messages")
	if len(r.Calls) > 0 {
		what = count(len(r.Calls), "gRPC call", "gRPC calls")
	}
	return fmt.Sprintf("%s; %s, %s, %s", what,
		count(r.Count(tapcheck.SeverityError), "error", "errors"),
		count(r.Count(tapcheck.SeverityWarning), "warning", "warnings"),
		count(r.Count(tapcheck.SeverityNote), "note", "notes"))
}

// count says how many of a thing there are: "1 request", "2 requests",
// "0 requests".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summaryLineRU is summaryLine in Russian.
func summaryLineRU(r *tapcheck.Report) string {
	what := countRU(len(r.Messages), "сообщение", "сообщения", "сообщений")
	if len(r.Calls) > 0 {
		what = countRU(len(r.Calls), "вызов", "вызова", "вызовов") + " gRPC"
	}
	return fmt.Sprintf("%s; %s, %s, %s", what,
		countRU(r.Count(tapcheck.SeverityError), "ошибка", "ошибки", "ошибок"),
		countRU(r.Count(tapcheck.SeverityWarning), "предупреждение", "предупреждения", "предупреждений"),
		countRU(r.Count(tapcheck.SeverityNote), "заметка", "заметки", "заметок"))
}

// countRU is count in Russian, where a noun after a number takes one of
// three forms: one for 1, 21, 101 (1 ошибка), few for 2-4, 22-24
// (2 ошибки), many for 0, 5-20, 25-30, 111-114 (5 ошибок, 11 ошибок).
func countRU(n int, one, few, many string) string {
	form := many
	switch n10, n100 := n%10, n%100; {
	case n10 == 1 && n100 != 11:
		form = one
	case n10 >= 2 && n10 <= 4 && (n100 < 12 || n100 > 14):
		form = few
	}
	return fmt.Sprintf("%d %s", n, form)
}

// inEventOrder returns findings in the order of the events they are
// about, for reading top to bottom: a finding made at the end of the
// recording (a request never answered) is about an earlier event. Those
// about one event keep their order. The report itself keeps the order
// in which they were found.
func inEventOrder(findings []tapcheck.Finding) []tapcheck.Finding {
	sorted := slices.Clone(findings)
	slices.SortStableFunc(sorted, func(a, b tapcheck.Finding) int { return cmp.Compare(a.Event, b.Event) })
	return sorted
}

// severityRU names a finding's severity in Russian.
var severityRU = map[string]string{
	tapcheck.SeverityError:   "ошибка",
	tapcheck.SeverityWarning: "предупреждение",
	tapcheck.SeverityNote:    "заметка",
}

// tapCheckCmd is `wirelab tap check FILE`: the findings of a recording,
// each explained. Exit 1 when there is an error or a warning.
func tapCheckCmd(ctx context.Context, args []string, env Env) (int, error) {
	fs := flags("tap check")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	lang := langFlag(fs, "language of the findings and their explanations")
	wireView := fs.Bool("wire", false, "gRPC: print every frame of each connection, and each message field by field and as JSON")
	reflect := fs.String("reflect", "", "gRPC: ask this host:port for descriptors by reflection (default: the tapped server)")
	caFile := fs.String("cacert", "", "gRPC: trust this CA (PEM) when asking for descriptors over TLS")
	file, rest := positional(args)
	if err := parse(fs, rest); err != nil {
		return exitUsage, err
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if file == "" || fs.NArg() > 0 {
		return exitUsage, usageErrorf("tap check takes one recording")
	}
	if err := checkLang(*lang); err != nil {
		return exitUsage, err
	}
	ru := *lang == "ru"
	events, err := tap.ReadFile(file)
	if err != nil {
		return exitFailure, err
	}
	r := tapcheck.Check(events)
	if !*asJSON && len(r.Calls) > 0 {
		target, creds, err := grpcTarget(events, *reflect, *caFile)
		if err != nil {
			return exitUsage, err
		}
		printGRPC(ctx, env.Stdout, events, target, creds, *wireView, ru)
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		for _, f := range inEventOrder(r.Findings) {
			if ru {
				fmt.Fprintf(env.Stdout, "событие %d: %s %s: %s\n    %s\n", f.Event, severityRU[f.Severity], f.Code, f.DetailRU, f.RU)
				continue
			}
			fmt.Fprintf(env.Stdout, "event %d: %s %s: %s\n    %s\n", f.Event, f.Severity, f.Code, f.Detail, f.EN)
		}
		if ru {
			fmt.Fprintln(env.Stdout, summaryLineRU(r))
		} else {
			fmt.Fprintln(env.Stdout, summaryLine(r))
		}
	}
	if r.Count(tapcheck.SeverityError)+r.Count(tapcheck.SeverityWarning) > 0 {
		return exitToolError, nil
	}
	return exitOK, nil
}

// tapExportCmd is `wirelab tap export --har FILE`: the HTTP exchanges of
// a recording as HAR, on stdout. A recording of a stdio server or of the
// gRPC relay has no HTTP exchanges, and the HAR of it would be empty:
// export refuses it, exit 1, rather than hand a HAR viewer or a script an
// empty archive that looks like a tap nobody called. A recording of the
// HTTP relay that nobody called is an empty archive, truly.
func tapExportCmd(args []string, env Env) (int, error) {
	fs := flags("tap export")
	har := fs.String("har", "", "the recording to export as HAR")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	if *har == "" || fs.NArg() > 0 {
		return exitUsage, usageErrorf("tap export takes --har FILE")
	}
	events, err := tap.ReadFile(*har)
	if err != nil {
		return exitFailure, err
	}
	switch {
	case isGRPCRecording(events):
		return exitToolError, fmt.Errorf("tap export: %s is a recording of the gRPC relay, which keeps HTTP/2 frames, not the HTTP exchanges HAR holds; `wirelab tap check --wire %s` prints them", *har, *har)
	case events[0].Kind == tap.KindStart && len(events[0].Command) > 0:
		return exitToolError, fmt.Errorf("tap export: %s is a recording of a stdio server: its messages are lines on a pipe, not HTTP exchanges, so there is nothing for HAR to hold; `wirelab tap check %s` reads them", *har, *har)
	}
	return exitOK, tap.WriteHAR(env.Stdout, events, implVersion())
}

// positional takes a first argument that is not a flag, so that
// `replay FILE --against X` reads as well as `replay --against X FILE`.
func positional(args []string) (string, []string) {
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		return args[0], args[1:]
	}
	return "", args
}
