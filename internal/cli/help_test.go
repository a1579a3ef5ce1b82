package cli

import (
	"context"
	"errors"
	"flag"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// usageCommands returns every command the usage shows a synopsis of, in
// order, each once.
func usageCommands(t *testing.T) []string {
	t.Helper()
	var cmds []string
	for _, b := range usageBlocks() {
		for _, s := range b.synopses {
			if !slices.Contains(cmds, s.command) {
				cmds = append(cmds, s.command)
			}
		}
	}
	if len(cmds) < 20 {
		t.Fatalf("usage names %d commands: %q; it was not cut into synopses", len(cmds), cmds)
	}
	return cmds
}

// helpFor asks a command for help, in process, and returns what it
// answered with: the command usage names and the flag set it parsed with.
func helpFor(t *testing.T, cmd string) errHelp {
	t.Helper()
	args := append(strings.Fields(cmd), "--help")
	_, err := dispatch(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	var he errHelp
	if !errors.As(err, &he) {
		t.Fatalf("%s --help: %v; want help", cmd, err)
	}
	return he
}

// TestCommandHelp asks every command for help in each of the three ways:
// its own synopses, its description and its flags, on stdout, exit 0.
func TestCommandHelp(t *testing.T) {
	for _, cmd := range usageCommands(t) {
		if cmd == "help" {
			continue // `help --help` is the whole usage (TestHelpAndVersion)
		}
		words := strings.Fields(cmd)
		for _, args := range [][]string{
			append(slices.Clone(words), "--help"),
			append(slices.Clone(words), "-h"),
			append([]string{"help"}, words...),
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := run(t, "", args...)
				if code != exitOK || stderr != "" {
					t.Fatalf("exit %d, stderr:\n%s\nwant exit 0 and nothing on stderr", code, stderr)
				}
				if !strings.HasPrefix(stdout, "Usage:\n  wirelab ") || strings.Contains(stdout, "learn, teach and debug") {
					t.Errorf("stdout is not the command's part of the usage:\n%s", stdout)
				}
				for _, b := range commandBlocks(cmd) {
					for _, s := range b.synopses {
						if !strings.Contains(stdout, strings.Join(s.lines, "\n")+"\n") {
							t.Errorf("synopsis %q missing from:\n%s", s.lines[0], stdout)
						}
					}
				}
				// Another command's synopsis is not this command's help.
				for _, line := range strings.Split(stdout, "\n") {
					if other := commandNamed(line); strings.HasPrefix(line, synopsisStart) && other != cmd && !strings.HasPrefix(other, cmd+" ") {
						t.Errorf("the help of %s shows %s:\n%s", cmd, other, stdout)
					}
				}
				if he := helpFor(t, cmd); he.fs != nil {
					he.fs.VisitAll(func(f *flag.Flag) {
						if !strings.Contains(stdout, "\n  --"+f.Name+" ") && !strings.Contains(stdout, "\n  --"+f.Name+"\n") {
							t.Errorf("flag --%s not listed under Flags:\n%s", f.Name, stdout)
						}
					})
				}
			})
		}
	}
}

// TestHelpNamesEveryFlag walks the flag set of every command, as the
// command builds it, and checks that a synopsis of the command in
// `wirelab help` names each flag: a flag added to the code and not to
// the usage fails here.
func TestHelpNamesEveryFlag(t *testing.T) {
	cmds := usageCommands(t)
	// Every protocol of server and client has its synopsis, so that its
	// flag set is walked too. The protocols are those the command knows,
	// as its own error lists them.
	for _, group := range []string{"server", "client"} {
		_, _, stderr := run(t, "", group, "nonesuch")
		_, known, ok := strings.Cut(strings.SplitN(stderr, "\n", 2)[0], "known: ")
		if !ok {
			t.Fatalf("%s nonesuch: %q does not list the protocols", group, stderr)
		}
		for _, proto := range strings.Split(known, ", ") {
			if !slices.Contains(cmds, group+" "+proto) {
				t.Errorf("usage has no synopsis of %s %s", group, proto)
			}
		}
	}
	for _, cmd := range cmds {
		if cmd == "help" {
			continue // no flags: `help --help` is the whole usage
		}
		he := helpFor(t, cmd)
		if he.command != cmd {
			t.Errorf("%s --help answers as %q", cmd, he.command)
		}
		if he.fs == nil {
			continue
		}
		var synopses []string
		for _, b := range commandBlocks(cmd) {
			for _, s := range b.synopses {
				synopses = append(synopses, s.lines...)
			}
		}
		text := strings.Join(synopses, "\n")
		he.fs.VisitAll(func(f *flag.Flag) {
			// The whole name: --cert is not named by --cert-dir.
			named := regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `([^a-z0-9-]|$)`)
			if !named.MatchString(text) {
				t.Errorf("no synopsis of %s in `wirelab help` names --%s (%s):\n%s", cmd, f.Name, f.Usage, text)
			}
		})
	}
}

// TestUsageErrorShowsTheCommand: after a usage error comes the synopsis
// of the command called, not the whole usage, and where its help is.
func TestUsageErrorShowsTheCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // all of stderr
	}{
		{[]string{"client", "http", "--token", "reader"}, "wirelab: client http needs a tool name\n\nUsage:\n" +
			"  wirelab client http [--url http://127.0.0.1:8019] [--token T] [--timeout 30s] [--tool-version V]\n" +
			"          TOOL [KEY=VALUE | KEY:=JSON]...\n" +
			"`wirelab client http --help` says more.\n"},
		{[]string{"hint"}, "wirelab: hint needs one exercise id\n\nUsage:\n  wirelab hint ID [--lang en|ru]\n`wirelab hint --help` says more.\n"},
		{[]string{"version", "x"}, "wirelab: version takes no arguments\n\nUsage:\n  wirelab version\n`wirelab version --help` says more.\n"},
		{[]string{"bogus"}, "wirelab: unknown command \"bogus\"\n`wirelab help` lists the commands.\n"},
		{[]string{"help", "client", "word_count"}, "wirelab: help: no command \"client word_count\"; `wirelab help` lists them\n\nUsage:\n" +
			"  wirelab help [COMMAND]\n`wirelab help --help` says more.\n"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			if code != exitUsage || stdout != "" || stderr != tt.want {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2, nothing on stdout and:\n%s", code, stdout, stderr, tt.want)
			}
		})
	}
}

// TestCommandOf: the command a command line calls, as usage names it.
func TestCommandOf(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "serve"},
		{[]string{"--no-open"}, "serve"},
		{[]string{"serve", "--classroom"}, "serve"},
		{[]string{"server"}, "server"},
		{[]string{"server", "smtp"}, "server"},
		{[]string{"server", "a2a", "--addr", "x"}, "server a2a"},
		{[]string{"client", "mcp", "word_count"}, "client mcp"},
		{[]string{"tap", "--listen", "x"}, "tap"},
		{[]string{"tap", "check", "f"}, "tap check"},
		{[]string{"replay", "f"}, "replay"},
		{[]string{"grade", "stdio-server"}, "grade"},
		{[]string{"bogus"}, ""},
	} {
		if got := commandOf(tt.args); got != tt.want {
			t.Errorf("commandOf(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap("one two three four", 9)
	if want := []string{"one two", "three", "four"}; !slices.Equal(got, want) {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}
