package mcp

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The tests of the resource server mint their own tokens with a stand-in
// authorization server: one that only publishes its metadata and keys,
// which is all a resource server reads. The real one is tested against
// this server in authflow_test.go.

const (
	testIssuer   = "http://127.0.0.1:8023"
	testResource = "http://127.0.0.1:8021/mcp"
)

// keyAS is a stand-in authorization server: metadata and a key set.
type keyAS struct {
	issuer string
	mu     sync.Mutex // guards keys and reads
	keys   map[string]*ecdsa.PrivateKey
	reads  int // how many times the key set was read
}

func newKeyAS(t *testing.T, issuer string) *keyAS {
	as := &keyAS{issuer: issuer, keys: map[string]*ecdsa.PrivateKey{}}
	as.addKey(t, "k1")
	return as
}

func (as *keyAS) addKey(t *testing.T, kid string) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	as.mu.Lock()
	as.keys[kid] = k
	as.mu.Unlock()
	return k
}

func (as *keyAS) key(kid string) *ecdsa.PrivateKey {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.keys[kid]
}

func (as *keyAS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var doc any
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		doc = map[string]any{"issuer": as.issuer, "jwks_uri": as.issuer + "/jwks"}
	case "/jwks":
		as.mu.Lock()
		set := jose.JSONWebKeySet{}
		for kid, k := range as.keys {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: kid, Algorithm: "ES256", Use: "sig"})
		}
		as.reads++
		as.mu.Unlock()
		doc = set
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(doc)
}

// handlerTransport answers HTTP requests with a handler in memory, so
// that a stand-in server can have a fixed address, and a test inside a
// synctest bubble makes no real connection.
type handlerTransport struct{ h http.Handler }

func (ht handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	ht.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// claims are the claims of a token the stand-in issues: those of RFC
// 9068, as protocols/oauth writes them.
type claims struct {
	jwt.Claims
	ClientID string `json:"client_id,omitempty"`
	Scope    string `json:"scope,omitempty"`
}

// goodClaims are those of a token this server accepts, valid now.
func goodClaims(scope string) claims {
	now := time.Now()
	return claims{
		Claims: jwt.Claims{Issuer: testIssuer, Subject: "learner", Audience: jwt.Audience{testResource},
			IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(5 * time.Minute)), ID: "t1"},
		ClientID: "test-client", Scope: scope,
	}
}

// mint signs c with key under kid, with header typ.
func mint(t *testing.T, key any, alg jose.SignatureAlgorithm, kid, typ string, c claims) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType(jose.ContentType(typ)).WithHeader("kid", kid)
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jwt.Signed(sig).Claims(c).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// unsigned writes a token with alg "none", which go-jose rightly refuses
// to make: the header and claims, and an empty signature.
func unsigned(t *testing.T, c claims) string {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"at+jwt","kid":"k1"}`)) + "." + enc(b) + "."
}

// testTokens returns the tokens the tests present, by name, each with
// what is wrong with it, if anything. Dates that appear in a refusal are
// fixed, so that the golden transcripts do not change.
func testTokens(t *testing.T, as *keyAS) map[string]string {
	k1 := as.key("k1")
	es := func(c claims) string { return mint(t, k1, jose.ES256, "k1", "at+jwt", c) }
	with := func(edit func(*claims)) string {
		c := goodClaims("mcp:tools")
		edit(&c)
		return es(c)
	}
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"good":     es(goodClaims("mcp:tools")),
		"deployer": es(goodClaims("mcp:tools deploy:production")),
		"no-scope": es(goodClaims("deploy:production")),
		// Good tokens of other callers: another user through the same
		// application, and the same user through another application.
		"other-user":   with(func(c *claims) { c.Subject = "someone-else" }),
		"other-client": with(func(c *claims) { c.ClientID = "other-client" }),
		"expired": with(func(c *claims) {
			c.IssuedAt = jwt.NewNumericDate(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
			c.Expiry = jwt.NewNumericDate(time.Date(2020, 1, 1, 0, 5, 0, 0, time.UTC))
		}),
		"not-yet":     with(func(c *claims) { c.NotBefore = jwt.NewNumericDate(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)) }),
		"no-exp":      with(func(c *claims) { c.Expiry = nil }),
		"wrong-aud":   with(func(c *claims) { c.Audience = jwt.Audience{"http://127.0.0.1:9999/mcp"} }),
		"no-aud":      with(func(c *claims) { c.Audience = nil }),
		"wrong-iss":   with(func(c *claims) { c.Issuer = "http://127.0.0.1:9000" }),
		"wrong-key":   mint(t, other, jose.ES256, "k1", "at+jwt", goodClaims("mcp:tools")),
		"unknown-kid": mint(t, other, jose.ES256, "k9", "at+jwt", goodClaims("mcp:tools")),
		"alg-none":    unsigned(t, goodClaims("mcp:tools")),
		"hs256":       mint(t, []byte("a shared secret of thirty-two by"), jose.HS256, "k1", "at+jwt", goodClaims("mcp:tools")),
		"typ-jwt":     mint(t, k1, jose.ES256, "k1", "JWT", goodClaims("mcp:tools")),
		"not-jwt":     "abc123",
	}
}

func newTestVerifier(as http.Handler) *Verifier {
	return NewVerifier(testIssuer, testResource, &VerifierOptions{Client: &http.Client{Transport: handlerTransport{as}}})
}

// TestVerify presents each kind of token and checks that the verifier
// accepts the good ones and names what is wrong with the others.
func TestAuthVerify(t *testing.T) {
	as := newKeyAS(t, testIssuer)
	v := newTestVerifier(as)
	if err := v.Discover(context.Background()); err != nil {
		t.Fatal(err)
	}
	tokens := testTokens(t, as)
	for _, tc := range []struct {
		token  string
		reason string // a part of the refusal; "" for a token accepted
		scopes []tools.Scope
	}{
		{"good", "", []tools.Scope{ScopeTools}},
		{"deployer", "", []tools.Scope{ScopeTools, tools.ScopeDeployProduction}},
		// A good token without mcp:tools: the handler answers 403.
		{"no-scope", "", []tools.Scope{tools.ScopeDeployProduction}},
		{"expired", "the token expired at 2020-01-01T00:05:00Z", nil},
		{"not-yet", "not valid before 2100-01-01T00:00:00Z", nil},
		{"no-exp", "no exp claim", nil},
		{"wrong-aud", `issued for another resource: the token's audience is "http://127.0.0.1:9999/mcp", and this server is "http://127.0.0.1:8021/mcp"`, nil},
		{"no-aud", "names no audience", nil},
		{"wrong-iss", `wrong issuer: the token was issued by "http://127.0.0.1:9000"`, nil},
		{"wrong-key", `bad signature`, nil},
		{"unknown-kid", `no key with kid "k9"`, nil},
		{"alg-none", `unsigned (alg "none")`, nil},
		{"hs256", `alg "HS256", which this server does not accept`, nil},
		{"typ-jwt", `typ is "JWT", not "at+jwt"`, nil},
		{"not-jwt", "not a JWT", nil},
	} {
		t.Run(tc.token, func(t *testing.T) {
			got, err := v.Verify(context.Background(), tokens[tc.token])
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("refused a good token: %v", err)
				}
				if diff := cmp.Diff(tc.scopes, got.Scopes); diff != "" || got.Subject != "learner" || got.ClientID != "test-client" {
					t.Errorf("token read as %+v; scopes (-want +got):\n%s", got, diff)
				}
				return
			}
			var bad *TokenError
			if !errors.As(err, &bad) || !strings.Contains(bad.Reason, tc.reason) {
				t.Fatalf("got %v, %v; want a TokenError saying %q", got, err, tc.reason)
			}
		})
	}
}

// TestAuthVerifyLeeway: a token that expired a moment ago is still taken,
// since the two servers' clocks may differ; one that expired longer ago
// than the leeway is not.
func TestAuthVerifyLeeway(t *testing.T) {
	as := newKeyAS(t, testIssuer)
	v := newTestVerifier(as)
	for _, tc := range []struct {
		ago  time.Duration
		good bool
	}{{DefaultLeeway / 2, true}, {2 * DefaultLeeway, false}} {
		c := goodClaims("mcp:tools")
		c.Expiry = jwt.NewNumericDate(time.Now().Add(-tc.ago))
		_, err := v.Verify(context.Background(), mint(t, as.key("k1"), jose.ES256, "k1", "at+jwt", c))
		if (err == nil) != tc.good {
			t.Errorf("expired %v ago: err = %v, want accepted = %v", tc.ago, err, tc.good)
		}
	}
}

// TestAuthVerifyKeyRotation: a token signed with a key the verifier has
// not seen makes it read the key set again, once; made-up kids do not
// make it read the key set on every request.
func TestAuthVerifyKeyRotation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		as := newKeyAS(t, testIssuer)
		v := newTestVerifier(as)
		ctx := context.Background()
		if _, err := v.Verify(ctx, mint(t, as.key("k1"), jose.ES256, "k1", "at+jwt", goodClaims("mcp:tools"))); err != nil {
			t.Fatal(err)
		}
		// Soon after the first read, an unknown kid is refused without
		// another: it could be anyone's.
		k2 := as.addKey(t, "k2")
		rotated := mint(t, k2, jose.ES256, "k2", "at+jwt", goodClaims("mcp:tools"))
		for range 5 {
			if _, err := v.Verify(ctx, rotated); err == nil {
				t.Fatal("a token with an unknown kid was accepted without reading the keys again")
			}
		}
		if as.reads != 1 {
			t.Fatalf("the key set was read %d times, want 1", as.reads)
		}
		time.Sleep(keysRefetchAfter)
		if _, err := v.Verify(ctx, mint(t, k2, jose.ES256, "k2", "at+jwt", goodClaims("mcp:tools"))); err != nil {
			t.Fatalf("after the authorization server rotated its key: %v", err)
		}
		if as.reads != 2 {
			t.Fatalf("the key set was read %d times, want 2", as.reads)
		}
	})
}

// TestAuthVerifyServerTrouble: when the authorization server cannot be
// read, or says something it must not, the error is not a TokenError:
// the token was not judged, and the error says which step failed.
func TestAuthVerifyServerTrouble(t *testing.T) {
	good := func(t *testing.T) string {
		return mint(t, newKeyAS(t, testIssuer).key("k1"), jose.ES256, "k1", "at+jwt", goodClaims("mcp:tools"))
	}
	for _, tc := range []struct {
		name string
		as   http.Handler
		want string
	}{
		{"unreachable", nil, "unreachable"},
		{"another issuer", newKeyAS(t, "http://127.0.0.1:9000"), `says issuer "http://127.0.0.1:9000"`},
		{"no metadata", http.NotFoundHandler(), "404"},
		{"no jwks_uri", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"issuer":"` + testIssuer + `"}`))
		}), "no jwks_uri"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewVerifier(testIssuer, testResource, &VerifierOptions{Client: &http.Client{Transport: handlerTransport{tc.as}}})
			if tc.as == nil {
				// A port nothing listens on: a server's own, closed.
				srv := httptest.NewServer(http.NotFoundHandler())
				srv.Close()
				v = NewVerifier(srv.URL, testResource, nil)
			}
			_, err := v.Verify(context.Background(), good(t))
			var bad *TokenError
			if err == nil || errors.As(err, &bad) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestAuthIssuerMetadataURL: RFC 8414 section 3.1 puts the well-known
// path before the issuer's own path.
func TestAuthIssuerMetadataURL(t *testing.T) {
	for issuer, want := range map[string]string{
		"http://127.0.0.1:8023":         "http://127.0.0.1:8023/.well-known/oauth-authorization-server",
		"http://127.0.0.1:8023/":        "http://127.0.0.1:8023/.well-known/oauth-authorization-server",
		"https://as.example/tenant1":    "https://as.example/.well-known/oauth-authorization-server/tenant1",
		"https://as.example/a/b?x=1":    "",
		"ftp://as.example":              "",
		"not a url at all, just words!": "",
	} {
		got, err := issuerMetadataURL(issuer)
		if (err != nil) != (want == "") || got != want {
			t.Errorf("issuerMetadataURL(%q) = %q, %v; want %q", issuer, got, err, want)
		}
	}
}
