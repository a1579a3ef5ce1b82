package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"
)

// The tests drive the server with golang.org/x/oauth2, a client nobody
// here wrote, as the independent peer: if both sides misread an RFC the
// same way, it still disagrees.

const (
	testRedirect = "http://127.0.0.1:4999/callback"
	testResource = "http://127.0.0.1:8021/mcp"
)

// startServer runs a Server on a loopback port and returns it with its
// issuer, http://127.0.0.1:PORT.
func startServer(t *testing.T, opts Options) (*Server, string) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	opts.Issuer = "http://" + ts.Listener.Addr().String()
	opts.Loopback = true
	s := NewServer(opts)
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(ts.Close)
	return s, opts.Issuer
}

// browser follows no redirect: a redirect to the client's callback is
// the answer under test, and no callback listens there.
var browser = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// consentForm opens an authorization URL and returns the consent page's
// form fields, failing the test if there is no consent page.
func consentForm(t *testing.T, authURL string) url.Values {
	t.Helper()
	resp, err := browser.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `<form method="post" action="/authorize">`) {
		t.Fatalf("GET %s: %s, want the consent page; got:\n%s\nLocation: %s", authURL, resp.Status, body, resp.Header.Get("Location"))
	}
	form := url.Values{}
	for _, m := range hiddenInput.FindAllStringSubmatch(string(body), -1) {
		form.Add(m[1], html.UnescapeString(m[2]))
	}
	return form
}

// decide posts a consent form with the person's answer and returns
// where the server sends the browser.
func decide(t *testing.T, issuer string, form url.Values, decision string) *url.URL {
	t.Helper()
	form = cloneValues(form)
	form.Set("decision", decision)
	resp, err := browser.PostForm(issuer+AuthorizePath, form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /authorize: %s, want 303; body:\n%s", resp.Status, body)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func cloneValues(v url.Values) url.Values {
	c := url.Values{}
	for k, vs := range v {
		c[k] = append([]string(nil), vs...)
	}
	return c
}

// register registers a client by RFC 7591 and returns the answer.
func register(t *testing.T, issuer string, m ClientMetadata) ClientMetadata {
	t.Helper()
	body, _ := json.Marshal(m)
	resp, err := http.Post(issuer+RegisterPath, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got ClientMetadata
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /register: %s, %v", resp.Status, err)
	}
	return got
}

// authorizeWith runs the front channel with conf: the authorization URL,
// the consent page, Allow. It returns the code, after checking state
// and iss as a client must.
func authorizeWith(t *testing.T, conf *oauth2.Config, issuer, verifier string, extra ...oauth2.AuthCodeOption) string {
	t.Helper()
	const state = "state-1234"
	opts := append([]oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier)}, extra...)
	loc := decide(t, issuer, consentForm(t, conf.AuthCodeURL(state, opts...)), "allow")
	q := loc.Query()
	if got := loc.Scheme + "://" + loc.Host + loc.Path; got != conf.RedirectURL {
		t.Fatalf("redirected to %s, want %s", got, conf.RedirectURL)
	}
	if q.Get("state") != state || q.Get("iss") != issuer || q.Get("code") == "" {
		t.Fatalf("authorization response %s: want state %q, iss %q and a code", loc, state, issuer)
	}
	return q.Get("code")
}

func TestMetadata(t *testing.T) {
	_, issuer := startServer(t, Options{})
	want := Metadata{
		Issuer:                            issuer,
		AuthorizationEndpoint:             issuer + "/authorize",
		TokenEndpoint:                     issuer + "/token",
		JWKSURI:                           issuer + "/jwks",
		RegistrationEndpoint:              issuer + "/register",
		ScopesSupported:                   []string{"mcp:tools", "deploy:production"},
		ResponseTypesSupported:            []string{"code"},
		GrantTypesSupported:               []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported: []string{"client_secret_basic", "client_secret_post", "none"},
		CodeChallengeMethodsSupported:     []string{"S256"},
		AuthorizationResponseISSParameterSupported: true,
		ClientIDMetadataDocumentSupported:          true,
	}
	for _, path := range []string{MetadataPath, OpenIDConfigPath} {
		var got Metadata
		getJSON(t, issuer+path, &got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %s, %s", u, resp.Status, resp.Header.Get("Content-Type"))
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

// verifyAccessToken checks an access token the way a resource server
// does, offline, with the keys from jwks_uri, and returns its claims.
func verifyAccessToken(t *testing.T, issuer, token string) AccessClaims {
	t.Helper()
	var keys jose.JSONWebKeySet
	getJSON(t, issuer+JWKSPath, &keys)
	tok, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatalf("access token is not an ES256 JWT: %v", err)
	}
	h := tok.Headers[0]
	if h.ExtraHeaders["typ"] != "at+jwt" {
		t.Errorf("typ = %v, want at+jwt (RFC 9068)", h.ExtraHeaders["typ"])
	}
	found := keys.Key(h.KeyID)
	if len(found) != 1 {
		t.Fatalf("kid %q is not in the JWKS", h.KeyID)
	}
	var claims AccessClaims
	if err := tok.Claims(found[0].Key, &claims); err != nil {
		t.Fatalf("signature: %v", err)
	}
	return claims
}

func TestFlowWithOAuth2(t *testing.T) {
	var log syncBuffer
	_, issuer := startServer(t, Options{Log: slog.New(slog.NewTextHandler(&log, nil))})
	ctx := context.Background()

	reg := register(t, issuer, ClientMetadata{
		RedirectURIs: []string{testRedirect}, ClientName: "x/oauth2 test client",
		GrantTypes: []string{"authorization_code", "refresh_token"}, ApplicationType: "native",
	})
	if reg.ClientID == "" || reg.ClientSecret == "" || reg.TokenEndpointAuthMethod != AuthClientSecretBasic ||
		reg.ClientSecretExpiresAt == nil || *reg.ClientSecretExpiresAt != 0 {
		t.Fatalf("registration answer %+v: want an id, a secret that never expires, client_secret_basic", reg)
	}
	conf := &oauth2.Config{
		ClientID: reg.ClientID, ClientSecret: reg.ClientSecret, RedirectURL: testRedirect,
		Endpoint: oauth2.Endpoint{AuthURL: issuer + AuthorizePath, TokenURL: issuer + TokenPath, AuthStyle: oauth2.AuthStyleInHeader},
		Scopes:   []string{ScopeTools, ScopeDeployProduction},
	}
	verifier := oauth2.GenerateVerifier()
	resource := oauth2.SetAuthURLParam("resource", testResource)
	code := authorizeWith(t, conf, issuer, verifier, resource)

	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier), resource)
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	if tok.TokenType != "Bearer" || tok.RefreshToken == "" || tok.Extra("scope") != "mcp:tools deploy:production" {
		t.Errorf("token response: type %q, refresh %v, scope %v", tok.TokenType, tok.RefreshToken != "", tok.Extra("scope"))
	}
	claims := verifyAccessToken(t, issuer, tok.AccessToken)
	want := AccessClaims{Issuer: issuer, Subject: Subject, Audience: testResource, ClientID: reg.ClientID, Scope: "mcp:tools deploy:production"}
	if diff := cmp.Diff(want, claims, cmpIgnoreTimes); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	if claims.Expiry-claims.IssuedAt != 300 || claims.ID == "" {
		t.Errorf("exp - iat = %d, want 300; jti %q", claims.Expiry-claims.IssuedAt, claims.ID)
	}

	// Refresh: a new access token for the same grant, and a new refresh
	// token in place of the spent one.
	refreshed, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if refreshed.RefreshToken == "" || refreshed.RefreshToken == tok.RefreshToken {
		t.Errorf("refresh token not rotated")
	}
	if c := verifyAccessToken(t, issuer, refreshed.AccessToken); c.Audience != testResource || c.Scope != "mcp:tools deploy:production" {
		t.Errorf("refreshed token: aud %q scope %q", c.Audience, c.Scope)
	}

	// The old refresh token again: refused, and the grant is gone, so
	// the new one is refused too.
	for i, rt := range []string{tok.RefreshToken, refreshed.RefreshToken} {
		_, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: rt}).Token()
		if code := retrieveErrorCode(err); code != ErrInvalidGrant {
			t.Errorf("refresh token %d after reuse: %v, want invalid_grant", i, err)
		}
	}

	// The log tells what happened without anything one could use.
	logged := log.String()
	for name, secret := range map[string]string{
		"client secret": reg.ClientSecret, "code": code, "access token": tok.AccessToken,
		"refresh token": tok.RefreshToken, "second access token": refreshed.AccessToken, "second refresh token": refreshed.RefreshToken,
	} {
		if strings.Contains(logged, secret) {
			t.Errorf("the log shows the %s in full:\n%s", name, logged)
		}
	}
	if !strings.Contains(logged, "jti="+claims.ID) {
		t.Errorf("the log does not name the token's jti %s:\n%s", claims.ID, logged)
	}
}

// syncBuffer is a log destination that handlers on several goroutines
// may write to.
type syncBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var cmpIgnoreTimes = cmp.FilterPath(func(p cmp.Path) bool {
	switch p.Last().String() {
	case ".IssuedAt", ".Expiry", ".ID":
		return true
	}
	return false
}, cmp.Ignore())

func retrieveErrorCode(err error) string {
	if re, ok := err.(*oauth2.RetrieveError); ok {
		return re.ErrorCode
	}
	return ""
}

// TestPublicClientMetadataDocument: a public client whose client_id is
// the URL of its metadata document; no registration, no secret, and no
// resource, so the token has no aud.
func TestPublicClientMetadataDocument(t *testing.T) {
	docs := httptest.NewServer(nil)
	defer docs.Close()
	id := docs.URL + "/client.json"
	docs.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(ClientMetadata{
			ClientID: id, ClientName: "Document Client", RedirectURIs: []string{"http://127.0.0.1:3000/callback"},
			TokenEndpointAuthMethod: AuthNone,
		})
	})
	_, issuer := startServer(t, Options{})
	conf := &oauth2.Config{
		ClientID: id, RedirectURL: "http://127.0.0.1:3999/callback", // another port of a loopback IP: allowed
		Endpoint: oauth2.Endpoint{AuthURL: issuer + AuthorizePath, TokenURL: issuer + TokenPath, AuthStyle: oauth2.AuthStyleInParams},
	}
	verifier := oauth2.GenerateVerifier()
	code := authorizeWith(t, conf, issuer, verifier)
	tok, err := conf.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	if tok.RefreshToken != "" {
		t.Errorf("a refresh token for a client that registered only authorization_code")
	}
	claims := verifyAccessToken(t, issuer, tok.AccessToken)
	want := AccessClaims{Issuer: issuer, Subject: Subject, ClientID: id, Scope: ScopeTools}
	if diff := cmp.Diff(want, claims, cmpIgnoreTimes); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
}

// TestPreregisteredPostAndDeny: a pre-registered confidential client that
// authenticates with client_secret_post; and a person who says no.
func TestPreregisteredPostAndDeny(t *testing.T) {
	_, issuer := startServer(t, Options{Clients: []Client{{ID: "app", Secret: "s3cret:%", Name: "The App", RedirectURIs: []string{testRedirect}}}})
	conf := &oauth2.Config{
		ClientID: "app", ClientSecret: "s3cret:%", RedirectURL: testRedirect,
		Endpoint: oauth2.Endpoint{AuthURL: issuer + AuthorizePath, TokenURL: issuer + TokenPath, AuthStyle: oauth2.AuthStyleInParams},
	}
	verifier := oauth2.GenerateVerifier()
	code := authorizeWith(t, conf, issuer, verifier)
	if _, err := conf.Exchange(context.Background(), code, oauth2.VerifierOption(verifier)); err != nil {
		t.Fatalf("exchange with client_secret_post: %v", err)
	}
	// The same client by Basic: the secret's ":" and "%" are
	// form-encoded first (RFC 6749 section 2.3.1), as x/oauth2 does.
	conf.Endpoint.AuthStyle = oauth2.AuthStyleInHeader
	code = authorizeWith(t, conf, issuer, verifier)
	if _, err := conf.Exchange(context.Background(), code, oauth2.VerifierOption(verifier)); err != nil {
		t.Fatalf("exchange with client_secret_basic: %v", err)
	}

	loc := decide(t, issuer, consentForm(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier))), "deny")
	if q := loc.Query(); q.Get("error") != ErrAccessDenied || q.Get("state") != "s" || q.Get("iss") != issuer || q.Has("code") {
		t.Errorf("deny redirected to %s: want error=access_denied with state and iss, no code", loc)
	}
}
