package oauth

// The documents and parameters of this file are exactly what crosses the
// wire. Field order follows the RFC that defines each one, so that a
// reader can hold the RFC beside the JSON.

// Paths of the endpoints. The metadata document names each one, so a
// client needs only the issuer to find the rest.
const (
	MetadataPath     = "/.well-known/oauth-authorization-server" // RFC 8414 section 3
	OpenIDConfigPath = "/.well-known/openid-configuration"       // OpenID Connect Discovery 1.0 section 4
	AuthorizePath    = "/authorize"
	TokenPath        = "/token"
	RegisterPath     = "/register"
	JWKSPath         = "/jwks"
)

// The scopes this server knows. Their meaning is the resource server's:
// the MCP server lists and calls tools for mcp:tools, and deploys to
// production only for deploy:production.
const (
	ScopeTools            = "mcp:tools"
	ScopeDeployProduction = "deploy:production"
)

// Metadata is the authorization server metadata document of RFC 8414
// section 2, with the two members later RFCs added: RFC 9207's
// authorization_response_iss_parameter_supported and the client ID
// metadata document draft's client_id_metadata_document_supported.
type Metadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint"`
	TokenEndpoint                              string   `json:"token_endpoint"`
	JWKSURI                                    string   `json:"jwks_uri"`
	RegistrationEndpoint                       string   `json:"registration_endpoint"`
	ScopesSupported                            []string `json:"scopes_supported"`
	ResponseTypesSupported                     []string `json:"response_types_supported"`
	GrantTypesSupported                        []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported"`
	AuthorizationResponseISSParameterSupported bool     `json:"authorization_response_iss_parameter_supported"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported"`
}

// Client authentication methods at the token endpoint (RFC 7591 section
// 2): HTTP Basic with the id and secret, the two in the form body, or no
// secret at all, for a public client that proves itself with PKCE only.
const (
	AuthClientSecretBasic = "client_secret_basic"
	AuthClientSecretPost  = "client_secret_post"
	AuthNone              = "none"
)

// Grant types (RFC 6749 sections 4.1.3 and 6).
const (
	GrantAuthorizationCode = "authorization_code"
	GrantRefreshToken      = "refresh_token"
)

// TokenResponse is the token endpoint's successful answer (RFC 6749
// section 5.1). The access token is a JWT, but the client need not know:
// to the client it is an opaque string to put after "Bearer ".
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope"`
}

// AccessClaims are the claims of an access token, the JWT profile of RFC
// 9068 section 2.2. Aud is the resource the client named (RFC 8707); a
// token requested without one has no aud, and a resource server must
// refuse it.
type AccessClaims struct {
	Issuer   string `json:"iss"`
	Subject  string `json:"sub"`
	Audience string `json:"aud,omitempty"`
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
	IssuedAt int64  `json:"iat"`
	Expiry   int64  `json:"exp"`
	ID       string `json:"jti"`
}

// ClientMetadata is a client's description of itself: the body of a
// dynamic registration request (RFC 7591 section 2), the same fields
// with the issued credentials in its answer (section 3.2.1), and the
// document behind a URL client_id (the client ID metadata document
// draft, section 3).
type ClientMetadata struct {
	ClientID                string   `json:"client_id,omitempty"`
	ClientSecret            string   `json:"client_secret,omitempty"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at,omitempty"`
	ClientSecretExpiresAt   *int64   `json:"client_secret_expires_at,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	ClientURI               string   `json:"client_uri,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
	ApplicationType         string   `json:"application_type,omitempty"`
}

// ErrorResponse is the body of every refusal at the token and
// registration endpoints (RFC 6749 section 5.2, RFC 7591 section 3.2.2).
// At the authorization endpoint the same two fields travel as query
// parameters of the redirect.
type ErrorResponse struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}

// Error codes, each with the RFC that names it.
const (
	ErrInvalidRequest          = "invalid_request"           // RFC 6749 4.1.2.1 and 5.2
	ErrInvalidClient           = "invalid_client"            // RFC 6749 5.2
	ErrInvalidGrant            = "invalid_grant"             // RFC 6749 5.2
	ErrUnauthorizedClient      = "unauthorized_client"       // RFC 6749 4.1.2.1 and 5.2
	ErrUnsupportedGrantType    = "unsupported_grant_type"    // RFC 6749 5.2
	ErrUnsupportedResponseType = "unsupported_response_type" // RFC 6749 4.1.2.1
	ErrInvalidScope            = "invalid_scope"             // RFC 6749 4.1.2.1 and 5.2
	ErrAccessDenied            = "access_denied"             // RFC 6749 4.1.2.1
	ErrInvalidTarget           = "invalid_target"            // RFC 8707 section 2
	ErrInvalidRedirectURI      = "invalid_redirect_uri"      // RFC 7591 3.2.2
	ErrInvalidClientMetadata   = "invalid_client_metadata"   // RFC 7591 3.2.2
)
