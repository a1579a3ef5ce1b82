package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/tools"
)

// runMCP runs a command line in-process. Its default MCP server is the
// real binary built by TestMain, `wirelab server mcp`, as a child.
func runMCP(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Executable: wirelabBin})
	return code, out.String(), errb.String()
}

func TestClientMCP(t *testing.T) {
	// An MCP server over HTTP in this process, with and without tokens.
	open := httptest.NewServer(mcp.NewServer(tools.New(nil), nil).HTTPHandler(nil))
	defer open.Close()
	tokens, err := tools.ParseTokens([]string{"s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	guarded := httptest.NewServer(mcp.NewServer(tools.New(nil), nil).HTTPHandler(&mcp.HTTPOptions{Tokens: tokens}))
	defer guarded.Close()

	// The result as the server sent it, whatever the era adds around it
	// (a modern result says "resultType":"complete").
	const wordCount = `"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13}`
	const legacyWordCount = `{` + wordCount + "}\n"
	for _, tt := range []struct {
		name       string
		args       []string
		code       int
		stdout     string // exact, unless empty
		inStdout   string // a part of stdout
		inStderr   string // a part of stderr
		notInLines string // no line of stderr starts with this
	}{
		{name: "list", args: []string{"client", "mcp"}, inStdout: "word_count      Count the words", inStderr: "wirelab: connected to wirelab "},
		{name: "list flag", args: []string{"client", "mcp", "--list"}, inStdout: "\nweather ", inStderr: "protocol revision 2026-07-28, stateless (modern)"},
		{name: "list legacy", args: []string{"client", "mcp", "--protocol-version", "2025-11-25", "--list"}, inStdout: "\nweather ", inStderr: "protocol revision 2025-11-25, a session (legacy)"},
		{name: "call", args: []string{"client", "mcp", "word_count", "text=read the wire"}, inStdout: wordCount},
		{name: "call legacy", args: []string{"client", "mcp", "--protocol-version", "2025-11-25", "word_count", "text=read the wire"}, stdout: legacyWordCount},
		{name: "call via --cmd", args: []string{"client", "mcp", "--cmd", wirelabBin + " server mcp", "word_count", "text=read the wire"}, inStdout: wordCount},
		{name: "tool error", args: []string{"client", "mcp", "weather", "city=Oslo"}, code: 1, inStdout: `"isError":true`, inStderr: "wirelab: tool error (weather): weather failed: upstream"},
		{name: "invalid arguments are a tool error", args: []string{"client", "mcp", "search", "q=x", "limit=2"}, code: 1, inStdout: `"isError":true`, inStderr: "tool error (search)"},
		{name: "protocol error", args: []string{"client", "mcp", "nope"}, code: 2, inStdout: `{"error":{"code":-32602,`, inStderr: "wirelab: protocol error -32602: "},
		{name: "progress", args: []string{"client", "mcp", "--progress", "deploy_service", "service=api", "env=staging"}, inStdout: `"status":"deployed"`, inStderr: "wirelab: progress 4/4: "},
		{name: "no progress unless asked", args: []string{"client", "mcp", "deploy_service", "service=api", "env=staging"}, inStdout: `"status":"deployed"`, notInLines: "wirelab: progress"},
		{name: "no such command", args: []string{"client", "mcp", "--cmd", "/nonexistent/server"}, code: 2, inStderr: "/nonexistent/server"},
		{name: "not an MCP server", args: []string{"client", "mcp", "--cmd", wirelabBin + " version"}, code: 2, inStderr: "is it an MCP server"},
		{name: "http", args: []string{"client", "mcp", "--url", open.URL + mcp.Endpoint, "word_count", "text=read the wire"}, inStdout: wordCount},
		{name: "http legacy", args: []string{"client", "mcp", "--protocol-version", "2025-11-25", "--url", open.URL + mcp.Endpoint, "word_count", "text=read the wire"}, stdout: legacyWordCount},
		{name: "http token", args: []string{"client", "mcp", "--url", guarded.URL + mcp.Endpoint, "--token", "s3cret", "word_count", "text=read the wire"}, inStdout: wordCount},
		{name: "http no token", args: []string{"client", "mcp", "--url", guarded.URL + mcp.Endpoint, "word_count", "text=x"}, code: 2, inStderr: "names no authorization server (authorization_servers)"},
		{name: "http nobody there", args: []string{"client", "mcp", "--url", "http://127.0.0.1:1/mcp"}, code: 2, inStderr: "refused"},
		{name: "elicitation declined without a terminal", args: []string{"client", "mcp", "--url", open.URL + mcp.Endpoint, "deploy_service", "service=api", "env=production"}, code: 1, inStderr: "no terminal to ask on, so declined"},
		{name: "elicitation accepted by flag", args: []string{"client", "mcp", "--url", open.URL + mcp.Endpoint, "--elicit-accept", `{"confirm":true}`, "deploy_service", "service=api", "env=production"}, inStdout: `"status":"deployed"`, inStderr: "wirelab: the server asks: "},
		{name: "elicitation accepted by flag, legacy", args: []string{"client", "mcp", "--protocol-version", "2025-11-25", "--url", open.URL + mcp.Endpoint, "--elicit-accept", `{"confirm":true}`, "deploy_service", "service=api", "env=production"}, inStdout: `"status":"deployed"`, inStderr: "wirelab: the server asks: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMCP(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if tt.stdout != "" {
				if diff := cmp.Diff(tt.stdout, stdout); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
			if tt.code == 2 && tt.inStdout == "" && stdout != "" {
				t.Errorf("stdout = %q, want nothing when there is no answer", stdout)
			}
			if !strings.Contains(stdout, tt.inStdout) {
				t.Errorf("stdout does not contain %q:\n%s", tt.inStdout, stdout)
			}
			if !strings.Contains(stderr, tt.inStderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.inStderr, stderr)
			}
			if tt.notInLines != "" {
				for _, line := range strings.Split(stderr, "\n") {
					if strings.HasPrefix(line, tt.notInLines) {
						t.Errorf("stderr has the line %q", line)
					}
				}
			}
		})
	}
}

func TestClientMCPUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // the first line of stderr
	}{
		{[]string{"client", "mcp", "--cmd", "x", "--url", "http://x/mcp"}, "wirelab: --cmd and --url are two ways to reach a server; give one"},
		{[]string{"client", "mcp", "--token", "t"}, "wirelab: --token needs --url: a stdio server runs as you and takes no tokens"},
		{[]string{"client", "mcp", "--list", "word_count"}, `wirelab: --list takes no TOOL, got "word_count"`},
		{[]string{"client", "mcp", "word_count", "text"}, `wirelab: argument "text" is not KEY=VALUE (or KEY:=JSON for numbers, booleans, arrays and objects)`},
		{[]string{"client", "mcp", "--elicit-accept", "{}", "--elicit-decline"}, "wirelab: --elicit-accept and --elicit-decline are two answers; give one"},
		{[]string{"client", "mcp", "--elicit-accept", "yes"}, `wirelab: --elicit-accept: "yes" is not a JSON object: invalid character 'y' looking for beginning of value`},
		{[]string{"client", "mcp", "--conformance"}, "wirelab: --conformance takes the server URL as its one argument, and no --cmd or --url"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			first, _, _ := strings.Cut(stderr, "\n")
			if code != exitUsage || stdout != "" || first != tt.want {
				t.Errorf("exit %d, stdout %q, first line of stderr:\n got %s\nwant %s", code, stdout, first, tt.want)
			}
		})
	}
	// Without a binary to start, and no --cmd or --url, there is no server.
	code, _, stderr := run(t, "", "client", "mcp")
	if first, _, _ := strings.Cut(stderr, "\n"); code != exitUsage || first != "wirelab: client mcp needs --cmd or --url" {
		t.Errorf("no server: exit %d, stderr %q", code, first)
	}
}

func TestPrintNotification(t *testing.T) {
	for _, tt := range []struct {
		method, params, want string
	}{
		{"notifications/progress", `{"progressToken":2,"progress":1,"total":4,"message":"build image"}`, "wirelab: progress 1/4: build image"},
		{"notifications/progress", `{"progressToken":"a","progress":0.5}`, "wirelab: progress 0.5: "},
		{"notifications/message", `{"level":"info","logger":"deploy","data":"rolled out"}`, "wirelab: log info deploy: rolled out"},
		{"notifications/message", `{"level":"error","data":{"code":7}}`, `wirelab: log error: {"code":7}`},
		{"notifications/tools/list_changed", `{}`, "wirelab: notification notifications/tools/list_changed {}"},
	} {
		var b bytes.Buffer
		printNotification(&b, tt.method, json.RawMessage(tt.params))
		if diff := cmp.Diff(tt.want+"\n", b.String()); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tt.method, tt.params, diff)
		}
	}
}

func TestMCPClientOAuthFlags(t *testing.T) {
	tokens, err := tools.ParseTokens([]string{"s3cret-token-value"})
	if err != nil {
		t.Fatal(err)
	}
	guarded := httptest.NewServer(mcp.NewServer(tools.New(nil), nil).HTTPHandler(&mcp.HTTPOptions{Tokens: tokens}))
	defer guarded.Close()

	for _, tt := range []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"a secret needs its id", []string{"client", "mcp", "--url", guarded.URL + "/mcp", "--client-secret", "x"}, exitUsage, "--client-secret needs the --client-id"},
		{"OAuth flags need HTTP", []string{"client", "mcp", "--scope", "mcp:tools"}, exitUsage, "they need --url"},
		{"a token or the flow", []string{"client", "mcp", "--url", guarded.URL + "/mcp", "--token", "t", "--client-id", "c"}, exitUsage, "give one or the other"},
		// The static token's server names no authorization server: the
		// flow stops at the metadata and says so.
		{"no authorization server", []string{"client", "mcp", "--url", guarded.URL + "/mcp", "--list"}, exitProtocol, "authorization: protected resource metadata: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runMCP(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.inStderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.inStderr)
			}
		})
	}

	t.Run("wire masks the token", func(t *testing.T) {
		code, _, stderr := runMCP(t, "client", "mcp", "--url", guarded.URL+"/mcp", "--token", "s3cret-token-value", "--wire", "--list")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if strings.Contains(stderr, "s3cret-token-value") || !strings.Contains(stderr, "> Authorization: Bearer s3cr…(18 chars)") {
			t.Errorf("the wire on stderr shows the token in full, or not masked as expected:\n%s", stderr)
		}
	})
}

// TestElicitWithStdinDevNull holds that /dev/null is no terminal: it is a
// character device, but no one can type into it. `wirelab client mcp ...
// </dev/null` must decline the server's question, not prompt into the
// void and read the end of input as a cancel.
func TestElicitWithStdinDevNull(t *testing.T) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()

	var stderr bytes.Buffer
	ask := elicitor(Env{Stdin: devNull}, &stderr, nil, false)
	res, err := ask(context.Background(), mcp.ElicitParams{
		Message:         "confirm deploy:production",
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean"}}}`),
	})
	if err != nil {
		t.Fatalf("elicitor: %v", err)
	}
	if res.Action != "decline" {
		t.Errorf("with stdin %s the answer is %q, want decline; stderr:\n%s", os.DevNull, res.Action, stderr.String())
	}

	// The same through the command line, against a server that asks.
	srv := httptest.NewServer(mcp.NewServer(tools.New(nil), nil).HTTPHandler(nil))
	defer srv.Close()
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"client", "mcp", "--url", srv.URL + mcp.Endpoint, "deploy_service", "service=api", "env=production"},
		Env{Stdin: devNull, Stdout: &out, Stderr: &errb, Executable: wirelabBin})
	if code != 1 || !strings.Contains(errb.String(), "no terminal to ask on, so declined") {
		t.Errorf("client mcp deploy_service env=production <%s: exit %d, want 1 and a decline; stderr:\n%s", os.DevNull, code, errb.String())
	}
}
