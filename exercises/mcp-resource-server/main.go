// Command mcp-resource-server is your MCP endpoint protected as an OAuth
// resource server. README.md says what it must do; check your work with
//
//	wirelab grade mcp-resource-server
//
// README.ru.md — то же, что README.md, по-русски.
//
// The grader starts an authorization server, then this program with
//
//	--addr 127.0.0.1:PORT --issuer http://127.0.0.1:ISSUER
//
// and calls POST /mcp with no token, with tokens issued for it, and with
// tokens it must refuse. What is given already: reading the
// authorization server's keys at start (fetchKeys), the protected
// resource metadata (metadata), and the MCP endpoint itself (mcp). What
// is yours: protect, verify, and the scope of a production deploy.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// The scopes: every call needs scopeTools; a deploy to production needs
// scopeDeploy too.
const (
	scopeTools  = "mcp:tools"
	scopeDeploy = "deploy:production"
)

// metadataPath is where this server's protected resource metadata is
// (RFC 9728 section 3.1): the well-known prefix, then the resource's path.
const metadataPath = "/.well-known/oauth-protected-resource/mcp"

// server is the protected MCP endpoint. Nothing changes once it runs.
type server struct {
	resource string             // this server's resource URL, the aud its tokens must name
	issuer   string             // the authorization server it trusts
	keys     jose.JSONWebKeySet // that server's public keys
	meta     string             // the URL of metadataPath
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8021", "address to listen on")
	issuer := flag.String("issuer", "http://127.0.0.1:8023", "the authorization server whose tokens this server accepts")
	flag.Parse()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	keys, err := fetchKeys(ctx, *issuer)
	cancel()
	if err != nil {
		log.Fatalf("mcp-resource-server: %v", err)
	}
	s := &server{resource: "http://" + *addr + "/mcp", issuer: *issuer, keys: keys, meta: "http://" + *addr + metadataPath}
	mux := http.NewServeMux()
	mux.HandleFunc(metadataPath, s.metadata)
	mux.Handle("/mcp", s.protect(http.HandlerFunc(s.mcp)))
	log.Printf("mcp-resource-server: %s, tokens from %s", s.resource, s.issuer) // log writes to stderr
	log.Fatal(http.ListenAndServe(*addr, mux))
}

// protect lets a request through to next only with a token this server
// trusts and the base scope. For now it lets everything through.
//
// TODO (step 1): read the token from the Authorization header, "Bearer
// TOKEN", and from nowhere else. Without one, answer 401 with
//
//	WWW-Authenticate: Bearer resource_metadata="<s.meta>", scope="mcp:tools"
//
// TODO (step 2): check the token with s.verify. A token it refuses is
// 401 too, with error="invalid_token" added to the challenge. A good
// token without the scope mcp:tools is 403: s.insufficientScope. Then
// pass the request on with the token in its context:
//
//	next.ServeHTTP(w, r.WithContext(withToken(r.Context(), tok)))
func (s *server) protect(next http.Handler) http.Handler {
	return next
}

// verify checks a JWT access token and returns what it grants.
//
// TODO (step 2): parse raw with jwt.ParseSigned (the authorization server
// signs with ES256), take the key its header names
// (s.keys.Key(tok.Headers[0].KeyID)), and read the claims with
// tok.Claims(key.Key, &c), which fails when the signature does not
// verify. Then refuse a token whose iss is not s.issuer, that has no exp
// or has expired, or whose aud does not contain s.resource: jwt.Claims
// has a Validate method, and jwt.Expected says what to expect.
func (s *server) verify(raw string) (*accessToken, error) {
	return nil, errors.New("not checked yet")
}

// insufficientScope answers 403 for a good token that lacks scope. The
// challenge names every scope the call needs, the base one included, so
// that a client that asks for exactly these loses nothing it had.
func (s *server) insufficientScope(w http.ResponseWriter, id json.RawMessage, scope string) {
	wanted := scopeTools
	if scope != scopeTools {
		wanted += " " + scope
	}
	w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+wanted+`", resource_metadata="`+s.meta+`"`)
	writeError(w, http.StatusForbidden, id, "this call needs the "+scope+" scope")
}

// metadata serves the protected resource metadata (RFC 9728): which
// resource this is, and which authorization server issues its tokens.
func (s *server) metadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"resource":                 s.resource,
		"authorization_servers":    []string{s.issuer},
		"scopes_supported":         []string{scopeTools},
		"bearer_methods_supported": []string{"header"},
	})
}

// mcp answers tools/call, the one method of this small MCP endpoint. It
// runs only behind protect, so the request carries a checked token.
func (s *server) mcp(w http.ResponseWriter, r *http.Request) {
	var req request
	if r.Method != http.MethodPost || json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req) != nil || req.Method != "tools/call" {
		writeError(w, http.StatusBadRequest, req.ID, "this endpoint answers one JSON-RPC tools/call per POST")
		return
	}
	var call struct {
		Name      string `json:"name"`
		Arguments struct {
			Text    string `json:"text"`
			Service string `json:"service"`
			Env     string `json:"env"`
		} `json:"arguments"`
	}
	json.Unmarshal(req.Params, &call)
	var result any
	switch call.Name {
	case "word_count":
		result = map[string]int{"words": len(strings.Fields(call.Arguments.Text)), "chars": len([]rune(call.Arguments.Text))}
	case "deploy_service":
		// TODO (step 3): a deploy to production needs the scope
		// deploy:production. tokenFrom(r.Context()) is the caller's token;
		// without that scope, answer with s.insufficientScope.
		result = map[string]string{"service": call.Arguments.Service, "env": call.Arguments.Env, "status": "deployed"}
	default:
		writeError(w, http.StatusOK, req.ID, "unknown tool "+call.Name)
		return
	}
	text, _ := json.Marshal(result)
	writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{
		"content": []map[string]string{{"type": "text", "text": string(text)}}, "structuredContent": result,
	}})
}

// claims are the claims of an access token (RFC 9068 section 2.2).
type claims struct {
	jwt.Claims
	Scope    string `json:"scope"`
	ClientID string `json:"client_id"`
}

// accessToken is what the server keeps of a checked token.
type accessToken struct {
	subject string
	scopes  []string
}

func (t *accessToken) has(scope string) bool { return t != nil && slices.Contains(t.scopes, scope) }

// tokenKey is the context key of the checked token.
type tokenKey struct{}

func withToken(ctx context.Context, t *accessToken) context.Context {
	return context.WithValue(ctx, tokenKey{}, t)
}

func tokenFrom(ctx context.Context) *accessToken {
	t, _ := ctx.Value(tokenKey{}).(*accessToken)
	return t
}

// request is a JSON-RPC request.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// writeError answers with a JSON-RPC error (id null when the request
// was not read).
func writeError(w http.ResponseWriter, status int, id json.RawMessage, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	writeJSON(w, status, map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32600, "message": message}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// fetchKeys reads the authorization server's metadata (RFC 8414), then
// the key set it names in jwks_uri.
func fetchKeys(ctx context.Context, issuer string) (jose.JSONWebKeySet, error) {
	var meta struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := getJSON(ctx, issuer+"/.well-known/oauth-authorization-server", &meta); err != nil {
		return jose.JSONWebKeySet{}, fmt.Errorf("reading the authorization server's metadata: %w", err)
	}
	// RFC 8414 section 3.3: the issuer in the document must be the one
	// asked for, or the document must not be used.
	if meta.Issuer != issuer || meta.JWKSURI == "" {
		return jose.JSONWebKeySet{}, fmt.Errorf("the metadata at %s names issuer %q and jwks_uri %q", issuer, meta.Issuer, meta.JWKSURI)
	}
	var keys jose.JSONWebKeySet
	if err := getJSON(ctx, meta.JWKSURI, &keys); err != nil {
		return jose.JSONWebKeySet{}, fmt.Errorf("reading the key set: %w", err)
	}
	return keys, nil
}

func getJSON(ctx context.Context, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}
