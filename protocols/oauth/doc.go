// Package oauth is a teaching OAuth 2.1 authorization server, the kind an
// MCP server over HTTP names in its protected resource metadata (RFC
// 9728) when it wants callers to bring an access token.
//
// # Three parties
//
// The MCP server is the resource server: it holds the tools and wants a
// token with each request. The MCP client is the OAuth client: it wants
// to call the tools for a person. This server is the authorization
// server: it asks the person whether the client may, and if so hands the
// client a token the resource server will believe. The person never
// gives a password to the client, and the resource server never talks to
// the person.
//
// # Finding the endpoints (RFC 8414)
//
// A client that knows only the issuer, http://127.0.0.1:8023, reads
// GET /.well-known/oauth-authorization-server (the same document is at
// /.well-known/openid-configuration, because MCP clients try both). It
// names the endpoints, and says what this server supports: the response
// type "code", PKCE with S256 only, the grants authorization_code and
// refresh_token, the client authentication methods client_secret_basic,
// client_secret_post and none, "iss" on authorization responses, and
// client ID metadata documents. testdata/metadata.txtar shows the bytes.
//
// # Who the client is
//
// Before it can ask, a client needs a client_id. This server knows three
// kinds (MCP authorization, "Client Registration"):
//
//   - pre-registered: given in Options.Clients (wirelab server oauth
//     --client ID[:SECRET]=REDIRECT_URI), the way a developer registers
//     an app on a provider's web page;
//   - dynamically registered (RFC 7591): the client POSTs its metadata
//     (redirect_uris, client_name, token_endpoint_auth_method) to
//     /register and gets a client_id, and a client_secret unless it asked
//     for "none". MCP 2026-07-28 deprecates this for the next kind;
//   - a client ID metadata document: the client_id is itself an https
//     URL, where the client publishes that same metadata. The server
//     fetches it when it first sees the id (at most 5 KB, 5 seconds, no
//     redirects), checks that its client_id is that URL exactly, and
//     checks redirect URIs against its list. No registration step, no
//     state on the server. For lessons and tests, http URLs on this
//     machine (127.0.0.1, localhost) are fetched too.
//
// # The authorization code flow with PKCE
//
// The client makes a random code_verifier and sends the browser to
// /authorize with code_challenge = BASE64URL(SHA256(code_verifier)),
// code_challenge_method=S256 (RFC 7636), its client_id and redirect_uri,
// a state, the scope it wants, and the resource it wants the token for
// (RFC 8707: the MCP server's URL). The server checks the client and the
// redirect URI first: until both are known good, an error is shown as a
// page, because redirecting to an unchecked URI would make the server an
// open redirector. Then it shows the consent page (English or Russian):
// the client's name and id, the host the answer goes to, the resource,
// and what each scope allows. The person clicks Allow or Deny; the form
// posts back to /authorize with a CSRF value bound to that very request.
// On Allow the browser goes to the client:
//
//	HTTP/1.1 303 See Other
//	Location: http://127.0.0.1:4999/callback?code=CODE&iss=http%3A%2F%2F127.0.0.1%3A8023&state=st
//
// The client checks state (its own request, not a forged one) and iss
// (RFC 9207: this answer comes from the server it asked, not another one
// that mixed itself in), then exchanges the code at /token with the
// verifier. Only the party that made the challenge knows the verifier, so
// a code caught on the way is useless:
//
//	POST /token HTTP/1.1
//	Content-Type: application/x-www-form-urlencoded
//
//	grant_type=authorization_code&code=CODE&redirect_uri=http%3A%2F%2F127.0.0.1%3A4999%2Fcallback
//	&code_verifier=aaaa...&client_id=CLIENT_ID&resource=http%3A%2F%2F127.0.0.1%3A8021%2Fmcp
//
//	HTTP/1.1 200 OK
//	Cache-Control: no-store
//	Content-Type: application/json
//
//	{"access_token": "eyJhbGciOiJFUzI1NiIs...", "token_type": "Bearer", "expires_in": 300,
//	 "refresh_token": "...", "scope": "mcp:tools"}
//
// A code lives 60 seconds and works once; a code that comes back a second
// time means someone else had it, and everything it gave is revoked.
// Refresh tokens rotate: each works once and the answer brings the next;
// a spent one that comes back revokes the grant. testdata/flow.txtar is
// the whole flow as bytes, testdata/refusals.txtar the refusals: each
// uses the error name its RFC gives, with an error_description that says
// what to fix.
//
// # Why the access token is a JWT
//
// An access token could be an opaque random string that only this server
// can look up; then the MCP server would have to ask this server about
// every request (token introspection, RFC 7662). Instead the token is a
// JWT in RFC 9068's profile, signed with ES256 (ECDSA on P-256) using
// go-jose v4: header {"alg":"ES256","kid":...,"typ":"at+jwt"}, claims
// iss, sub ("learner", the one person this server knows), aud (the
// resource exactly as the client sent it; no resource, no aud, and a
// resource server must refuse such a token), client_id, scope, iat, exp
// (iat + 5 minutes) and jti. The resource server fetches the public key
// once from jwks_uri and then verifies every token offline: signature,
// typ, iss, exp, that aud is its own URL, and the scope. The price is
// that a token cannot be recalled before exp, which is why access tokens
// live minutes and the long-lived refresh token stays with this server,
// where revoking it works.
//
// # Bounds and logs
//
// All state is in memory and capped: clients, codes and refresh tokens
// (see store.go); when a table is full the oldest entry makes room. The
// log names clients, scopes and a token's jti, never a token or secret
// beyond its first characters.
//
// Start reading at wire.go (what crosses the wire), then server.go,
// authorize.go, token.go and register.go.
package oauth
