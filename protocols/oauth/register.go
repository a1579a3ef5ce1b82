package oauth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A client gets its client_id in one of three ways (MCP authorization,
// "Client Registration"): a person registers it beforehand (Options.Clients);
// it registers itself by POSTing its metadata to /register (RFC 7591,
// deprecated by MCP 2026-07-28 but still widely used); or its client_id
// is an https URL where its metadata document lives, which the server
// fetches when it first meets the id (the client ID metadata document
// draft). lookupClient finds a client whichever way it came.

// Limits of fetching a client ID metadata document. The fetch happens
// while a person waits at the consent page, to a URL anyone can put in
// an authorization request, so it is short and small and goes nowhere
// else.
const (
	fetchTimeout       = 5 * time.Second
	maxMetadataDoc     = 5 << 10 // the draft's example limit: 5 kilobytes
	defaultDocumentAge = 5 * time.Minute
	maxDocumentAge     = time.Hour
	maxRegistration    = 16 << 10 // a registration request body
)

// newFetcher returns the HTTP client that fetches metadata documents.
// It follows no redirect: the document must be at the client_id URL
// itself, whose client_id member must name that same URL.
func newFetcher() *http.Client {
	return &http.Client{
		Timeout:       fetchTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// isURLClientID reports whether a client_id is a URL, and so the address
// of a client ID metadata document rather than an id this server issued.
func isURLClientID(id string) bool {
	return strings.HasPrefix(id, "https://") || strings.HasPrefix(id, "http://")
}

// lookupClient returns the client with this id, or nil and what to fix.
func (s *Server) lookupClient(ctx context.Context, id string) (*client, string) {
	if c := s.preregistered[id]; c != nil {
		return c, ""
	}
	s.store.mu.Lock()
	c := s.store.clients[id]
	if c != nil && !c.expires.IsZero() && time.Now().After(c.expires) {
		delete(s.store.clients, id) // a metadata document to fetch again
		c = nil
	}
	s.store.mu.Unlock()
	if c != nil {
		return c, ""
	}
	if isURLClientID(id) {
		return s.fetchClient(ctx, id)
	}
	return nil, "unknown client_id " + id + ": register at " + s.issuer + RegisterPath +
		" first, use a client ID metadata document URL, or start the server with this client"
}

// fetchClient fetches and checks a client ID metadata document.
func (s *Server) fetchClient(ctx context.Context, id string) (*client, string) {
	u, err := url.Parse(id)
	local := err == nil && u.Scheme == "http" && (isLoopbackIP(u.Hostname()) || u.Hostname() == "localhost")
	// The draft's rules for a client_id URL: https, a path, no fragment,
	// no user or password, no dot segments. http is accepted on this
	// machine only, so that lessons and tests need no certificate.
	switch {
	case err != nil || u.Host == "":
		return nil, "client_id " + id + " is not a URL"
	case u.Scheme != "https" && !local:
		return nil, "client_id " + id + " must be an https URL (http only on localhost or a loopback IP, for teaching)"
	case u.Path == "" || u.Path == "/":
		return nil, "client_id " + id + " has no path: a client ID metadata document URL names a document, such as https://app.example/client.json"
	case u.Fragment != "" || u.User != nil || slices.Contains(strings.Split(u.Path, "/"), ".") || slices.Contains(strings.Split(u.Path, "/"), ".."):
		return nil, "client_id " + id + " must have no fragment, no user or password and no . or .. segments"
	}

	fail := func(format string, args ...any) (*client, string) {
		why := "the client ID metadata document at " + id + " " + fmt.Sprintf(format, args...)
		s.log.Info("client metadata document refused", "client", id, "reason", why)
		return nil, why
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return fail("cannot be requested: %v", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.fetcher.Do(req)
	if err != nil {
		return fail("could not be fetched: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail("answered %s; it must answer 200 with the JSON document itself, redirects are not followed", resp.Status)
	}
	body, err := readLimited(resp.Body, maxMetadataDoc)
	if err != nil {
		return fail("could not be read: %v", err)
	}
	var doc ClientMetadata
	if err := json.Unmarshal(body, &doc); err != nil {
		return fail("is not a JSON object of client metadata: %v", err)
	}
	// The draft: the document's client_id "MUST match the URL of the
	// document using simple string comparison". Otherwise any page could
	// claim to be any client.
	switch {
	case doc.ClientID != id:
		return fail("says its client_id is %q; it must be the document's own URL exactly", doc.ClientID)
	case doc.ClientName == "":
		return fail("has no client_name, which MCP requires")
	case len(doc.RedirectURIs) == 0:
		return fail("lists no redirect_uris")
	case doc.ClientSecret != "":
		return fail("contains a client_secret: a published document cannot keep a secret")
	case doc.TokenEndpointAuthMethod != "" && doc.TokenEndpointAuthMethod != AuthNone:
		return fail("asks for token_endpoint_auth_method %s; this server supports only none for such clients", doc.TokenEndpointAuthMethod)
	}
	grants, why := checkGrantTypes(doc.GrantTypes, doc.ResponseTypes)
	if why != "" {
		return fail("%s", why)
	}
	for _, r := range doc.RedirectURIs {
		if why := checkRedirectURI(r); why != "" {
			return fail("lists a bad redirect URI: %s", why)
		}
	}
	now := time.Now()
	c := &client{
		id: id, name: doc.ClientName, authMethod: AuthNone, redirectURIs: doc.RedirectURIs,
		grantTypes: grants, how: "metadata document", added: now, expires: now.Add(documentAge(resp.Header)),
	}
	if !c.expires.After(now) {
		return c, "" // no-store: good for this request only
	}
	s.store.mu.Lock()
	makeRoom(s.store.clients, maxClients, clientAge(now))
	s.store.clients[id] = c
	s.store.mu.Unlock()
	s.log.Info("client metadata document fetched", "client", id, "name", doc.ClientName)
	return c, ""
}

// documentAge is how long a fetched document may be used: the MCP
// client registration page says servers "SHOULD cache metadata
// respecting HTTP cache headers". no-store and no-cache mean now;
// max-age counts, up to maxDocumentAge; nothing said means
// defaultDocumentAge.
func documentAge(h http.Header) time.Duration {
	age := defaultDocumentAge
	for _, d := range strings.Split(h.Get("Cache-Control"), ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(strings.ToLower(d)), "=")
		switch name {
		case "no-store", "no-cache":
			return 0
		case "max-age":
			if n, err := strconv.Atoi(value); err == nil && n >= 0 {
				age = min(time.Duration(n)*time.Second, maxDocumentAge)
			}
		}
	}
	return age
}

// clientAge orders clients for makeRoom: the earliest added goes first;
// a metadata document past its age has expired.
func clientAge(now time.Time) func(*client) (time.Time, bool) {
	return func(c *client) (time.Time, bool) {
		return c.added, !c.expires.IsZero() && now.After(c.expires)
	}
}

// checkGrantTypes fills in RFC 7591's defaults (grant_types
// ["authorization_code"], response_types ["code"]) and returns why the
// pair cannot be served, or "".
func checkGrantTypes(grants, responses []string) ([]string, string) {
	if len(grants) == 0 {
		grants = []string{GrantAuthorizationCode}
	}
	for _, g := range grants {
		if g != GrantAuthorizationCode && g != GrantRefreshToken {
			return nil, "grant type " + g + " is not supported: use authorization_code and refresh_token"
		}
	}
	for _, rt := range responses {
		if rt != "code" {
			return nil, "response type " + rt + " is not supported: use code"
		}
	}
	return grants, ""
}

// register is POST /register: dynamic client registration (RFC 7591
// section 3). The client describes itself; the server checks the
// description, issues a client_id (and a client_secret, unless the
// client asked for token_endpoint_auth_method none) and answers 201 with
// everything it registered.
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	refuseReg := func(code, description string) {
		s.log.Info("registration refused", "error", code, "description", description)
		refuse(w, http.StatusBadRequest, code, description)
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		refuseReg(ErrInvalidClientMetadata, "send the client metadata as a JSON object with Content-Type: application/json")
		return
	}
	body, err := readLimited(r.Body, maxRegistration)
	if err != nil {
		refuseReg(ErrInvalidClientMetadata, "the request body could not be read: "+err.Error())
		return
	}
	var m ClientMetadata
	if err := json.Unmarshal(body, &m); err != nil {
		refuseReg(ErrInvalidClientMetadata, "the body is not a JSON object of client metadata: "+err.Error())
		return
	}
	if len(m.RedirectURIs) == 0 {
		refuseReg(ErrInvalidRedirectURI, "redirect_uris is missing: register at least one, such as http://127.0.0.1:PORT/callback")
		return
	}
	for _, u := range m.RedirectURIs {
		if why := checkRedirectURI(u); why != "" {
			refuseReg(ErrInvalidRedirectURI, why)
			return
		}
	}
	switch m.TokenEndpointAuthMethod {
	case "":
		m.TokenEndpointAuthMethod = AuthClientSecretBasic // RFC 7591 section 2: the default
	case AuthClientSecretBasic, AuthClientSecretPost, AuthNone:
	default:
		refuseReg(ErrInvalidClientMetadata, "token_endpoint_auth_method "+m.TokenEndpointAuthMethod+
			" is not supported: use client_secret_basic, client_secret_post or none")
		return
	}
	grants, why := checkGrantTypes(m.GrantTypes, m.ResponseTypes)
	if why != "" {
		refuseReg(ErrInvalidClientMetadata, why)
		return
	}
	switch m.ApplicationType {
	case "", "native", "web":
	default:
		refuseReg(ErrInvalidClientMetadata, "application_type "+m.ApplicationType+" is unknown: use native or web")
		return
	}

	now := time.Now()
	c := &client{
		id: "wl-" + shortRandom(), name: m.ClientName, authMethod: m.TokenEndpointAuthMethod,
		redirectURIs: m.RedirectURIs, grantTypes: grants, how: "registered", added: now,
	}
	if c.authMethod != AuthNone {
		c.secret = randomToken()
	}
	s.store.mu.Lock()
	makeRoom(s.store.clients, maxClients, clientAge(now))
	s.store.clients[c.id] = c
	s.store.mu.Unlock()
	s.log.Info("client registered", "client", c.id, "name", c.name, "auth", c.authMethod, "redirect_uris", strings.Join(c.redirectURIs, " "))

	// RFC 7591 section 3.2.1: the answer repeats the metadata as
	// registered, defaults filled in, with the credentials; a
	// client_secret comes with client_secret_expires_at, 0 for never.
	answer := ClientMetadata{
		ClientID: c.id, ClientSecret: c.secret, ClientIDIssuedAt: now.Unix(),
		RedirectURIs: c.redirectURIs, TokenEndpointAuthMethod: c.authMethod, GrantTypes: grants,
		ResponseTypes: []string{"code"}, ClientName: m.ClientName, ClientURI: m.ClientURI,
		ApplicationType: m.ApplicationType,
	}
	if c.secret != "" {
		never := int64(0)
		answer.ClientSecretExpiresAt = &never
	}
	writeJSON(w, http.StatusCreated, answer)
}

// shortRandom returns 16 random bytes in base64url: enough for an id,
// which is not a secret.
func shortRandom() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
