package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Discovery: from a 401 to the authorization server's endpoints, in
// three documents: the challenge (WWW-Authenticate), the resource's
// metadata (RFC 9728), the authorization server's metadata (RFC 8414).

// challenge is the Bearer challenge of a WWW-Authenticate header
// (RFC 6750 Section 3): auth-params such as resource_metadata, scope,
// error and error_description.
type challenge struct {
	status int               // 401 or 403
	params map[string]string // lowercase names
}

// scopes returns the challenge's scope, split at spaces ("scope-token"s,
// RFC 6749 Section 3.3).
func (c challenge) scopes() []string { return strings.Fields(c.params["scope"]) }

// String describes the challenge for an error message.
func (c challenge) String() string {
	s := fmt.Sprintf("HTTP %d", c.status)
	for _, k := range []string{"error", "error_description", "scope"} {
		if v, ok := c.params[k]; ok {
			s += fmt.Sprintf(" %s=%q", k, v)
		}
	}
	return s
}

// parseChallenge reads the Bearer challenge out of WWW-Authenticate
// values (RFC 9110 Section 11.6.1):
//
//	Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"
//
// A header may hold several challenges ("DPoP algs=..., Bearer ...");
// a scheme is a token not followed by "=". Values are tokens or quoted
// strings with backslash escapes.
func parseChallenge(values []string) challenge {
	ch := challenge{params: make(map[string]string)}
	scheme := ""
	s := strings.Join(values, ", ")
	for s != "" {
		s = strings.TrimLeft(s, " \t,")
		name := s[:len(s)-len(strings.TrimLeft(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~"))]
		if name == "" {
			if s != "" {
				s = s[1:] // a stray character: skip it
			}
			continue
		}
		s = strings.TrimLeft(s[len(name):], " \t")
		if !strings.HasPrefix(s, "=") || strings.HasPrefix(s, "==") {
			scheme = strings.ToLower(name) // a new challenge, or token68 after it
			continue
		}
		s = strings.TrimLeft(s[1:], " \t")
		var value string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			value, s = b.String(), s[min(i+1, len(s)):]
		} else {
			end := strings.IndexAny(s, ", \t")
			if end < 0 {
				end = len(s)
			}
			value, s = s[:end], s[end:]
		}
		if scheme == "bearer" {
			ch.params[strings.ToLower(name)] = value
		}
	}
	return ch
}

// resourceMetadata is an RFC 9728 protected resource metadata document:
// the fields a client uses.
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// asMetadata is an RFC 8414 authorization server metadata document: the
// fields a client uses.
type asMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	// RFC 9207 Section 3.
	IssParameterSupported bool `json:"authorization_response_iss_parameter_supported"`
	// The client ID metadata document draft.
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported"`
}

// discovery is what the documents said: the resource to ask a token for,
// and the authorization server to ask.
type discovery struct {
	resource string // the resource parameter (RFC 8707): the metadata's resource
	prm      resourceMetadata
	as       *asMetadata
}

// discover reads the resource's metadata, then its authorization
// server's.
func (a *Authorizer) discover(ctx context.Context, server *url.URL, ch challenge) (*discovery, error) {
	prm, err := a.resourceMetadata(ctx, server, ch)
	if err != nil {
		return nil, err
	}
	// RFC 9728 Section 7.6: choosing among several is the client's
	// business; this one takes the first.
	issuer := prm.AuthorizationServers[0]
	as, err := a.authorizationServerMetadata(ctx, issuer)
	if err != nil {
		return nil, err
	}
	a.logf("the resource %s is protected by the authorization server %s", prm.Resource, as.Issuer)
	return &discovery{resource: prm.Resource, prm: *prm, as: as}, nil
}

// resourceMetadata finds and checks the protected resource metadata
// (MCP, "Protected Resource Metadata Discovery Requirements"): "use the
// resource metadata URL from the parsed WWW-Authenticate headers when
// present; otherwise ... fall back to constructing and requesting the
// well-known URIs in the order listed": at the path of the MCP endpoint,
// then at the root.
func (a *Authorizer) resourceMetadata(ctx context.Context, server *url.URL, ch challenge) (*resourceMetadata, error) {
	const step = "protected resource metadata"
	var candidates []string
	if u := ch.params["resource_metadata"]; u != "" {
		candidates = []string{u}
	} else {
		origin := server.Scheme + "://" + server.Host
		if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
			candidates = append(candidates, origin+"/.well-known/oauth-protected-resource"+p)
		}
		candidates = append(candidates, origin+"/.well-known/oauth-protected-resource")
	}
	var prm resourceMetadata
	found, tried, err := a.fetchFirst(ctx, candidates, &prm)
	if err != nil {
		return nil, &AuthError{Step: step, Err: err}
	}
	if found == "" {
		return nil, stepError(step, "no document at %s", strings.Join(tried, ", "))
	}
	// RFC 9728 Section 3.3: the resource "MUST be identical to the
	// protected resource's resource identifier"; MCP: the client MUST
	// check it names the server it is talking to (a metadata document
	// for another resource would get this client a token for that one).
	switch {
	case prm.Resource == "":
		return nil, stepError(step, "%s has no resource", found)
	case !resourceCovers(prm.Resource, server):
		return nil, stepError(step, "%s is for the resource %q, not for %s: refusing to ask for a token for another resource", found, prm.Resource, server)
	case len(prm.AuthorizationServers) == 0:
		return nil, stepError(step, "%s names no authorization server (authorization_servers); the MCP authorization spec requires at least one, so this server's tokens come from elsewhere", found)
	}
	return &prm, nil
}

// resourceCovers reports whether the resource identifier names server:
// the same origin, and a path that is server's or one of its parents
// (metadata at the root describes the whole origin).
func resourceCovers(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || r.Fragment != "" {
		return false
	}
	if !strings.EqualFold(r.Scheme, server.Scheme) || !strings.EqualFold(r.Host, server.Host) {
		return false
	}
	rp := strings.TrimSuffix(r.EscapedPath(), "/")
	sp := strings.TrimSuffix(server.EscapedPath(), "/")
	return rp == sp || strings.HasPrefix(sp, rp+"/")
}

// authorizationServerMetadata finds and checks the authorization
// server's metadata (MCP, "Authorization Server Metadata Discovery").
// For an issuer with a path, such as https://auth.example.com/tenant1:
//
//  1. https://auth.example.com/.well-known/oauth-authorization-server/tenant1 (RFC 8414 Section 3.1)
//  2. https://auth.example.com/.well-known/openid-configuration/tenant1 (RFC 8414 Section 5)
//  3. https://auth.example.com/tenant1/.well-known/openid-configuration (OpenID Connect Discovery)
//
// and for one without: the first two without the path.
func (a *Authorizer) authorizationServerMetadata(ctx context.Context, issuer string) (*asMetadata, error) {
	const step = "authorization server metadata"
	u, err := url.Parse(issuer)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, stepError(step, "the authorization server %q is not an absolute URL", issuer)
	}
	origin := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	candidates := []string{
		origin + "/.well-known/oauth-authorization-server" + path,
		origin + "/.well-known/openid-configuration" + path,
	}
	if path != "" {
		candidates = append(candidates, origin+path+"/.well-known/openid-configuration")
	}
	var as asMetadata
	found, tried, err := a.fetchFirst(ctx, candidates, &as)
	if err != nil {
		return nil, &AuthError{Step: step, Err: err}
	}
	if found == "" {
		return nil, stepError(step, "no document at %s", strings.Join(tried, ", "))
	}
	switch {
	case as.Issuer != issuer:
		// RFC 8414 Section 3.3: "The issuer value returned MUST be
		// identical to the authorization server's issuer identifier
		// value into which the well-known URI string was inserted";
		// otherwise the client "MUST NOT use the metadata". A document
		// that claims another issuer may be an attacker's.
		return nil, stepError(step, "%s says its issuer is %q, but it was fetched for the issuer %q: not using it", found, as.Issuer, issuer)
	case as.AuthorizationEndpoint == "" || as.TokenEndpoint == "":
		return nil, stepError(step, "%s lacks authorization_endpoint or token_endpoint", found)
	case !slices.Contains(as.CodeChallengeMethodsSupported, "S256"):
		// 2025-11-25: "If code_challenge_methods_supported is absent,
		// the authorization server does not support PKCE and MCP
		// clients MUST refuse to proceed."
		return nil, stepError(step, "%s does not list S256 in code_challenge_methods_supported (it lists %q): PKCE is required, so this client will not proceed", found, as.CodeChallengeMethodsSupported)
	}
	return &as, nil
}

// fetchFirst GETs each URL in turn until one answers 200 with JSON,
// decoded into v. It returns that URL, or "" and the URLs tried with what
// each answered. A document that is not the JSON expected is an error.
func (a *Authorizer) fetchFirst(ctx context.Context, urls []string, v any) (found string, tried []string, err error) {
	for _, u := range urls {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return "", nil, err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := a.httpClient(true).Do(req)
		if err != nil {
			return "", nil, err
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxAuthAnswer))
		resp.Body.Close()
		if err != nil {
			return "", nil, fmt.Errorf("reading %s: %w", u, err)
		}
		if resp.StatusCode != http.StatusOK {
			tried = append(tried, fmt.Sprintf("%s (HTTP %d)", u, resp.StatusCode))
			continue
		}
		if err := json.Unmarshal(body, v); err != nil {
			return "", nil, fmt.Errorf("%s is not the JSON object expected: %w", u, err)
		}
		a.logf("read %s", u)
		return u, nil, nil
	}
	return "", tried, nil
}

// httpClient is an http.Client over the Authorizer's transport. The
// authorization request must not follow redirects: the redirect is the
// answer.
func (a *Authorizer) httpClient(follow bool) *http.Client {
	c := &http.Client{Transport: a.base}
	if !follow {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c
}

// selectScopes applies the scope selection strategy (MCP, "Scope
// Selection Strategy"): "Use scope parameter from the initial
// WWW-Authenticate header", else "all scopes defined in scopes_supported
// from the Protected Resource Metadata document, omitting the scope
// parameter if scopes_supported is undefined". A step-up (403) asks for
// "the union of the client's previously requested scope set and the
// scopes from the current challenge". offline_access is added when the
// authorization server lists it: clients "MAY add offline_access ...
// when the Authorization Server metadata contains it in scopes_supported"
// (and only then).
func (a *Authorizer) selectScopes(ch challenge, d *discovery, old *tokenSet) []string {
	var scopes []string
	switch {
	case a.opts.Scope != "":
		scopes = strings.Fields(a.opts.Scope)
	case len(ch.scopes()) > 0:
		scopes = ch.scopes()
	default:
		scopes = d.prm.ScopesSupported
	}
	if ch.status == http.StatusForbidden && old != nil {
		scopes = union(old.asked, scopes)
	}
	if len(scopes) > 0 && slices.Contains(d.as.ScopesSupported, "offline_access") {
		scopes = union(scopes, []string{"offline_access"})
	}
	return scopes
}

// union returns a's scopes followed by those of b that a lacks.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
