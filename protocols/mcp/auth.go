package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// A server over HTTP can check who calls it in one of two ways, or not at
// all.
//
// Static tokens (HTTPOptions.Tokens, wirelab server mcp --token): secrets
// given to the server at its start and to each caller out of band, as a
// password is. No OAuth takes place, so the protected resource metadata
// names no authorization server. The MCP authorization pages (2025-11-25
// and 2026-07-28 alike) say the document "MUST include the
// authorization_servers field containing at least one authorization
// server"; but they describe a server that takes part in OAuth, and
// authorization itself is optional. A static-token server that named an
// authorization server would send clients into a flow whose tokens it
// would refuse. So it serves the document RFC 9728 allows (there
// authorization_servers is optional), which tells a client that follows
// MCP's flow the one true thing: this server takes bearer tokens in the
// Authorization header and no authorization server issues them, so the
// user must supply one. A conforming MCP client stops there with an
// error, which is the right outcome.
//
// OAuth (HTTPOptions.Verifier, wirelab server mcp --auth URL): the server
// is an OAuth 2.1 resource server. It accepts access tokens that the
// authorization server at URL issued for this very resource, checks them
// itself (authverify.go), names that server in its metadata, and asks for
// the scope mcp:tools; a production deploy needs deploy:production too.
//
// Either way the token tells who calls as well as what it may do (caller,
// below), and sessions and tasks answer only the caller that opened them.

// caller is who sent a request, as the server knows it from the
// credentials the request brought: what the caller may do (allow) and
// who it is (id). Sessions and tasks remember the id of the caller that
// made them and answer no one else (http.go, tasks.go), so a session id
// or a task id that leaks is useless without the same credentials.
//
// A server that checks no tokens cannot tell callers apart: each is the
// zero caller, with id "" and every scope, and so is the one client of a
// server on stdio.
type caller struct {
	id    string                 // whom the credentials stand for; "": anyone
	allow func(tools.Scope) bool // the scopes the caller holds; nil: all
}

// oauthCaller is the caller an access token stands for: the user (sub)
// through one application (client_id). Not the token itself: a client
// gets a fresh one when the old one expires, or a stronger one to deploy
// to production, and stays the same caller.
func oauthCaller(t *AccessToken) caller {
	return caller{id: fmt.Sprintf("oauth sub=%q client_id=%q", t.Subject, t.ClientID), allow: t.Allows}
}

// tokenCaller is the caller a static token stands for. Such a token names
// no one, so each token is a caller of its own, known by its secret: the
// server holds the secrets anyway, in memory only.
func tokenCaller(t tools.Token) caller {
	return caller{id: "token " + t.Secret, allow: t.Allows}
}

// metadataPath is where RFC 9728 puts a protected resource's metadata:
// the document that tells a client how to get a token for it. For the
// resource http://HOST/mcp the document is at
// http://HOST/.well-known/oauth-protected-resource/mcp; this server
// answers at the bare path too.
const metadataPath = "/.well-known/oauth-protected-resource"

// authenticate checks the bearer token (RFC 6750). On failure it answers
// 401 with a WWW-Authenticate challenge that names, in resource_metadata,
// the document to read next: that is how an MCP client discovers what to
// do (MCP authorization, "Protected Resource Metadata Discovery").
func (h *HTTPHandler) authenticate(w http.ResponseWriter, r *http.Request) (tools.Token, bool) {
	scheme, secret, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	challenge := `Bearer resource_metadata="` + metadataURL(r) + `"`
	if !strings.EqualFold(scheme, "Bearer") {
		w.Header()["WWW-Authenticate"] = []string{challenge}
		httpError(w, http.StatusUnauthorized, jsonrpc.CodeInvalidRequest,
			"this server needs a bearer token: send Authorization: Bearer TOKEN (the WWW-Authenticate header says where to read how to get one)")
		return tools.Token{}, false
	}
	token, ok := h.tokens.Lookup(strings.TrimLeft(secret, " "))
	if !ok {
		w.Header()["WWW-Authenticate"] = []string{challenge + `, error="invalid_token", error_description="the token is not one this server accepts"`}
		httpError(w, http.StatusUnauthorized, jsonrpc.CodeInvalidRequest, "the bearer token is not one this server accepts")
		return tools.Token{}, false
	}
	return token, true
}

// forbidden answers a call that needs a scope the token lacks: 403 with
// error="insufficient_scope" and the scope wanted, which a client can
// take to ask for a stronger token ("step-up authorization").
func (h *HTTPHandler) forbidden(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request, scope tools.Scope) {
	wanted, meta := string(scope), metadataURL(r)
	if h.verifier != nil {
		// The scopes this call needs, the base one included: a client
		// that asks for exactly these keeps what it had ("Include both
		// existing relevant scopes and newly required scopes to prevent
		// clients from losing previously granted permissions").
		wanted, meta = string(ScopeTools)+" "+wanted, resourceMetadataURL(h.verifier.Resource())
	}
	w.Header()["WWW-Authenticate"] = []string{`Bearer error="insufficient_scope", scope="` + wanted +
		`", resource_metadata="` + meta + `"`}
	writeJSON(w, http.StatusForbidden, jsonrpc.NewErrorResponse(req.ID, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
		"forbidden: this call needs the %s scope, and the token does not have it", scope)))
}

// protectedResource serves the RFC 9728 metadata document when tokens are
// required. With static tokens it names no authorization server (see the
// top of this file for why); with OAuth it names the one whose tokens
// this server accepts.
func (h *HTTPHandler) protectedResource(w http.ResponseWriter, r *http.Request) {
	if !h.tokens.Enabled() && h.verifier == nil {
		httpError(w, http.StatusNotFound, jsonrpc.CodeInvalidRequest, "this server takes no tokens, so it has no protected resource metadata")
		return
	}
	doc := map[string]any{
		"resource":                 "http://" + r.Host + Endpoint,
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "wirelab MCP server",
	}
	if h.verifier != nil {
		doc["resource"] = h.verifier.Resource()
		doc["authorization_servers"] = []string{h.verifier.Issuer()}
		// Only the base scope. MCP authorization: "The scopes_supported
		// field is intended to represent the minimal set of scopes
		// necessary for basic functionality", and a client with no
		// other hint asks for all of them; deploy:production is asked
		// for when a call needs it (step-up, on a 403).
		doc["scopes_supported"] = []string{string(ScopeTools)}
	} else {
		scopes := []string{}
		for _, s := range tools.KnownScopes() {
			scopes = append(scopes, string(s))
		}
		doc["scopes_supported"] = scopes
	}
	b, _ := json.Marshal(doc)
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(b, '\n'))
}

// metadataURL is the address of the metadata document, as the client
// reached this server.
func metadataURL(r *http.Request) string {
	return "http://" + r.Host + metadataPath + Endpoint
}

// resourceMetadataURL is the address of a resource's metadata document:
// RFC 9728 section 3.1 puts the well-known path between the host and the
// resource's path, so http://HOST/mcp has it at
// http://HOST/.well-known/oauth-protected-resource/mcp.
func resourceMetadataURL(resource string) string {
	u, err := url.Parse(resource)
	if err != nil {
		return resource // NewVerifier checked it; never reached
	}
	u.Path = metadataPath + u.Path
	return u.String()
}

// authorize checks an OAuth access token. The answers follow RFC 6750
// section 3: no token, 401 with the challenge alone (the client has not
// tried yet, so there is no error to name); a token that is refused, 401
// with error="invalid_token" and a description of what is wrong with it;
// a good token without the base scope, 403 with
// error="insufficient_scope". Every challenge names the metadata document
// and the scope to ask for, so that a client can start or repeat the
// flow from this answer alone.
func (h *HTTPHandler) authorize(w http.ResponseWriter, r *http.Request) (*AccessToken, bool) {
	meta := resourceMetadataURL(h.verifier.Resource())
	challenge := `Bearer resource_metadata="` + meta + `", scope="` + string(ScopeTools) + `"`
	// "Access tokens MUST NOT be included in the URI query string": a
	// URL ends up in logs and browser history. RFC 6750 section 3.1
	// names the error for a request the server will not read.
	if r.URL.Query().Has("access_token") {
		w.Header()["WWW-Authenticate"] = []string{challenge + `, error="invalid_request", error_description="the token is in the query string; send it in the Authorization header"`}
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"the access token is in the URL's query string, where logs and browser history keep it: send it as Authorization: Bearer TOKEN instead, and treat that token as leaked")
		return nil, false
	}
	scheme, raw, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	raw = strings.TrimLeft(raw, " ")
	if !strings.EqualFold(scheme, "Bearer") || raw == "" {
		w.Header()["WWW-Authenticate"] = []string{challenge}
		httpError(w, http.StatusUnauthorized, jsonrpc.CodeInvalidRequest,
			"this server needs an OAuth access token: send Authorization: Bearer TOKEN (WWW-Authenticate names the metadata that says which authorization server issues them, and the scope to ask for)")
		return nil, false
	}
	token, err := h.verifier.Verify(r.Context(), raw)
	var bad *TokenError
	switch {
	case errors.As(err, &bad):
		w.Header()["WWW-Authenticate"] = []string{challenge + `, error="invalid_token", error_description="` + headerText(bad.Reason) + `"`}
		httpError(w, http.StatusUnauthorized, jsonrpc.CodeInvalidRequest, "the access token was refused: "+bad.Reason)
		return nil, false
	case err != nil:
		// Not the caller's fault: the token could not be checked at all.
		httpError(w, http.StatusServiceUnavailable, jsonrpc.CodeInvalidRequest, "this server cannot check access tokens now: "+err.Error())
		return nil, false
	case !token.Allows(ScopeTools):
		w.Header()["WWW-Authenticate"] = []string{`Bearer error="insufficient_scope", scope="` + string(ScopeTools) +
			`", resource_metadata="` + meta + `"`}
		httpError(w, http.StatusForbidden, jsonrpc.CodeInvalidRequest,
			"forbidden: every call to this server needs the mcp:tools scope, and the token does not have it")
		return nil, false
	}
	return token, true
}

// headerText makes a sentence fit an error_description, whose characters
// RFC 6750 section 3 limits to printable ASCII without '"' and '\'.
func headerText(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c == '"':
			b[i] = '\''
		case c < 0x20 || c > 0x7e || c == '\\':
			b[i] = '?'
		}
	}
	return string(b)
}
