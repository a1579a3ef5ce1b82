package tools

import (
	"crypto/subtle"
	"fmt"
	"regexp"
	"strings"
)

// Scope is a permission beyond "may list and call tools".
type Scope string

// ScopeDeployProduction lets a caller run deploy_service with env=production.
const ScopeDeployProduction Scope = "deploy:production"

// KnownScopes lists every scope a token may be given.
func KnownScopes() []Scope { return []Scope{ScopeDeployProduction} }

// Token is one configured bearer token and the scopes it carries.
type Token struct {
	Secret string
	Scopes []Scope
}

// Allows reports whether the token carries scope s. Its method value fits
// [CallOptions.Allow].
func (t Token) Allows(s Scope) bool {
	for _, have := range t.Scopes {
		if have == s {
			return true
		}
	}
	return false
}

// b64token is the token syntax of RFC 6750 section 2.1. A secret outside
// it could never be sent in an Authorization header, so it is refused when
// the server starts rather than failing every request later.
var b64token = regexp.MustCompile(`^[A-Za-z0-9\-._~+/]+=*$`)

// ParseToken reads a token as given on a command line: "SECRET" for a token
// that may list and call tools, or "SECRET:SCOPE,SCOPE" for one that may
// also do what the scopes allow, for example "ops:deploy:production".
// The first colon ends the secret; RFC 6750 tokens cannot contain one.
func ParseToken(spec string) (Token, error) {
	secret, scopes, hasScopes := strings.Cut(spec, ":")
	if !b64token.MatchString(secret) {
		return Token{}, fmt.Errorf("token %q: a secret is letters, digits and -._~+/ (RFC 6750), optionally followed by :SCOPE,...", spec)
	}
	t := Token{Secret: secret}
	if !hasScopes {
		return t, nil
	}
	for _, s := range strings.Split(scopes, ",") {
		if !known(Scope(s)) {
			return Token{}, fmt.Errorf("token %q: unknown scope %q; known scopes: %s", spec, s, scopeList())
		}
		t.Scopes = append(t.Scopes, Scope(s))
	}
	return t, nil
}

func known(s Scope) bool {
	for _, k := range KnownScopes() {
		if k == s {
			return true
		}
	}
	return false
}

func scopeList() string {
	ks := KnownScopes()
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// Tokens is the set of tokens a server accepts. The zero value accepts
// none; a server with no tokens configured does not check them at all.
type Tokens struct {
	list []Token
}

// ParseTokens reads every --token flag of a server.
func ParseTokens(specs []string) (*Tokens, error) {
	ts := &Tokens{}
	for _, spec := range specs {
		t, err := ParseToken(spec)
		if err != nil {
			return nil, err
		}
		ts.list = append(ts.list, t)
	}
	return ts, nil
}

// Enabled reports whether any token is configured, that is, whether
// callers must authenticate.
func (ts *Tokens) Enabled() bool { return ts != nil && len(ts.list) > 0 }

// Lookup finds the token with this secret. Every configured secret is
// compared in constant time, so the time taken does not reveal how much
// of a guess was right.
func (ts *Tokens) Lookup(secret string) (Token, bool) {
	var found Token
	ok := false
	for _, t := range ts.list {
		if subtle.ConstantTimeCompare([]byte(t.Secret), []byte(secret)) == 1 {
			found, ok = t, true
		}
	}
	return found, ok
}
