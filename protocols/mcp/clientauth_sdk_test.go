package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/wirelab/wirelab/protocols/oauth"
)

// TestClientAuthWithSDKServer: wirelab's client does the whole dance
// against an MCP server that nobody here wrote, the official Go SDK's,
// protected by the SDK's own bearer-token middleware and serving the
// SDK's protected resource metadata, which names wirelab's authorization
// server. The SDK's middleware decides 401 and what its challenge says;
// the token check it calls is the resource server's Verifier.
func TestClientAuthWithSDKServer(t *testing.T) {
	var asHandler http.Handler
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asHandler.ServeHTTP(w, r) }))
	defer as.Close()
	asHandler = oauth.NewServer(oauth.Options{Issuer: as.URL})

	mux := http.NewServeMux()
	rs := httptest.NewServer(mux)
	defer rs.Close()
	resource := rs.URL + "/mcp"
	verifier := NewVerifier(as.URL, resource, nil)
	check := func(ctx context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		tok, err := verifier.Verify(ctx, token)
		if err != nil {
			return nil, errors.Join(sdkauth.ErrInvalidToken, err)
		}
		info := &sdkauth.TokenInfo{Expiration: tok.Expiry, UserID: tok.Subject}
		for _, s := range tok.Scopes {
			info.Scopes = append(info.Scopes, string(s))
		}
		return info, nil
	}
	metadataURL := rs.URL + "/.well-known/oauth-protected-resource/mcp"
	mux.Handle("/.well-known/oauth-protected-resource/mcp", sdkauth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: resource, AuthorizationServers: []string{as.URL}, ScopesSupported: []string{"mcp:tools"},
	}))
	srv := newSDKServer()
	mux.Handle("/mcp", sdkauth.RequireBearerToken(check, &sdkauth.RequireBearerTokenOptions{ResourceMetadataURL: metadataURL, Scopes: []string{"mcp:tools"}})(
		sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)))

	var wire bytes.Buffer
	authz := NewAuthorizer(AuthOptions{Redirect: &consentClicker{redirectURI: "http://127.0.0.1:9/callback"}, HTTP: &WireLog{Out: &wire}})
	ctx := context.Background()
	c, err := ConnectHTTP(ctx, resource, &ClientOptions{HTTPClient: &http.Client{Transport: authz}})
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, wire.String())
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "greet", json.RawMessage(`{"name":"wire"}`), false)
	if err != nil {
		t.Fatalf("greet: %v\n%s", err, wire.String())
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), "hello, wire") {
		t.Errorf("greet = %s", b)
	}
	log := wire.String()
	for _, want := range []string{"< HTTP/1.1 401 Unauthorized", "> GET " + metadataURL, "> POST " + as.URL + "/register", "> POST " + as.URL + "/token"} {
		if !strings.Contains(log, want) {
			t.Errorf("the wire log lacks %q\n%s", want, log)
		}
	}
}
