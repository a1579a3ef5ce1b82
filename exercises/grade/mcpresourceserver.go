package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"
)

// MCPResourceServer grades the mcp-resource-server exercise: an MCP
// endpoint, POST /mcp, that serves tools/call only with an access token
// its authorization server issued for it. The grader starts that
// authorization server itself (protocols/oauth, see rsissuer.go), starts
// the program with
//
//	mcp-resource-server --addr 127.0.0.1:PORT --issuer http://127.0.0.1:ISSUER
//
// and calls it with no token, real tokens for it and for another server,
// tokens it signs itself with claims that must be refused, and forgeries.
func MCPResourceServer() *Grader {
	return &Grader{
		Exercise: "mcp-resource-server",
		Stages: []Stage{
			{Name: "refuses a call without a token", Run: rsWithoutToken},
			{Name: "serves a token issued for it", Run: rsGoodToken},
			{Name: "refuses tokens it must not trust", Run: rsBadTokens},
			{Name: "asks for the scope a call needs", Run: rsScopes},
		},
	}
}

// Hints for the mistakes of this exercise.
const (
	hintRSNoToken = `The call ran without a token. Put every request to /mcp through protect, and have protect answer 401 when there is no "Authorization: Bearer TOKEN" header, before the MCP handler sees the request.`

	hintRS401 = `No token is 401 Unauthorized: the server does not know who is calling yet. 403 means it knows the caller and refuses this one thing, so an MCP client that gets 403 for a missing token never starts the OAuth flow that would get it one.`

	hintRSResourceMetadata = `A 401 must say where to get a token: WWW-Authenticate: Bearer resource_metadata="http://HOST/.well-known/oauth-protected-resource/mcp". An MCP client reads that document to learn which authorization server issues your tokens (MCP authorization, "Protected Resource Metadata Discovery"); without it the client must guess, and most stop.`

	hintRSGoodToken = `This token is good: the authorization server signed it with a key in its JWKS, for your resource, with scope mcp:tools, and it expires in five minutes. Parse it with jwt.ParseSigned (ES256), find the key its kid names in the key set, verify the claims with tok.Claims(key, &c), then check iss, exp and aud.`

	hintRSSignature = `The token's signature does not verify with the key its kid names: anyone could have written its claims. Verify before you read: tok.Claims(key, &c) with the key from the authorization server's JWKS. UnsafeClaimsWithoutVerification is for debugging, never for deciding.`

	hintRSAudience = `This token was issued for another MCP server: its aud is https://other.example/mcp. It is signed by your authorization server and unexpired, and still not for you: a server that accepts it lets that other server, or anyone who took the token from it, act here in the user's name. MCP servers "MUST validate that access tokens were issued specifically for them": check that aud contains your own resource URL (jwt.Expected{AnyAudience: jwt.Audience{s.resource}}).`

	hintRSNoAudience = `This token names no audience: the client asked for it without a resource parameter, so it is bound to no server, and could have been meant for any other. A missing aud is a refusal, not a pass: the audience must contain your resource URL.`

	hintRSExpiry = `Access tokens are short-lived so that a stolen one stops working soon: refuse a token whose exp has passed, and one with no exp at all (RFC 9068 makes it required). Claims.Validate checks exp only when there is one.`

	hintRSIssuer = `The token's iss is another authorization server. This one is signed with a key your server trusts (keys get shared, key sets get misconfigured), so only iss tells: check it equals the issuer you were started with (jwt.Expected{Issuer: ...}).`

	hintRSQuery = `The server took the token from the URL's query string. MCP: "Access tokens MUST NOT be included in the URI query string": URLs end up in logs, proxies and browser history. Read the token from the Authorization header only; a request without that header gets 401, whatever its URL says.`

	hintRSScope = `The token carries only mcp:tools, and it deployed to production. deploy_service with env production needs deploy:production: answer 403 with WWW-Authenticate: Bearer error="insufficient_scope", scope="mcp:tools deploy:production", so that the client knows which token to ask for (step-up).`

	hintRSBaseScope = `This token carries deploy:production but not mcp:tools, which every call to this server needs: answer 403 insufficient_scope, with scope="mcp:tools", before running any tool.`

	hintRS403 = `The token is good: what is missing is a scope, and that is 403 with error="insufficient_scope". A 401 tells the client its token is bad, so it gets the same token again and loops; a 403 that names the scope tells it to ask for more.`

	hintRSChallenge = `The answer is right but its WWW-Authenticate is not: a 401 for a token names error="invalid_token" (RFC 6750 section 3.1), a 403 for a scope names error="insufficient_scope" and the scope="..." that would do, and both name resource_metadata.`
)

// rsCall is one request the grader sends to the program, and what it
// must get.
type rsCall struct {
	what  string // what is being checked, for the report
	token string // the bearer token, "" for none
	shown string // the token as reports show it
	query bool   // send the token in the URL's query string instead
	body  string

	status int
	also   int    // another status that is right too, 0 for none
	err    string // the challenge's error, "" for none wanted
	scope  string // a scope the 403's challenge must name
	want   string // for a 200: the result's structuredContent, JSON
	// hintFor gives the hint for an answer with another status, by that
	// status; hint is for any other wrong answer.
	hintFor map[int]string
	hint    string
}

// rsProgram is the program being graded and its authorization server.
type rsProgram struct {
	t    *T
	iss  *rsIssuer
	proc *Process
	addr string
}

// rsStart starts the authorization server and the program; the caller
// closes the server.
func rsStart(t *T) (*rsProgram, error) {
	iss, err := newRSIssuer()
	if err != nil {
		return nil, fmt.Errorf("starting the authorization server: %w", err)
	}
	p, addr, err := t.StartServer("--issuer", iss.url())
	if err != nil {
		iss.close()
		return nil, err
	}
	return &rsProgram{t: t, iss: iss, proc: p, addr: addr}, nil
}

func (r *rsProgram) resource() string { return "http://" + r.addr + "/mcp" }
func (r *rsProgram) metadataURL() string {
	return "http://" + r.addr + "/.well-known/oauth-protected-resource/mcp"
}
func (r *rsProgram) hide(s string) string { return rsHide(s, r.addr, r.iss.url()) }

// rsHide replaces the ports of a run with placeholders, so that reports
// are the same from one run to the next.
func rsHide(s, addr, issuer string) string {
	return strings.NewReplacer(issuer, rsShownIssuer, addr, "127.0.0.1:PORT").Replace(s)
}

// issue gets a real token from the authorization server; a failure is
// the grader's own.
func (r *rsProgram) issue(resource, scope string) (string, error) {
	tok, err := r.iss.issue(r.t.ctx, resource, scope)
	if err != nil {
		return "", fmt.Errorf("getting a token from the authorization server: %w", err)
	}
	return tok, nil
}

// rsToolCall is the body of a tools/call.
func rsToolCall(tool, args string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
}

const (
	rsWordCount  = `{"text":"read the wire"}`
	rsWordResult = `{"words":3,"chars":13}`
	rsProduction = `{"service":"api","env":"production"}`
	rsStaging    = `{"service":"api","env":"staging"}`
)

// expect sends c and checks the answer.
func (r *rsProgram) expect(c rsCall) error {
	path := "/mcp"
	header := []string{"POST " + path}
	if c.query {
		path += "?access_token=" + c.token
		header = []string{"POST /mcp?access_token=" + c.shown}
	}
	req, err := http.NewRequestWithContext(r.t.ctx, http.MethodPost, "http://"+r.addr+path, strings.NewReader(c.body))
	if err != nil {
		return fmt.Errorf("making the request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.token != "" && !c.query {
		req.Header.Set("Authorization", "Bearer "+c.token)
		header = append(header, "Authorization: Bearer "+c.shown)
	}
	sent := r.hide(strings.Join(append(header, c.body), " | "))
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return r.scrub(About(r.proc.httpError(err), c.what, sent))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	if err != nil {
		return r.scrub(About(r.proc.httpError(err), c.what, sent))
	}
	return r.scrub(About(r.judge(c, resp, body).orNil(), c.what, sent))
}

// scrub hides the ports in a failure.
func (r *rsProgram) scrub(err error) error {
	var f *Failure
	if errors.As(err, &f) {
		f.Summary, f.SummaryRU, f.Sent, f.Expected, f.Got, f.Stderr = r.hide(f.Summary), r.hide(f.SummaryRU), r.hide(f.Sent), r.hide(f.Expected), r.hide(f.Got), r.hide(f.Stderr)
	}
	return err
}

// authParam matches one parameter of a challenge: name="value".
var authParam = regexp.MustCompile(`([A-Za-z_]+)="([^"]*)"`)

// challenge reads a Bearer challenge's parameters, or nil for none.
func challenge(h string) map[string]string {
	scheme, rest, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return nil
	}
	p := map[string]string{}
	for _, m := range authParam.FindAllStringSubmatch(rest, -1) {
		p[strings.ToLower(m[1])] = m[2]
	}
	return p
}

// judge compares an answer with c, and returns nil when it is right.
func (r *rsProgram) judge(c rsCall, resp *http.Response, body []byte) *Failure {
	wantStatus := fmt.Sprintf("%d %s", c.status, http.StatusText(c.status))
	www := resp.Header.Get("WWW-Authenticate")
	shownWWW := www
	if www == "" {
		shownWWW = "(none)"
	}
	got := resp.Status + " | WWW-Authenticate: " + shownWWW + " | " + string(bytes.TrimSpace(body))
	var want string
	var f *Failure
	ch := challenge(www)
	switch {
	case resp.StatusCode != c.status && resp.StatusCode != c.also:
		f = Failf("the answer is %s; %s was expected", resp.Status, wantStatus)
		f.Hint = c.hint
		if h, ok := c.hintFor[resp.StatusCode]; ok {
			f.Hint = h
		}
	case resp.StatusCode == http.StatusOK:
		var m struct {
			Result struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		var gotV, wantV any
		json.Unmarshal(body, &m)
		json.Unmarshal(m.Result.StructuredContent, &gotV)
		json.Unmarshal([]byte(c.want), &wantV)
		g, _ := json.Marshal(gotV)
		w, _ := json.Marshal(wantV)
		if !bytes.Equal(g, w) {
			f = Failf("the answer is 200 OK, but its result.structuredContent is %s, not %s", g, w)
			f.Hint = c.hint
		}
	case resp.StatusCode == http.StatusUnauthorized && ch["resource_metadata"] != r.metadataURL():
		f = Failf("the 401 has no WWW-Authenticate: Bearer challenge naming resource_metadata=%q", r.metadataURL())
		f.Hint = hintRSResourceMetadata
	case ch == nil && c.err != "":
		f = Failf("the %d has no WWW-Authenticate: Bearer challenge", resp.StatusCode)
		f.Hint = hintRSChallenge
	case c.err != "" && ch["error"] != c.err:
		f = Failf("the %d's challenge says error=%q; error=%q was expected", resp.StatusCode, ch["error"], c.err)
		f.Hint = hintRSChallenge
	case c.scope != "" && !slices.Contains(strings.Fields(ch["scope"]), c.scope):
		f = Failf("the 403's challenge says scope=%q, which does not name %s", ch["scope"], c.scope)
		f.Hint = hintRSChallenge
	}
	if f == nil {
		return nil
	}
	switch {
	case c.status == http.StatusOK:
		want = wantStatus + ` | {"result":{"structuredContent":` + c.want + `,...}}`
	case c.status == http.StatusUnauthorized && c.err == "":
		want = wantStatus + ` | WWW-Authenticate: Bearer resource_metadata="` + r.metadataURL() + `"<...>`
	case c.status == http.StatusUnauthorized:
		want = wantStatus + ` | WWW-Authenticate: Bearer resource_metadata="` + r.metadataURL() + `", error="` + c.err + `"<...>`
	default:
		want = wantStatus + ` | WWW-Authenticate: Bearer error="` + c.err + `", scope="<... ` + c.scope + ` ...>"<...>`
	}
	f.Expected, f.Got = shorten(want), shorten(got)
	return f
}

// run starts the program and makes the calls in order; each call's
// token comes from its maker, run once the program listens.
func rsRun(t *T, calls func(r *rsProgram) ([]rsCall, error)) error {
	r, err := rsStart(t)
	if err != nil {
		return err
	}
	defer r.iss.close()
	cs, err := calls(r)
	if err != nil {
		return err
	}
	for _, c := range cs {
		if err := r.expect(c); err != nil {
			return err
		}
	}
	return nil
}

func rsWithoutToken(t *T) error {
	return rsRun(t, func(r *rsProgram) ([]rsCall, error) {
		if err := r.checkMetadata(); err != nil {
			return nil, err
		}
		return []rsCall{{
			what: "a word_count call without an Authorization header", body: rsToolCall("word_count", rsWordCount),
			status: http.StatusUnauthorized, hintFor: map[int]string{200: hintRSNoToken, 403: hintRS401},
		}}, nil
	})
}

// checkMetadata reads the program's protected resource metadata, which
// must name its resource and its authorization server.
func (r *rsProgram) checkMetadata() error {
	sent := "GET /.well-known/oauth-protected-resource/mcp"
	req, err := http.NewRequestWithContext(r.t.ctx, http.MethodGet, r.metadataURL(), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return r.scrub(About(r.proc.httpError(err), "the protected resource metadata", sent))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	var doc struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if resp.StatusCode == http.StatusOK && json.Unmarshal(body, &doc) == nil && doc.Resource == r.resource() && slices.Contains(doc.AuthorizationServers, r.iss.url()) {
		return nil
	}
	f := Failf("the protected resource metadata does not name this resource and its authorization server")
	f.Sent = sent
	f.Expected = `200 OK | {"resource":"` + r.resource() + `","authorization_servers":["` + r.iss.url() + `"],...}`
	f.Got = shorten(resp.Status + " | " + string(bytes.TrimSpace(body)))
	f.Hint = `RFC 9728: the document at /.well-known/oauth-protected-resource/mcp says which resource this is ("resource", the URL of /mcp) and who issues its tokens ("authorization_servers", the issuer the program was started with).`
	return r.scrub(f)
}

func rsGoodToken(t *T) error {
	return rsRun(t, func(r *rsProgram) ([]rsCall, error) {
		tok, err := r.issue(r.resource(), "mcp:tools")
		if err != nil {
			return nil, err
		}
		return []rsCall{{
			what: "a word_count call with a token issued for this server", token: tok,
			shown: "<a token from the authorization server: aud http://127.0.0.1:PORT/mcp, scope mcp:tools>",
			body:  rsToolCall("word_count", rsWordCount), status: http.StatusOK, want: rsWordResult, hint: hintRSGoodToken,
		}}, nil
	})
}

func rsBadTokens(t *T) error {
	return rsRun(t, func(r *rsProgram) ([]rsCall, error) {
		good, err := r.issue(r.resource(), "mcp:tools")
		if err != nil {
			return nil, err
		}
		other, err := r.issue(rsOtherServer, "mcp:tools")
		if err != nil {
			return nil, err
		}
		none, err := r.issue("", "mcp:tools")
		if err != nil {
			return nil, err
		}
		// Tokens the grader signs: each good but for one claim, or
		// signed by a key the authorization server does not list.
		forged := []struct {
			shown string
			key   bool // signed with the stranger's key
			edit  func(*rsClaims)
		}{
			{"<forged: signed by a key not in the authorization server's key set>", true, func(*rsClaims) {}},
			{"<expired ten minutes ago>", false, func(c *rsClaims) {
				c.IssuedAt, c.Expiry = jwtTime(-15*time.Minute), jwtTime(-10*time.Minute)
			}},
			{"<no exp claim>", false, func(c *rsClaims) { c.Expiry = nil }},
			{"<iss " + rsOtherIssuer + ">", false, func(c *rsClaims) { c.Issuer = rsOtherIssuer }},
		}
		signed := make([]string, len(forged))
		for i, fg := range forged {
			c := r.iss.claimsFor(r.resource())
			fg.edit(&c)
			key := r.iss.trusted
			if fg.key {
				key = r.iss.stranger
			}
			if signed[i], err = forge(key, rsTrustedKid, c); err != nil {
				return nil, fmt.Errorf("signing a token: %w", err)
			}
		}
		refused := func(what, token, shown, hint string) rsCall {
			return rsCall{what: what, token: token, shown: shown, body: rsToolCall("word_count", rsWordCount),
				status: http.StatusUnauthorized, err: "invalid_token", hintFor: map[int]string{200: hint}, hint: hint}
		}
		query := rsCall{what: "a word_count call with a good token in the URL's query string, and no Authorization header",
			token: good, shown: "<a good token>", query: true, body: rsToolCall("word_count", rsWordCount),
			status: http.StatusUnauthorized, also: http.StatusBadRequest, hintFor: map[int]string{200: hintRSQuery}}
		return []rsCall{
			refused("a token with a forged signature", signed[0], forged[0].shown, hintRSSignature),
			refused("a token issued for another MCP server", other, "<a token from the authorization server: aud "+rsOtherServer+">", hintRSAudience),
			refused("a token issued with no resource parameter", none, "<a token from the authorization server: no aud>", hintRSNoAudience),
			refused("an expired token", signed[1], forged[1].shown, hintRSExpiry),
			refused("a token without exp", signed[2], forged[2].shown, hintRSExpiry),
			refused("a token from another issuer", signed[3], forged[3].shown, hintRSIssuer),
			refused("a token that is not a JWT", "guessed", "guessed", hintRSGoodToken),
			query,
		}, nil
	})
}

// jwtTime is now plus d, as a claim.
func jwtTime(d time.Duration) *jwt.NumericDate { return jwt.NewNumericDate(time.Now().Add(d)) }

func rsScopes(t *T) error {
	return rsRun(t, func(r *rsProgram) ([]rsCall, error) {
		tools, err := r.issue(r.resource(), "mcp:tools")
		if err != nil {
			return nil, err
		}
		both, err := r.issue(r.resource(), "mcp:tools deploy:production")
		if err != nil {
			return nil, err
		}
		deployOnly, err := r.issue(r.resource(), "deploy:production")
		if err != nil {
			return nil, err
		}
		const toolsShown = "<a token from the authorization server: scope mcp:tools>"
		return []rsCall{
			{what: "a deploy to staging with a token for mcp:tools", token: tools, shown: toolsShown,
				body: rsToolCall("deploy_service", rsStaging), status: http.StatusOK, want: `{"service":"api","env":"staging","status":"deployed"}`},
			{what: "a deploy to production with a token for mcp:tools only", token: tools, shown: toolsShown,
				body: rsToolCall("deploy_service", rsProduction), status: http.StatusForbidden, err: "insufficient_scope", scope: "deploy:production",
				hintFor: map[int]string{200: hintRSScope, 401: hintRS403}},
			{what: "a deploy to production with a token for mcp:tools and deploy:production", token: both,
				shown: "<a token from the authorization server: scope mcp:tools deploy:production>",
				body:  rsToolCall("deploy_service", rsProduction), status: http.StatusOK, want: `{"service":"api","env":"production","status":"deployed"}`},
			{what: "a word_count call with a token for deploy:production only", token: deployOnly,
				shown: "<a token from the authorization server: scope deploy:production>",
				body:  rsToolCall("word_count", rsWordCount), status: http.StatusForbidden, err: "insufficient_scope", scope: "mcp:tools",
				hintFor: map[int]string{200: hintRSBaseScope, 401: hintRS403}},
		}, nil
	})
}
