package playground

import (
	"net/url"

	"github.com/wirelab/wirelab/protocols/mcp"
)

// The OAuth flow of MCP authorization, typed by hand: the MCP console's
// "mcp-auth" target is an MCP server that wants access tokens, and its
// "oauth" target the authorization server that issues them. The
// templates below are the flow in order, switching between the two
// targets as a client does; every value a later frame needs comes from
// an earlier answer ({{resource}}, {{client_id}}, {{csrf}}, {{code}},
// {{access_token}}: static/wire.js, WireKnown).
const (
	// oauthRedirect is where the authorization server sends the
	// learner's "browser" back: a loopback address, as a native client
	// registers one (RFC 8252). Nothing listens there; the console does
	// not follow redirects, so the code is read off the Location header.
	oauthRedirect = "http://127.0.0.1:8976/callback"
	// oauthVerifier is the PKCE code verifier of the flow typed by hand,
	// and oauthChallenge its S256 challenge, BASE64URL(SHA-256(verifier)).
	// A real client makes a fresh random verifier for every flow: this
	// one is fixed, and public, so that a learner can check the hash.
	oauthVerifier  = "read-the-wire-then-read-it-again-and-again-1"
	oauthChallenge = "E_XpUjWevpAoXCA5235oHIPmJxduzfDLRhGgNHnFK0M"
	oauthState     = "lesson-state-1"
	// oauthGroup is the composer's group of these templates: one flow
	// in order, across two targets, rather than an era of MCP.
	oauthGroup = "oauth"
)

// oauthAuthorizeParams are the authorization request's parameters, the
// same in the GET that shows the consent page and in the POST that
// answers it.
func oauthAuthorizeParams() string {
	return "response_type=code&client_id={{client_id}}&redirect_uri=" + url.QueryEscape(oauthRedirect) +
		"&state=" + oauthState + "&code_challenge=" + oauthChallenge + "&code_challenge_method=S256&scope=mcp%3Atools&resource={{resource}}"
}

// mcpAuthCall is a 2026-07-28 tools/call to the protected server, with
// the given Authorization header, or none.
func mcpAuthCall(id int, tool, args, authorization string) string {
	h := []string{"Accept: application/json, text/event-stream", "Content-Type: application/json",
		"MCP-Protocol-Version: " + mcp.ModernVersion, "Mcp-Method: tools/call", "Mcp-Name: " + tool}
	if authorization != "" {
		h = append(h, "Authorization: "+authorization)
	}
	return httpRequest("POST", "/mcp", h, statelessRequest(statelessMessage{id: id, method: "tools/call",
		params: `"name":"` + tool + `","arguments":` + args, meta: statelessMeta(mcp.ModernVersion, `{}`)}))
}

func oauthTemplates() []frameTemplate {
	form := []string{"Content-Type: application/x-www-form-urlencoded"}
	word := `{"text":"read the wire"}`
	return []frameTemplate{
		{Name: "1. tools/call without a token (401)", NameRU: "1. tools/call без токена (401)", Target: "mcp-auth", Group: oauthGroup, Frame: mcpAuthCall(41, "word_count", word, ""), Expect: `resource_metadata=`},
		{Name: "2. GET the protected resource metadata", NameRU: "2. GET метаданных защищённого ресурса", Target: "mcp-auth", Group: oauthGroup,
			Frame: httpRequest("GET", "/.well-known/oauth-protected-resource/mcp", nil, ""), Expect: `"authorization_servers"`},
		{Name: "3. GET the authorization server metadata", NameRU: "3. GET метаданных сервера авторизации", Target: "oauth", Group: oauthGroup,
			Frame: httpRequest("GET", "/.well-known/oauth-authorization-server", nil, ""), Expect: `"code_challenge_methods_supported"`},
		{Name: "4. POST /register (a public client)", NameRU: "4. POST /register (публичный клиент)", Target: "oauth", Group: oauthGroup,
			Frame: httpRequest("POST", "/register", []string{"Content-Type: application/json"},
				`{"client_name":"by hand","application_type":"native","redirect_uris":["`+oauthRedirect+`"],"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"],"response_types":["code"]}`),
			Expect: `"client_id"`},
		{Name: "5. GET /authorize (the consent page)", NameRU: "5. GET /authorize (страница согласия)", Target: "oauth", Group: oauthGroup,
			Frame: httpRequest("GET", "/authorize?"+oauthAuthorizeParams(), nil, ""), Expect: `name="csrf"`},
		{Name: "6. POST /authorize: Allow (303 with the code)", NameRU: "6. POST /authorize: разрешить (303 с кодом)", Target: "oauth", Group: oauthGroup,
			Frame: httpRequest("POST", "/authorize", form, oauthAuthorizeParams()+"&csrf={{csrf}}&decision=allow"), Expect: `code=`},
		{Name: "7. POST /token: the code and the verifier for a token", NameRU: "7. POST /token: код и verifier в обмен на токен", Target: "oauth", Group: oauthGroup,
			Frame: httpRequest("POST", "/token", form, "grant_type=authorization_code&code={{code}}&redirect_uri="+url.QueryEscape(oauthRedirect)+
				"&client_id={{client_id}}&code_verifier="+oauthVerifier+"&resource={{resource}}"),
			Expect: `"access_token"`},
		{Name: "8. tools/call with the token", NameRU: "8. tools/call с токеном", Target: "mcp-auth", Group: oauthGroup, Frame: mcpAuthCall(42, "word_count", word, "Bearer {{access_token}}"), Expect: `"words":3`},
		{Name: "9. deploy to production (403: the token's scope is too small)", NameRU: "9. деплой в production (403: scope токена слишком узок)", Target: "mcp-auth", Group: oauthGroup,
			Frame: mcpAuthCall(43, "deploy_service", `{"service":"api","env":"production"}`, "Bearer {{access_token}}"), Expect: `insufficient_scope`},
		{Name: "10. the same code again (invalid_grant)", NameRU: "10. тот же код ещё раз (invalid_grant)", Target: "oauth", Group: oauthGroup,
			Frame: httpRequest("POST", "/token", form, "grant_type=authorization_code&code={{code}}&redirect_uri="+url.QueryEscape(oauthRedirect)+
				"&client_id={{client_id}}&code_verifier="+oauthVerifier+"&resource={{resource}}"),
			Expect: `invalid_grant`},
		{Name: "11. tools/call with a token the server did not issue (401)", NameRU: "11. tools/call с токеном, которого сервер не выдавал (401)", Target: "mcp-auth", Group: oauthGroup,
			Frame: mcpAuthCall(44, "word_count", word, "Bearer not-a-token"), Expect: `invalid_token`},
	}
}
