package oauth

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"
)

// Each refusal: the RFC's error code, the status the RFC gives it, a
// description that says what to fix, and the server still serving.

// descriptionChars is what RFC 6749 section 5.2 allows in
// error_description: printable ASCII without '"' and '\'.
var descriptionChars = regexp.MustCompile(`^[\x20-\x21\x23-\x5B\x5D-\x7E]+$`)

func checkDescription(t *testing.T, d string) {
	t.Helper()
	if !descriptionChars.MatchString(d) {
		t.Errorf("error_description %q is empty or has characters RFC 6749 section 5.2 forbids", d)
	}
}

const (
	appSecret = "app-secret"
	verifierA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	verifierB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// refusalServer runs a server with one confidential pre-registered
// client, "app".
func refusalServer(t *testing.T) string {
	_, issuer := startServer(t, Options{Clients: []Client{{ID: "app", Secret: appSecret, RedirectURIs: []string{testRedirect}}}})
	return issuer
}

// authParamsFor is a good authorization request of client app, with
// changes: a value of "" removes the parameter.
func authParamsFor(changes map[string]string) url.Values {
	q := url.Values{
		"response_type": {"code"}, "client_id": {"app"}, "redirect_uri": {testRedirect}, "state": {"st"},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(verifierA)}, "code_challenge_method": {"S256"},
		"scope": {ScopeTools}, "resource": {testResource},
	}
	for k, v := range changes {
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
	}
	return q
}

// codeFor runs a good authorization of client app and returns the code.
func codeFor(t *testing.T, issuer string) string {
	t.Helper()
	loc := decide(t, issuer, consentForm(t, issuer+AuthorizePath+"?"+authParamsFor(nil).Encode()), "allow")
	return loc.Query().Get("code")
}

// postToken posts a token request, authenticating app by Basic unless
// the form carries client_id itself, and returns the status and error.
func postToken(t *testing.T, issuer string, form url.Values) (int, ErrorResponse, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("POST", issuer+TokenPath, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if !form.Has("client_id") {
		req.SetBasicAuth("app", appSecret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e ErrorResponse
	json.NewDecoder(resp.Body).Decode(&e)
	if resp.StatusCode != http.StatusOK {
		checkDescription(t, e.ErrorDescription)
		if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("refusal headers: %v", resp.Header)
		}
	}
	return resp.StatusCode, e, resp.Header
}

func exchangeForm(code, verifier string) url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {testRedirect}}
}

func wantRefusal(t *testing.T, status int, e ErrorResponse, wantStatus int, wantCode string) {
	t.Helper()
	if status != wantStatus || e.Error != wantCode {
		t.Errorf("got %d %q (%s), want %d %q", status, e.Error, e.ErrorDescription, wantStatus, wantCode)
	}
}

func TestRefuseWrongCode(t *testing.T) {
	issuer := refusalServer(t)
	status, e, _ := postToken(t, issuer, exchangeForm("no-such-code", verifierA))
	wantRefusal(t, status, e, 400, ErrInvalidGrant)
}

func TestRefuseReplayedCode(t *testing.T) {
	issuer := refusalServer(t)
	code := codeFor(t, issuer)
	conf := &oauth2.Config{ClientID: "app", ClientSecret: appSecret, RedirectURL: testRedirect,
		Endpoint: oauth2.Endpoint{TokenURL: issuer + TokenPath, AuthStyle: oauth2.AuthStyleInHeader}}
	tok, err := conf.Exchange(context.Background(), code, oauth2.VerifierOption(verifierA))
	if err != nil {
		t.Fatal(err)
	}
	status, e, _ := postToken(t, issuer, exchangeForm(code, verifierA))
	wantRefusal(t, status, e, 400, ErrInvalidGrant)
	// OAuth 2.1 section 4.1.3: what the code gave is revoked.
	status, e, _ = postToken(t, issuer, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}})
	wantRefusal(t, status, e, 400, ErrInvalidGrant)
}

func TestRefuseBadVerifier(t *testing.T) {
	issuer := refusalServer(t)
	code := codeFor(t, issuer)
	status, e, _ := postToken(t, issuer, exchangeForm(code, verifierB))
	wantRefusal(t, status, e, 400, ErrInvalidGrant)
	// The code is spent even so: the right verifier comes too late.
	status, e, _ = postToken(t, issuer, exchangeForm(code, verifierA))
	wantRefusal(t, status, e, 400, ErrInvalidGrant)
}

func TestRefuseExpiredCode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewServer(Options{Issuer: "http://127.0.0.1:8023", Clients: []Client{{ID: "app", Secret: appSecret, RedirectURIs: []string{testRedirect}}}})
		serve := func(r *http.Request) *httptest.ResponseRecorder {
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			return w
		}
		q := authParamsFor(nil)
		w := serve(httptest.NewRequest("GET", AuthorizePath+"?"+q.Encode(), nil))
		m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(w.Body.String())
		if m == nil {
			t.Fatalf("no consent form:\n%s", w.Body)
		}
		q.Set("csrf", m[1])
		q.Set("decision", "allow")
		post := httptest.NewRequest("POST", AuthorizePath, strings.NewReader(q.Encode()))
		post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		loc, _ := url.Parse(serve(post).Header().Get("Location"))
		code := loc.Query().Get("code")

		time.Sleep(codeLifetime + time.Second)
		tr := httptest.NewRequest("POST", TokenPath, strings.NewReader(exchangeForm(code, verifierA).Encode()))
		tr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		tr.SetBasicAuth("app", appSecret)
		w = serve(tr)
		var e ErrorResponse
		json.Unmarshal(w.Body.Bytes(), &e)
		wantRefusal(t, w.Code, e, 400, ErrInvalidGrant)
	})
}

// getAuthorize sends an authorization request and returns the answer,
// unread.
func getAuthorize(t *testing.T, issuer string, q url.Values) *http.Response {
	t.Helper()
	resp, err := browser.Get(issuer + AuthorizePath + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// wantRedirectedError checks an authorization error sent back to the
// client: a redirect to its redirect URI with error, description, state
// and iss (RFC 6749 section 4.1.2.1, RFC 9207).
func wantRedirectedError(t *testing.T, resp *http.Response, issuer, code string) {
	t.Helper()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(loc.String(), testRedirect+"?") {
		t.Fatalf("%s to %q, want 302 to %s", resp.Status, resp.Header.Get("Location"), testRedirect)
	}
	q := loc.Query()
	if q.Get("error") != code || q.Get("state") != "st" || q.Get("iss") != issuer || q.Has("code") {
		t.Errorf("redirected with %v, want error %s, state st, iss %s", q, code, issuer)
	}
	checkDescription(t, q.Get("error_description"))
}

// wantErrorPage checks an authorization error shown to the person,
// never redirected: the redirect URI is not trusted yet.
func wantErrorPage(t *testing.T, resp *http.Response, code string) {
	t.Helper()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" ||
		!strings.Contains(string(body), "<code>"+code+"</code>") {
		t.Errorf("%s, Location %q, want a 400 page naming %s:\n%s", resp.Status, resp.Header.Get("Location"), code, body)
	}
	if resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("the page may be framed")
	}
}

func TestRefusePlainPKCE(t *testing.T) {
	issuer := refusalServer(t)
	q := authParamsFor(map[string]string{"code_challenge_method": "plain", "code_challenge": verifierA[:43]})
	wantRedirectedError(t, getAuthorize(t, issuer, q), issuer, ErrInvalidRequest)
	// No method at all means plain too (RFC 7636 section 4.3).
	wantRedirectedError(t, getAuthorize(t, issuer, authParamsFor(map[string]string{"code_challenge_method": ""})), issuer, ErrInvalidRequest)
	// And no PKCE at all is refused.
	wantRedirectedError(t, getAuthorize(t, issuer, authParamsFor(map[string]string{"code_challenge": "", "code_challenge_method": ""})), issuer, ErrInvalidRequest)
}

func TestRefuseUnknownClient(t *testing.T) {
	issuer := refusalServer(t)
	wantErrorPage(t, getAuthorize(t, issuer, authParamsFor(map[string]string{"client_id": "ghost"})), ErrInvalidClient)
	status, e, _ := postToken(t, issuer, url.Values{"grant_type": {"authorization_code"}, "client_id": {"ghost"}, "code": {"x"}})
	wantRefusal(t, status, e, 401, ErrInvalidClient)
}

func TestRefuseUnregisteredRedirect(t *testing.T) {
	issuer := refusalServer(t)
	for _, r := range []string{"https://attacker.example/callback", "http://127.0.0.1:4999/other", "http://localhost:4998/callback"} {
		wantErrorPage(t, getAuthorize(t, issuer, authParamsFor(map[string]string{"redirect_uri": r})), ErrInvalidRequest)
	}
}

func TestRefuseWrongClientSecret(t *testing.T) {
	issuer := refusalServer(t)
	req, _ := http.NewRequest("POST", issuer+TokenPath, strings.NewReader(exchangeForm("x", verifierA).Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("app", "wrong")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var e ErrorResponse
	json.NewDecoder(resp.Body).Decode(&e)
	resp.Body.Close()
	wantRefusal(t, resp.StatusCode, e, 401, ErrInvalidClient)
	// RFC 6749 section 5.2: Basic was tried, so the 401 names it.
	if !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic ") {
		t.Errorf("WWW-Authenticate %q, want Basic", resp.Header.Get("WWW-Authenticate"))
	}
	form := exchangeForm("x", verifierA)
	form.Set("client_id", "app")
	form.Set("client_secret", "wrong")
	status, e, h := postToken(t, issuer, form)
	wantRefusal(t, status, e, 401, ErrInvalidClient)
	if h.Get("WWW-Authenticate") != "" {
		t.Errorf("WWW-Authenticate for a client that did not use Basic")
	}
}

func TestRefuseUnsupportedGrantType(t *testing.T) {
	issuer := refusalServer(t)
	status, e, _ := postToken(t, issuer, url.Values{"grant_type": {"client_credentials"}})
	wantRefusal(t, status, e, 400, ErrUnsupportedGrantType)
	status, e, _ = postToken(t, issuer, url.Values{"grant_type": {"password"}, "username": {"u"}, "password": {"p"}})
	wantRefusal(t, status, e, 400, ErrUnsupportedGrantType)
}

func TestRefuseUnauthorizedClient(t *testing.T) {
	_, issuer := startServer(t, Options{})
	reg := register(t, issuer, ClientMetadata{RedirectURIs: []string{testRedirect}, TokenEndpointAuthMethod: AuthNone})
	status, e, _ := postToken(t, issuer, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"x"}, "client_id": {reg.ClientID}})
	wantRefusal(t, status, e, 400, ErrUnauthorizedClient)
}

func TestRefuseUnknownScope(t *testing.T) {
	issuer := refusalServer(t)
	wantRedirectedError(t, getAuthorize(t, issuer, authParamsFor(map[string]string{"scope": "mcp:tools admin"})), issuer, ErrInvalidScope)
}

func TestRefuseWrongResource(t *testing.T) {
	issuer := refusalServer(t)
	q := authParamsFor(nil)
	q.Add("resource", "http://127.0.0.1:9999/mcp")
	wantRedirectedError(t, getAuthorize(t, issuer, q), issuer, ErrInvalidTarget)
	wantRedirectedError(t, getAuthorize(t, issuer, authParamsFor(map[string]string{"resource": "mcp.example.com"})), issuer, ErrInvalidTarget)

	form := exchangeForm(codeFor(t, issuer), verifierA)
	form.Set("resource", "http://127.0.0.1:9999/mcp")
	status, e, _ := postToken(t, issuer, form)
	wantRefusal(t, status, e, 400, ErrInvalidTarget)
}

func TestRefuseForgedConsent(t *testing.T) {
	issuer := refusalServer(t)
	form := consentForm(t, issuer+AuthorizePath+"?"+authParamsFor(nil).Encode())
	// The page showed mcp:tools; a form that says more does not match
	// its CSRF value.
	form.Set("scope", "mcp:tools deploy:production")
	form.Set("decision", "allow")
	resp, err := browser.PostForm(issuer+AuthorizePath, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	wantErrorPage(t, resp, ErrInvalidRequest)
}

func TestRefuseMalformedRegistration(t *testing.T) {
	_, issuer := startServer(t, Options{})
	for _, tt := range []struct {
		name, contentType, body, want string
	}{
		{"not JSON", "application/json", `{"redirect_uris": [`, ErrInvalidClientMetadata},
		{"not a form", "application/x-www-form-urlencoded", `redirect_uris=x`, ErrInvalidClientMetadata},
		{"no redirect URIs", "application/json", `{"client_name": "x"}`, ErrInvalidRedirectURI},
		{"plain http elsewhere", "application/json", `{"redirect_uris": ["http://example.com/cb"]}`, ErrInvalidRedirectURI},
		{"fragment", "application/json", `{"redirect_uris": ["https://example.com/cb#x"]}`, ErrInvalidRedirectURI},
		{"unknown auth method", "application/json", `{"redirect_uris": ["https://example.com/cb"], "token_endpoint_auth_method": "private_key_jwt"}`, ErrInvalidClientMetadata},
		{"implicit grant", "application/json", `{"redirect_uris": ["https://example.com/cb"], "grant_types": ["implicit"]}`, ErrInvalidClientMetadata},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(issuer+RegisterPath, tt.contentType, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e ErrorResponse
			json.NewDecoder(resp.Body).Decode(&e)
			wantRefusal(t, resp.StatusCode, e, 400, tt.want)
			checkDescription(t, e.ErrorDescription)
		})
	}
}

func TestRefuseBadMetadataDocument(t *testing.T) {
	docs := httptest.NewServer(nil)
	defer docs.Close()
	docs.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/impostor.json": // names another client
			json.NewEncoder(w).Encode(ClientMetadata{ClientID: "https://app.example/client.json", ClientName: "x", RedirectURIs: []string{testRedirect}})
		case "/moved.json":
			http.Redirect(w, r, "/impostor.json", http.StatusFound)
		case "/secret.json":
			json.NewEncoder(w).Encode(ClientMetadata{ClientID: docs.URL + r.URL.Path, ClientName: "x", ClientSecret: "s", RedirectURIs: []string{testRedirect}})
		case "/huge.json":
			w.Write([]byte(`{"client_name": "` + strings.Repeat("x", maxMetadataDoc) + `"}`))
		default:
			http.NotFound(w, r)
		}
	})
	issuer := refusalServer(t)
	for _, path := range []string{"/impostor.json", "/moved.json", "/secret.json", "/huge.json", "/missing.json", ""} {
		t.Run(path, func(t *testing.T) {
			q := authParamsFor(map[string]string{"client_id": docs.URL + path})
			wantErrorPage(t, getAuthorize(t, issuer, q), ErrInvalidClient)
		})
	}
}

func TestRefuseForeignHost(t *testing.T) {
	issuer := refusalServer(t)
	req, _ := http.NewRequest("GET", issuer+MetadataPath, nil)
	req.Host = "attacker.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host attacker.example: %s, want 421", resp.Status)
	}
}
