package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// run runs a command line in-process.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // the one-line error
	}{
		{[]string{"bogus"}, `wirelab: unknown command "bogus"`},
		{[]string{"--bogus"}, `wirelab: serve: flag provided but not defined: -bogus`},
		{[]string{"server"}, `wirelab: server needs a protocol: stdio, http, grpc, mcp, a2a or oauth`},
		{[]string{"server", "smtp"}, `wirelab: unknown protocol "smtp" for server; known: stdio, http, grpc, mcp, a2a, oauth`},
		{[]string{"server", "http", "--port", "1"}, `wirelab: server http: flag provided but not defined: -port`},
		{[]string{"server", "http", "--token", "bad token"}, `wirelab: token "bad token": a secret is letters, digits and -._~+/ (RFC 6750), optionally followed by :SCOPE,...`},
		{[]string{"server", "http", "--token", "ops:root"}, `wirelab: token "ops:root": unknown scope "root"; known scopes: deploy:production`},
		{[]string{"server", "stdio", "extra"}, `wirelab: server stdio takes no arguments, got "extra"`},
		{[]string{"client", "http"}, `wirelab: client http needs a tool name`},
		{[]string{"client", "http", "word_count", "text"}, `wirelab: argument "text" is not KEY=VALUE (or KEY:=JSON for numbers, booleans, arrays and objects)`},
		{[]string{"client", "http", "search", "limit:=three"}, `wirelab: argument "limit:=three": "three" is not JSON (use limit=three for a string)`},
		{[]string{"client", "stdio", "--cmd", `"unclosed`, "word_count"}, `wirelab: --cmd "\"unclosed": 1:1: reached EOF without closing quote ` + "`\"`"},
		{[]string{"version", "x"}, `wirelab: version takes no arguments`},
		{[]string{"server", "grpc", "--cert-dir", "/tmp"}, `wirelab: --cert-dir needs --tls or --mtls`},
		{[]string{"client", "grpc", "--data", "{}", "word_count"}, `wirelab: --data needs --method`},
		{[]string{"client", "grpc", "--method", "a.B/C", "word_count"}, `wirelab: with --method, the request is --data, not "word_count"`},
		{[]string{"client", "grpc", "--cert", "c.pem", "word_count"}, `wirelab: a client certificate needs both a certificate file and a key file`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("exit code %d, want %d", code, exitUsage)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			first, rest, _ := strings.Cut(stderr, "\n")
			if first != tt.want {
				t.Errorf("first line of stderr:\n got %s\nwant %s", first, tt.want)
			}
			// Then the synopsis of the command called, or for one that
			// does not exist where the commands are: not the whole usage.
			if want := usageAfterError(commandOf(tt.args)); rest != want || strings.Count(rest, "\n") > 12 {
				t.Errorf("after the error:\n%s\nwant:\n%s", rest, want)
			}
		})
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {"help", "--help"}} {
		code, stdout, stderr := run(t, "", args...)
		if code != 0 || stdout != usage || stderr != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s\nwant exit 0 and the whole usage", args, code, stderr, stdout)
		}
	}
	code, stdout, _ := run(t, "", "version")
	if code != 0 || !strings.HasPrefix(stdout, "wirelab ") {
		t.Errorf("version: code %d, stdout %q", code, stdout)
	}
}

func TestServerStdioInProcess(t *testing.T) {
	code, stdout, stderr := run(t, `{"name":"word_count","args":{"text":"read the wire"}}`+"\n", "server", "stdio")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if stdout != `{"result":{"words":3,"chars":13}}`+"\n" {
		t.Errorf("stdout = %q", stdout)
	}
	if !strings.Contains(stderr, "tool=word_count") {
		t.Errorf("no log line on stderr: %q", stderr)
	}
}

func TestToolArgs(t *testing.T) {
	for _, tt := range []struct {
		words []string
		want  string
	}{
		{nil, `{}`},
		{[]string{"text=read the wire"}, `{"text":"read the wire"}`},
		{[]string{"q=grpc", "limit:=2"}, `{"limit":2,"q":"grpc"}`},
		{[]string{"limit=2"}, `{"limit":"2"}`},
		{[]string{"text=a:=b"}, `{"text":"a:=b"}`},
		{[]string{"text=a=b"}, `{"text":"a=b"}`},
		{[]string{"text="}, `{"text":""}`},
		{[]string{`obj:={"a":[1,true]}`}, `{"obj":{"a":[1,true]}}`},
	} {
		got, err := toolArgs(tt.words)
		if err != nil {
			t.Errorf("toolArgs(%q): %v", tt.words, err)
			continue
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("toolArgs(%q) (-want +got):\n%s", tt.words, diff)
		}
	}
}
