package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The authorization code flow with PKCE (OAuth 2.1 Section 4.1), once
// discovery has found the authorization server: get a client id, send
// the user to the authorization endpoint, check the answer, exchange the
// code for a token. And later, refresh it.

// clientIdentity is how this client is known to one authorization
// server, and how it authenticates at its token endpoint.
type clientIdentity struct {
	id     string
	secret string
	method string // token_endpoint_auth_method: client_secret_basic, client_secret_post or none
	how    string // for the log: pre-registered, metadata document, registered
}

// authorize runs the flow for scopes and returns the token it ends with.
func (a *Authorizer) authorize(ctx context.Context, d *discovery, scopes []string) (*tokenSet, error) {
	redirectURI, err := a.opts.Redirect.URI(ctx)
	if err != nil {
		return nil, &AuthError{Step: "redirect", Err: err}
	}
	client, err := a.identity(ctx, d.as, redirectURI)
	if err != nil {
		return nil, err
	}
	verifier, challenge := newPKCE()
	state := randomToken()
	authURL, err := authorizationURL(d, client, redirectURI, challenge, state, scopes)
	if err != nil {
		return nil, err
	}
	a.logf("authorization request for scope %q as client %s (%s)", strings.Join(scopes, " "), client.id, client.how)
	answer, err := a.opts.Redirect.Visit(ctx, authURL, a.httpClient(false))
	if err != nil {
		return nil, &AuthError{Step: "authorization request", Err: err}
	}
	code, err := checkAuthorizationResponse(answer, d.as, state)
	if err != nil {
		return nil, err
	}
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {redirectURI},
		"code_verifier": {verifier},
		"resource":      {d.resource},
	}
	tok, err := a.requestToken(ctx, d.as, client, form, scopes)
	if err != nil {
		return nil, err
	}
	tok.issuer, tok.as, tok.client, tok.res = d.as.Issuer, d.as, client, d.resource
	return tok, nil
}

// identity picks the client id, in the order of MCP's "Client
// Registration": "1. Use pre-registered client information ... 2. Use
// Client ID Metadata Documents if the Authorization Server indicates
// that it supports them ... 3. Use Dynamic Client Registration as a
// fallback". It is remembered per issuer: credentials from one
// authorization server are never shown to another.
func (a *Authorizer) identity(ctx context.Context, as *asMetadata, redirectURI string) (clientIdentity, error) {
	const step = "client registration"
	a.mu.Lock()
	known, ok := a.clients[as.Issuer]
	a.mu.Unlock()
	if ok {
		return known, nil
	}
	var c clientIdentity
	switch {
	case a.opts.ClientID != "":
		if a.opts.ClientIssuer != "" && a.opts.ClientIssuer != as.Issuer {
			return c, stepError(step, "the client id %q was registered with %s, but the resource now names the authorization server %s; its credentials are not valid there",
				a.opts.ClientID, a.opts.ClientIssuer, as.Issuer)
		}
		c = clientIdentity{id: a.opts.ClientID, secret: a.opts.ClientSecret, how: "pre-registered",
			method: authMethod(as.TokenEndpointAuthMethodsSupported, a.opts.ClientSecret != "")}
	case a.opts.ClientMetadataURL != "" && as.ClientIDMetadataDocumentSupported:
		// The URL is the client_id; the authorization server fetches the
		// document from it. A public client: no secret.
		c = clientIdentity{id: a.opts.ClientMetadataURL, method: "none", how: "client ID metadata document"}
	case as.RegistrationEndpoint != "":
		var err error
		if c, err = a.register(ctx, as, redirectURI); err != nil {
			return c, err
		}
	default:
		return c, stepError(step, "%s offers no registration_endpoint and no client ID metadata documents this client can use; give a pre-registered client id (--client-id)", as.Issuer)
	}
	a.mu.Lock()
	a.clients[as.Issuer] = c
	a.mu.Unlock()
	return c, nil
}

// authMethod picks how a client authenticates at the token endpoint
// among those the server supports; RFC 8414 Section 2: when
// token_endpoint_auth_methods_supported is omitted, "the default is
// client_secret_basic". A client without a secret has only "none".
func authMethod(supported []string, hasSecret bool) string {
	if !hasSecret {
		return "none"
	}
	if len(supported) == 0 || slices.Contains(supported, "client_secret_basic") {
		return "client_secret_basic"
	}
	if slices.Contains(supported, "client_secret_post") {
		return "client_secret_post"
	}
	return "none"
}

// register is Dynamic Client Registration (RFC 7591 Section 3): POST the
// client's metadata, get a client_id (and perhaps a secret) back. A
// command-line tool is a public "native" client, so it asks for "none"
// when the server allows it.
func (a *Authorizer) register(ctx context.Context, as *asMetadata, redirectURI string) (clientIdentity, error) {
	const step = "client registration"
	asked := "none"
	if supported := as.TokenEndpointAuthMethodsSupported; len(supported) > 0 && !slices.Contains(supported, "none") {
		asked = authMethod(supported, true)
	} else if len(supported) == 0 {
		asked = "client_secret_basic"
	}
	body, _ := json.Marshal(map[string]any{
		"client_name":                a.opts.ClientName,
		"redirect_uris":              []string{redirectURI},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": asked,
		// 2026-07-28: "MCP clients MUST specify an appropriate
		// application_type during Dynamic Client Registration"; a CLI
		// tool with a loopback redirect is "native".
		"application_type": "native",
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.RegistrationEndpoint, strings.NewReader(string(body)))
	if err != nil {
		return clientIdentity{}, &AuthError{Step: step, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	var answer struct {
		ClientID                string `json:"client_id"`
		ClientSecret            string `json:"client_secret"`
		TokenEndpointAuthMethod string `json:"token_endpoint_auth_method"`
	}
	if err := a.exchangeJSON(req, http.StatusCreated, &answer); err != nil {
		return clientIdentity{}, &AuthError{Step: step, Err: err}
	}
	if answer.ClientID == "" {
		return clientIdentity{}, stepError(step, "%s answered without a client_id", as.RegistrationEndpoint)
	}
	// RFC 7591 Section 3.2.1: the response holds the metadata as
	// registered, which may differ from what was asked.
	method := answer.TokenEndpointAuthMethod
	if method == "" {
		method = asked
	}
	a.logf("registered with %s as client %s (token endpoint auth: %s)", as.Issuer, answer.ClientID, method)
	return clientIdentity{id: answer.ClientID, secret: answer.ClientSecret, method: method, how: "registered"}, nil
}

// newPKCE makes a code verifier and its S256 challenge (RFC 7636
// Section 4.1-4.2): 32 random bytes, base64url without padding, is 43
// characters of the allowed alphabet; the challenge is
// BASE64URL(SHA256(verifier)).
func newPKCE() (verifier, challenge string) {
	verifier = randomToken()
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// randomToken returns 32 random bytes, base64url: a PKCE verifier or a
// state value no one can guess.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// authorizationURL builds the authorization request (OAuth 2.1 Section
// 4.1.1) with PKCE, and the resource it is for: the resource parameter
// "MUST be included in both authorization requests and token requests"
// (RFC 8707). No scope parameter when there is no scope to ask for.
func authorizationURL(d *discovery, c clientIdentity, redirectURI, challenge, state string, scopes []string) (string, error) {
	u, err := url.Parse(d.as.AuthorizationEndpoint)
	if err != nil {
		return "", stepError("authorization request", "authorization_endpoint %q: %v", d.as.AuthorizationEndpoint, err)
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", c.id)
	q.Set("redirect_uri", redirectURI)
	q.Set("code_challenge", challenge)
	q.Set("code_challenge_method", "S256")
	q.Set("state", state)
	q.Set("resource", d.resource)
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// checkAuthorizationResponse checks the redirect back from the
// authorization server and returns its code. Order matters:
//
//  1. iss (RFC 9207 Section 2.4), first, because on a mismatch "the
//     client MUST NOT act on or display error, error_description, or
//     error_uri": a present iss is compared with the recorded issuer by
//     simple string comparison, without any normalization; an absent
//     one is refused only when the metadata promised it
//     (authorization_response_iss_parameter_supported).
//  2. state (OAuth 2.1 Section 7.12): the answer is to this request.
//  3. error (OAuth 2.1 Section 4.1.2.1): the user or server said no.
func checkAuthorizationResponse(q url.Values, as *asMetadata, state string) (string, error) {
	const step = "authorization response"
	if iss, present := q["iss"]; present {
		if len(iss) != 1 || iss[0] != as.Issuer {
			return "", stepError(step, "iss is %q, but the authorization server asked was %q (RFC 9207: a mix-up attack, or a misconfigured server); the code is not sent anywhere", q.Get("iss"), as.Issuer)
		}
	} else if as.IssParameterSupported {
		return "", stepError(step, "no iss, though %s says authorization_response_iss_parameter_supported (RFC 9207); the code is not sent anywhere", as.Issuer)
	}
	if q.Get("state") != state {
		return "", stepError(step, "state is %q, not the value this client sent: the answer is not to this request", q.Get("state"))
	}
	if e := q.Get("error"); e != "" {
		return "", stepError(step, "the authorization server refused: %s %s", e, q.Get("error_description"))
	}
	code := q.Get("code")
	if code == "" {
		return "", stepError(step, "no code and no error in the redirect")
	}
	return code, nil
}

// requestToken POSTs a token request (OAuth 2.1 Section 3.2.2),
// authenticated as the client's method says.
func (a *Authorizer) requestToken(ctx context.Context, as *asMetadata, c clientIdentity, form url.Values, asked []string) (*tokenSet, error) {
	step := "token request (" + form.Get("grant_type") + ")"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.TokenEndpoint, nil)
	if err != nil {
		return nil, &AuthError{Step: step, Err: err}
	}
	switch c.method {
	case "client_secret_basic":
		// OAuth 2.1 Section 2.4.1: id and secret are form-encoded
		// before they are joined with ":" and base64-encoded.
		req.SetBasicAuth(url.QueryEscape(c.id), url.QueryEscape(c.secret))
	case "client_secret_post":
		form.Set("client_id", c.id)
		form.Set("client_secret", c.secret)
	default:
		form.Set("client_id", c.id)
	}
	body := form.Encode()
	req.Body = io.NopCloser(strings.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	var answer struct {
		AccessToken  string `json:"access_token"`
		TokenType    string `json:"token_type"`
		ExpiresIn    int64  `json:"expires_in"`
		RefreshToken string `json:"refresh_token"`
		Scope        string `json:"scope"`
	}
	if err := a.exchangeJSON(req, http.StatusOK, &answer); err != nil {
		return nil, &AuthError{Step: step, Err: err}
	}
	switch {
	case answer.AccessToken == "":
		return nil, stepError(step, "%s answered without an access_token", as.TokenEndpoint)
	case !strings.EqualFold(answer.TokenType, "Bearer"):
		return nil, stepError(step, "token_type is %q; this client sends Bearer tokens only", answer.TokenType)
	}
	tok := &tokenSet{access: answer.AccessToken, refresh: answer.RefreshToken, asked: asked, granted: asked}
	if answer.Scope != "" {
		// OAuth 2.1 Section 3.2.3: the scope granted, when it differs.
		tok.granted = strings.Fields(answer.Scope)
	}
	if answer.ExpiresIn > 0 {
		tok.expires = a.opts.Now().Add(time.Duration(answer.ExpiresIn) * time.Second)
	}
	a.logf("got a token for scope %q (expires in %ds, refresh token: %t)", strings.Join(tok.granted, " "), answer.ExpiresIn, tok.refresh != "")
	return tok, nil
}

// refresh uses the refresh token (OAuth 2.1 Section 4.3), for the same
// resource. The server may rotate the refresh token; if it sends none,
// the old one stays.
func (a *Authorizer) refresh(ctx context.Context, old *tokenSet) (*tokenSet, error) {
	form := url.Values{
		"grant_type":    {"refresh_token"},
		"refresh_token": {old.refresh},
		"resource":      {old.res},
	}
	tok, err := a.requestToken(ctx, old.as, old.client, form, old.asked)
	if err != nil {
		return nil, err
	}
	if tok.refresh == "" {
		tok.refresh = old.refresh
	}
	tok.issuer, tok.as, tok.client, tok.res = old.issuer, old.as, old.client, old.res
	return tok, nil
}

// exchangeJSON sends req and decodes the JSON answer into v. Any other
// status than want is an error, with the OAuth error and description
// when the body carries them (RFC 6749 Section 5.2, RFC 7591 Section 3.2.2).
func (a *Authorizer) exchangeJSON(req *http.Request, want int, v any) error {
	resp, err := a.httpClient(true).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAuthAnswer))
	if err != nil {
		return fmt.Errorf("reading the answer of %s: %w", req.URL, err)
	}
	ok := resp.StatusCode == want || (want == http.StatusCreated && resp.StatusCode == http.StatusOK)
	if !ok {
		var oauthErr struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		if json.Unmarshal(body, &oauthErr) == nil && oauthErr.Error != "" {
			return fmt.Errorf("%s answered HTTP %d %s: %s", req.URL, resp.StatusCode, oauthErr.Error, oauthErr.Description)
		}
		return fmt.Errorf("%s answered HTTP %d: %.200q", req.URL, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("the answer of %s is not the JSON expected: %w", req.URL, err)
	}
	return nil
}
