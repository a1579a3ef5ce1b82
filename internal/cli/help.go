package cli

import (
	"flag"
	"fmt"
	"strings"
)

// usage is the whole command line, printed by `wirelab help`. Each
// command's part of it is printed, with the command's flags, by
// `wirelab COMMAND --help`, and its synopsis lines alone after a usage
// error. The text has three kinds of line, told apart by their indent:
// a synopsis starts with "  wirelab "; a synopsis too long for one line
// goes on in lines indented by ten spaces; the description the synopses
// above it share is indented by six. Every flag of a command is named in
// one of its synopsis lines (TestHelpNamesEveryFlag).
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
  wirelab server mcp [--http 127.0.0.1:8021 [--token SECRET[:SCOPE,...]]... [--max-sessions 1000] [--session-idle 10m]]
          [--fixtures conformance|hostile] [--page-size N]
  wirelab server mcp --http 127.0.0.1:8021 --auth URL|builtin [--auth-addr 127.0.0.1:8023] [--resource URL]
      The MCP server, revisions 2026-07-28 (each request on its own) and 2025-11-25
      (a session opened with initialize) at once: on stdin and stdout, one JSON-RPC message
      per line; or, with --http, Streamable HTTP at http://ADDR/mcp. A session idle for
      --session-idle ends; when --max-sessions are open, a new one ends the idle session
      unused longest. With --auth it is an OAuth resource server: it takes access tokens
      that the authorization server URL issued for it (scope mcp:tools; a production
      deploy needs deploy:production too); builtin starts wirelab's own, and says where.
      --fixtures conformance adds what the official conformance suite calls; hostile
      makes a server a host must not trust, for the lesson on MCP security.
  wirelab server a2a [--addr 127.0.0.1:8022] [--token SECRET[:SCOPE,...]]...
      The A2A agent, protocol 1.0 and 0.3 over JSON-RPC at http://ADDR/ (the A2A-Version
      header chooses; none means 0.3); its card at /.well-known/agent-card.json.
  wirelab server oauth [--addr 127.0.0.1:8023] [--client ID[:SECRET]=REDIRECT_URI]...
      The teaching OAuth 2.1 authorization server for MCP, issuer http://ADDR: metadata
      (RFC 8414), consent page, PKCE S256, ES256 JWT access tokens, rotating refresh
      tokens, /register (RFC 7591) and client ID metadata documents.
  wirelab client stdio [--cmd "COMMAND LINE"] [--timeout 30s] [--tool-version V] TOOL [KEY=VALUE | KEY:=JSON]...
  wirelab client http [--url http://127.0.0.1:8019] [--token T] [--timeout 30s] [--tool-version V]
          TOOL [KEY=VALUE | KEY:=JSON]...
  wirelab client grpc [--addr 127.0.0.1:8020] [--token T] [--tls] [--cacert CA.pem [--cert C.pem --key K.pem]]
          [--stream] [--wire] [--timeout 30s] [--tool-version V] TOOL [KEY=VALUE | KEY:=JSON]...
  wirelab client grpc [--addr 127.0.0.1:8020] ... --method SERVICE/METHOD [--data JSON]
  wirelab client mcp [--cmd "COMMAND LINE" | --url http://127.0.0.1:8021/mcp [--token T]] [--protocol-version REV]
          [--elicit-accept JSON | --elicit-decline] [--progress] [--timeout 30s]
          [--list | TOOL [KEY=VALUE | KEY:=JSON]...]
  wirelab client mcp --url http://127.0.0.1:8021/mcp [--client-id ID [--client-secret S] | --client-metadata-url URL]
          [--scope SCOPES] [--open] [--wire] ...
  wirelab client mcp --conformance URL
      Call a tool and print its result. KEY=VALUE sends a string,
      KEY:=JSON any JSON value (limit:=3).
      Exit 0 on success, 1 on a tool error, 2 on a protocol or transport error.
      MCP: no TOOL (or --list) lists the tools; notifications go to stderr; 2026-07-28
      first, 2025-11-25 for a server without it; --conformance is the official suite's client.
      MCP over HTTP without --token: a 401 starts the OAuth flow (the URL to approve is printed;
      --open opens it; --client-id/--client-secret, --client-metadata-url, --scope); --wire
      prints every HTTP exchange, tokens masked.
      gRPC: --wire prints every HTTP/2 frame on stderr; --stream shows progress;
      --method SERVICE/METHOD --data JSON calls any method of a server with reflection.
  wirelab client a2a [--url http://127.0.0.1:8022] [--token T] [--stream | --poll 200ms] [--task ID] [--context ID]
          [--a2a-version 1.0|0.3] [--timeout 1m] MESSAGE...
  wirelab client a2a [--url ...] --cancel TASK
      Read the agent card, send MESSAGE, and print each event of the task until it is
      done or asks for input; answer in the same task with --task. Exit 0 when it
      completed or waits for you, 1 when it failed, was rejected or canceled.
  wirelab tap [--record FILE] [--keep-secrets] [--quiet] [--lang en|ru] [--playground URL] -- COMMAND ARGS...
  wirelab tap --listen 127.0.0.1:PORT --upstream URL [--record FILE] [--keep-secrets] [--quiet] [--lang en|ru]
          [--playground URL]
  wirelab tap --grpc --listen 127.0.0.1:PORT --upstream HOST:PORT [--cacert CA.pem [--cert C.pem --key K.pem]]
          [--tls [--cert-dir DIR]] [--record FILE] [--keep-secrets] [--quiet] [--lang en|ru] [--playground URL]
      Relay a real host's traffic to a stdio, HTTP or gRPC server unchanged, record it
      (secrets masked, unless --keep-secrets) and check each MCP and A2A message; the
      findings go to stderr at exit, unless --quiet, in --lang. --playground shows the traffic live
      in a running playground (http://127.0.0.1:8018), under /taps. tap check, tap export
      and tap open read a recording; replay sends it to a server again.
  wirelab tap check [--json] [--lang en|ru] [--wire [--reflect HOST:PORT] [--cacert CA.pem]] FILE
      Explain each finding of a recording; exit 1 when one is an error or a warning.
  wirelab tap export --har FILE
      Print the HTTP exchanges of a recording of --listen as HAR. A recording of a stdio
      server or of --grpc holds no HTTP exchanges: export says so and exits 1.
  wirelab tap open FILE [--playground http://127.0.0.1:8018]
      Show a recording in a running playground, read only, each finding marked on its row.
  wirelab replay FILE --against COMMAND|URL|HOST:PORT [--wait 5s] [--token T]
          [--cacert CA.pem] [--cert C.pem --key K.pem]
      Replay a recording against a server and diff the answers: exit 0 when they agree,
      1 otherwise.
  wirelab exercises [--json] [--lang en|ru]
      List the exercises: id, kind (code or frame), lesson, your progress, title.
  wirelab init DIR
  wirelab init --add DIR
      Write the starter code of every code exercise into DIR/ID, with a go.mod, and
      remember DIR as your workspace. Never overwrites a file. --add, after pulling a
      newer wirelab: into your workspace DIR, write only the exercise folders it lacks.
  wirelab grade ID... [--dir DIR] [--all-stages] [--json] [--watch] [--lang en|ru]
      Build and test your code for code exercises, found in DIR/ID (DIR: your workspace,
      else the current directory). Stops at the first failing stage unless --all-stages.
      Exit 0 when everything passed, 1 when a stage failed. --watch grades again
      whenever a .go file changes; --json prints each report as one line of JSON.
  wirelab hint ID [--lang en|ru]
      Show the next hint for an exercise. --lang defaults to $WIRELAB_LANG, else en.
  wirelab version
      Print this wirelab's version.
  wirelab help [COMMAND]
      Print this, or one command's part of it with all its flags (as COMMAND --help).
`

// The indents that tell the lines of usage apart.
const (
	synopsisStart      = "  wirelab "
	continuationIndent = "          "
)

// synopsis is one way of calling a command: a line of usage, and the
// lines that continue it.
type synopsis struct {
	command string // "serve", "server mcp", "tap check"
	lines   []string
}

// usageBlock is a paragraph of usage: one or more synopses, and the
// description they share.
type usageBlock struct {
	synopses    []synopsis
	description []string
}

// usageBlocks cuts usage into its paragraphs.
func usageBlocks() []usageBlock {
	_, body, _ := strings.Cut(usage, "Usage:\n")
	var blocks []usageBlock
	for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		last := len(blocks) - 1
		switch {
		case strings.HasPrefix(line, synopsisStart):
			if last < 0 || len(blocks[last].description) > 0 {
				blocks = append(blocks, usageBlock{})
				last++
			}
			b := &blocks[last]
			b.synopses = append(b.synopses, synopsis{command: commandNamed(line), lines: []string{line}})
		case strings.HasPrefix(line, continuationIndent) && last >= 0 && len(blocks[last].description) == 0:
			s := &blocks[last].synopses[len(blocks[last].synopses)-1]
			s.lines = append(s.lines, line)
		case last >= 0:
			blocks[last].description = append(blocks[last].description, line)
		}
	}
	return blocks
}

// commandNamed returns the command a synopsis line calls: its words after
// "wirelab" up to the first flag or placeholder. "[serve]" is serve,
// which the line shows as optional.
func commandNamed(line string) string {
	var words []string
	for _, w := range strings.Fields(strings.TrimPrefix(line, synopsisStart)) {
		if w == "[serve]" {
			w = "serve"
		}
		if len(words) == 2 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
			break
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// matches reports whether a synopsis belongs to cmd: it calls cmd, or,
// for a group such as "server", one of its subcommands.
func (s synopsis) matches(cmd string, group bool) bool {
	if group {
		return strings.HasPrefix(s.command, cmd+" ")
	}
	return s.command == cmd
}

// commandBlocks returns the paragraphs of usage about cmd, each with only
// the synopses of cmd. A group such as "server", which has no synopsis
// of its own, gets those of its subcommands. None means usage knows no
// such command.
func commandBlocks(cmd string) []usageBlock {
	if cmd == "" {
		return nil
	}
	blocks := usageBlocks()
	pick := func(group bool) []usageBlock {
		var out []usageBlock
		for _, b := range blocks {
			var own []synopsis
			for _, s := range b.synopses {
				if s.matches(cmd, group) {
					own = append(own, s)
				}
			}
			if len(own) > 0 {
				out = append(out, usageBlock{synopses: own, description: b.description})
			}
		}
		return out
	}
	if out := pick(false); len(out) > 0 {
		return out
	}
	return pick(true)
}

// commandOf returns the command that a command line calls, as usage names
// it: "client http" for `client http --token T`, "tap" for `tap --listen`,
// "serve" for no command; "" for a command that does not exist.
func commandOf(args []string) string {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return "serve"
	}
	if len(args) > 1 && len(commandBlocks(args[0]+" "+args[1])) > 0 {
		return args[0] + " " + args[1]
	}
	if len(commandBlocks(args[0])) > 0 {
		return args[0]
	}
	return ""
}

// errHelp is what asking a command for help (-h or --help) returns: the
// command's part of usage and its flags, fs, which is nil for a command
// without flags of its own (version, or a group such as server).
type errHelp struct {
	command string
	fs      *flag.FlagSet
}

func (e errHelp) Error() string { return "help for " + e.command }

// isHelpFlag reports whether arg asks for help, as the flag package
// takes it: -h, -help, --h or --help.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "-help", "--h", "--help":
		return true
	}
	return false
}

// commandHelp is `wirelab COMMAND --help`: the synopses and descriptions
// of cmd, then each of its flags with what it does and its default.
func commandHelp(cmd string, fs *flag.FlagSet) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	for _, blk := range commandBlocks(cmd) {
		for _, s := range blk.synopses {
			b.WriteString(strings.Join(s.lines, "\n") + "\n")
		}
		for _, d := range blk.description {
			b.WriteString(d + "\n")
		}
	}
	if fs == nil {
		return b.String()
	}
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			b.WriteString("\nFlags:\n")
			first = false
		}
		kind, text := flag.UnquoteUsage(f)
		fmt.Fprintf(&b, "  --%s", f.Name)
		if kind != "" {
			fmt.Fprintf(&b, " %s", kind)
		}
		b.WriteString("\n")
		switch f.DefValue {
		case "", "0", "false", "[]":
		default:
			text += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		for _, l := range wrap(text, helpWidth) {
			b.WriteString("        " + l + "\n")
		}
	})
	return b.String()
}

// helpWidth is where a flag's description wraps: with its indent, lines
// stay within a terminal's customary 100 columns.
const helpWidth = 90

// wrap breaks text into lines of at most width bytes, between words.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// usageAfterError is what follows a usage error's one line: the synopses
// of the command that was called, and where the rest is; for a command
// that does not exist, where the list of commands is.
func usageAfterError(cmd string) string {
	blocks := commandBlocks(cmd)
	if len(blocks) == 0 {
		return "`wirelab help` lists the commands.\n"
	}
	var b strings.Builder
	b.WriteString("\nUsage:\n")
	for _, blk := range blocks {
		for _, s := range blk.synopses {
			b.WriteString(strings.Join(s.lines, "\n") + "\n")
		}
	}
	fmt.Fprintf(&b, "`wirelab %s --help` says more.\n", cmd)
	return b.String()
}
