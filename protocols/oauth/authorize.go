package oauth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// The authorization endpoint has two halves. GET /authorize checks the
// request and shows the learner a consent page; the page's form posts
// the same parameters back to POST /authorize with the learner's answer,
// and the server redirects the browser to the client with a code or an
// error.
//
// Whom an error goes to depends on how far the checks got. Until the
// client is known and the redirect URI is one it registered, the server
// cannot trust the redirect URI: redirecting there would make it an open
// redirector for anyone's phishing page. So those errors are shown to
// the person as a page (RFC 6749 section 4.1.2.1: the server "MUST NOT
// automatically redirect the user-agent to the invalid redirection
// URI"). Every later error goes back to the client on the redirect,
// with state and iss like a success.

// consentLifetime is how long a consent page may stay open before its
// form is refused: long enough to read it, short enough that a form
// found later cannot be replayed.
const consentLifetime = 10 * time.Minute

// maxForm bounds a form body; an authorization request is a few hundred
// bytes.
const maxForm = 16 << 10

// authRequest is a checked authorization request: RFC 6749 section
// 4.1.1, with PKCE's code_challenge (RFC 7636 section 4.3) and RFC 8707's
// resource.
type authRequest struct {
	client      *client
	redirectURI string // where the answer goes
	givenURI    bool   // the request named it, so the token request must too
	state       string
	challenge   string
	scope       []string
	resource    string
}

// authParams are the parameters of an authorization request: the ones
// the consent form carries back, and the ones the CSRF value binds.
var authParams = []string{"response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope", "resource"}

// authError is a refused authorization request. Redirect says whether
// the redirect URI was trusted by then.
type authError struct {
	code, description string
	redirect          bool
	redirectURI       string
	state             string
}

// pkceChallenge is what S256 produces: BASE64URL(SHA256(verifier)),
// 32 bytes in 43 characters (RFC 7636 section 4.2).
var pkceChallenge = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// checkAuthRequest checks an authorization request in the order that
// decides where its errors go: first the client and its redirect URI,
// whose errors the person sees; then the rest, whose errors go back to
// the client.
func (s *Server) checkAuthRequest(ctx context.Context, q url.Values) (*authRequest, *authError) {
	page := func(code, description string) *authError { return &authError{code: code, description: description} }
	for _, name := range []string{"client_id", "redirect_uri"} {
		if len(q[name]) > 1 {
			return nil, page(ErrInvalidRequest, name+" appears more than once: send it once (RFC 6749 section 3.1)")
		}
	}
	id := q.Get("client_id")
	if id == "" {
		return nil, page(ErrInvalidRequest, "the request has no client_id: add the client_id this server gave you at registration, or your client ID metadata document URL")
	}
	c, why := s.lookupClient(ctx, id)
	if c == nil {
		return nil, page(ErrInvalidClient, why)
	}
	req := &authRequest{client: c}
	switch given := q.Get("redirect_uri"); {
	case given != "":
		if !registeredRedirect(c, given) {
			return nil, page(ErrInvalidRequest, "redirect_uri "+given+" is not registered for client "+id+
				"; registered: "+strings.Join(c.redirectURIs, " ")+" (redirect URIs must match exactly; a loopback IP may use any port)")
		}
		req.redirectURI, req.givenURI = given, true
	case len(c.redirectURIs) == 1:
		// OAuth 2.1 section 4.1.1: redirect_uri is optional when the
		// client registered only one.
		req.redirectURI = c.redirectURIs[0]
	default:
		return nil, page(ErrInvalidRequest, "the request has no redirect_uri and client "+id+" registered several: name the one to use")
	}

	// The redirect URI is trusted from here on.
	req.state = q.Get("state")
	back := func(code, description string) *authError {
		return &authError{code: code, description: description, redirect: true, redirectURI: req.redirectURI, state: req.state}
	}
	for _, name := range authParams {
		if name != "resource" && len(q[name]) > 1 {
			return nil, back(ErrInvalidRequest, name+" appears more than once: send it once (RFC 6749 section 3.1)")
		}
	}
	switch rt := q.Get("response_type"); rt {
	case "code":
	case "":
		return nil, back(ErrInvalidRequest, "the request has no response_type: send response_type=code")
	default:
		return nil, back(ErrUnsupportedResponseType, "response_type "+rt+" is not supported: this server issues authorization codes only, send response_type=code")
	}
	if !c.allows(GrantAuthorizationCode) {
		return nil, back(ErrUnauthorizedClient, "client "+id+" did not register the authorization_code grant type")
	}
	req.challenge = q.Get("code_challenge")
	method := q.Get("code_challenge_method")
	switch {
	case req.challenge == "":
		return nil, back(ErrInvalidRequest, "PKCE is required: send code_challenge=BASE64URL(SHA256(code_verifier)) and code_challenge_method=S256")
	case method == "":
		// RFC 7636 section 4.3: a missing method means "plain".
		return nil, back(ErrInvalidRequest, "code_challenge_method is missing, which means plain: send code_challenge_method=S256")
	case method != "S256":
		return nil, back(ErrInvalidRequest, "code_challenge_method "+method+" is not supported: this server accepts S256 only (plain would show the verifier itself)")
	case !pkceChallenge.MatchString(req.challenge):
		return nil, back(ErrInvalidRequest, "code_challenge is not 43 base64url characters: send BASE64URL(SHA256(code_verifier)) without padding")
	}
	scope, why := parseScope(q.Get("scope"))
	if why != "" {
		return nil, back(ErrInvalidScope, why)
	}
	req.scope = scope
	req.resource, why = s.checkResource(q["resource"])
	if why != "" {
		return nil, back(ErrInvalidTarget, why)
	}
	return req, nil
}

// registeredRedirect reports whether uri is one of the client's redirect
// URIs. The comparison is exact (MCP security considerations: servers
// "MUST validate exact redirect URIs"), with one exception OAuth 2.1
// section 8.4.2 makes: for a loopback IP literal the port may differ,
// because a native app gets whatever port is free when it starts.
func registeredRedirect(c *client, uri string) bool {
	if slices.Contains(c.redirectURIs, uri) {
		return true
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "http" || !isLoopbackIP(u.Hostname()) {
		return false
	}
	for _, r := range c.redirectURIs {
		ru, err := url.Parse(r)
		if err == nil && ru.Scheme == "http" && ru.Hostname() == u.Hostname() &&
			ru.EscapedPath() == u.EscapedPath() && ru.RawQuery == u.RawQuery {
			return true
		}
	}
	return false
}

func isLoopbackIP(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkRedirectURI returns why uri cannot be a redirect URI, or "".
// MCP's communication security rules: "All redirect URIs MUST be either
// localhost or use HTTPS"; RFC 6749 section 3.1.2: absolute, no
// fragment.
func checkRedirectURI(uri string) string {
	u, err := url.Parse(uri)
	switch {
	case err != nil || !u.IsAbs() || u.Host == "":
		return "redirect URI " + uri + " is not an absolute URL"
	case u.Fragment != "" || strings.Contains(uri, "#"):
		return "redirect URI " + uri + " has a fragment, which RFC 6749 section 3.1.2 forbids"
	case u.Scheme == "https":
		return ""
	case u.Scheme == "http" && (isLoopbackIP(u.Hostname()) || strings.EqualFold(u.Hostname(), "localhost")):
		return ""
	default:
		return "redirect URI " + uri + " must use https, or http on localhost or a loopback IP"
	}
}

// knownScopes are the scopes this server grants, in the order the
// metadata lists them.
var knownScopes = []string{ScopeTools, ScopeDeployProduction}

// defaultScope is granted when a request names none. RFC 6749 section
// 3.3 lets a server choose between a default and a refusal; the base
// scope is the friendlier choice, and the conformance suite asks for no
// scope at all.
var defaultScope = []string{ScopeTools}

// parseScope splits a scope parameter (RFC 6749 section 3.3: names
// separated by spaces) and returns why it cannot be granted, or "".
func parseScope(param string) ([]string, string) {
	names := strings.Fields(param)
	if len(names) == 0 {
		return slices.Clone(defaultScope), ""
	}
	var scope []string
	for _, n := range names {
		if !slices.Contains(knownScopes, n) {
			return nil, "unknown scope " + n + ": this server grants " + strings.Join(knownScopes, " and ")
		}
		if !slices.Contains(scope, n) {
			scope = append(scope, n)
		}
	}
	return scope, ""
}

// checkResource checks the resource parameters of a request (RFC 8707
// section 2) and returns the one resource, "" for none, or why it is
// refused.
func (s *Server) checkResource(values []string) (string, string) {
	switch {
	case len(values) == 0:
		return "", ""
	case len(values) > 1:
		return "", "this server issues a token for one resource at a time: send resource once"
	}
	res := values[0]
	u, err := url.Parse(res)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Fragment != "" || strings.Contains(res, "#") {
		return "", "resource " + res + " is not an absolute URI without a fragment: send the MCP server's URL, such as http://127.0.0.1:8021/mcp"
	}
	if len(s.resources) > 0 && !slices.Contains(s.resources, res) {
		return "", "this server issues no tokens for resource " + res + "; it serves " + strings.Join(s.resources, " ")
	}
	return res, ""
}

// authorize is GET /authorize: check the request and show the consent
// page.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lang := chooseLang(r, q.Get("lang"))
	req, aerr := s.checkAuthRequest(r.Context(), q)
	if aerr != nil {
		s.refuseAuthorization(w, r, lang, aerr, http.StatusFound)
		return
	}
	s.showConsent(w, lang, req, q, s.csrfValue(q, time.Now()))
}

// decide is POST /authorize: the consent form came back. The request's
// parameters are checked again (the form could have been edited), then
// the CSRF value, then the learner's answer.
func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, chooseLang(r, ""), http.StatusBadRequest, ErrInvalidRequest, "the consent form could not be read: "+err.Error())
		return
	}
	f := r.PostForm
	lang := chooseLang(r, f.Get("lang"))
	req, aerr := s.checkAuthRequest(r.Context(), f)
	if aerr != nil {
		s.refuseAuthorization(w, r, lang, aerr, http.StatusSeeOther)
		return
	}
	// A page that is not ours cannot read our consent page, so it cannot
	// know the CSRF value; without it, its forged "Allow" lands here.
	if !s.csrfValid(f, f.Get("csrf"), time.Now()) {
		s.errorPage(w, lang, http.StatusBadRequest, ErrInvalidRequest,
			"the consent form has expired or was not made by this server for this request: open the authorization URL again")
		return
	}
	switch f.Get("decision") {
	case "allow":
	case "deny":
		s.log.Info("authorization denied", "client", req.client.id)
		aerr := &authError{code: ErrAccessDenied, description: "the person at the consent page chose Deny",
			redirect: true, redirectURI: req.redirectURI, state: req.state}
		s.refuseAuthorization(w, r, lang, aerr, http.StatusSeeOther)
		return
	default:
		s.errorPage(w, lang, http.StatusBadRequest, ErrInvalidRequest, "decision must be allow or deny")
		return
	}

	c := &code{
		grant:       &grant{clientID: req.client.id, subject: Subject, scope: req.scope, resource: req.resource},
		redirectURI: req.redirectURI, givenURI: req.givenURI, challenge: req.challenge,
		expires: time.Now().Add(codeLifetime),
	}
	value := randomToken()
	s.store.mu.Lock()
	now := time.Now()
	makeRoom(s.store.codes, maxCodes, func(c *code) (time.Time, bool) { return c.expires, now.After(c.expires) })
	s.store.codes[value] = c
	s.store.mu.Unlock()
	s.log.Info("authorization code issued", "client", req.client.id, "code", short(value),
		"scope", strings.Join(req.scope, " "), "resource", req.resource)

	// RFC 6749 section 4.1.2 and RFC 9207 section 2: code, the state the
	// client sent, and iss, which tells a client that talks to several
	// authorization servers which one this answer came from. The answer
	// carries a code: no cache may keep it.
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, withQuery(req.redirectURI, url.Values{"code": {value}, "state": nonEmpty(req.state), "iss": {s.issuer}}), http.StatusSeeOther)
}

// refuseAuthorization answers a refused authorization request: on a page
// while the redirect URI is not trusted, else by redirecting with
// error, error_description, state and iss (RFC 9207 section 2: iss goes
// on error responses too).
func (s *Server) refuseAuthorization(w http.ResponseWriter, r *http.Request, lang string, e *authError, status int) {
	s.log.Info("authorization refused", "error", e.code, "description", e.description, "redirected", e.redirect)
	if !e.redirect {
		s.errorPage(w, lang, http.StatusBadRequest, e.code, e.description)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, withQuery(e.redirectURI, url.Values{
		"error": {e.code}, "error_description": {e.description}, "state": nonEmpty(e.state), "iss": {s.issuer},
	}), status)
}

// withQuery adds params to a URI's own query, which a redirect URI may
// have (RFC 6749 section 3.1.2: it "MUST be retained").
func withQuery(uri string, params url.Values) string {
	u, err := url.Parse(uri)
	if err != nil {
		panic("oauth: a checked redirect URI does not parse: " + uri)
	}
	q := u.Query()
	for k, v := range params {
		if len(v) > 0 {
			q[k] = v
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// nonEmpty returns v as a parameter value, or none: state goes back only
// if the client sent one.
func nonEmpty(v string) []string {
	if v == "" {
		return nil
	}
	return []string{v}
}

// csrfValue binds a consent form to its request and its time: the
// moment it was made, then an HMAC of that moment and the request's
// parameters under a key only this server knows. It needs no storage.
func (s *Server) csrfValue(q url.Values, at time.Time) string {
	stamp := binary.BigEndian.AppendUint64(nil, uint64(at.Unix()))
	return base64.RawURLEncoding.EncodeToString(append(stamp, s.csrfMAC(stamp, q)...))
}

func (s *Server) csrfMAC(stamp []byte, q url.Values) []byte {
	bound := url.Values{}
	for _, name := range authParams {
		if v, ok := q[name]; ok {
			bound[name] = v
		}
	}
	mac := hmac.New(sha256.New, s.csrfKey)
	mac.Write(stamp)
	mac.Write([]byte(bound.Encode())) // Encode sorts by name: one spelling per request
	return mac.Sum(nil)
}

// csrfValid checks a form's CSRF value against its parameters and age.
func (s *Server) csrfValid(q url.Values, value string, now time.Time) bool {
	b, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil || len(b) != 8+sha256.Size {
		return false
	}
	made := time.Unix(int64(binary.BigEndian.Uint64(b[:8])), 0)
	if now.Sub(made) > consentLifetime || made.After(now.Add(time.Minute)) {
		return false
	}
	return hmac.Equal(b[8:], s.csrfMAC(b[:8], q))
}
