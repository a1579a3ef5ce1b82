package mcp

// The whole OAuth flow against this package's server as a resource
// server and protocols/oauth as its authorization server, driven by two
// clients written elsewhere: golang.org/x/oauth2, a standard OAuth
// client, with the MCP discovery steps done by hand so that each is
// visible; and the official Go SDK's client, whose auth package does the
// whole dance itself.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/wirelab/wirelab/protocols/oauth"
	"github.com/wirelab/wirelab/protocols/tools"
)

// flowWait bounds each test of the flow, so that a bug fails it instead
// of hanging it.
const flowWait = 30 * time.Second

// authServers starts the authorization server and, protected by it, an
// MCP server; it returns the issuer and the MCP endpoint's URL, which is
// the resource.
func authServers(t *testing.T) (issuer, resource string) {
	t.Helper()
	// Each server's URL is its identity, so it must be known before the
	// server is made: the listener comes first.
	as := httptest.NewUnstartedServer(nil)
	issuer = "http://" + as.Listener.Addr().String()
	as.Config.Handler = oauth.NewServer(oauth.Options{Issuer: issuer, Loopback: true})
	as.Start()
	t.Cleanup(as.Close)

	rs := httptest.NewUnstartedServer(nil)
	resource = "http://" + rs.Listener.Addr().String() + Endpoint
	h := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"}).
		HTTPHandler(&HTTPOptions{Loopback: true, Verifier: NewVerifier(issuer, resource, nil)})
	rs.Config.Handler = h
	rs.Start()
	t.Cleanup(rs.Close)
	t.Cleanup(h.Close)
	return issuer, resource
}

// hiddenInput is a field of the consent form.
var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// consent plays the person at the browser: it opens the authorization
// URL, reads the consent page's form and posts it with "allow", as the
// Allow button does. It returns the redirect the authorization server
// answers with, to the client's redirect URI, without following it.
func consent(ctx context.Context, authURL string) (*url.URL, error) {
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	resp, err := noFollow.Do(req)
	if err != nil {
		return nil, err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("consent page: %s\n%s", resp.Status, page)
	}
	form := url.Values{"decision": {"allow"}}
	for _, m := range hiddenInput.FindAllSubmatch(page, -1) {
		form.Add(html.UnescapeString(string(m[1])), html.UnescapeString(string(m[2])))
	}
	u, _ := url.Parse(authURL)
	u.RawQuery = ""
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = noFollow.Do(req)
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("consent POST: %s, want 303\n%s", resp.Status, body)
	}
	return resp.Location()
}

// challengeParam reads one parameter of a Bearer challenge.
func challengeParam(header, name string) string {
	m := regexp.MustCompile(`\b` + name + `="([^"]*)"`).FindStringSubmatch(header)
	if m == nil {
		return ""
	}
	return m[1]
}

// callTool sends one 2026-07-28 tools/call, a request that needs no
// session, with client, which adds the token.
func callTool(ctx context.Context, t *testing.T, client *http.Client, resource, name, args string) (*http.Response, string) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":{%q:%q,%q:{}}}}`,
		name, args, MetaProtocolVersion, ModernVersion, "io.modelcontextprotocol/clientCapabilities")
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, resource, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", ModernVersion)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", name)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func getJSON(ctx context.Context, t *testing.T, u string, dst any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(dst); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

// TestAuthFlowOAuth2 walks the flow step by step: the 401, the protected
// resource metadata, the authorization server's metadata, dynamic
// registration, consent, the code exchange with PKCE and resource, the
// call, the 403 on a production deploy, the step-up, the deploy. Then the
// audience check with a real token: one the same authorization server
// issued for another resource is refused.
func TestAuthFlowOAuth2(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), flowWait)
	defer cancel()
	_, resource := authServers(t)

	// 1. No token: 401, and the challenge says where to read on.
	resp, _ := callTool(ctx, t, http.DefaultClient, resource, "word_count", `{"text":"read the wire"}`)
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: %s, want 401", resp.Status)
	}
	prmURL, scope := challengeParam(challenge, "resource_metadata"), challengeParam(challenge, "scope")
	if scope != "mcp:tools" {
		t.Fatalf("challenge %q: scope %q, want mcp:tools", challenge, scope)
	}

	// 2. The protected resource metadata names the authorization server.
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	getJSON(ctx, t, prmURL, &prm)
	if prm.Resource != resource || len(prm.AuthorizationServers) != 1 {
		t.Fatalf("protected resource metadata: %+v; want resource %s and one authorization server", prm, resource)
	}

	// 3. Its metadata names its endpoints.
	var meta struct {
		Issuer                string `json:"issuer"`
		AuthorizationEndpoint string `json:"authorization_endpoint"`
		TokenEndpoint         string `json:"token_endpoint"`
		RegistrationEndpoint  string `json:"registration_endpoint"`
	}
	getJSON(ctx, t, prm.AuthorizationServers[0]+"/.well-known/oauth-authorization-server", &meta)
	if meta.Issuer != prm.AuthorizationServers[0] {
		t.Fatalf("the authorization server's metadata says issuer %q, not %q", meta.Issuer, prm.AuthorizationServers[0])
	}

	// 4. Dynamic client registration (RFC 7591): a public client.
	const redirect = "http://127.0.0.1:9/callback" // never reached: consent does not follow it
	reg, _ := json.Marshal(map[string]any{"client_name": "x/oauth2 test", "redirect_uris": []string{redirect},
		"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"}})
	regResp, err := http.Post(meta.RegistrationEndpoint, "application/json", bytes.NewReader(reg))
	if err != nil {
		t.Fatal(err)
	}
	var registered struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(regResp.Body).Decode(&registered)
	regResp.Body.Close()
	if regResp.StatusCode != http.StatusCreated || registered.ClientID == "" {
		t.Fatalf("registration: %s, client_id %q", regResp.Status, registered.ClientID)
	}

	cfg := &oauth2.Config{
		ClientID:    registered.ClientID,
		Endpoint:    oauth2.Endpoint{AuthURL: meta.AuthorizationEndpoint, TokenURL: meta.TokenEndpoint, AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: redirect,
	}
	// authorize runs consent and the code exchange for these scopes and
	// this resource (RFC 8707: in both requests).
	authorize := func(resource string, scopes ...string) *oauth2.Token {
		t.Helper()
		cfg.Scopes = scopes
		verifier := oauth2.GenerateVerifier()
		state := oauth2.GenerateVerifier()
		back, err := consent(ctx, cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource)))
		if err != nil {
			t.Fatal(err)
		}
		q := back.Query()
		if q.Get("state") != state || q.Get("iss") != meta.Issuer || q.Get("code") == "" {
			t.Fatalf("redirect %s: want state %q, iss %q and a code", back, state, meta.Issuer)
		}
		tok, err := cfg.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", resource))
		if err != nil {
			t.Fatalf("code exchange: %v", err)
		}
		return tok
	}

	// 5. With the token, the call goes through.
	tok := authorize(resource, scope)
	client := cfg.Client(ctx, tok)
	if resp, body := callTool(ctx, t, client, resource, "word_count", `{"text":"read the wire"}`); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"words":3`) {
		t.Fatalf("word_count with a token: %s %s", resp.Status, body)
	}

	// 6. A production deploy: 403 and the scopes to ask for.
	prod := `{"service":"api","env":"production"}`
	resp, _ = callTool(ctx, t, client, resource, "deploy_service", prod)
	challenge = resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusForbidden || challengeParam(challenge, "error") != "insufficient_scope" {
		t.Fatalf("production deploy without the scope: %s %q, want 403 insufficient_scope", resp.Status, challenge)
	}
	stepUp := challengeParam(challenge, "scope")
	if stepUp != "mcp:tools deploy:production" {
		t.Fatalf("step-up scope %q, want %q", stepUp, "mcp:tools deploy:production")
	}

	// 7. Step-up: authorize again with those scopes; the deploy goes
	// ahead.
	client = cfg.Client(ctx, authorize(resource, strings.Fields(stepUp)...))
	if resp, body := callTool(ctx, t, client, resource, "deploy_service", prod); resp.StatusCode != http.StatusOK || !strings.Contains(body, `deployed`) {
		t.Fatalf("production deploy after step-up: %s %s", resp.Status, body)
	}

	// 8. A token the same authorization server issued for another
	// resource is no good here.
	other := strings.Replace(resource, "/mcp", "/other", 1)
	resp, _ = callTool(ctx, t, cfg.Client(ctx, authorize(other, "mcp:tools")), resource, "word_count", `{"text":"x"}`)
	if desc := challengeParam(resp.Header.Get("WWW-Authenticate"), "error_description"); resp.StatusCode != http.StatusUnauthorized ||
		!strings.Contains(desc, "issued for another resource") {
		t.Fatalf("a token for %s: %s %q, want 401 saying it was issued for another resource", other, resp.Status, desc)
	}
}

// TestAuthInteropSDK: the official Go SDK's client, with its OAuth
// handler, against this server and protocols/oauth. It finds the
// authorization server from the 401, registers, sends the person to
// consent, exchanges the code, calls a tool; on the production deploy's
// 403 it steps up by itself.
func TestAuthInteropSDK(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), flowWait)
	defer cancel()
	_, resource := authServers(t)

	const redirect = "http://127.0.0.1:9/callback"
	consents := 0
	handler, err := sdkauth.NewAuthorizationCodeHandler(&sdkauth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &sdkauth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "go-sdk test", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		}},
		RedirectURL: redirect,
		AuthorizationCodeFetcher: func(ctx context.Context, args *sdkauth.AuthorizationArgs) (*sdkauth.AuthorizationResult, error) {
			consents++
			back, err := consent(ctx, args.URL)
			if err != nil {
				return nil, err
			}
			q := back.Query()
			return &sdkauth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "go-sdk", Version: "test"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: resource, OAuthHandler: handler}, nil)
	if err != nil {
		t.Fatalf("connecting through the OAuth flow: %v", err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "word_count", Arguments: map[string]any{"text": "read the wire"}})
	if err != nil || res.IsError {
		t.Fatalf("word_count: %v %+v", err, res)
	}
	if consents != 1 {
		t.Errorf("the person consented %d times before the first call, want 1", consents)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "deploy_service", Arguments: map[string]any{"service": "api", "env": "production"}})
	if err != nil || res.IsError {
		t.Fatalf("production deploy, which needs a step-up: %v %+v", err, res)
	}
	if consents != 2 {
		t.Errorf("the person consented %d times in all, want 2 (the step-up asks again)", consents)
	}
}
