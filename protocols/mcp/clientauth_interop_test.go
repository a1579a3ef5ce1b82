package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/oauth"
	"github.com/wirelab/wirelab/protocols/tools"
)

// consentClicker is the person at the browser: it opens the
// authorization URL, reads the consent page's form and presses Allow,
// then returns the query of the redirect.
type consentClicker struct{ redirectURI string }

func (c *consentClicker) URI(context.Context) (string, error) { return c.redirectURI, nil }

var hiddenField = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

func (c *consentClicker) Visit(ctx context.Context, authURL string, hc *http.Client) (url.Values, error) {
	resp, err := hc.Get(authURL)
	if err != nil {
		return nil, err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("consent page: HTTP %d: %s", resp.StatusCode, page)
	}
	form := url.Values{"decision": {"allow"}}
	for _, m := range hiddenField.FindAllStringSubmatch(string(page), -1) {
		form.Add(m[1], htmlUnescape(m[2]))
	}
	u, _ := url.Parse(authURL)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u.Scheme+"://"+u.Host+"/authorize", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	resp, err = hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := resp.Location()
	if err != nil {
		return nil, fmt.Errorf("after Allow: HTTP %d without a redirect", resp.StatusCode)
	}
	return loc.Query(), nil
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&quot;", `"`).Replace(s)
}

// TestClientAuthWithWirelabServers runs the whole dance against
// wirelab's own authorization server (protocols/oauth) and its MCP
// server as a resource server: registration, consent, PKCE, the
// audience-bound JWT, and a step-up for the production deploy.
func TestClientAuthWithWirelabServers(t *testing.T) {
	var asHandler http.Handler
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asHandler.ServeHTTP(w, r) }))
	defer as.Close()
	asHandler = oauth.NewServer(oauth.Options{Issuer: as.URL})

	var rsHandler http.Handler
	rs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { rsHandler.ServeHTTP(w, r) }))
	defer rs.Close()
	verifier := NewVerifier(as.URL, rs.URL+"/mcp", nil)
	rsHandler = NewServer(tools.New(nil), nil).HTTPHandler(&HTTPOptions{Verifier: verifier})

	var wire bytes.Buffer
	authz := NewAuthorizer(AuthOptions{Redirect: &consentClicker{redirectURI: "http://127.0.0.1:9/callback"}, HTTP: &WireLog{Out: &wire}})
	ctx := context.Background()
	c, err := ConnectHTTP(ctx, rs.URL+"/mcp", &ClientOptions{HTTPClient: &http.Client{Transport: authz}})
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, wire.String())
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "word_count", json.RawMessage(`{"text":"read the wire"}`), false)
	if err != nil {
		t.Fatalf("word_count: %v", err)
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"words":3`) {
		t.Errorf("word_count = %s", b)
	}
	// Production needs deploy:production: a 403, a step-up, the call.
	if _, err := c.CallTool(ctx, "deploy_service", json.RawMessage(`{"service":"api","env":"production"}`), false); err != nil {
		t.Fatalf("deploy_service to production: %v\n%s", err, wire.String())
	}
	log := wire.String()
	for _, want := range []string{"< HTTP/1.1 401 Unauthorized", "< HTTP/1.1 403 Forbidden", "> POST " + as.URL + "/register", "> POST " + as.URL + "/token"} {
		if !strings.Contains(log, want) {
			t.Errorf("the wire log lacks %q", want)
		}
	}
	tok := authz.current()
	if tok == nil || strings.Contains(log, tok.access) {
		t.Errorf("no token, or the wire log shows it in full")
	}
}
