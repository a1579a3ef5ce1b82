package mcp

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// MCP authorization, from the client's side (the "Authorization" pages
// of 2025-11-25 and 2026-07-28). A server that wants a token answers
// 401; the client then learns, step by step, where to get one:
//
//	POST /mcp                                    <- 401 WWW-Authenticate: Bearer resource_metadata="...", scope="mcp:tools"
//	GET  /.well-known/oauth-protected-resource/mcp   (RFC 9728: which authorization server)
//	GET  AS/.well-known/oauth-authorization-server  (RFC 8414: its endpoints)
//	POST AS/register                                (RFC 7591, unless the client has an id)
//	GET  AS/authorize?...&code_challenge=...&resource=...   (the user approves)
//	     -> redirect to the client with code, state, iss
//	POST AS/token  grant_type=authorization_code&code=...&code_verifier=...&resource=...
//	POST /mcp  Authorization: Bearer ...            <- 200
//
// Authorizer does all of it as an http.RoundTripper: give ConnectHTTP an
// http.Client whose Transport is an Authorizer, and every request that
// comes back 401 (or 403 insufficient_scope) runs the flow and is sent
// again with the new token. The steps live in clientauthdiscovery.go
// (where to go), clientauthflow.go (what to send there) and
// clientauthredirect.go (how the user's answer comes back).

const (
	// maxAuthorizations bounds the authorization flows one request may
	// start: the first, and two step-ups. Step-up: "Retry the original
	// request with the new authorization no more than a few times and
	// treat this as a permanent authorization failure."
	maxAuthorizations = 3

	// expirySkew renews a token this long before the expiry the
	// authorization server gave (expires_in), so that it does not expire
	// on the way to the server.
	expirySkew = 10 * time.Second

	// maxAuthAnswer is the largest metadata document or token response
	// read. Real ones are a few kilobytes.
	maxAuthAnswer = 1 << 20
)

// AuthOptions configures an Authorizer.
type AuthOptions struct {
	// ClientID and ClientSecret are a pre-registered client: "Use
	// pre-registered client information for the server if the client has
	// it available". Empty ClientID: the client gets an id itself.
	ClientID     string
	ClientSecret string
	// ClientIssuer, if set, is the authorization server ClientID was
	// registered with. Pre-registered credentials are "inherently
	// specific to a particular authorization server": against another one
	// the flow stops with an error instead of presenting them.
	ClientIssuer string

	// ClientMetadataURL is an https URL serving this client's metadata
	// document (the client ID metadata document draft). When the
	// authorization server says client_id_metadata_document_supported,
	// the URL is the client_id, and no registration is needed.
	ClientMetadataURL string

	// ClientName is the client_name sent in dynamic registration.
	// Empty means "wirelab".
	ClientName string

	// Scope, if set, is the scope requested, instead of the one the
	// scope selection strategy picks (the challenge's scope, else the
	// resource's scopes_supported).
	Scope string

	// Redirect carries the authorization request to the user and brings
	// the answer back: a LoopbackRedirect for a person at a browser, a
	// DirectRedirect for an authorization server that approves by itself.
	Redirect Redirect

	// HTTP sends the flow's own requests and the MCP requests. Nil means
	// http.DefaultTransport. Wrap it in a WireLog to see every exchange.
	HTTP http.RoundTripper

	// Log hears, one line each, what the flow is doing ("discovered ...",
	// "registered ..."). Nil discards it.
	Log io.Writer

	// Now is the clock for token expiry. Nil means time.Now.
	Now func() time.Time
}

// AuthError is a failed step of the authorization flow: which one, and
// why. A request that fails this way never reached an MCP answer, so it
// comes back from the HTTP client as a transport error wrapping this.
type AuthError struct {
	Step string // such as "protected resource metadata", "token request"
	Err  error
}

func (e *AuthError) Error() string { return "authorization: " + e.Step + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *AuthError) Unwrap() error { return e.Err }

// stepError makes an *AuthError.
func stepError(step string, format string, args ...any) error {
	return &AuthError{Step: step, Err: fmt.Errorf(format, args...)}
}

// Authorizer is an http.RoundTripper that adds "Authorization: Bearer"
// to every request and, when the server refuses, runs the OAuth flow
// and tries again. It is safe for concurrent use; one flow runs at a
// time.
type Authorizer struct {
	opts AuthOptions
	base http.RoundTripper

	flow sync.Mutex // held while a flow runs: one 401 is enough to start one

	mu      sync.Mutex                // guards the fields below
	token   *tokenSet                 // the current token, nil before the first flow
	clients map[string]clientIdentity // per authorization server issuer: "Clients MUST maintain separate registration state ... per authorization server"
}

// NewAuthorizer returns an Authorizer. opts.Redirect is required.
func NewAuthorizer(opts AuthOptions) *Authorizer {
	if opts.Redirect == nil {
		panic("mcp.NewAuthorizer: AuthOptions.Redirect is nil")
	}
	base := opts.HTTP
	if base == nil {
		base = http.DefaultTransport
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ClientName == "" {
		opts.ClientName = "wirelab"
	}
	return &Authorizer{opts: opts, base: base, clients: make(map[string]clientIdentity)}
}

// tokenSet is what a token response gave, and what it is for.
type tokenSet struct {
	access  string
	refresh string
	expires time.Time // zero: the server did not say
	granted []string  // the scopes granted (the response's scope, else those requested)
	asked   []string  // the scopes requested: the base of a step-up's union
	issuer  string    // the authorization server that issued it
	as      *asMetadata
	client  clientIdentity
	res     string // the resource parameter it was requested for
}

// RoundTrip sends req with the current token. On 401, or on 403 with
// error="insufficient_scope", it authorizes (or refreshes) and sends req
// again, at most maxAuthorizations times.
func (a *Authorizer) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := a.renewIfExpired(req); err != nil {
		a.logf("refreshing the expired token failed, so it is dropped: %v", err)
	}
	authorizations := 0
	var fresh *tokenSet // the token this request's own flow obtained
	for {
		sent := a.current()
		resp, err := a.base.RoundTrip(withToken(req, sent))
		if err != nil {
			return nil, err
		}
		ch, refused := refusedChallenge(resp)
		if !refused {
			return resp, nil
		}
		drain(resp)

		a.flow.Lock()
		if now := a.current(); now != sent {
			// Another request's flow got a new token while this one
			// was on the way: try that before starting a flow.
			a.flow.Unlock()
			continue
		}
		switch {
		case fresh != nil && resp.StatusCode == http.StatusUnauthorized:
			a.flow.Unlock()
			return nil, stepError("retry", "the server refused the token just obtained (%s)", ch)
		case resp.StatusCode == http.StatusForbidden && sent != nil && subset(ch.scopes(), sent.granted):
			// Tracking "scope upgrade attempts to avoid repeated failures":
			// the token already has every scope the challenge names, so a
			// new one would be refused the same way.
			a.flow.Unlock()
			return nil, stepError("step-up", "the server refuses with %s, though the token has scope %q", ch, strings.Join(sent.granted, " "))
		case authorizations == maxAuthorizations:
			a.flow.Unlock()
			return nil, stepError("retry", "gave up after %d authorizations: the server still answers %s", authorizations, ch)
		}
		next, authorized, err := a.obtain(req, ch, sent)
		a.flow.Unlock()
		if err != nil {
			return nil, err
		}
		if authorized {
			authorizations++
		}
		if resp.StatusCode == http.StatusForbidden && !subset(ch.scopes(), next.granted) {
			// The authorization server would not grant what the
			// resource asks for: asking again would get the same.
			return nil, stepError("step-up", "asked for scope %q, but the authorization server granted only %q", strings.Join(ch.scopes(), " "), strings.Join(next.granted, " "))
		}
		fresh = next
	}
}

// obtain gets a new token after a refusal: by refreshing, when a 401
// says the token is no longer good and the same authorization server
// still protects the resource, else by authorizing. It reports whether
// it authorized.
func (a *Authorizer) obtain(req *http.Request, ch challenge, old *tokenSet) (*tokenSet, bool, error) {
	ctx := req.Context()
	d, err := a.discover(ctx, req.URL, ch)
	if err != nil {
		return nil, false, err
	}
	if old != nil && old.refresh != "" && ch.status == http.StatusUnauthorized && old.issuer == d.as.Issuer {
		next, err := a.refresh(ctx, old)
		if err == nil {
			a.setToken(next)
			return next, false, nil
		}
		a.logf("refresh failed, authorizing again: %v", err)
	}
	scopes := a.selectScopes(ch, d, old)
	next, err := a.authorize(ctx, d, scopes)
	if err != nil {
		return nil, true, err
	}
	a.setToken(next)
	return next, true, nil
}

// renewIfExpired refreshes the current token before sending, when the
// authorization server's expires_in has passed. A token that cannot be
// refreshed is dropped: the server's 401 then starts a flow.
func (a *Authorizer) renewIfExpired(req *http.Request) error {
	a.flow.Lock()
	defer a.flow.Unlock()
	tok := a.current()
	if tok == nil || tok.expires.IsZero() || a.opts.Now().Before(tok.expires.Add(-expirySkew)) {
		return nil
	}
	if tok.refresh == "" {
		a.setToken(nil)
		return errors.New("it has no refresh token")
	}
	next, err := a.refresh(req.Context(), tok)
	if err != nil {
		a.setToken(nil)
		return err
	}
	a.setToken(next)
	return nil
}

func (a *Authorizer) current() *tokenSet {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.token
}

func (a *Authorizer) setToken(t *tokenSet) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.token = t
}

func (a *Authorizer) logf(format string, args ...any) {
	if a.opts.Log != nil {
		fmt.Fprintf(a.opts.Log, "wirelab: auth: "+format+"\n", args...)
	}
}

// withToken returns req with "Authorization: Bearer TOKEN" ("authorization
// MUST be included in every HTTP request from client to server"), and a
// fresh body, so that a refused request can be sent again.
func withToken(req *http.Request, tok *tokenSet) *http.Request {
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			r.Body = body
		}
	}
	if tok != nil {
		r.Header.Set("Authorization", "Bearer "+tok.access)
	}
	return r
}

// refusedChallenge reports whether resp asks for (another) token: any
// 401, or a 403 whose challenge says error="insufficient_scope" (a 403
// for another reason is not about the token's scope).
func refusedChallenge(resp *http.Response) (challenge, bool) {
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		return challenge{}, false
	}
	ch := parseChallenge(resp.Header.Values("WWW-Authenticate"))
	ch.status = resp.StatusCode
	if resp.StatusCode == http.StatusForbidden && ch.params["error"] != "insufficient_scope" {
		return challenge{}, false
	}
	return ch, true
}

// drain reads the rest of a body and closes it, so that the connection
// can carry the next request.
func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxAuthAnswer))
	resp.Body.Close()
}

// subset reports whether every one of want is in have.
func subset(want, have []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
