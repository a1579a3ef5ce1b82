package mcp

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

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
	w.Header()["WWW-Authenticate"] = []string{`Bearer error="insufficient_scope", scope="` + string(scope) +
		`", resource_metadata="` + metadataURL(r) + `"`}
	writeJSON(w, http.StatusForbidden, jsonrpc.NewErrorResponse(req.ID, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
		"forbidden: this call needs the %s scope, and the token does not have it", scope)))
}

// protectedResource serves the RFC 9728 metadata document when tokens are
// required. This server takes static tokens given at its start, so the
// document names no authorization server: a client that follows MCP's
// OAuth flow learns here that it must be given a token.
func (h *HTTPHandler) protectedResource(w http.ResponseWriter, r *http.Request) {
	if !h.tokens.Enabled() {
		httpError(w, http.StatusNotFound, jsonrpc.CodeInvalidRequest, "this server takes no tokens, so it has no protected resource metadata")
		return
	}
	scopes := []string{}
	for _, s := range tools.KnownScopes() {
		scopes = append(scopes, string(s))
	}
	b, _ := json.Marshal(map[string]any{
		"resource":                 "http://" + r.Host + Endpoint,
		"bearer_methods_supported": []string{"header"},
		"scopes_supported":         scopes,
		"resource_name":            "wirelab MCP server",
	})
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(b, '\n'))
}

// metadataURL is the address of the metadata document, as the client
// reached this server.
func metadataURL(r *http.Request) string {
	return "http://" + r.Host + metadataPath + Endpoint
}
