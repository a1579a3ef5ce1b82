package oauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"
)

// The token endpoint (RFC 6749 section 3.2) turns a grant into tokens:
// an authorization code (with its PKCE verifier) the first time, a
// refresh token after that. Every answer, success or refusal, is JSON
// with Cache-Control: no-store.

// pkceVerifier is a code_verifier's shape (RFC 7636 section 4.1): 43 to
// 128 unreserved characters.
var pkceVerifier = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// tokenError is a refusal at the token endpoint.
type tokenError struct {
	status            int
	code, description string
	basic             bool // the client tried HTTP Basic: say which scheme to use (RFC 6749 section 5.2)
}

func badRequest(code, description string) *tokenError {
	return &tokenError{status: http.StatusBadRequest, code: code, description: description}
}

// token is POST /token.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	resp, terr := s.tokenRequest(w, r)
	if terr != nil {
		s.log.Info("token request refused", "error", terr.code, "description", terr.description)
		if terr.basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="wirelab oauth"`)
		}
		refuse(w, terr.status, terr.code, terr.description)
		return
	}
	// RFC 6749 section 5.1: tokens are never cached; writeJSON says
	// no-store, and Pragma tells HTTP/1.0 caches the same.
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) tokenRequest(w http.ResponseWriter, r *http.Request) (*TokenResponse, *tokenError) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		return nil, badRequest(ErrInvalidRequest, "send the parameters as a form: Content-Type: application/x-www-form-urlencoded")
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		return nil, badRequest(ErrInvalidRequest, "the form could not be read: "+err.Error())
	}
	// Only the body counts: credentials and codes do not belong in a URL,
	// which ends up in logs.
	f := r.PostForm
	for name, v := range f {
		if len(v) > 1 && name != "resource" {
			return nil, badRequest(ErrInvalidRequest, name+" appears more than once: send it once (RFC 6749 section 3.2)")
		}
	}
	c, terr := s.authenticate(r, f)
	if terr != nil {
		return nil, terr
	}
	switch gt := f.Get("grant_type"); gt {
	case GrantAuthorizationCode:
		return s.exchangeCode(c, f)
	case GrantRefreshToken:
		return s.refreshGrant(c, f)
	case "":
		return nil, badRequest(ErrInvalidRequest, "grant_type is missing: send authorization_code or refresh_token")
	default:
		return nil, badRequest(ErrUnsupportedGrantType, "grant_type "+gt+" is not supported: this server knows authorization_code and refresh_token")
	}
}

// authenticate finds the client of a token request and checks its
// credentials (RFC 6749 section 2.3): HTTP Basic (client_secret_basic),
// or client_id and client_secret in the form (client_secret_post), or
// client_id alone for a public client (none).
func (s *Server) authenticate(r *http.Request, f url.Values) (*client, *tokenError) {
	unauthorized := func(basic bool, description string) *tokenError {
		return &tokenError{status: http.StatusUnauthorized, code: ErrInvalidClient, description: description, basic: basic}
	}
	id, secret, basic := r.BasicAuth()
	if basic {
		// RFC 6749 section 2.3.1: both halves are form-encoded before
		// Base64, so a secret with ":" or "%" survives the trip.
		var err1, err2 error
		id, err1 = url.QueryUnescape(id)
		secret, err2 = url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return nil, unauthorized(true, "the Basic credentials are not form-encoded: encode client_id and client_secret before Base64 (RFC 6749 section 2.3.1)")
		}
		if f.Has("client_secret") {
			return nil, badRequest(ErrInvalidRequest, "the client authenticated twice, with Basic and with client_secret: use one method")
		}
		if f.Has("client_id") && f.Get("client_id") != id {
			return nil, badRequest(ErrInvalidRequest, "client_id in the form differs from the one in Basic")
		}
	} else {
		id, secret = f.Get("client_id"), f.Get("client_secret")
	}
	if id == "" {
		return nil, unauthorized(false, "no client: send client_id (and the secret, if the client has one) by Basic or in the form")
	}
	c, why := s.lookupClient(r.Context(), id)
	if c == nil {
		return nil, unauthorized(basic, why)
	}
	switch {
	case c.secret == "" && secret != "":
		return nil, unauthorized(basic, "client "+id+" is public and has no secret: send client_id alone")
	case c.secret != "" && secret == "":
		return nil, unauthorized(basic, "client "+id+" has a secret: authenticate with client_secret_basic or client_secret_post")
	case subtle.ConstantTimeCompare([]byte(c.secret), []byte(secret)) != 1:
		// Constant time: a comparison that stops at the first wrong byte
		// tells a patient attacker how many were right.
		return nil, unauthorized(basic, "wrong client_secret for client "+id)
	}
	return c, nil
}

// exchangeCode is the authorization_code grant (RFC 6749 section 4.1.3,
// RFC 7636 section 4.6).
func (s *Server) exchangeCode(c *client, f url.Values) (*TokenResponse, *tokenError) {
	value := f.Get("code")
	if value == "" {
		return nil, badRequest(ErrInvalidRequest, "code is missing: send the code from the authorization response")
	}
	now := time.Now()
	s.store.mu.Lock()
	ac := s.store.codes[value]
	replayed := ac != nil && ac.used
	if ac != nil && !ac.used {
		// Single use, whatever happens next: a code that failed once
		// (a wrong verifier, say) may be in the wrong hands.
		ac.used = true
	}
	if replayed {
		// OAuth 2.1 section 4.1.3: when a code is used twice the server
		// "SHOULD revoke all tokens previously issued based on that
		// authorization code". Revoking the grant stops its refresh
		// tokens; its access tokens end on their own within minutes,
		// because a resource server checks them offline.
		ac.grant.revoked = true
	}
	s.store.mu.Unlock()
	switch {
	case replayed:
		s.log.Info("authorization code replayed: its grant is revoked", "code", short(value), "client", ac.grant.clientID)
		return nil, badRequest(ErrInvalidGrant, "this code was already used; codes are single use, and the tokens issued for it are now revoked: start the authorization again")
	case ac == nil || now.After(ac.expires):
		return nil, badRequest(ErrInvalidGrant, "the code is unknown or expired (codes live 60 seconds): start the authorization again")
	case ac.grant.clientID != c.id:
		return nil, badRequest(ErrInvalidGrant, "this code was issued to another client")
	case ac.givenURI && f.Get("redirect_uri") != ac.redirectURI:
		// RFC 6749 section 4.1.3: the redirect_uri of the token request
		// must be identical to the authorization request's.
		return nil, badRequest(ErrInvalidGrant, "redirect_uri must be the one of the authorization request, "+ac.redirectURI)
	}
	verifier := f.Get("code_verifier")
	if !pkceVerifier.MatchString(verifier) {
		return nil, badRequest(ErrInvalidGrant, "code_verifier is missing or malformed: send the 43 to 128 character verifier whose S256 hash was the code_challenge")
	}
	// RFC 7636 section 4.6: BASE64URL(SHA256(ASCII(code_verifier))) must
	// equal the code_challenge. Only the client that made the challenge
	// knows the verifier, so a stolen code alone is worth nothing.
	sum := sha256.Sum256([]byte(verifier))
	if base64.RawURLEncoding.EncodeToString(sum[:]) != ac.challenge {
		return nil, badRequest(ErrInvalidGrant, "code_verifier does not match the code_challenge: BASE64URL(SHA256(code_verifier)) must equal it")
	}
	if terr := sameResource(ac.grant, f["resource"]); terr != nil {
		return nil, terr
	}
	return s.issue(c, ac.grant, ac.grant.scope)
}

// refreshGrant is the refresh_token grant (RFC 6749 section 6). The
// token is rotated: the answer carries a new one and the old one is
// spent (OAuth 2.1 section 4.3.1, which MCP requires for public clients).
func (s *Server) refreshGrant(c *client, f url.Values) (*TokenResponse, *tokenError) {
	if !c.allows(GrantRefreshToken) {
		return nil, badRequest(ErrUnauthorizedClient, "client "+c.id+" did not register the refresh_token grant type")
	}
	value := f.Get("refresh_token")
	if value == "" {
		return nil, badRequest(ErrInvalidRequest, "refresh_token is missing")
	}
	now := time.Now()
	s.store.mu.Lock()
	rt := s.store.refresh[value]
	reused := rt != nil && rt.used
	switch {
	case reused:
		// A spent refresh token came back: either the client or someone
		// who stole it used it before. The server cannot tell which, so
		// it ends the grant for both.
		rt.grant.revoked = true
	case rt != nil && rt.grant.clientID == c.id && !rt.grant.revoked && now.Before(rt.expires):
		rt.used = true
	}
	s.store.mu.Unlock()
	switch {
	case reused:
		s.log.Info("refresh token reused: its grant is revoked", "refresh_token", short(value), "client", rt.grant.clientID)
		return nil, badRequest(ErrInvalidGrant, "this refresh token was already used; each one is good once, and the grant is now revoked: start the authorization again")
	case rt == nil || now.After(rt.expires):
		return nil, badRequest(ErrInvalidGrant, "the refresh token is unknown or expired: start the authorization again")
	case rt.grant.revoked:
		return nil, badRequest(ErrInvalidGrant, "the grant of this refresh token was revoked: start the authorization again")
	case rt.grant.clientID != c.id:
		return nil, badRequest(ErrInvalidGrant, "this refresh token was issued to another client")
	}
	if terr := sameResource(rt.grant, f["resource"]); terr != nil {
		return nil, terr
	}
	// RFC 6749 section 6: a refresh may ask for less than was granted,
	// never more.
	scope := rt.grant.scope
	if param := f.Get("scope"); param != "" {
		scope = strings.Fields(param)
		for _, sc := range scope {
			if !slices.Contains(rt.grant.scope, sc) {
				return nil, badRequest(ErrInvalidScope, "scope "+sc+" was not granted; a refresh may ask for "+strings.Join(rt.grant.scope, " ")+" or less")
			}
		}
	}
	return s.issue(c, rt.grant, scope)
}

// sameResource checks a token request's resource parameters against the
// grant's (RFC 8707 section 2.2): the client may repeat the resource it
// was granted or leave it out, nothing else.
func sameResource(g *grant, values []string) *tokenError {
	for _, v := range values {
		if v != g.resource {
			if g.resource == "" {
				return badRequest(ErrInvalidTarget, "resource "+v+" was not in the authorization request: name it there, then here")
			}
			return badRequest(ErrInvalidTarget, "the grant is for resource "+g.resource+", not "+v)
		}
	}
	return nil
}

// issue makes an access token for a grant, and a refresh token if the
// client may refresh.
func (s *Server) issue(c *client, g *grant, scope []string) (*TokenResponse, *tokenError) {
	now := time.Now()
	claims := AccessClaims{
		Issuer: s.issuer, Subject: g.subject, Audience: g.resource, ClientID: c.id,
		Scope: strings.Join(scope, " "), IssuedAt: now.Unix(), Expiry: now.Add(s.lifetime).Unix(), ID: shortRandom(),
	}
	access, err := jwt.Signed(s.signer).Claims(claims).Serialize()
	if err != nil {
		// Signing with a key made at start cannot fail; if it did, the
		// fault is the server's, and RFC 6749 has no code for it.
		return nil, &tokenError{status: http.StatusInternalServerError, code: "server_error", description: "signing the access token failed"}
	}
	resp := &TokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int(s.lifetime / time.Second), Scope: claims.Scope}
	if c.allows(GrantRefreshToken) {
		resp.RefreshToken = randomToken()
		s.store.mu.Lock()
		makeRoom(s.store.refresh, maxRefreshTokens, func(rt *refreshToken) (time.Time, bool) { return rt.expires, now.After(rt.expires) })
		s.store.refresh[resp.RefreshToken] = &refreshToken{grant: g, expires: now.Add(refreshLifetime)}
		s.store.mu.Unlock()
	}
	// The log shows the token's jti, never the token: the jti finds the
	// token in a resource server's log without being usable.
	s.log.Info("tokens issued", "client", c.id, "jti", claims.ID, "scope", claims.Scope, "aud", claims.Audience,
		"refresh_token", short(resp.RefreshToken))
	return resp, nil
}
