package frames

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// What frames-mcp-auth reads in the exchanges of the OAuth flow: the
// parameters of the requests, the challenges and redirects of the
// answers, and the tool calls made with a token.

// The two targets of the flow, and the scopes the reference servers use.
const (
	resourceTarget = "mcp-auth" // the MCP server that wants access tokens
	issuerTarget   = "oauth"    // the authorization server that issues them

	scopeTools  = "mcp:tools"
	scopeDeploy = "deploy:production"
)

// The authorization server's endpoints as wirelab's names them, for a
// learner who reaches one before reading the metadata that names it.
var guessedPaths = []string{"/register", "/authorize", "/token"}

// flowExchanges gathers the exchanges of both targets in the order they
// were sent: the flow crosses between them.
func flowExchanges(events []Event) []exchange {
	xs := append(httpExchanges(events, resourceTarget), httpExchanges(events, issuerTarget)...)
	slices.SortStableFunc(xs, func(a, b exchange) int { return a.seq - b.seq })
	return xs
}

// params are the request's OAuth parameters: the query of a GET, the
// form of a POST.
func (x exchange) params() url.Values {
	if x.method == "GET" {
		return x.query
	}
	v, _ := url.ParseQuery(x.body)
	return v
}

// jsonMember reads one string member of the answer's JSON body.
func (x exchange) jsonMember(name string) string {
	var m map[string]json.RawMessage
	var s string
	if json.Unmarshal([]byte(x.rbody), &m) == nil {
		json.Unmarshal(m[name], &s)
	}
	return s
}

// oauthError says what an OAuth error answer says: its error and
// error_description, from a JSON body (the token and registration
// endpoints) or from the redirect's query (the authorization endpoint).
func (x exchange) oauthError() string {
	code, desc := x.jsonMember("error"), x.jsonMember("error_description")
	if loc := x.location(); loc != nil && loc.Query().Get("error") != "" {
		code, desc = loc.Query().Get("error"), loc.Query().Get("error_description")
	}
	if code == "" {
		return ""
	}
	if desc != "" {
		return code + ": " + desc
	}
	return code
}

// location is the answer's Location header, parsed, or nil.
func (x exchange) location() *url.URL {
	u, err := url.Parse(x.rheader.Get("Location"))
	if err != nil || x.rheader.Get("Location") == "" {
		return nil
	}
	return u
}

// authParam matches one parameter of a challenge: name="value".
var authParam = regexp.MustCompile(`([A-Za-z_]+)="([^"]*)"`)

// challenge reads the answer's WWW-Authenticate Bearer challenge into
// its parameters (RFC 6750 section 3), or nil when it has none.
func (x exchange) challenge() map[string]string {
	h := x.rheader.Get("WWW-Authenticate")
	scheme, rest, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return nil
	}
	p := map[string]string{}
	for _, m := range authParam.FindAllStringSubmatch(rest, -1) {
		p[strings.ToLower(m[1])] = m[2]
	}
	return p
}

// guess reports whether the exchange reached one of the authorization
// server's endpoints.
func (x exchange) guess() bool {
	return x.target == issuerTarget && slices.Contains(guessedPaths, x.path)
}

// tokenInQuery reports whether the request carried a token in its URL.
func (x exchange) tokenInQuery() bool { return x.query.Has("access_token") }

// toolCall is a tools/call sent to the protected server, and its answer.
type toolCall struct {
	tool, env string // env: deploy_service's, "" for another tool
	token     string // the bearer token it sent
	result    bool   // answered with a result in which the tool did not fail
	answer    exercises.Text
}

// readToolCall reads the exchange as a tools/call on the protected
// server.
func readToolCall(x exchange) (toolCall, bool) {
	if x.target != resourceTarget || x.method != "POST" {
		return toolCall{}, false
	}
	for _, m := range rpcOverHTTP(x, "") {
		if m.method != "tools/call" {
			continue
		}
		var p struct {
			Name      string `json:"name"`
			Arguments struct {
				Env string `json:"env"`
			} `json:"arguments"`
		}
		json.Unmarshal(m.params, &p)
		c := toolCall{tool: p.Name, token: x.bearer(), result: x.status == 200 && m.result != nil && !m.isError()}
		if p.Name == "deploy_service" {
			c.env = p.Arguments.Env
		}
		c.answer = text("HTTP %d", "HTTP %d", x.status)
		if x.status == 200 || x.status == 0 {
			c.answer = m.describe()
		}
		return c, true
	}
	return toolCall{}, false
}

// scopes splits a scope parameter (RFC 6749 section 3.3).
func scopes(s string) []string { return strings.Fields(s) }

// masked shows the start of a secret only: enough to tell two apart.
func masked(s string) string {
	if len(s) <= 8 {
		return s
	}
	return s[:8] + "…"
}

// Sentences more than one step says.

func textQueryToken(x exchange) exercises.Text {
	return text("%s carried the token in its query string (access_token=…), and got %s. MCP forbids it: a URL ends up in server logs, proxies and browser history. Send the token in the header, Authorization: Bearer TOKEN, and count the one you sent as leaked.",
		"%s передал токен в строке запроса (access_token=…) и получил %s. MCP это запрещает: URL остаётся в журналах серверов, прокси и в истории браузера. Передавайте токен в заголовке Authorization: Bearer ТОКЕН, а отправленный так считайте утёкшим.",
		x.request(), x.outcome())
}

// textGuessed names the requests that reached the authorization server's
// endpoints before its metadata said where they are.
func textGuessed(requests []string) exercises.Text {
	return text("%s went to the authorization server before its metadata was read: guessed addresses. A client learns which server issues tokens from the protected resource metadata (authorization_servers), and its endpoints from that server's own metadata (RFC 8414); it guesses none of them.",
		"%s: запросы ушли на сервер авторизации раньше, чем были прочитаны его метаданные, — адреса угаданы. Клиент узнаёт, какой сервер выдаёт токены, из метаданных защищённого ресурса (authorization_servers), а его эндпоинты — из метаданных самого сервера (RFC 8414); ничего из этого он не угадывает.",
		strings.Join(requests, ", "))
}

// guesses lists, once each, the requests of xs that reached the
// authorization server's endpoints.
func guesses(xs []exchange) []string {
	var out []string
	for _, x := range xs {
		if x.guess() && !slices.Contains(out, x.request()) {
			out = append(out, x.request())
		}
	}
	return out
}

func textPlainPKCE() exercises.Text {
	return text("The authorization request said code_challenge_method=plain: then the challenge is the verifier itself, and anyone who sees the request can redeem the code. MCP clients must use S256, BASE64URL(SHA-256(verifier)), and this server refuses anything else.",
		"Запрос авторизации указал code_challenge_method=plain: тогда challenge — это сам verifier, и любой, кто увидел запрос, сможет обменять код. Клиенты MCP обязаны использовать S256, BASE64URL(SHA-256(verifier)), и этот сервер другого не принимает.")
}

func textNoPKCE() exercises.Text {
	return text("The authorization request had no code_challenge: PKCE is required. Send code_challenge (the S256 hash of a verifier you keep) and code_challenge_method=S256.",
		"В запросе авторизации нет code_challenge: PKCE обязателен. Передайте code_challenge (хеш S256 от verifier, который вы храните) и code_challenge_method=S256.")
}

// The two requests that must carry resource, as textNoResource and
// textOtherResource name them.
var (
	authorizationRequest = text("authorization request", "Запрос авторизации")
	tokenRequest         = text("token request", "Запрос токена")
)

func textNoResource(what exercises.Text, resource string) exercises.Text {
	return text("The %s had no resource parameter. Without it the token names no audience, and the MCP server must refuse a token not issued for it. MCP clients send resource=%s (the resource of the protected resource metadata) in both the authorization request and the token request (RFC 8707).",
		"%s не содержит параметра resource. Без него токен не называет своего адресата, а сервер MCP обязан отказать токену, выданному не для него. Клиенты MCP передают resource=%s (resource из метаданных защищённого ресурса) и в запросе авторизации, и в запросе токена (RFC 8707).",
		what, resource)
}

func textOtherResource(what exercises.Text, got, want string) exercises.Text {
	return text("The %s named resource %s, but the MCP server you are calling is %s: a token is bound to the resource it was issued for, and another server must refuse it. Copy resource from the protected resource metadata.",
		"%s назвал resource %s, а сервер MCP, который вы вызываете, — %s: токен привязан к ресурсу, для которого выдан, и другой сервер обязан ему отказать. Возьмите resource из метаданных защищённого ресурса.",
		what, got, want)
}
