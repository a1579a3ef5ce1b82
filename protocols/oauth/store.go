package oauth

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// Bounds of the in-memory state. Anyone who can reach the server can
// register clients and start authorizations, so every table has a cap;
// when one is full the entry closest to its end makes room (expired
// entries first), as a busy real server would shed its oldest sessions.
const (
	maxClients       = 1000  // dynamically registered clients and fetched metadata documents
	maxCodes         = 1000  // authorization codes, each alive for codeLifetime
	maxRefreshTokens = 10000 // refresh tokens, used ones kept until they expire to catch a replay
)

// Lifetimes.
const (
	// codeLifetime: OAuth 2.1 section 4.1.2 says "a maximum authorization
	// code lifetime of 10 minutes is RECOMMENDED"; a client that has the
	// code exchanges it within a second, so one minute is plenty.
	codeLifetime = 60 * time.Second
	// refreshLifetime bounds a grant that is never used again.
	refreshLifetime = 24 * time.Hour
)

// client is a client as the server knows it, however it got here.
type client struct {
	id           string
	secret       string // empty for a public client
	name         string
	authMethod   string // AuthClientSecretBasic (either secret method is accepted), or AuthNone
	redirectURIs []string
	grantTypes   []string
	how          string    // "pre-registered", "registered" or "metadata document", for the log
	added        time.Time // when it was registered or fetched
	expires      time.Time // metadata documents: when to fetch again; zero: never
}

// allows reports whether the client may use a grant type.
func (c *client) allows(grant string) bool {
	for _, g := range c.grantTypes {
		if g == grant {
			return true
		}
	}
	return false
}

// grant is one consent: what the learner allowed one client for one
// resource. The code and every refresh token that follows carry the same
// grant, so revoking it (a replayed code, a reused refresh token)
// revokes all of them at once.
type grant struct {
	clientID string
	subject  string
	scope    []string
	resource string // "" when the client named none
	revoked  bool
}

// code is an authorization code (RFC 6749 section 4.1.2).
type code struct {
	grant       *grant
	redirectURI string
	givenURI    bool   // the authorization request named redirect_uri, so the token request must too
	challenge   string // the PKCE code_challenge, S256
	expires     time.Time
	used        bool
}

// refreshToken is a stored refresh token. Used ones stay until they
// expire: seeing one again means two parties hold it (OAuth 2.1
// section 4.3.1).
type refreshToken struct {
	grant   *grant
	expires time.Time
	used    bool
}

// store holds the server's state.
type store struct {
	mu      sync.Mutex // guards the three maps and everything they point to
	clients map[string]*client
	codes   map[string]*code
	refresh map[string]*refreshToken
}

func newStore() *store {
	return &store{clients: map[string]*client{}, codes: map[string]*code{}, refresh: map[string]*refreshToken{}}
}

// makeRoom makes room for one more entry in a full table: it removes
// the expired entries, then, if none was, the one whose time comes first
// (for codes and refresh tokens their expiry, for clients when they
// came). The scan is linear: at these sizes that is simpler than a heap
// and fast enough. The caller holds the mutex.
func makeRoom[V any](m map[string]V, max int, when func(V) (at time.Time, expired bool)) {
	if len(m) < max {
		return
	}
	first, firstAt := "", time.Time{}
	for k, v := range m {
		at, expired := when(v)
		if expired {
			delete(m, k)
			continue
		}
		if first == "" || at.Before(firstAt) {
			first, firstAt = k, at
		}
	}
	if len(m) >= max {
		delete(m, first)
	}
}

// randomToken returns 32 random bytes, base64url without padding: 256
// bits, past guessing (RFC 6749 section 10.10).
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// short shows a secret in a log: its first characters only, enough to
// tell two apart, never enough to use one.
func short(secret string) string {
	const keep = 6
	if secret == "" {
		return ""
	}
	if len(secret) <= keep {
		return "…"
	}
	return secret[:keep] + "…"
}
