package grade

import "net/http"

// FixBadToken401 grades the fix-bad-token-401 exercise: an HTTP server
// with bearer tokens, given with one bug, that must answer a token it
// does not know with 401, keeping 403 for a known token that lacks the
// scope.
func FixBadToken401() *Grader {
	return &Grader{
		Exercise: "fix-bad-token-401",
		Stages: []Stage{
			{Name: "deploys with the ops token", Run: fixTokenDeploys},
			{Name: "answers an unknown token with 401", Run: fixTokenUnknown},
			{Name: "answers a missing scope with 403", Run: fixTokenScope},
		},
	}
}

// fixTokenCall is a POST /deploy of the api service with a header.
func fixTokenCall(what, auth string, status int, want string) HTTPCall {
	c := HTTPCall{What: what, Path: "/deploy", Body: `{"service":"api"}`, Status: status, Want: want}
	if auth != "" {
		c.Header = append(c.Header, auth)
	}
	c.Header = append(c.Header, httpJSON)
	return c
}

func fixTokenDeploys(t *T) error {
	return httpRun(t, []HTTPCall{
		fixTokenCall("a deploy with the ops token", "Authorization: Bearer ops-token", http.StatusOK, `{"service":"api","status":"deployed"}`),
	})
}

func fixTokenUnknown(t *T) error {
	noToken := fixTokenCall("a deploy without a token", "", http.StatusUnauthorized, httpError("<string>"))
	guessed := fixTokenCall("a deploy with a token the server does not know", "Authorization: Bearer guessed-token", http.StatusUnauthorized, httpError("<string>"))
	for _, c := range []*HTTPCall{&noToken, &guessed} {
		c.Headers = []HeaderWant{httpChallenge()}
		c.HintFor = map[int]string{http.StatusForbidden: hintHTTP401}
	}
	return httpRun(t, []HTTPCall{noToken, guessed})
}

func fixTokenScope(t *T) error {
	c := fixTokenCall("a deploy with the reader token, which lacks the deploy scope", "Authorization: Bearer reader-token", http.StatusForbidden, httpError("<string>"))
	c.HintFor = map[int]string{http.StatusUnauthorized: hintHTTP403}
	return httpRun(t, []HTTPCall{c})
}
