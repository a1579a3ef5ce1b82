package grade

import (
	"strings"
)

// HTTPServer grades the http-server exercise: a tool server over HTTP
// (a simpler protocols/httpjson) that takes calls as POST /execute with
// a JSON body, and checks bearer tokens and their scopes.
func HTTPServer() *Grader {
	return &Grader{
		Exercise: "http-server",
		Stages: []Stage{
			{Name: "answers one call", Run: httpAnswersOneCall},
			{Name: "allows only POST", Run: httpOnlyPost},
			{Name: "refuses callers without a valid token", Run: httpUnauthorized},
			{Name: "forbids what a token may not do", Run: httpForbidden},
			{Name: "answers bad calls with 4xx", Run: httpBadCalls},
		},
	}
}

// The request headers the stages send.
const (
	httpReader = "Authorization: Bearer reader"
	httpOps    = "Authorization: Bearer ops"
	httpJSON   = "Content-Type: application/json"
)

// Hints for the mistakes of this exercise.
const (
	hintHTTPPostOnly = `A call is a POST with a JSON body. Answer any other method with 405 Method Not Allowed, an Allow: POST header (RFC 9110 requires it on a 405) and a JSON error.`

	hintHTTPAllow = `A 405 must list the methods that do work in an Allow header (RFC 9110 section 15.5.6): w.Header().Set("Allow", "POST") before WriteHeader.`

	hintHTTP401 = `401 Unauthorized means "I do not know who you are": no Authorization header, a scheme other than Bearer, or a token this server does not know. 403 Forbidden is for a caller the server does know (a valid token) that may not do this one thing; a client that gets 403 does not try to log in again.`

	hintHTTPNoToken = `The call ran without a valid token. Check the Authorization header before anything else, and answer 401 with a WWW-Authenticate header when it is missing, not "Bearer TOKEN", or names an unknown token.`

	hintHTTPBearerPrefix = `The header was "Authorization: reader", without the word Bearer, and the server took it as the token "reader": strings.TrimPrefix(h, "Bearer ") returns h unchanged when the prefix is missing. Split the header at its first space (strings.Cut) and check that the first part is "Bearer" before looking the token up.`

	hintHTTPChallenge = `A 401 must tell the client how to authenticate (RFC 9110 section 15.5.2): set WWW-Authenticate: Bearer realm="http-server" before WriteHeader. For an unknown token, RFC 6750 adds error="invalid_token".`

	hintHTTPAuthFirst = `The server read the body before checking who sent it. Check the Authorization header first: a caller without a valid token gets 401 and nothing else, not even a parse error about its body.`

	hintHTTP403 = `The token is valid, so the server knows the caller: what is missing is a permission, and that is 403 Forbidden. 401 would tell the client that its token is unknown, and a new token for the same caller would not help.`

	hintHTTPScope = `The reader token deployed to production. deploy_service with "env":"production" needs the deploy:production scope, which only the ops token carries: look up the token's scopes and answer 403 when that one is missing.`

	hintHTTPScopeChallenge = `RFC 6750 section 3.1: a 403 for a missing scope says so in its challenge, WWW-Authenticate: Bearer realm="http-server", error="insufficient_scope", scope="deploy:production", so that the client knows which token to ask for.`

	hintHTTPStatuses = `Each kind of bad call has its status: 415 for a body not sent as application/json, 400 for a body that is not JSON, 404 for a tool that does not exist, 422 for arguments the tool refuses (the JSON parsed, so not 400), each with a JSON error whose code names the problem.`
)

// httpCall is a POST /execute with a JSON body.
func httpCall(what string, auth, body string, status int, want string) HTTPCall {
	c := HTTPCall{What: what, Path: "/execute", Body: body, Status: status, Want: want}
	if auth != "" {
		c.Header = append(c.Header, auth)
	}
	c.Header = append(c.Header, httpJSON)
	return c
}

// httpError is the body of an error answer with this code.
func httpError(code string) string {
	return `{"error":{"code":"` + code + `","message":"<string>"}}`
}

// httpChallenge is the WWW-Authenticate header of a 401: a Bearer
// challenge, whatever its parameters.
func httpChallenge() HeaderWant {
	return HeaderWant{Name: "WWW-Authenticate", Want: "Bearer <...>", Hint: hintHTTPChallenge, Match: func(v string) bool {
		scheme, _, _ := strings.Cut(v, " ")
		return strings.EqualFold(scheme, "Bearer")
	}}
}

// httpScopeChallenge is the WWW-Authenticate header of a 403 for a
// missing scope.
func httpScopeChallenge() HeaderWant {
	return HeaderWant{Name: "WWW-Authenticate", Want: `Bearer <...>error="insufficient_scope"<...>`, Hint: hintHTTPScopeChallenge, Match: func(v string) bool {
		scheme, _, _ := strings.Cut(v, " ")
		return strings.EqualFold(scheme, "Bearer") && strings.Contains(v, `error="insufficient_scope"`)
	}}
}

// httpAllowPost is the Allow header of a 405.
func httpAllowPost() HeaderWant {
	return HeaderWant{Name: "Allow", Want: "POST", Hint: hintHTTPAllow, Match: func(v string) bool {
		for _, m := range strings.Split(v, ",") {
			if strings.TrimSpace(m) == "POST" {
				return true
			}
		}
		return false
	}}
}

// httpRun starts the server and makes the calls, in order.
func httpRun(t *T, calls []HTTPCall) error {
	p, addr, err := t.StartServer()
	if err != nil {
		return err
	}
	for _, c := range calls {
		if err := p.ExpectHTTP(addr, c); err != nil {
			return err
		}
	}
	return nil
}

func httpAnswersOneCall(t *T) error {
	c := httpCall("a word_count call with the reader token", httpReader,
		`{"name":"word_count","args":{"text":"read the wire"}}`,
		200, `{"result":{"words":3,"chars":13}}`)
	c.Exact = true
	return httpRun(t, []HTTPCall{c})
}

func httpOnlyPost(t *T) error {
	get := HTTPCall{What: "GET /execute", Method: "GET", Path: "/execute", Header: []string{httpReader}}
	put := httpCall("PUT /execute with a good call in its body", httpReader,
		`{"name":"word_count","args":{"text":"put it there"}}`, 0, "")
	put.Method = "PUT"
	calls := []HTTPCall{get, put}
	for i := range calls {
		calls[i].Status, calls[i].Want = 405, httpError("method_not_allowed")
		calls[i].Headers = []HeaderWant{httpAllowPost()}
		calls[i].Hint = hintHTTPPostOnly
	}
	return httpRun(t, calls)
}

func httpUnauthorized(t *T) error {
	const call = `{"name":"word_count","args":{"text":"who is asking"}}`
	calls := []HTTPCall{
		httpCall("a call without an Authorization header", "", call, 0, ""),
		httpCall("a call with Basic authentication", "Authorization: Basic cmVhZGVyOg==", call, 0, ""),
		httpCall(`a call whose token lacks the word "Bearer"`, "Authorization: reader", call, 0, ""),
		httpCall("a call with a token the server does not know", "Authorization: Bearer guessed", call, 0, ""),
		httpCall("a body that is not JSON, without an Authorization header", "", `{"name":"word_count",`, 0, ""),
	}
	for i := range calls {
		calls[i].Status, calls[i].Want = 401, httpError("unauthorized")
		calls[i].Headers = []HeaderWant{httpChallenge()}
		calls[i].HintFor = map[int]string{403: hintHTTP401, 200: hintHTTPNoToken, 400: hintHTTPAuthFirst}
	}
	calls[2].HintFor[200] = hintHTTPBearerPrefix
	return httpRun(t, calls)
}

func httpForbidden(t *T) error {
	const (
		staging    = `{"name":"deploy_service","args":{"service":"api","env":"staging"}}`
		production = `{"name":"deploy_service","args":{"service":"api","env":"production"}}`
	)
	refused := httpCall("the reader token deploying to production", httpReader, production, 403, httpError("forbidden"))
	refused.Headers = []HeaderWant{httpScopeChallenge()}
	refused.HintFor = map[int]string{401: hintHTTP403, 200: hintHTTPScope}
	calls := []HTTPCall{
		httpCall("the reader token deploying to staging", httpReader, staging,
			200, `{"result":{"service":"api","env":"staging","status":"deployed"}}`),
		refused,
		httpCall("the ops token deploying to production", httpOps, production,
			200, `{"result":{"service":"api","env":"production","status":"deployed"}}`),
		httpCall("the ops token calling word_count", httpOps, `{"name":"word_count","args":{"text":"ops may count too"}}`,
			200, `{"result":{"words":4,"chars":17}}`),
	}
	for i := range calls {
		calls[i].Exact = calls[i].Status == 200
	}
	return httpRun(t, calls)
}

func httpBadCalls(t *T) error {
	text := httpCall("a good call sent as Content-Type: text/plain", httpReader,
		`{"name":"word_count","args":{"text":"plain"}}`, 415, httpError("unsupported_media_type"))
	text.Header = []string{httpReader, "Content-Type: text/plain"}
	calls := []HTTPCall{
		text,
		httpCall("a body that is not JSON", httpReader, `{"name":"word_count",`, 400, httpError("parse_error")),
		httpCall("a call of a tool that does not exist", httpReader, `{"name":"word_cont","args":{"text":"hi"}}`, 404, httpError("unknown_tool")),
		httpCall(`a word_count call without "text"`, httpReader, `{"name":"word_count","args":{}}`, 422, httpError("invalid_arguments")),
		httpCall(`a deploy_service call with "env":"moon"`, httpOps, `{"name":"deploy_service","args":{"service":"api","env":"moon"}}`, 422, httpError("invalid_arguments")),
		httpCall("a good call after them", httpReader, `{"name":"word_count","args":{"text":"still serving"}}`, 200, `{"result":{"words":2,"chars":13}}`),
	}
	last := len(calls) - 1
	for i := range calls[:last] {
		calls[i].Hint = hintHTTPStatuses
	}
	calls[last].Exact = true
	return httpRun(t, calls)
}
