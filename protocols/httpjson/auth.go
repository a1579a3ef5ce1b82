package httpjson

import (
	"net/http"
	"strings"

	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// realm names this server in WWW-Authenticate challenges. RFC 6750
// section 3: "All challenges defined by this specification MUST use the
// auth-scheme value "Bearer"", and the realm attribute "MAY be included
// to indicate the scope of protection".
const realm = "wirelab"

// quoteHeader quotes a header value for an error message, cut short so a
// huge header cannot make a huge answer.
func quoteHeader(v string) string {
	const max = 100
	if len(v) > max {
		v = v[:max] + "..."
	}
	return `"` + strings.ReplaceAll(v, `"`, `\"`) + `"`
}

// authenticate finds the caller's token. RFC 6750 section 2.1 defines the
// header as
//
//	credentials = "Bearer" 1*SP b64token
//
// and RFC 9110 section 11.1 makes the scheme name case-insensitive, so
// "bearer" and "BEARER" work too. The token is never taken from the URL:
// RFC 6750 section 5.3 says "Don't pass bearer tokens in page URLs",
// because URLs end up in logs and browser history.
//
// On failure it sets the WWW-Authenticate challenge and returns the error
// to send with it.
func authenticate(w http.ResponseWriter, r *http.Request, ts *tools.Tokens) (tools.Token, *stdio.Error) {
	scheme, secret, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		// RFC 6750 section 3.1: "If the request lacks any authentication
		// information (e.g., the client was unaware that authentication is
		// necessary or attempted using an unsupported authentication
		// method), the resource server SHOULD NOT include an error code or
		// other error information." So Basic gets the bare challenge too.
		challenge(w, "")
		msg := "this server needs a bearer token: send Authorization: Bearer TOKEN"
		if scheme != "" {
			msg = "the " + quoteHeader(scheme) + " authentication scheme is not accepted; " + msg
		}
		return tools.Token{}, &stdio.Error{Code: CodeUnauthorized, Message: msg}
	}
	token, ok := ts.Lookup(strings.TrimLeft(secret, " "))
	if !ok {
		// RFC 6750 section 3.1, invalid_token: "The access token provided
		// is expired, revoked, malformed, or invalid for other reasons."
		// An empty token lands here too.
		challenge(w, `, error="invalid_token", error_description="the token is not one this server accepts"`)
		return tools.Token{}, &stdio.Error{Code: CodeUnauthorized, Message: "the bearer token is not one this server accepts"}
	}
	return token, nil
}

// challengeScope sets the challenge for a valid token that lacks a scope.
// RFC 6750 section 3.1, insufficient_scope: "The request requires higher
// privileges than provided by the access token. The resource server
// SHOULD respond with the HTTP 403 (Forbidden) status code and MAY include
// the "scope" attribute with the scope necessary to access the protected
// resource."
func challengeScope(w http.ResponseWriter, scope string) {
	challenge(w, `, error="insufficient_scope", scope="`+scope+`"`)
}

// challenge sets the WWW-Authenticate header. The map is written directly
// because Header.Set would spell the name "Www-Authenticate"; header names
// are case-insensitive, but the RFCs' spelling is easier to recognise on
// the wire.
func challenge(w http.ResponseWriter, params string) {
	w.Header()["WWW-Authenticate"] = []string{`Bearer realm="` + realm + `"` + params}
}
