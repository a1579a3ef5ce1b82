package playground

import (
	"strings"

	"github.com/wirelab/wirelab/exercises/frames"
)

// mcpAuthRuns are frames-mcp-auth's runs: its solution, and each
// classic mistake the check names, made from the solution's frames:
//
//	0 the call without a token      7 word_count with the token
//	1 the protected resource metadata 8 the production deploy (403)
//	2 the authorization server's      9 GET /authorize for both scopes
//	3 the registration               10 POST /authorize, Allow
//	4 GET /authorize (consent page)  11 POST /token
//	5 POST /authorize, Allow         12 the production deploy (200)
//	6 POST /token
func mcpAuthRuns(sol []frames.Frame) []frameRun {
	// edit returns frame f with each pair of old and new text replaced.
	edit := func(f frames.Frame, pairs ...string) frames.Frame {
		f.Text = strings.NewReplacer(pairs...).Replace(f.Text)
		return f
	}
	cat := func(parts ...[]frames.Frame) []frames.Frame {
		var all []frames.Frame
		for _, p := range parts {
			all = append(all, p...)
		}
		return all
	}
	noResource := func(f frames.Frame) frames.Frame { return edit(f, "&resource={{resource}}", "") }
	notAToken := edit(sol[7], "Bearer {{access_token}}", "Bearer not-a-token")
	return []frameRun{
		{name: "pass", frames: sol, failAt: -1},
		// The console's templates replayed in order: the 403 is seen,
		// and no step-up follows (a replayed code and a foreign token
		// instead).
		{name: "fail", failAt: 8, frames: cat(sol[:9], []frames.Frame{sol[6], notAToken})},
		// The token in the query string, no Authorization header.
		{name: "fail-query-token", failAt: 6, frames: cat(sol[:7], []frames.Frame{
			edit(sol[7], "POST /mcp HTTP/1.1", "POST /mcp?access_token={{access_token}} HTTP/1.1", "\nAuthorization: Bearer {{access_token}}", "")})},
		// Neither the authorization nor the token request names the
		// resource: the token has no audience.
		{name: "fail-no-resource", failAt: 4, frames: cat(sol[:4], []frames.Frame{noResource(sol[4]), noResource(sol[5]), noResource(sol[6]), sol[7]})},
		// PKCE with the plain method, which the server refuses.
		{name: "fail-plain-pkce", failAt: 4, frames: cat(sol[:4], []frames.Frame{
			edit(sol[4], "code_challenge_method=S256", "code_challenge_method=plain")})},
		// Straight from the 401 to the endpoints, no metadata read.
		{name: "fail-guessed", failAt: 1, frames: cat(sol[:1], sol[3:8])},
		// A token refused with invalid_token, sent again.
		{name: "fail-token-loop", failAt: 6, frames: cat(sol[:7], []frames.Frame{notAToken, notAToken})},
		// deploy:production asked for from the start: no 403 to step up
		// from.
		{name: "fail-scope-too-broad", failAt: 7, frames: cat(sol[:4], sol[9:12], sol[7:9])},
	}
}
