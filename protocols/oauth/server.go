package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/wirelab/wirelab/internal/loopback"
)

// DefaultAccessTokenLifetime is how long an access token is good for. A
// resource server checks tokens offline and cannot learn that one was
// revoked, so the token's own short life is what limits a stolen one
// (the MCP security considerations: "authorization servers SHOULD issue
// short-lived access tokens").
const DefaultAccessTokenLifetime = 5 * time.Minute

// Subject is the one person this teaching server knows: the learner who
// clicks Allow. A real server would sign the person in first and put
// their account id here.
const Subject = "learner"

// Options configure a Server. Only Issuer is required.
type Options struct {
	// Issuer is the server's identifier and the base of its endpoints:
	// scheme, host and port, no path, no trailing slash, such as
	// "http://127.0.0.1:8023". It is the metadata's issuer, the tokens'
	// iss and the authorization responses' iss, byte for byte.
	Issuer string
	// Clients are registered before the server starts.
	Clients []Client
	// AccessTokenLifetime is the exp of access tokens minus their iat;
	// zero means DefaultAccessTokenLifetime.
	AccessTokenLifetime time.Duration
	// Resources, when not empty, are the only resource values (RFC 8707)
	// the server issues tokens for; empty means any absolute URI.
	Resources []string
	// Loopback refuses requests that a server on a loopback address must
	// not answer: for another Host, or from another site's web page.
	Loopback bool
	// Log gets one line per decision; nil discards them. Tokens and
	// secrets appear only as a short prefix.
	Log *slog.Logger
	// HTTPClient fetches client ID metadata documents; nil means a client
	// with fetchTimeout that follows no redirects.
	HTTPClient *http.Client
}

// Client is a client registered before the server starts, the way a
// person registers an application on a provider's web page.
type Client struct {
	ID string
	// Secret is empty for a public client, which authenticates with
	// nothing but its client_id and proves itself with PKCE.
	Secret string
	// Name is shown on the consent page; empty means the ID.
	Name         string
	RedirectURIs []string
}

// Check returns what is wrong with a pre-registered client, or nil.
func (c Client) Check() error {
	if c.ID == "" || isURLClientID(c.ID) || strings.ContainsAny(c.ID, " :") {
		return fmt.Errorf("client id %q must be a plain name: not empty, not a URL, without spaces or colons", c.ID)
	}
	if len(c.RedirectURIs) == 0 {
		return fmt.Errorf("client %s needs at least one redirect URI", c.ID)
	}
	for _, r := range c.RedirectURIs {
		if why := checkRedirectURI(r); why != "" {
			return fmt.Errorf("client %s: %s", c.ID, why)
		}
	}
	return nil
}

// Server is the authorization server, an http.Handler for all of its
// endpoints. Its state lives in memory and is gone when it stops.
type Server struct {
	issuer    string
	lifetime  time.Duration
	resources []string
	loopback  bool
	log       *slog.Logger
	fetcher   *http.Client
	mux       *http.ServeMux

	key     *ecdsa.PrivateKey // signs access tokens
	keyID   string            // the kid of key: its RFC 7638 thumbprint
	signer  jose.Signer
	csrfKey []byte // binds consent forms to their requests

	preregistered map[string]*client // read-only after NewServer
	store         *store
}

// NewServer returns a server for opts. It panics if the issuer is not an
// http or https URL without a path, or a pre-registered client is
// malformed: those are mistakes in the program that starts it.
func NewServer(opts Options) *Server {
	u, err := url.Parse(opts.Issuer)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		panic(fmt.Sprintf("oauth: issuer %q is not an http(s) URL with a host and no path", opts.Issuer))
	}
	s := &Server{
		issuer:        opts.Issuer,
		lifetime:      opts.AccessTokenLifetime,
		resources:     opts.Resources,
		loopback:      opts.Loopback,
		log:           opts.Log,
		fetcher:       opts.HTTPClient,
		preregistered: map[string]*client{},
		store:         newStore(),
		csrfKey:       make([]byte, 32),
	}
	if s.lifetime <= 0 {
		s.lifetime = DefaultAccessTokenLifetime
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.fetcher == nil {
		s.fetcher = newFetcher()
	}
	rand.Read(s.csrfKey)
	for _, c := range opts.Clients {
		if err := c.Check(); err != nil {
			panic("oauth: " + err.Error())
		}
		pc := &client{
			id: c.ID, secret: c.Secret, name: c.Name, redirectURIs: c.RedirectURIs,
			grantTypes: []string{GrantAuthorizationCode, GrantRefreshToken},
			authMethod: AuthClientSecretBasic, how: "pre-registered",
		}
		if c.Secret == "" {
			pc.authMethod = AuthNone
		}
		s.preregistered[c.ID] = pc
	}
	s.newKey()

	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET "+MetadataPath, s.metadata)
	s.mux.HandleFunc("GET "+OpenIDConfigPath, s.metadata)
	s.mux.HandleFunc("GET "+JWKSPath, s.jwks)
	s.mux.HandleFunc("GET "+AuthorizePath, s.authorize)
	s.mux.HandleFunc("POST "+AuthorizePath, s.decide)
	s.mux.HandleFunc("POST "+TokenPath, s.token)
	s.mux.HandleFunc("POST "+RegisterPath, s.register)
	return s
}

// newKey makes the P-256 key that signs access tokens. It is made at
// start and never written down: a restart makes a new one, and tokens
// signed with the old one stop verifying, which is how a teaching server
// should forget.
func (s *Server) newKey() {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic("oauth: generating the signing key: " + err.Error())
	}
	jwk := jose.JSONWebKey{Key: key.Public(), Algorithm: string(jose.ES256), Use: "sig"}
	thumb, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		panic("oauth: thumbprint of the signing key: " + err.Error())
	}
	s.key, s.keyID = key, base64.RawURLEncoding.EncodeToString(thumb)
	// RFC 9068 section 2.1: the header's typ is "at+jwt", so that an
	// access token can never be mistaken for an ID token or any other JWT
	// signed with the same key.
	opts := (&jose.SignerOptions{}).WithType("at+jwt")
	s.signer, err = jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: s.keyID}}, opts)
	if err != nil {
		panic("oauth: making the signer: " + err.Error())
	}
}

// Issuer returns the server's issuer identifier.
func (s *Server) Issuer() string { return s.issuer }

// ServeHTTP answers every endpoint of the server.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.loopback {
		if ref := loopback.Check(r); ref != nil {
			http.Error(w, ref.Reason, ref.Status)
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// metadata serves RFC 8414's document, at its own well-known path and at
// OpenID Connect's: MCP clients try both (MCP authorization, "Authorization
// Server Metadata Discovery").
func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, Metadata{
		Issuer:                            s.issuer,
		AuthorizationEndpoint:             s.issuer + AuthorizePath,
		TokenEndpoint:                     s.issuer + TokenPath,
		JWKSURI:                           s.issuer + JWKSPath,
		RegistrationEndpoint:              s.issuer + RegisterPath,
		ScopesSupported:                   slices.Clone(knownScopes),
		ResponseTypesSupported:            []string{"code"},
		GrantTypesSupported:               []string{GrantAuthorizationCode, GrantRefreshToken},
		TokenEndpointAuthMethodsSupported: []string{AuthClientSecretBasic, AuthClientSecretPost, AuthNone},
		// Only S256: OAuth 2.1 section 4.1.1 lets a server refuse "plain",
		// which puts the verifier itself in the browser's address bar.
		CodeChallengeMethodsSupported:              []string{"S256"},
		AuthorizationResponseISSParameterSupported: true,
		ClientIDMetadataDocumentSupported:          true,
	})
}

// jwks serves the public half of the signing key (RFC 7517). A resource
// server fetches it once and then checks every token without asking.
func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: s.key.Public(), KeyID: s.keyID, Algorithm: string(jose.ES256), Use: "sig"},
	}})
}

// writeJSON writes v as the whole answer. Everything this server says in
// JSON is either public (metadata, keys) or must never be cached (tokens,
// credentials, errors about them), so no-store on all of it keeps one
// rule: RFC 6749 section 5.1 requires it for tokens.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic("oauth: encoding an answer: " + err.Error()) // every value here is a plain struct
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// refuse writes an error the token or registration endpoint returns
// (RFC 6749 section 5.2): 400 with the error and what to fix, or 401
// for a client that failed to authenticate.
func refuse(w http.ResponseWriter, status int, code, description string) {
	writeJSON(w, status, ErrorResponse{Error: code, ErrorDescription: description})
}

// readLimited reads a whole request or response body, refusing one
// longer than max bytes.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("longer than %d bytes", max)
	}
	return b, nil
}
