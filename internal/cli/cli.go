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
	var he errHelp
	var ue errUsage
	var ae errArgument
	switch {
	case errors.As(err, &he):
		// Help that was asked for is the answer, so stdout and success.
		fmt.Fprint(env.Stdout, commandHelp(he.command, he.fs))
		return exitOK
	case errors.As(err, &ue):
		// The error, then how to call that command: its synopses, not
		// the whole usage, which would bury the error.
		fmt.Fprintf(env.Stderr, "wirelab: %s\n%s", ue.msg, usageAfterError(commandOf(args)))
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
	if len(args) > 0 && isHelpFlag(args[0]) {
		// `wirelab --help`, which is `wirelab help`.
		fmt.Fprint(env.Stdout, usage)
		return exitOK, nil
	}
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
		fs := flags("version")
		if err := parse(fs, rest); err != nil {
			return exitUsage, err
		}
		if fs.NArg() > 0 {
			return exitUsage, usageErrorf("version takes no arguments")
		}
		fmt.Fprintln(env.Stdout, version())
		return exitOK, nil
	case "help":
		return helpCmd(ctx, rest, env)
	default:
		return exitUsage, usageErrorf("unknown command %q", cmd)
	}
}

// helpCmd is `wirelab help [COMMAND]`: the whole usage, or one
// command's help, as `wirelab COMMAND --help` prints it.
func helpCmd(ctx context.Context, args []string, env Env) (int, error) {
	if n := len(args); n > 0 && isHelpFlag(args[n-1]) {
		args = args[:n-1] // `help tap open --help` asks the same
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stdout, usage)
		return exitOK, nil
	}
	// Only a command usage names: anything else after it would be run.
	if cmd := strings.Join(args, " "); len(args) > 2 || commandOf(args) != cmd {
		return exitUsage, usageErrorf("help: no command %q; `wirelab help` lists them", cmd)
	}
	// The command itself answers --help, so that its flags are listed
	// from the flag set it parses with.
	return dispatch(ctx, append(args[:len(args):len(args)], "--help"), env)
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
			return errHelp{command: fs.Name(), fs: fs}
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
	if len(args) > 0 && isHelpFlag(args[0]) {
		return "", nil, errHelp{command: cmd}
	}
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
