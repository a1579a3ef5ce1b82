package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeAuth is an authorization server and a resource server in one test
// double, each configurable in the ways the client must cope with. The
// authorization server approves every request at once, as the
// conformance suite's does.
type fakeAuth struct {
	t  *testing.T
	as *httptest.Server
	rs *httptest.Server

	// Authorization server.
	issuerPath   string   // the issuer's path, such as "/tenant1"
	metadataAt   []string // the well-known paths serving its metadata
	issuerClaim  string   // the metadata's issuer, if not the real one
	iss          string   // the iss in the redirect: "correct", "wrong", "slash", "omit"
	advertiseIss bool
	methods      []string // token_endpoint_auth_methods_supported
	pkce         []string // code_challenge_methods_supported
	cimd         bool
	noRegister   bool
	expiresIn    int
	withRefresh  bool
	grantable    []string // scopes it grants; nil: all requested

	// Resource server.
	prmAt       string // the path serving its metadata
	prmResource string // the metadata's resource, if not the real one
	inHeader    bool   // resource_metadata in the challenge
	scopeHeader string // scope in the 401 challenge
	prmScopes   []string
	callScope   string // the scope a tools/call needs besides the base

	mu       sync.Mutex // guards the fields below
	seen     []string   // "GET /path" of every request to either server
	authz    []url.Values
	tokenReq []url.Values
	basic    []string // client ids sent with HTTP Basic
	codes    map[string]url.Values
	tokens   map[string][]string // access token -> scopes
	refresh  map[string][]string
	clientN  int
}

func newFakeAuth(t *testing.T, configure func(f *fakeAuth)) *fakeAuth {
	f := &fakeAuth{t: t, metadataAt: []string{"/.well-known/oauth-authorization-server"}, iss: "correct", advertiseIss: true,
		methods: []string{"none"}, pkce: []string{"S256"}, expiresIn: 3600,
		prmAt: "/.well-known/oauth-protected-resource/mcp", inHeader: true,
		codes: make(map[string]url.Values), tokens: make(map[string][]string), refresh: make(map[string][]string)}
	if configure != nil {
		configure(f)
	}
	f.as = httptest.NewServer(http.HandlerFunc(f.serveAS))
	f.rs = httptest.NewServer(http.HandlerFunc(f.serveRS))
	t.Cleanup(f.as.Close)
	t.Cleanup(f.rs.Close)
	return f
}

func (f *fakeAuth) issuer() string { return f.as.URL + f.issuerPath }

func (f *fakeAuth) note(r *http.Request, who string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen = append(f.seen, who+" "+r.Method+" "+r.URL.Path)
}

func (f *fakeAuth) serveAS(w http.ResponseWriter, r *http.Request) {
	f.note(r, "as")
	r.ParseForm()
	switch {
	case r.Method == http.MethodGet && slices.Contains(f.metadataAt, r.URL.Path):
		issuer := f.issuer()
		if f.issuerClaim != "" {
			issuer = f.issuerClaim
		}
		md := map[string]any{
			"issuer": issuer, "authorization_endpoint": f.issuer() + "/authorize", "token_endpoint": f.issuer() + "/token",
			"response_types_supported": []string{"code"}, "token_endpoint_auth_methods_supported": f.methods,
			"code_challenge_methods_supported": f.pkce, "scopes_supported": []string{"mcp:tools", "deploy", "offline_access"},
			"authorization_response_iss_parameter_supported": f.advertiseIss, "client_id_metadata_document_supported": f.cimd,
		}
		if !f.noRegister {
			md["registration_endpoint"] = f.issuer() + "/register"
		}
		writeTestJSON(w, 200, md)
	case r.URL.Path == f.issuerPath+"/register":
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		f.mu.Lock()
		f.clientN++
		id := fmt.Sprintf("client-%d", f.clientN)
		f.mu.Unlock()
		ans := map[string]any{"client_id": id, "token_endpoint_auth_method": req["token_endpoint_auth_method"]}
		if req["token_endpoint_auth_method"] != "none" {
			ans["client_secret"] = "secret-of-" + id + "-0123456789"
		}
		writeTestJSON(w, 201, ans)
	case r.URL.Path == f.issuerPath+"/authorize":
		q := r.URL.Query()
		f.mu.Lock()
		f.authz = append(f.authz, q)
		code := fmt.Sprintf("code-%d-abcdefghijkl", len(f.authz))
		f.codes[code] = q
		f.mu.Unlock()
		back, _ := url.Parse(q.Get("redirect_uri"))
		bq := url.Values{"code": {code}, "state": {q.Get("state")}}
		switch f.iss {
		case "correct":
			bq.Set("iss", f.issuer())
		case "wrong":
			bq.Set("iss", "https://evil.example")
		case "slash":
			bq.Set("iss", f.issuer()+"/")
		}
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case r.URL.Path == f.issuerPath+"/token":
		f.mu.Lock()
		defer f.mu.Unlock()
		f.tokenReq = append(f.tokenReq, r.PostForm)
		if id, _, ok := r.BasicAuth(); ok {
			f.basic = append(f.basic, id)
		}
		var scopes []string
		switch r.PostForm.Get("grant_type") {
		case "authorization_code":
			q, ok := f.codes[r.PostForm.Get("code")]
			sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
			if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != q.Get("code_challenge") || q.Get("resource") != r.PostForm.Get("resource") {
				writeTestJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "bad code, verifier or resource"})
				return
			}
			delete(f.codes, r.PostForm.Get("code"))
			scopes = strings.Fields(q.Get("scope"))
		case "refresh_token":
			var ok bool
			if scopes, ok = f.refresh[r.PostForm.Get("refresh_token")]; !ok {
				writeTestJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "unknown refresh token"})
				return
			}
			delete(f.refresh, r.PostForm.Get("refresh_token"))
		}
		if f.grantable != nil {
			scopes = slices.DeleteFunc(slices.Clone(scopes), func(s string) bool { return !slices.Contains(f.grantable, s) })
		}
		tok := fmt.Sprintf("access-%d-%s", len(f.tokenReq), strings.Repeat("x", 20))
		f.tokens[tok] = scopes
		ans := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": f.expiresIn, "scope": strings.Join(scopes, " ")}
		if f.withRefresh {
			rt := fmt.Sprintf("refresh-%d-%s", len(f.tokenReq), strings.Repeat("y", 20))
			f.refresh[rt] = scopes
			ans["refresh_token"] = rt
		}
		writeTestJSON(w, 200, ans)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeAuth) serveRS(w http.ResponseWriter, r *http.Request) {
	f.note(r, "rs")
	if r.Method == http.MethodGet && r.URL.Path == f.prmAt {
		resource := f.rs.URL + "/mcp"
		if f.prmAt == "/.well-known/oauth-protected-resource" {
			resource = f.rs.URL
		}
		if f.prmResource != "" {
			resource = f.prmResource
		}
		writeTestJSON(w, 200, map[string]any{"resource": resource, "authorization_servers": []string{f.issuer()}, "scopes_supported": f.prmScopes})
		return
	}
	if r.URL.Path != "/mcp" {
		http.NotFound(w, r)
		return
	}
	var msg struct {
		Method string `json:"method"`
	}
	json.NewDecoder(r.Body).Decode(&msg)
	challenge := "Bearer "
	if f.inHeader {
		challenge += `resource_metadata="` + f.rs.URL + f.prmAt + `", `
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.mu.Lock()
	scopes, known := f.tokens[token]
	f.mu.Unlock()
	if !ok || !known {
		if f.scopeHeader != "" {
			challenge += `scope="` + f.scopeHeader + `", `
		}
		w.Header().Set("WWW-Authenticate", challenge+`error="invalid_token"`)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if msg.Method == "tools/call" && f.callScope != "" && !slices.Contains(scopes, f.callScope) {
		w.Header().Set("WWW-Authenticate", challenge+`error="insufficient_scope", scope="`+f.callScope+`"`)
		w.WriteHeader(http.StatusForbidden)
		return
	}
	writeTestJSON(w, 200, map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{}})
}

func writeTestJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// post sends one JSON-RPC request to the resource through c.
func (f *fakeAuth) post(c *http.Client, method string) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q}`, method)
	resp, err := c.Post(f.rs.URL+"/mcp", "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return nil
}

func (f *fakeAuth) client(configure func(o *AuthOptions)) *http.Client {
	opts := AuthOptions{Redirect: &DirectRedirect{}}
	if configure != nil {
		configure(&opts)
	}
	return &http.Client{Transport: NewAuthorizer(opts)}
}

func (f *fakeAuth) snapshot() (seen []string, authz, tokenReq []url.Values) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.seen), slices.Clone(f.authz), slices.Clone(f.tokenReq)
}

func TestClientAuthDiscovery(t *testing.T) {
	for _, tc := range []struct {
		name      string
		configure func(f *fakeAuth)
		want      []string
	}{
		{"resource_metadata in the challenge, metadata at the root", nil, []string{
			"rs POST /mcp", "rs GET /.well-known/oauth-protected-resource/mcp", "as GET /.well-known/oauth-authorization-server",
			"as POST /register", "as GET /authorize", "as POST /token", "rs POST /mcp"}},
		{"no resource_metadata: the well-known URL at the MCP path, OIDC discovery", func(f *fakeAuth) {
			f.inHeader = false
			f.metadataAt = []string{"/.well-known/openid-configuration"}
		}, []string{
			"rs POST /mcp", "rs GET /.well-known/oauth-protected-resource/mcp", "as GET /.well-known/oauth-authorization-server",
			"as GET /.well-known/openid-configuration", "as POST /register", "as GET /authorize", "as POST /token", "rs POST /mcp"}},
		{"metadata at the root only; an issuer with a path, RFC 8414 path insertion", func(f *fakeAuth) {
			f.inHeader = false
			f.prmAt = "/.well-known/oauth-protected-resource"
			f.issuerPath = "/tenant1"
			f.metadataAt = []string{"/.well-known/oauth-authorization-server/tenant1"}
		}, []string{
			"rs POST /mcp", "rs GET /.well-known/oauth-protected-resource/mcp", "rs GET /.well-known/oauth-protected-resource",
			"as GET /.well-known/oauth-authorization-server/tenant1",
			"as POST /tenant1/register", "as GET /tenant1/authorize", "as POST /tenant1/token", "rs POST /mcp"}},
		{"an issuer with a path, OIDC path appending, last of three", func(f *fakeAuth) {
			f.issuerPath = "/tenant1"
			f.metadataAt = []string{"/tenant1/.well-known/openid-configuration"}
		}, []string{
			"rs POST /mcp", "rs GET /.well-known/oauth-protected-resource/mcp",
			"as GET /.well-known/oauth-authorization-server/tenant1", "as GET /.well-known/openid-configuration/tenant1",
			"as GET /tenant1/.well-known/openid-configuration",
			"as POST /tenant1/register", "as GET /tenant1/authorize", "as POST /tenant1/token", "rs POST /mcp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAuth(t, tc.configure)
			if err := f.post(f.client(nil), "tools/list"); err != nil {
				t.Fatal(err)
			}
			seen, _, _ := f.snapshot()
			if diff := cmp.Diff(tc.want, seen); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClientAuthRegistrationAndPKCE(t *testing.T) {
	for _, method := range []string{"none", "client_secret_basic", "client_secret_post"} {
		t.Run(method, func(t *testing.T) {
			f := newFakeAuth(t, func(f *fakeAuth) { f.methods = []string{method} })
			if err := f.post(f.client(nil), "tools/list"); err != nil {
				t.Fatal(err)
			}
			_, authz, tokenReq := f.snapshot()
			if len(authz) != 1 || len(tokenReq) != 1 {
				t.Fatalf("%d authorization requests and %d token requests, want 1 and 1", len(authz), len(tokenReq))
			}
			a, tr := authz[0], tokenReq[0]
			if a.Get("code_challenge_method") != "S256" || len(a.Get("code_challenge")) != 43 {
				t.Errorf("authorization request PKCE: method %q, challenge %q", a.Get("code_challenge_method"), a.Get("code_challenge"))
			}
			if want := f.rs.URL + "/mcp"; a.Get("resource") != want || tr.Get("resource") != want {
				t.Errorf("resource: authorize %q, token %q, want %q in both", a.Get("resource"), tr.Get("resource"), want)
			}
			f.mu.Lock()
			basic := slices.Clone(f.basic)
			f.mu.Unlock()
			got := "none"
			switch {
			case len(basic) > 0:
				got = "client_secret_basic"
			case tr.Get("client_secret") != "":
				got = "client_secret_post"
			}
			if got != method {
				t.Errorf("the client authenticated with %s at the token endpoint, want %s", got, method)
			}
		})
	}
}

func TestClientAuthPreRegistered(t *testing.T) {
	f := newFakeAuth(t, func(f *fakeAuth) { f.noRegister = true; f.methods = []string{"client_secret_basic"} })
	c := f.client(func(o *AuthOptions) { o.ClientID, o.ClientSecret = "pre", "pre-secret" })
	if err := f.post(c, "tools/list"); err != nil {
		t.Fatal(err)
	}
	seen, authz, _ := f.snapshot()
	if slices.Contains(seen, "as POST /register") || authz[0].Get("client_id") != "pre" {
		t.Errorf("a pre-registered client registered, or used another id: %v, client_id %q", seen, authz[0].Get("client_id"))
	}

	// Credentials bound to another authorization server stay unused.
	f2 := newFakeAuth(t, func(f *fakeAuth) { f.noRegister = true })
	c2 := f2.client(func(o *AuthOptions) { o.ClientID, o.ClientIssuer = "pre", "https://other.example" })
	err := f2.post(c2, "tools/list")
	if err == nil || !strings.Contains(err.Error(), "client registration: the client id \"pre\" was registered with https://other.example") {
		t.Errorf("err = %v, want the client registration step refusing credentials of another server", err)
	}
}

func TestClientAuthMetadataDocument(t *testing.T) {
	const doc = "https://client.example/wirelab.json"
	f := newFakeAuth(t, func(f *fakeAuth) { f.cimd = true })
	if err := f.post(f.client(func(o *AuthOptions) { o.ClientMetadataURL = doc }), "tools/list"); err != nil {
		t.Fatal(err)
	}
	seen, authz, tokenReq := f.snapshot()
	if slices.Contains(seen, "as POST /register") || authz[0].Get("client_id") != doc || tokenReq[0].Get("client_id") != doc {
		t.Errorf("want the document URL as client_id and no registration; requests %v, client_id %q", seen, authz[0].Get("client_id"))
	}
}

// TestClientAuthRefusals: each bad answer stops the flow at its step,
// before the code (or anything else) goes where it should not.
func TestClientAuthRefusals(t *testing.T) {
	for _, tc := range []struct {
		name      string
		configure func(f *fakeAuth)
		wantErr   string // "" means the call succeeds
		wantToken bool   // whether a token request was made
	}{
		{"iss advertised and correct", nil, "", true},
		{"iss not advertised, absent", func(f *fakeAuth) { f.advertiseIss, f.iss = false, "omit" }, "", true},
		{"iss advertised, absent", func(f *fakeAuth) { f.iss = "omit" }, "authorization: authorization response: no iss", false},
		{"iss of another server", func(f *fakeAuth) { f.iss = "wrong" }, `authorization response: iss is "https://evil.example"`, false},
		{"iss not advertised, present and wrong", func(f *fakeAuth) { f.advertiseIss, f.iss = false, "wrong" }, "authorization response: iss is", false},
		{"iss equal only after normalization", func(f *fakeAuth) { f.iss = "slash" }, "authorization response: iss is", false},
		{"metadata claims another issuer", func(f *fakeAuth) { f.issuerClaim = "https://attacker.example" }, `says its issuer is "https://attacker.example"`, false},
		{"resource metadata for another resource", func(f *fakeAuth) { f.prmResource = "https://evil.example/mcp" }, `protected resource metadata: `, false},
		{"no PKCE S256", func(f *fakeAuth) { f.pkce = []string{"plain"} }, "does not list S256", false},
		{"no metadata at all", func(f *fakeAuth) { f.metadataAt = nil }, "authorization server metadata: no document at", false},
		{"no way to get a client id", func(f *fakeAuth) { f.noRegister = true }, "give a pre-registered client id", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAuth(t, tc.configure)
			err := f.post(f.client(nil), "tools/list")
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("err = %v, want success", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
			}
			_, _, tokenReq := f.snapshot()
			if got := len(tokenReq) > 0; got != tc.wantToken {
				t.Errorf("token request made: %t, want %t", got, tc.wantToken)
			}
		})
	}
}

func TestClientAuthScopeSelection(t *testing.T) {
	for _, tc := range []struct {
		name      string
		configure func(f *fakeAuth)
		want      string
	}{
		{"the challenge's scope, and offline_access the AS offers", func(f *fakeAuth) { f.scopeHeader = "mcp:tools"; f.prmScopes = []string{"other"} }, "mcp:tools offline_access"},
		{"else scopes_supported", func(f *fakeAuth) { f.prmScopes = []string{"a", "b"} }, "a b offline_access"},
		{"else no scope at all", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAuth(t, tc.configure)
			if err := f.post(f.client(nil), "tools/list"); err != nil {
				t.Fatal(err)
			}
			_, authz, _ := f.snapshot()
			if got, present := authz[0]["scope"]; tc.want == "" && present || tc.want != "" && strings.Join(got, "") != tc.want {
				t.Errorf("scope = %q (present %t), want %q", got, present, tc.want)
			}
		})
	}
}

func TestClientAuthStepUp(t *testing.T) {
	f := newFakeAuth(t, func(f *fakeAuth) { f.scopeHeader = "mcp:tools"; f.callScope = "deploy" })
	c := f.client(nil)
	for _, method := range []string{"tools/list", "tools/call"} {
		if err := f.post(c, method); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	_, authz, _ := f.snapshot()
	var scopes []string
	for _, a := range authz {
		scopes = append(scopes, a.Get("scope"))
	}
	// The union: the scope asked before, and the challenge's.
	if diff := cmp.Diff([]string{"mcp:tools offline_access", "mcp:tools offline_access deploy"}, scopes); diff != "" {
		t.Errorf("scopes of the authorization requests (-want +got):\n%s", diff)
	}
}

func TestClientAuthRetryLimit(t *testing.T) {
	// The server wants a scope the authorization server never grants.
	f := newFakeAuth(t, func(f *fakeAuth) {
		f.callScope = "deploy"
		f.grantable = []string{"mcp:tools"}
		f.scopeHeader = "mcp:tools"
	})
	err := f.post(f.client(nil), "tools/call")
	if err == nil || !strings.Contains(err.Error(), `authorization: step-up: asked for scope "deploy", but the authorization server granted only "mcp:tools"`) {
		t.Fatalf("err = %v, want the step-up step giving up", err)
	}
	_, authz, _ := f.snapshot()
	if len(authz) != 2 {
		t.Errorf("%d authorization requests, want 2: the first, and one step-up that did not get the scope", len(authz))
	}

	// A server that refuses every token: bounded too.
	var mu sync.Mutex
	attempts := 0
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		attempts++
		mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+f.rs.URL+f.prmAt+`", error="invalid_token", error_description="audience"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer refuse.Close()
	f.prmResource = refuse.URL + "/mcp"
	_, err = f.client(nil).Post(refuse.URL+"/mcp", "application/json", strings.NewReader("{}"))
	if err == nil || !strings.Contains(err.Error(), `authorization: retry: the server refused the token just obtained (HTTP 401 error="invalid_token" error_description="audience")`) {
		t.Errorf("err = %v, want the retry step saying the new token was refused and why", err)
	}
	if attempts != 2 {
		t.Errorf("%d requests to the refusing server, want 2 (without a token, with the new one)", attempts)
	}
}

func TestClientAuthRefresh(t *testing.T) {
	f := newFakeAuth(t, func(f *fakeAuth) { f.withRefresh = true; f.expiresIn = 60 })
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	c := f.client(func(o *AuthOptions) { o.Now = func() time.Time { return now } })
	if err := f.post(c, "tools/list"); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute) // past expires_in
	if err := f.post(c, "tools/list"); err != nil {
		t.Fatal(err)
	}
	// The server forgets the token: a 401 with a refresh token at hand.
	f.mu.Lock()
	clear(f.tokens)
	f.mu.Unlock()
	if err := f.post(c, "tools/list"); err != nil {
		t.Fatal(err)
	}
	_, authz, tokenReq := f.snapshot()
	var grants []string
	for _, tr := range tokenReq {
		grants = append(grants, tr.Get("grant_type"))
	}
	if diff := cmp.Diff([]string{"authorization_code", "refresh_token", "refresh_token"}, grants); diff != "" {
		t.Errorf("token requests (-want +got):\n%s", diff)
	}
	if len(authz) != 1 {
		t.Errorf("%d authorization requests, want 1: refreshing needs no new one", len(authz))
	}
	if got := tokenReq[1].Get("resource"); got != f.rs.URL+"/mcp" {
		t.Errorf("refresh resource = %q", got)
	}
}

func TestClientAuthWireMasksSecrets(t *testing.T) {
	f := newFakeAuth(t, func(f *fakeAuth) { f.withRefresh = true; f.methods = []string{"client_secret_post"} })
	var out bytes.Buffer
	c := f.client(func(o *AuthOptions) { o.HTTP = &WireLog{Out: &out} })
	if err := f.post(c, "tools/list"); err != nil {
		t.Fatal(err)
	}
	log := out.String()
	for _, secret := range []string{"access-1-" + strings.Repeat("x", 20), "refresh-1-" + strings.Repeat("y", 20), "code-1-abcdefghijkl", "secret-of-client-1-0123456789"} {
		if strings.Contains(log, secret) {
			t.Errorf("the wire log shows %q in full", secret)
		}
	}
	for _, want := range []string{"> Authorization: Bearer acce…(29 chars)", `"access_token":"acce…(29 chars)"`, "> POST " + f.issuer() + "/token", "< HTTP/1.1 302 Found"} {
		if !strings.Contains(log, want) {
			t.Errorf("the wire log lacks %q:\n%s", want, log)
		}
	}
}

func TestClientAuthParseChallenge(t *testing.T) {
	ch := parseChallenge([]string{`DPoP algs="ES256", Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b",error=insufficient_scope, error_description="say \"why\""`})
	want := map[string]string{"resource_metadata": "https://x/.well-known/oauth-protected-resource", "scope": "a b", "error": "insufficient_scope", "error_description": `say "why"`}
	if diff := cmp.Diff(want, ch.params); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
}
