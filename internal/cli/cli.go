package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes.
const (
	exitOK        = 0
	exitToolError = 1 // the tool ran and failed, or refused its arguments
	exitFailure   = 1 // a server could not start or stopped with an error
	exitProtocol  = 2 // a protocol or transport error, in a client
	exitUsage     = 2 // a command line that cannot be run
)

// Env is what a command may touch: its streams, and how to open a browser.
// Tests replace all of it.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// OpenBrowser opens a URL for the user. Nil means never open one.
	OpenBrowser func(url string) error
	// Executable is the path of the running wirelab binary, used to start
	// its own stdio server when no --cmd is given.
	Executable string
}

// usage is printed by `wirelab help` and after every usage error.
const usage = `wirelab: learn, teach and debug tool protocols by reading the wire.

Usage:
  wirelab [serve] [--addr 127.0.0.1:8018] [--no-open]
      Start the playground in the browser, and beside it the built-in servers: among them
      an OAuth authorization server and a second MCP server that takes its tokens.
  wirelab serve --classroom [--addr 0.0.0.0:8080] [--code CODE] [--nats nats://HOST:4222]
      Open the playground to a room: students join at the printed URL with the code;
      your home page shows both with a QR code, and /classroom who is here. With --nats
      (on any serve), playgrounds sharing the NATS server share the presenter.
  wirelab serve --follow JOIN_URL[?code=CODE] [--code CODE] [--name NAME]
      Join an instructor's classroom and follow its presenter beside your own consoles.
  wirelab server stdio [--max-line BYTES]
      The stdio tool server: one JSON request per line on stdin.
  wirelab server http [--addr 127.0.0.1:8019] [--token SECRET[:SCOPE,...]]...
      The HTTP tool server. With tokens, callers need "Authorization: Bearer SECRET";
      deploying to production needs the deploy:production scope.
  wirelab server grpc [--addr 127.0.0.1:8020] [--token SECRET[:SCOPE,...]]... [--tls | --mtls [--cert-dir DIR]]
      The gRPC tool server (tools.v1.ToolServer), with health and reflection.
      --tls and --mtls make a throwaway CA at start and print where clients find it.
  wirelab server mcp [--http 127.0.0.1:8021 [--token SECRET[:SCOPE,...]]... [--max-sessions 1000] [--session-idle 10m]] [--fixtures conformance] [--page-size N]
  wirelab server mcp --http 127.0.0.1:8021 --auth URL|builtin [--auth-addr 127.0.0.1:8023] [--resource URL]
      The MCP server, revisions 2026-07-28 (each request on its own) and 2025-11-25
      (a session opened with initialize) at once: on stdin and stdout, one JSON-RPC message
      per line; or, with --http, Streamable HTTP at http://ADDR/mcp. A session idle for
      --session-idle ends; when --max-sessions are open, a new one ends the idle session
      unused longest. With --auth it is an OAuth resource server: it takes access tokens
      that the authorization server URL issued for it (scope mcp:tools; a production
      deploy needs deploy:production too); builtin starts wirelab's own, and says where.
  wirelab server a2a [--addr 127.0.0.1:8022] [--token SECRET[:SCOPE,...]]...
      The A2A agent, protocol 1.0 and 0.3 over JSON-RPC at http://ADDR/ (the A2A-Version
      header chooses; none means 0.3); its card at /.well-known/agent-card.json.
  wirelab server oauth [--addr 127.0.0.1:8023] [--client ID[:SECRET]=REDIRECT_URI]...
      The teaching OAuth 2.1 authorization server for MCP, issuer http://ADDR: metadata
      (RFC 8414), consent page, PKCE S256, ES256 JWT access tokens, rotating refresh
      tokens, /register (RFC 7591) and client ID metadata documents.
  wirelab client stdio [--cmd "COMMAND LINE"] TOOL [KEY=VALUE | KEY:=JSON]...
  wirelab client http [--url http://127.0.0.1:8019] [--token T] TOOL [KEY=VALUE | KEY:=JSON]...
  wirelab client grpc [--addr 127.0.0.1:8020] [--token T] [--cacert CA.pem [--cert C.pem --key K.pem]] [--stream] [--wire] TOOL [KEY=VALUE | KEY:=JSON]...
  wirelab client mcp [--cmd "COMMAND LINE" | --url http://127.0.0.1:8021/mcp [--token T]] [--protocol-version REV] [--elicit-accept JSON | --elicit-decline] [--progress] [--list | TOOL [KEY=VALUE | KEY:=JSON]...]
  wirelab client mcp --conformance URL
      Call a tool and print its result. KEY=VALUE sends a string,
      KEY:=JSON any JSON value (limit:=3). Client flags: --timeout, --tool-version.
      Exit 0 on success, 1 on a tool error, 2 on a protocol or transport error.
      MCP: no TOOL (or --list) lists the tools; notifications go to stderr; 2026-07-28
      first, 2025-11-25 for a server without it; --conformance is the official suite's client.
      MCP over HTTP without --token: a 401 starts the OAuth flow (the URL to approve is printed;
      --open opens it; --client-id/--client-secret, --client-metadata-url, --scope); --wire
      prints every HTTP exchange, tokens masked.
      gRPC: --wire prints every HTTP/2 frame on stderr; --stream shows progress;
      --method SERVICE/METHOD --data JSON calls any method of a server with reflection.
  wirelab client a2a [--url http://127.0.0.1:8022] [--token T] [--stream] [--task ID] [--a2a-version 1.0|0.3] MESSAGE...
  wirelab client a2a [--url ...] --cancel TASK
      Read the agent card, send MESSAGE, and print each event of the task until it is
      done or asks for input; answer in the same task with --task. Exit 0 when it
      completed or waits for you, 1 when it failed, was rejected or canceled.
  wirelab tap [--record FILE] -- COMMAND ARGS...
  wirelab tap --listen 127.0.0.1:PORT --upstream URL [--record FILE]
  wirelab tap --grpc --listen 127.0.0.1:PORT --upstream HOST:PORT [--cacert CA.pem] [--tls [--cert-dir DIR]] [--record FILE]
  wirelab tap check [--json] [--lang en|ru] [--wire [--reflect HOST:PORT]] FILE | tap export --har FILE
  wirelab tap open FILE [--playground http://127.0.0.1:8018]
  wirelab replay FILE --against COMMAND|URL|HOST:PORT [--wait 5s] [--token T] [--cacert CA.pem] [--cert C.pem --key K.pem]
      Relay a real host's traffic to a stdio, HTTP or gRPC server unchanged, record it
      (secrets masked) and check each MCP and A2A message; replay a recording against a
      server and diff the answers: exit 0 when they agree, 1 otherwise. tap open shows a
      recording in a running playground, read only, each finding marked on its row.
  wirelab exercises [--json] [--lang en|ru]
      List the exercises: id, kind (code or frame), lesson, your progress, title.
  wirelab init DIR
      Write the starter code of every code exercise into DIR/ID, with a go.mod, and
      remember DIR as your workspace. Never overwrites a file.
  wirelab grade ID... [--dir DIR] [--all-stages] [--json] [--watch]
      Build and test your code for code exercises, found in DIR/ID (DIR: your workspace,
      else the current directory). Stops at the first failing stage unless --all-stages.
      Exit 0 when everything passed, 1 when a stage failed. --watch grades again
      whenever a .go file changes; --json prints each report as one line of JSON.
  wirelab hint ID [--lang en|ru]
      Show the next hint for an exercise.
  wirelab version
  wirelab help
`

// errUsage marks errors caused by the command line itself.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return errUsage{fmt.Sprintf(format, args...)}
}

// errArgument marks a command line whose shape is right but whose
// argument names nothing there is, such as an unknown exercise id. Its
// one line says what to do instead; the usage after it would bury that
// line under fifty others that say nothing about it.
type errArgument struct{ msg string }

func (e errArgument) Error() string { return e.msg }

func argumentErrorf(format string, args ...any) error {
	return errArgument{fmt.Sprintf(format, args...)}
}

// Run runs the command line args (without the program name) and returns
// the process's exit code.
func Run(ctx context.Context, args []string, env Env) int {
	code, err := dispatch(ctx, args, env)
	var ue errUsage
	var ae errArgument
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(env.Stderr, "wirelab: %s\n\n%s", ue.msg, usage)
		return exitUsage
	case errors.As(err, &ae):
		fmt.Fprintf(env.Stderr, "wirelab: %s\n", ae.msg)
		return exitUsage
	case err != nil:
		fmt.Fprintf(env.Stderr, "wirelab: %v\n", err)
		if code == exitOK {
			code = exitFailure
		}
	}
	return code
}

func dispatch(ctx context.Context, args []string, env Env) (int, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		// Plain `wirelab`, or `wirelab --no-open`: the playground.
		return exitOK, serve(ctx, args, env)
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "serve":
		return exitOK, serve(ctx, rest, env)
	case "server":
		return exitOK, server(ctx, rest, env)
	case "client":
		return client(ctx, rest, env)
	case "tap":
		return tapCmd(ctx, rest, env)
	case "replay":
		return replayCmd(ctx, rest, env)
	case "exercises":
		return exercisesCmd(rest, env)
	case "grade":
		return gradeCmd(ctx, rest, env)
	case "init":
		return initCmd(rest, env)
	case "hint":
		return hintCmd(rest, env)
	case "version":
		if len(rest) > 0 {
			return exitUsage, usageErrorf("version takes no arguments")
		}
		fmt.Fprintln(env.Stdout, version())
		return exitOK, nil
	case "help", "-h", "--help":
		fmt.Fprint(env.Stdout, usage)
		return exitOK, nil
	default:
		return exitUsage, usageErrorf("unknown command %q", cmd)
	}
}

// flags returns a flag set that reports errors instead of printing them
// and exiting, so that every usage error looks the same.
func flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses a command's flags, turning flag errors into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return usageErrorf("help for %s", fs.Name())
		}
		return usageErrorf("%s: %v", fs.Name(), err)
	}
	return nil
}

// repeated is a flag that may be given many times, such as --token.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// sub picks a protocol subcommand ("stdio", "http", ...) or fails with usage.
func sub(cmd string, args []string, known ...string) (string, []string, error) {
	if len(args) == 0 {
		last := len(known) - 1
		return "", nil, usageErrorf("%s needs a protocol: %s or %s", cmd, strings.Join(known[:last], ", "), known[last])
	}
	for _, k := range known {
		if args[0] == k {
			return k, args[1:], nil
		}
	}
	return "", nil, usageErrorf("unknown protocol %q for %s; known: %s", args[0], cmd, strings.Join(known, ", "))
}
