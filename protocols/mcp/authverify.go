package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/wirelab/wirelab/protocols/tools"
)

// A resource server that trusts an OAuth authorization server checks each
// access token itself. The tokens this package accepts are JWTs in the
// profile of RFC 9068: signed by the authorization server with a key it
// publishes, and carrying who issued them (iss), for which resource
// (aud), until when (exp) and what they allow (scope). Checking one takes
// no call to the authorization server: only its metadata (RFC 8414),
// which names the key set, and the key set itself (jwks_uri), both read
// once and kept.
//
// The order of the checks matters. Nothing in a token is believed before
// its signature is verified, except the two header fields that say how
// to verify it: alg, which must be one this server chose in advance
// (never "none", never a shared-secret HMAC), and kid, which picks the
// key. Then the claims: iss, exp and nbf, aud, and last scope.

// ScopeTools is the base scope of an OAuth-protected server: it lets a
// caller list and call tools. A production deploy needs
// tools.ScopeDeployProduction besides.
const ScopeTools tools.Scope = "mcp:tools"

// Limits of the token verifier.
const (
	// DefaultLeeway is how far the clocks of the authorization server and
	// this server may disagree when exp and nbf are checked. RFC 7519
	// allows "some small leeway, usually no more than a few minutes";
	// tokens here live five minutes, so half a minute.
	DefaultLeeway = 30 * time.Second
	// metadataTimeout bounds each read of the metadata or the key set: a
	// request waits for it, so it must be short.
	metadataTimeout = 10 * time.Second
	// maxKeyDocument is the largest metadata document or key set read; both
	// are a few hundred bytes.
	maxKeyDocument = 64 << 10
	// keysRefetchAfter is how long after a read of the key set an
	// unknown kid may cause another. The authorization server may have
	// rotated its key, so one unknown kid is worth a new read; but
	// anyone can send tokens with made-up kids, and each must not cost a
	// request to the authorization server.
	keysRefetchAfter = 10 * time.Second
)

// signingAlgs are the signature algorithms accepted, chosen here and not
// by the token: asymmetric ones only. With "none" anyone could write a
// token; with HS256 the key would be a shared secret, and a key published
// in a JWKS for verifying would then also sign.
var signingAlgs = []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.RS256, jose.PS256, jose.EdDSA}

// Verifier checks access tokens issued by one authorization server for
// one resource: this MCP server.
type Verifier struct {
	issuer   string
	resource string
	client   *http.Client
	leeway   time.Duration

	// mu guards jwksURI, keys and fetched. It is held while they are
	// read from the authorization server, so that requests arriving
	// together cause one read, not one each.
	mu      sync.Mutex
	jwksURI string              // from the metadata; "" until it was read
	keys    *jose.JSONWebKeySet // nil until read
	fetched time.Time           // when keys were read
}

// VerifierOptions configures a [Verifier]. A nil *VerifierOptions means
// defaults.
type VerifierOptions struct {
	// Client reads the metadata and the key set; nil means a client with
	// a 10-second timeout.
	Client *http.Client
	// Leeway is the allowed clock difference; 0 means DefaultLeeway.
	Leeway time.Duration
}

// NewVerifier returns a verifier for tokens that the authorization server
// issuer (its issuer identifier, "http://127.0.0.1:8023") issued for
// resource, this server's resource identifier ("http://127.0.0.1:8021/mcp").
// It reads nothing yet: [Verifier.Discover] does, or the first token. It
// panics if resource is not an absolute http(s) URL: that is a mistake in
// the program that starts the server.
func NewVerifier(issuer, resource string, opts *VerifierOptions) *Verifier {
	if u, err := url.Parse(resource); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
		panic(fmt.Sprintf("mcp: resource %q is not an absolute http(s) URL without a fragment (RFC 8707 section 2)", resource))
	}
	if opts == nil {
		opts = &VerifierOptions{}
	}
	v := &Verifier{issuer: issuer, resource: resource, client: opts.Client, leeway: opts.Leeway}
	if v.client == nil {
		v.client = &http.Client{Timeout: metadataTimeout}
	}
	if v.leeway <= 0 {
		v.leeway = DefaultLeeway
	}
	return v
}

// Issuer returns the issuer identifier of the authorization server.
func (v *Verifier) Issuer() string { return v.issuer }

// Resource returns the resource identifier tokens must name in aud.
func (v *Verifier) Resource() string { return v.resource }

// AccessToken is what a verified token says.
type AccessToken struct {
	Subject  string // sub: whom the token acts for
	ClientID string // client_id: the application that holds it
	Scopes   []tools.Scope
	Expiry   time.Time
}

// Allows reports whether the token carries scope s. Its method value fits
// where the server asks "may the caller do this?".
func (t *AccessToken) Allows(s tools.Scope) bool {
	for _, have := range t.Scopes {
		if have == s {
			return true
		}
	}
	return false
}

// TokenError says why a token was refused: the caller's fault, answered
// with 401 and error="invalid_token". Any other error from
// [Verifier.Verify] is this server's: it could not read what it needs
// from the authorization server.
type TokenError struct {
	Reason string
}

func (e *TokenError) Error() string { return "invalid token: " + e.Reason }

func badToken(format string, args ...any) *TokenError {
	return &TokenError{Reason: fmt.Sprintf(format, args...)}
}

// Discover reads the authorization server's metadata and key set now, so
// that a server can say at its start that they cannot be read.
func (v *Verifier) Discover(ctx context.Context) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fetchLocked(ctx)
}

// Verify checks a token and returns what it says, a *TokenError if it
// must be refused, or another error if it could not be checked.
func (v *Verifier) Verify(ctx context.Context, raw string) (*AccessToken, error) {
	hdr, err := peekHeader(raw)
	if err != nil {
		return nil, err
	}
	// RFC 9068 section 4: "Resource servers MUST verify that the typ
	// header value is "at+jwt" or "application/at+jwt" and reject tokens
	// carrying any other type value." An ID token, for one, is a signed
	// JWT from the same server, but not an access token.
	if typ := strings.ToLower(hdr.Typ); typ != "at+jwt" && typ != "application/at+jwt" {
		return nil, badToken("the token's typ is %s, not \"at+jwt\": it is not an access token (RFC 9068)", quote(hdr.Typ))
	}
	if hdr.Kid == "" {
		return nil, badToken("the token's header has no kid, so no key of the authorization server can be chosen to verify it")
	}
	key, err := v.key(ctx, hdr.Kid)
	if err != nil {
		return nil, err
	}

	tok, err := jwt.ParseSigned(raw, signingAlgs)
	if err != nil {
		return nil, badToken("the token cannot be read as a signed JWT: %v", err)
	}
	var c struct {
		jwt.Claims
		ClientID string `json:"client_id"`
		Scope    string `json:"scope"`
	}
	if err := tok.Claims(key.Key, &c); err != nil {
		return nil, badToken("bad signature: the token does not verify with the authorization server's key %s; it was altered, or signed by someone else", quote(hdr.Kid))
	}

	// The signature holds: now the claims can be believed, and judged.
	if c.Issuer != v.issuer {
		return nil, badToken("wrong issuer: the token was issued by %s, and this server trusts only %s", quote(c.Issuer), quote(v.issuer))
	}
	now := time.Now()
	switch {
	case c.Expiry == nil:
		return nil, badToken("the token has no exp claim: an access token must say when it expires (RFC 9068)")
	case now.After(c.Expiry.Time().Add(v.leeway)):
		return nil, badToken("the token expired at %s; get a new one (refresh it, or authorize again)", c.Expiry.Time().UTC().Format(time.RFC3339))
	case c.NotBefore != nil && now.Add(v.leeway).Before(c.NotBefore.Time()):
		return nil, badToken("the token is not valid before %s (nbf)", c.NotBefore.Time().UTC().Format(time.RFC3339))
	}
	// MCP authorization: "MCP servers MUST validate that access tokens
	// were issued specifically for them as the intended audience". A
	// token for another server, or for none, could be replayed here by
	// that server, or by anyone who holds it.
	switch {
	case len(c.Audience) == 0:
		return nil, badToken("the token names no audience (aud): it was issued without a resource parameter (RFC 8707), so it is not bound to %s", quote(v.resource))
	case !audienceHas(c.Audience, v.resource):
		return nil, badToken("issued for another resource: the token's audience is %s, and this server is %s", quote(strings.Join(c.Audience, " ")), quote(v.resource))
	}
	t := &AccessToken{Subject: c.Subject, ClientID: c.ClientID, Expiry: c.Expiry.Time()}
	for _, s := range strings.Fields(c.Scope) {
		t.Scopes = append(t.Scopes, tools.Scope(s))
	}
	return t, nil
}

// jwtHeader holds the fields of a token's header read before its
// signature is checked.
type jwtHeader struct {
	Alg string `json:"alg"`
	Typ string `json:"typ"`
	Kid string `json:"kid"`
}

// peekHeader reads a token's header, which says how to verify the rest.
// go-jose would refuse a token with an unexpected alg too; reading the
// header here lets the refusal say what was wrong.
func peekHeader(raw string) (jwtHeader, error) {
	var hdr jwtHeader
	part, _, _ := strings.Cut(raw, ".")
	if strings.Count(raw, ".") != 2 {
		return hdr, badToken("the token is not a JWT: a signed JWT is three base64url parts joined by dots (header.claims.signature)")
	}
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil || json.Unmarshal(b, &hdr) != nil {
		return hdr, badToken("the token's header is not base64url-encoded JSON")
	}
	if hdr.Alg == "none" {
		return hdr, badToken("the token is unsigned (alg \"none\"): anyone could have written it")
	}
	for _, alg := range signingAlgs {
		if hdr.Alg == string(alg) {
			return hdr, nil
		}
	}
	return hdr, badToken("the token is signed with alg %s, which this server does not accept; it accepts %s", quote(hdr.Alg), algList())
}

func algList() string {
	names := make([]string, len(signingAlgs))
	for i, a := range signingAlgs {
		names[i] = string(a)
	}
	return strings.Join(names, ", ")
}

// audienceHas reports whether aud names resource. RFC 8707 resource
// identifiers are absolute URIs; MCP authorization says implementations
// "SHOULD accept uppercase scheme and host components", and the path is
// compared exactly.
func audienceHas(aud jwt.Audience, resource string) bool {
	want, err := url.Parse(resource)
	if err != nil {
		return false
	}
	for _, a := range aud {
		u, err := url.Parse(a)
		if err == nil && strings.EqualFold(u.Scheme, want.Scheme) && strings.EqualFold(u.Host, want.Host) &&
			u.Path == want.Path && u.RawQuery == want.RawQuery && u.Fragment == "" {
			return true
		}
	}
	return false
}

// key returns the authorization server's signing key with this kid,
// reading the key set again once if the kid is unknown: the server may
// have rotated its keys since.
func (v *Verifier) key(ctx context.Context, kid string) (*jose.JSONWebKey, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.keys == nil {
		if err := v.fetchLocked(ctx); err != nil {
			return nil, err
		}
	} else if len(v.keys.Key(kid)) == 0 && time.Since(v.fetched) >= keysRefetchAfter {
		if err := v.fetchLocked(ctx); err != nil {
			return nil, err
		}
	}
	for _, k := range v.keys.Key(kid) {
		if k.Use == "" || k.Use == "sig" {
			return &k, nil
		}
	}
	return nil, badToken("no key with kid %s in the authorization server's key set (%s): the token was not signed by %s", quote(kid), v.jwksURI, quote(v.issuer))
}

// fetchLocked reads the metadata, if not read yet, then the key set.
// v.mu is held.
func (v *Verifier) fetchLocked(ctx context.Context) error {
	if v.jwksURI == "" {
		u, err := issuerMetadataURL(v.issuer)
		if err != nil {
			return err
		}
		var meta struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		if err := v.getJSON(ctx, u, &meta); err != nil {
			return fmt.Errorf("reading the authorization server's metadata: %w", err)
		}
		// RFC 8414 section 3.3: "The "issuer" value returned MUST be
		// identical to the authorization server's issuer identifier
		// value ... If these values are not identical, the data
		// contained in the response MUST NOT be used."
		if meta.Issuer != v.issuer {
			return fmt.Errorf("the authorization server's metadata at %s says issuer %s, not %s: RFC 8414 says not to use it", u, quote(meta.Issuer), quote(v.issuer))
		}
		if meta.JWKSURI == "" {
			return fmt.Errorf("the authorization server's metadata at %s has no jwks_uri, so its signing keys cannot be found", u)
		}
		v.jwksURI = meta.JWKSURI
	}
	var set jose.JSONWebKeySet
	if err := v.getJSON(ctx, v.jwksURI, &set); err != nil {
		return fmt.Errorf("reading the authorization server's keys: %w", err)
	}
	// Only public keys: a secret key in a published set would be a
	// leak, and a symmetric one could sign as well as verify.
	kept := jose.JSONWebKeySet{}
	for _, k := range set.Keys {
		if k.Valid() && k.IsPublic() && k.KeyID != "" {
			kept.Keys = append(kept.Keys, k.Public())
		}
	}
	v.keys, v.fetched = &kept, time.Now()
	return nil
}

// issuerMetadataURL is where RFC 8414 section 3.1 puts an issuer's metadata:
// the well-known path goes between the host and the issuer's own path,
// so http://as/tenant has it at http://as/.well-known/oauth-authorization-server/tenant.
func issuerMetadataURL(issuer string) (string, error) {
	u, err := url.Parse(issuer)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("issuer %s is not an http(s) URL without query or fragment (RFC 8414 section 2)", quote(issuer))
	}
	u.Path = "/.well-known/oauth-authorization-server" + strings.TrimSuffix(u.Path, "/")
	return u.String(), nil
}

// getJSON reads a JSON document. The errors say which step failed: the
// connection, the status, or the content.
func (v *Verifier) getJSON(ctx context.Context, u string, dst any) error {
	ctx, cancel := context.WithTimeout(ctx, metadataTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := v.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s is unreachable: %w", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxKeyDocument+1))
	switch {
	case err != nil:
		return fmt.Errorf("reading %s: %w", u, err)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("GET %s answered %s", u, resp.Status)
	case len(body) > maxKeyDocument:
		return fmt.Errorf("GET %s: the document is longer than %d bytes", u, maxKeyDocument)
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return fmt.Errorf("GET %s: not the JSON expected: %w", u, err)
	}
	return nil
}
