package grade

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/wirelab/wirelab/protocols/oauth"
)

// rsIssuer is the authorization server the mcp-resource-server grader
// points the program at: wirelab's own (protocols/oauth), which issues
// the real tokens, with one more public key in its key set. With that
// key's private half the grader signs tokens whose claims it chooses
// (expired, from another issuer, without exp), which the program must
// refuse for their claims alone, since their signature is good. A second
// key, in no key set, signs forgeries.
type rsIssuer struct {
	srv      *httptest.Server
	as       *oauth.Server
	trusted  *ecdsa.PrivateKey // its public key is in the key set
	stranger *ecdsa.PrivateKey // in no key set
}

// The grader's own names: its client, whose redirect URI nothing listens
// on (the code is read off the Location header), the kid of its trusted
// key, and the audiences and issuer of the tokens that must be refused.
const (
	rsClientID    = "grader"
	rsRedirect    = "http://127.0.0.1/callback"
	rsTrustedKid  = "grader-key"
	rsOtherServer = "https://other.example/mcp"
	rsOtherIssuer = "https://other-issuer.example"
	rsShownIssuer = "http://127.0.0.1:ISSUER"
)

// csrfField is where the consent page carries the value that its form
// must send back.
var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func newRSIssuer() (*rsIssuer, error) {
	trusted, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	stranger, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	i := &rsIssuer{trusted: trusted, stranger: stranger}
	i.srv = httptest.NewUnstartedServer(http.HandlerFunc(i.serve))
	// A program that hangs up mid-answer is the learner's to debug, not
	// noise in the grader's output.
	i.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	i.as = oauth.NewServer(oauth.Options{
		Issuer:  "http://" + i.srv.Listener.Addr().String(),
		Clients: []oauth.Client{{ID: rsClientID, RedirectURIs: []string{rsRedirect}}},
	})
	i.srv.Start()
	return i, nil
}

// url is the issuer identifier.
func (i *rsIssuer) url() string { return i.as.Issuer() }

func (i *rsIssuer) close() {
	i.srv.CloseClientConnections()
	i.srv.Close()
}

// serve is the authorization server, its key set widened by the trusted
// key.
func (i *rsIssuer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != oauth.JWKSPath {
		i.as.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	i.as.ServeHTTP(rec, r)
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(rec.Body.Bytes(), &set); err != nil {
		http.Error(w, "internal error in grader: the authorization server's key set: "+err.Error(), http.StatusInternalServerError)
		return
	}
	set.Keys = append(set.Keys, jose.JSONWebKey{Key: i.trusted.Public(), KeyID: rsTrustedKid, Algorithm: string(jose.ES256), Use: "sig"})
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(set)
}

// issue runs the authorization code flow with PKCE against the real
// authorization server, pressing Allow as the person would, and returns
// the access token it issues for resource ("" for none) and scope.
func (i *rsIssuer) issue(ctx context.Context, resource, scope string) (string, error) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	verifier := base64.RawURLEncoding.EncodeToString([]byte(rand.Text() + rand.Text()))
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{
		"response_type": {"code"}, "client_id": {rsClientID}, "redirect_uri": {rsRedirect}, "state": {"grader"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}, "scope": {scope},
	}
	if resource != "" {
		q.Set("resource", resource)
	}
	do := func(method, path string, form url.Values) (*http.Response, []byte, error) {
		var body io.Reader
		target := i.url() + path
		if method == http.MethodGet {
			target += "?" + form.Encode()
		} else {
			body = strings.NewReader(form.Encode())
		}
		req, err := http.NewRequestWithContext(ctx, method, target, body)
		if err != nil {
			return nil, nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return resp, b, err
	}

	_, page, err := do(http.MethodGet, oauth.AuthorizePath, q)
	if err != nil {
		return "", fmt.Errorf("opening the consent page: %w", err)
	}
	m := csrfField.FindSubmatch(page)
	if m == nil {
		return "", fmt.Errorf("the consent page has no csrf field: %.200s", page)
	}
	form := url.Values{}
	for k, v := range q {
		form[k] = v
	}
	form.Set("csrf", string(m[1]))
	form.Set("decision", "allow")
	resp, _, err := do(http.MethodPost, oauth.AuthorizePath, form)
	if err != nil {
		return "", fmt.Errorf("pressing Allow: %w", err)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Query().Get("code") == "" {
		return "", fmt.Errorf("Allow answered %s, Location %q", resp.Status, resp.Header.Get("Location"))
	}
	tf := url.Values{
		"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {rsRedirect},
		"client_id": {rsClientID}, "code_verifier": {verifier},
	}
	if resource != "" {
		tf.Set("resource", resource)
	}
	resp, b, err := do(http.MethodPost, oauth.TokenPath, tf)
	if err != nil {
		return "", fmt.Errorf("exchanging the code: %w", err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if json.Unmarshal(b, &tok) != nil || tok.AccessToken == "" {
		return "", fmt.Errorf("the token endpoint answered %s: %.200s", resp.Status, b)
	}
	return tok.AccessToken, nil
}

// forge signs claims as an access token (RFC 9068: typ at+jwt, ES256)
// with key, naming kid.
func forge(key *ecdsa.PrivateKey, kid string, claims any) (string, error) {
	opts := (&jose.SignerOptions{}).WithType("at+jwt")
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, opts)
	if err != nil {
		return "", err
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// rsClaims are the claims of a token the grader signs itself.
type rsClaims struct {
	Issuer   string           `json:"iss"`
	Subject  string           `json:"sub"`
	Audience string           `json:"aud"`
	ClientID string           `json:"client_id"`
	Scope    string           `json:"scope"`
	IssuedAt *jwt.NumericDate `json:"iat"`
	Expiry   *jwt.NumericDate `json:"exp,omitempty"`
	ID       string           `json:"jti"`
}

// claimsFor are the claims of a good token for resource, as the real
// server would write them; a caller changes the one it wants wrong.
func (i *rsIssuer) claimsFor(resource string) rsClaims {
	now := time.Now()
	return rsClaims{
		Issuer: i.url(), Subject: oauth.Subject, Audience: resource, ClientID: rsClientID, Scope: "mcp:tools",
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(5 * time.Minute)), ID: rand.Text(),
	}
}
