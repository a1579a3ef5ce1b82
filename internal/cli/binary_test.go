package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// wirelabBin is the real binary, built once by TestMain: these tests run
// wirelab the way a user does.
var wirelabBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wirelab-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	wirelabBin = filepath.Join(dir, "wirelab")
	build := exec.Command("go", "build", "-o", wirelabBin, "github.com/wirelab/wirelab")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building wirelab: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// exe runs the binary to completion.
func exe(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, wirelabBin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// startServer runs a long-lived wirelab command, waits for its
// "listening on" line, and returns the URL. The process gets SIGTERM at
// the end of the test, and must then exit cleanly.
func startServer(t *testing.T, proto string, args ...string) string {
	t.Helper()
	cmd := exec.Command(wirelabBin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	prefix := "wirelab: " + proto + " server listening on "
	url := ""
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), prefix); ok {
			url = u
			break
		}
	}
	if url == "" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%v never printed %q", args, prefix)
	}
	go io.Copy(io.Discard, stderr) // ends when the process exits
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("%v after SIGTERM: %v, want a clean exit", args, err)
		}
	})
	return url
}

// TestMCPHandshake is the course's four-frame MCP session typed into
// wirelab server mcp.
func TestMCPHandshake(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"by-hand","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`,
	}, "\n") + "\n"
	code, stdout, stderr := exe(t, in, "server", "mcp")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("exit %d, %d lines, want 0 and 3 answers:\n%s\nstderr:\n%s", code, len(lines), stdout, stderr)
	}
	// Requests may be answered in any order; find the tools/call answer.
	want := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13}}}`
	if !strings.Contains(stdout, want+"\n") {
		t.Errorf("no %s in:\n%s", want, stdout)
	}
}

// TestMCPOneRequest is the newcomer's 2026-07-28 call: one tools/call
// with its _meta, no handshake, typed into wirelab server mcp.
func TestMCPOneRequest(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n"
	code, stdout, stderr := exe(t, in, "server", "mcp")
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13},"resultType":"complete",`
	if code != 0 || !strings.HasPrefix(stdout, want) || strings.Count(stdout, "\n") != 1 {
		t.Errorf("exit %d, stdout:\n%s\nwant one answer starting %s\nstderr:\n%s", code, stdout, want, stderr)
	}
}

// TestMCPOverHTTP starts `server mcp --http` and runs the course's
// session over it, then opens a GET stream and leaves it open: the
// SIGTERM at cleanup must still end the process cleanly.
func TestMCPOverHTTP(t *testing.T) {
	url := startServer(t, "mcp", "server", "mcp", "--http", "127.0.0.1:0") + "/mcp"
	post := func(session, body string) *http.Response {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: %s, Mcp-Session-Id %q", resp.Status, session)
	}
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	resp = post(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"structuredContent":{"words":3,"chars":13}`) {
		t.Errorf("tools/call: %s", body)
	}
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	stream, err := http.DefaultClient.Do(req)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("GET stream: %v, %v", stream, err)
	}
	// The stream stays open; the server's exit at cleanup ends it.
}

// TestNewcomer is the first thing a newcomer does: paste the README's
// line into the stdio server.
func TestNewcomer(t *testing.T) {
	code, stdout, _ := exe(t, `{"name":"word_count","args":{"text":"read the wire"}}`+"\n", "server", "stdio")
	if code != 0 || stdout != `{"result":{"words":3,"chars":13}}`+"\n" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}

func TestClientExitCodes(t *testing.T) {
	httpURL := startServer(t, "http", "server", "http", "--addr", "127.0.0.1:0", "--token", "reader", "--token", "ops:deploy:production")
	grpcAddr := startServer(t, "grpc", "server", "grpc", "--addr", "127.0.0.1:0", "--token", "reader", "--token", "ops:deploy:production")
	for _, tt := range []struct {
		name       string
		args       []string
		code       int
		stdout     string // exact, when set
		stderrHint string
	}{
		{"stdio ok", []string{"client", "stdio", "word_count", "text=read the wire"}, 0, `{"words":3,"chars":13}` + "\n", ""},
		{"stdio via --cmd", []string{"client", "stdio", "--cmd", wirelabBin + " server stdio", "word_count", "text=a b"}, 0, `{"words":2,"chars":3}` + "\n", ""},
		{"stdio tool error", []string{"client", "stdio", "weather", "city=Oslo"}, 1, "", "tool error (tool_failed)"},
		{"stdio invalid args", []string{"client", "stdio", "search", "q=x", "limit=2"}, 1, "", "tool error (invalid_arguments)"},
		{"stdio protocol error", []string{"client", "stdio", "nope"}, 2, "", "protocol error (unknown_tool)"},
		{"stdio transport error", []string{"client", "stdio", "--cmd", "/nonexistent/server", "word_count", "text=x"}, 2, "", "/nonexistent/server"},
		{"stdio server that is not one", []string{"client", "stdio", "--timeout", "2s", "--cmd", "cat /dev/null", "word_count", "text=x"}, 2, "", "did the server exit?"},
		{"http ok", []string{"client", "http", "--url", httpURL, "--token", "reader", "word_count", "text=read the wire"}, 0, `{"words":3,"chars":13}` + "\n", ""},
		{"http no token", []string{"client", "http", "--url", httpURL, "word_count", "text=x"}, 2, "", "unauthorized"},
		{"http wrong token", []string{"client", "http", "--url", httpURL, "--token", "guess", "word_count", "text=x"}, 2, "", "unauthorized"},
		{"http under-privileged", []string{"client", "http", "--url", httpURL, "--token", "reader", "deploy_service", "service=api", "env=production"}, 2, "", "forbidden"},
		{"http privileged", []string{"client", "http", "--url", httpURL, "--token", "ops", "deploy_service", "service=api", "env=production"}, 0, "", ""},
		{"http tool error", []string{"client", "http", "--url", httpURL, "--token", "reader", "weather", "city=Oslo"}, 1, "", "tool error (tool_failed)"},
		{"http version refused", []string{"client", "http", "--url", httpURL, "--token", "reader", "--tool-version", "9", "word_count", "text=x"}, 2, "", "served versions: 1.1, 1.0"},
		{"http nobody there", []string{"client", "http", "--url", "http://127.0.0.1:1", "word_count", "text=x"}, 2, "", "refused"},
		{"grpc ok", []string{"client", "grpc", "--addr", grpcAddr, "--token", "reader", "word_count", "text=read the wire"}, 0, `{"words":3,"chars":13}` + "\n", ""},
		{"grpc no token", []string{"client", "grpc", "--addr", grpcAddr, "word_count", "text=x"}, 2, "", "UNAUTHENTICATED"},
		{"grpc wrong token", []string{"client", "grpc", "--addr", grpcAddr, "--token", "guess", "word_count", "text=x"}, 2, "", "16 UNAUTHENTICATED: invalid token"},
		{"grpc under-privileged", []string{"client", "grpc", "--addr", grpcAddr, "--token", "reader", "deploy_service", "service=api", "env=production"}, 2, "", "PERMISSION_DENIED"},
		{"grpc streamed deploy", []string{"client", "grpc", "--addr", grpcAddr, "--token", "ops", "--stream", "deploy_service", "service=api", "env=production"}, 0, "", "progress 4/4"},
		{"grpc deadline", []string{"client", "grpc", "--addr", grpcAddr, "--token", "ops", "--timeout", "100ms", "deploy_service", "service=api", "env=staging"}, 2, "", "DEADLINE_EXCEEDED"},
		{"grpc tool error", []string{"client", "grpc", "--addr", grpcAddr, "--token", "reader", "weather", "city=Oslo"}, 1, "", "tool error (tool_failed)"},
		{"grpc invalid args", []string{"client", "grpc", "--addr", grpcAddr, "--token", "reader", "search", "q=x", "limit=2"}, 1, "", "INVALID_ARGUMENT: search: invalid arguments: limit"},
		{"grpc unknown tool", []string{"client", "grpc", "--addr", grpcAddr, "--token", "reader", "nope"}, 2, "", "NOT_FOUND"},
		{"grpc version refused", []string{"client", "grpc", "--addr", grpcAddr, "--token", "reader", "--tool-version", "9", "word_count", "text=x"}, 2, "", "FAILED_PRECONDITION"},
		{"grpc nobody there", []string{"client", "grpc", "--addr", "127.0.0.1:1", "word_count", "text=x"}, 2, "", "hint: nothing listens on 127.0.0.1:1"},
		{"grpc wire", []string{"client", "grpc", "--addr", grpcAddr, "--token", "reader", "--wire", "word_count", "text=read the wire"}, 0, `{"words":3,"chars":13}` + "\n", "grpc-status: 0"},
		{"grpc wire trailers-only", []string{"client", "grpc", "--addr", grpcAddr, "--wire", "word_count", "text=x"}, 2, "", "(trailers-only)"},
		{"grpc wire stream", []string{"client", "grpc", "--addr", grpcAddr, "--token", "ops", "--wire", "--stream", "deploy_service", "service=api", "env=staging"}, 0, "", "field 1 progress"},
		{"grpc any method", []string{"client", "grpc", "--addr", grpcAddr, "--method", "grpc.health.v1.Health/Check", "--data", "{}"}, 0, `{"status":"SERVING"}` + "\n", ""},
		{"grpc no such method", []string{"client", "grpc", "--addr", grpcAddr, "--method", "tools.v1.ToolServer/Nope"}, 2, "", "it has: ListTools, ExecuteTool, ExecuteToolStream"},
		{"grpc plaintext to a TLS-less server", []string{"client", "grpc", "--addr", grpcAddr, "--tls", "word_count", "text=x"}, 2, "", "hint: the server speaks plaintext"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := exe(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if tt.stdout != "" && stdout != tt.stdout {
				t.Errorf("stdout = %q, want %q", stdout, tt.stdout)
			}
			if !strings.Contains(stderr, tt.stderrHint) {
				t.Errorf("stderr does not mention %q:\n%s", tt.stderrHint, stderr)
			}
		})
	}
}

// TestHTTPStatuses checks the "done when" of the HTTP server on the wire:
// the same call answered, a wrong token refused with 401, an
// under-privileged one with 403.
func TestHTTPStatuses(t *testing.T) {
	url := startServer(t, "http", "server", "http", "--addr", "127.0.0.1:0", "--token", "reader", "--token", "ops:deploy:production")
	for _, tt := range []struct {
		token, body string
		status      int
		wwwAuth     string
	}{
		{"reader", `{"name":"word_count","args":{"text":"read the wire"}}`, 200, ""},
		{"", `{"name":"word_count","args":{"text":"x"}}`, 401, `Bearer realm="wirelab"`},
		{"wrong", `{"name":"word_count","args":{"text":"x"}}`, 401, `error="invalid_token"`},
		{"reader", `{"name":"deploy_service","args":{"service":"api","env":"production"}}`, 403, `error="insufficient_scope"`},
	} {
		req, _ := http.NewRequest("POST", url+"/execute", strings.NewReader(tt.body))
		req.Header.Set("Content-Type", "application/json")
		if tt.token != "" {
			req.Header.Set("Authorization", "Bearer "+tt.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("token %q: status %d, want %d; body %s", tt.token, resp.StatusCode, tt.status, body)
		}
		if got := resp.Header.Get("WWW-Authenticate"); !strings.Contains(got, tt.wwwAuth) {
			t.Errorf("token %q: WWW-Authenticate %q, want it to contain %q", tt.token, got, tt.wwwAuth)
		}
		if tt.status == 200 && string(body) != `{"result":{"words":3,"chars":13}}`+"\n" && string(body) != `{"result":{"words":3,"chars":13}}` {
			t.Errorf("body %q", body)
		}
	}
}

func TestPortTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, args := range [][]string{
		{"server", "http", "--addr", ln.Addr().String()},
		{"serve", "--no-open", "--addr", ln.Addr().String()},
	} {
		code, _, stderr := exe(t, "", args...)
		if code != exitFailure || !strings.Contains(stderr, "already in use") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line saying the port is in use", args, code, stderr)
		}
	}
}

func TestServeHomePage(t *testing.T) {
	url := startServer(t, "playground", "serve", "--no-open", "--addr", "127.0.0.1:0")
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET / = %d", resp.StatusCode)
	}
	for _, want := range []string{"word_count", "deploy_service", "wirelab server stdio", "live</span> at <code class=\"address\">http://127.0.0.1:", "wirelab client grpc --addr 127.0.0.1:"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("home page lacks %q", want)
		}
	}
	// The agent the page names is live: its card answers.
	m := regexp.MustCompile(`wirelab client a2a --url (http://127\.0\.0\.1:\d+)`).FindStringSubmatch(string(body))
	if m == nil {
		t.Fatalf("home page names no A2A agent:\n%s", body)
	}
	card, err := http.Get(m[1] + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	card.Body.Close()
	if card.StatusCode != 200 {
		t.Errorf("the agent card at %s = %d", m[1], card.StatusCode)
	}
	if !strings.Contains(string(body), "wirelab client mcp --url http://127.0.0.1:") {
		t.Errorf("home page names no MCP endpoint")
	}
	css, err := http.Get(url + "/static/wirelab.css")
	if err != nil {
		t.Fatal(err)
	}
	css.Body.Close()
	if css.StatusCode != 200 {
		t.Errorf("GET /static/wirelab.css = %d", css.StatusCode)
	}
}

// TestGRPCMutualTLS walks the lesson on mutual TLS: a client that trusts
// the throwaway CA but has no certificate fails in the handshake, and
// passes with the client certificate the server wrote.
func TestGRPCMutualTLS(t *testing.T) {
	// A folder that is not there yet, as in the lesson's commands: the
	// server makes it.
	dir := filepath.Join(t.TempDir(), "certs")
	addr := startServer(t, "grpc", "server", "grpc", "--addr", "127.0.0.1:0", "--mtls", "--cert-dir", dir)
	ca := filepath.Join(dir, "ca.pem")
	for _, tt := range []struct {
		name string
		args []string
		code int
		hint string
	}{
		{"plaintext", nil, 2, "if it serves TLS, add --cacert"},
		{"no CA", []string{"--tls"}, 2, "add --cacert"},
		{"no client certificate", []string{"--cacert", ca}, 2, "add --cert and --key"},
		{"client certificate", []string{"--cacert", ca, "--cert", filepath.Join(dir, "client.pem"), "--key", filepath.Join(dir, "client-key.pem")}, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"client", "grpc", "--addr", addr}, tt.args...)
			code, stdout, stderr := exe(t, "", append(args, "word_count", "text=read the wire")...)
			if code != tt.code || !strings.Contains(stderr, tt.hint) {
				t.Errorf("exit %d (want %d), stdout %q\nstderr (want %q): %s", code, tt.code, stdout, tt.hint, stderr)
			}
		})
	}
}
