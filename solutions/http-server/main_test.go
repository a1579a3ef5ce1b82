package main

import (
	"fmt"
	"net/http/httptest"
	"strings"
)

// Example makes five calls and prints each answer's status, challenge and
// body: no token (401), an unknown token (401), the reader token deploying
// to production (403: known, but not allowed), the ops token doing the
// same (200), and a GET (405).
func Example() {
	s := &server{tokens: map[string][]string{"reader": nil, "ops": {scopeDeploy}}}
	deploy := `{"name":"deploy_service","args":{"service":"api","env":"production"}}`
	for _, c := range []struct{ method, token, body string }{
		{"POST", "", `{"name":"word_count","args":{"text":"read the wire"}}`},
		{"POST", "guessed", `{"name":"word_count","args":{"text":"read the wire"}}`},
		{"POST", "reader", deploy},
		{"POST", "ops", deploy},
		{"GET", "reader", ""},
	} {
		r := httptest.NewRequest(c.method, "/execute", strings.NewReader(c.body))
		r.Header.Set("Content-Type", "application/json")
		if c.token != "" {
			r.Header.Set("Authorization", "Bearer "+c.token)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		line := fmt.Sprint(w.Code)
		for _, h := range []string{"Allow", "WWW-Authenticate"} {
			if v := w.Header().Get(h); v != "" {
				line += " " + h + ": " + v
			}
		}
		fmt.Println(line)
		fmt.Print(w.Body.String())
	}
	// Output:
	// 401 WWW-Authenticate: Bearer realm="http-server"
	// {"error":{"code":"unauthorized","message":"send Authorization: Bearer TOKEN, with a token this server knows"}}
	// 401 WWW-Authenticate: Bearer realm="http-server", error="invalid_token"
	// {"error":{"code":"unauthorized","message":"send Authorization: Bearer TOKEN, with a token this server knows"}}
	// 403 WWW-Authenticate: Bearer realm="http-server", error="insufficient_scope", scope="deploy:production"
	// {"error":{"code":"forbidden","message":"deploying to production needs a token with the deploy:production scope"}}
	// 200
	// {"result":{"service":"api","env":"production","status":"deployed"}}
	// 405 Allow: POST
	// {"error":{"code":"method_not_allowed","message":"/execute takes POST, not GET"}}
}
