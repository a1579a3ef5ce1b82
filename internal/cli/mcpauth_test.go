package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMCPAuthUsage: --auth's flags and their combinations.
func TestMCPAuthUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", "127.0.0.1:0", "--auth", "builtin", "--token", "reader"}, "--auth and --token exclude each other"},
		{[]string{"--auth", "builtin"}, "--auth needs --http"},
		{[]string{"--http", "127.0.0.1:0", "--auth", "http://127.0.0.1:1", "--auth-addr", "127.0.0.1:0"}, "--auth-addr goes with --auth builtin"},
		{[]string{"--http", "127.0.0.1:0", "--resource", "http://127.0.0.1:1/mcp"}, "--resource goes with --auth"},
		{[]string{"--http", "127.0.0.1:0", "--auth", "builtin", "--resource", "mcp.example/mcp"}, "--resource takes this server's URL"},
		{[]string{"--http", "127.0.0.1:0", "--auth", "127.0.0.1:8023"}, `--auth takes the authorization server's issuer, an http(s) URL`},
	} {
		code, _, stderr := run(t, "", append([]string{"server", "mcp"}, tt.args...)...)
		if first, _, _ := strings.Cut(stderr, "\n"); code != 2 || !strings.Contains(first, tt.want) {
			t.Errorf("%v: exit %d, first line %q; want 2 and %q", tt.args, code, first, tt.want)
		}
	}
}

// TestMCPAuthBuiltin starts `server mcp --http --auth builtin`: a call
// without a token gets 401 naming the metadata, which names the built-in
// authorization server, whose own metadata answers with that issuer.
func TestMCPAuthBuiltin(t *testing.T) {
	base := startServer(t, "mcp", "server", "mcp", "--http", "127.0.0.1:0", "--auth", "builtin")
	resp, err := http.Post(base+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	wantChallenge := `Bearer resource_metadata="` + base + `/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`
	if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || got != wantChallenge {
		t.Fatalf("no token: %s, WWW-Authenticate %q; want 401 and %q", resp.Status, got, wantChallenge)
	}
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	getDoc(t, base+"/.well-known/oauth-protected-resource/mcp", &prm)
	if prm.Resource != base+"/mcp" || len(prm.AuthorizationServers) != 1 || !strings.HasPrefix(prm.AuthorizationServers[0], "http://127.0.0.1:") {
		t.Fatalf("protected resource metadata %+v: want resource %s/mcp and the built-in authorization server", prm, base)
	}
	var meta struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	getDoc(t, prm.AuthorizationServers[0]+"/.well-known/oauth-authorization-server", &meta)
	if meta.Issuer != prm.AuthorizationServers[0] || meta.JWKSURI == "" {
		t.Fatalf("the built-in authorization server's metadata: %+v", meta)
	}
}

// TestMCPAuthUnreachable: an authorization server that is not there yet
// is a warning at start, and each request with a token a 503 that says
// why, not a refusal of the token.
func TestMCPAuthUnreachable(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	base := startServer(t, "mcp", "server", "mcp", "--http", "127.0.0.1:0", "--auth", gone.URL)
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCIsImtpZCI6ImsxIn0.e30.c2ln")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Error struct{ Message string }
	}
	json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body.Error.Message, "unreachable") {
		t.Fatalf("a token while the authorization server is away: %s %q; want 503 saying it is unreachable", resp.Status, body.Error.Message)
	}
}

func getDoc(t *testing.T, url string, dst any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(dst); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// TestServeMCPAuth: `serve` starts the authorization server beside the
// other built-in servers, and a second MCP server that it protects.
func TestServeMCPAuth(t *testing.T) {
	base := startServer(t, "mcp-auth", "serve", "--no-open", "--addr", "127.0.0.1:0")
	resp, err := http.Post(base+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the protected MCP server, no token: %s, want 401", resp.Status)
	}
	var prm struct {
		AuthorizationServers []string `json:"authorization_servers"`
	}
	getDoc(t, base+"/.well-known/oauth-protected-resource/mcp", &prm)
	var meta struct {
		Issuer string `json:"issuer"`
	}
	if len(prm.AuthorizationServers) != 1 {
		t.Fatalf("protected resource metadata names %v, want the built-in authorization server", prm.AuthorizationServers)
	}
	getDoc(t, prm.AuthorizationServers[0]+"/.well-known/oauth-authorization-server", &meta)
	if meta.Issuer != prm.AuthorizationServers[0] {
		t.Fatalf("the authorization server says issuer %q, want %q", meta.Issuer, prm.AuthorizationServers[0])
	}
}
