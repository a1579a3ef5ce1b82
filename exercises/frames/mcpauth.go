package frames

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// frames-mcp-auth: the OAuth flow of MCP authorization, by hand, across
// the MCP console's two targets: mcp-auth, an MCP server that takes only
// access tokens issued for it, and oauth, the authorization server that
// issues them. The learner follows the 401 to the protected resource
// metadata (RFC 9728), then to the authorization server's (RFC 8414),
// registers (RFC 7591), authorizes with PKCE S256 and resource (RFC 7636,
// RFC 8707), exchanges the code, and calls word_count with the token.
// Then the step-up, which the console's templates do not do for them:
// the production deploy gets 403 insufficient_scope, and the learner
// reads the scope it names, authorizes again for it, and deploys.
//
// Each step looks only after the step before it, so the order is the
// client's: a registration made before the metadata was read is a guess,
// and does not count.

// authFlow is what the steps learn from the transcript and hand on.
type authFlow struct {
	xs        []exchange // both targets, in the order sent
	elsewhere bool       // calls went to mcp-http, which takes no tokens

	metadataURL string // the 401's resource_metadata
	resource    string // the protected resource metadata's resource
	issuer      string // its first authorization server
	register    string // the endpoints' paths, from the server's metadata
	authorize   string
	tokenPath   string
	clientID    string
	codes       []string // the codes of authorizations done right
	token       string   // the first access token
	scope       string   // the scope the 403 named
}

func checkMCPAuth(events []Event) []Step {
	f := &authFlow{xs: flowExchanges(events), register: "/register", authorize: "/authorize", tokenPath: "/token",
		elsewhere: len(httpExchanges(events, "mcp-http")) > 0}
	judges := []struct {
		name  exercises.Text
		judge func(from int) (Step, int)
	}{
		{text("Call word_count on mcp-auth without a token: 401, and WWW-Authenticate names resource_metadata",
			"Вызовите word_count на mcp-auth без токена: 401, и WWW-Authenticate называет resource_metadata"), f.unauthorized},
		{text("Read the protected resource metadata that the 401 named (RFC 9728)",
			"Прочитайте метаданные защищённого ресурса, названные в 401 (RFC 9728)"), f.resourceMetadata},
		{text("Read the authorization server's metadata (RFC 8414)",
			"Прочитайте метаданные сервера авторизации (RFC 8414)"), f.serverMetadata},
		{text("Get a client id: register at the registration_endpoint (RFC 7591)",
			"Получите client id: зарегистрируйтесь на registration_endpoint (RFC 7591)"), f.registration},
		{text("Authorize with PKCE S256 and resource, and press Allow: a code comes back",
			"Авторизуйтесь с PKCE S256 и resource и нажмите Allow: вернётся код"), f.authorization},
		{text("Exchange the code at the token_endpoint, with code_verifier and resource: an access token",
			"Обменяйте код на token_endpoint, с code_verifier и resource: access-токен"), f.tokenExchange},
		{text("Call word_count with Authorization: Bearer and that token: a result",
			"Вызовите word_count с Authorization: Bearer и этим токеном: result"), f.call},
		{text("Deploy to production with the same token: 403 insufficient_scope names the scope it needs",
			"Деплой в production с тем же токеном: 403 insufficient_scope называет нужный scope"), f.forbidden},
		{text("Step up: authorize again for the scope the 403 named, and deploy to production with the new token",
			"Повышение: авторизуйтесь снова на scope из 403 и задеплойте в production с новым токеном"), f.stepUp},
	}
	var steps []Step
	from := 0
	for i, j := range judges {
		s, next := j.judge(from)
		s.Name = j.name
		steps = append(steps, s)
		if !s.Done {
			for _, later := range judges[i+1:] {
				steps = append(steps, waiting(later.name))
			}
			return steps
		}
		from = next + 1
	}
	return steps
}

// unauthorized finds the call without a token and its 401.
func (f *authFlow) unauthorized(from int) (Step, int) {
	var seen notes
	for i, x := range f.xs[from:] {
		if x.target != resourceTarget {
			continue
		}
		ch := x.challenge()
		switch {
		case x.tokenInQuery():
			seen.add(textQueryToken(x))
		case x.method == "POST" && x.header.Get("Authorization") == "" && x.status == 401 && ch["resource_metadata"] != "":
			f.metadataURL = ch["resource_metadata"]
			return done(exercises.Text{}, text("%s without a token: 401, WWW-Authenticate: %s",
				"%s без токена: 401, WWW-Authenticate: %s", x.request(), x.rheader.Get("WWW-Authenticate"))), from + i
		case x.header.Get("Authorization") != "" && x.status == 401:
			seen.add(text("A request with an Authorization header got 401: this step wants the call with no token at all, to see what the server asks for.",
				"Запрос с заголовком Authorization получил 401: здесь нужен вызов совсем без токена, чтобы увидеть, чего просит сервер."))
		case x.method == "POST" && x.header.Get("Authorization") == "":
			seen.add(text("%s without a token got %s.", "%s без токена: %s.", x.request(), x.outcome()))
		}
	}
	def := text("Nothing has been sent to the mcp-auth target yet: in the MCP console (/console/mcp), choose mcp-auth and send a tools/call of word_count without an Authorization header.",
		"На цель mcp-auth пока ничего не отправлено: в консоли MCP (/console/mcp) выберите mcp-auth и отправьте tools/call для word_count без заголовка Authorization.")
	if f.elsewhere {
		def = text("Your calls went to mcp-http, an MCP server that takes no tokens. Choose mcp-auth, the one that wants them.",
			"Ваши вызовы ушли на mcp-http, а этот сервер MCP токенов не требует. Выберите mcp-auth — тот, которому они нужны.")
	}
	if g := guesses(f.xs); len(g) > 0 {
		seen.add(textGuessed(g))
	}
	return missing(exercises.Text{}, seen.or(def)), -1
}

// resourceMetadata finds the GET of the document the 401 named.
func (f *authFlow) resourceMetadata(from int) (Step, int) {
	var seen notes
	want := f.metadataURL
	if u, err := url.Parse(want); err == nil {
		want = u.Path
	}
	for i, x := range f.xs[from:] {
		isPRM := strings.HasPrefix(x.path, "/.well-known/oauth-protected-resource")
		switch {
		case x.target == resourceTarget && x.method == "GET" && x.path == want && x.status == 200:
			var doc struct {
				Resource             string   `json:"resource"`
				AuthorizationServers []string `json:"authorization_servers"`
			}
			if json.Unmarshal([]byte(x.rbody), &doc) != nil || doc.Resource == "" || len(doc.AuthorizationServers) == 0 {
				seen.add(text("GET %s answered 200, but not with a document that names resource and authorization_servers.",
					"GET %s ответил 200, но не документом с resource и authorization_servers.", x.path))
				continue
			}
			f.resource, f.issuer = doc.Resource, doc.AuthorizationServers[0]
			return done(exercises.Text{}, text("GET %s: resource %s, its tokens issued by %s",
				"GET %s: resource %s, токены выдаёт %s", x.path, doc.Resource, f.issuer)), from + i
		case isPRM && x.target == resourceTarget:
			seen.add(text("You read %s, but the 401 named %s: a client reads the document the challenge names, and tries the well-known paths only when it names none.",
				"Вы прочитали %s, а 401 назвал %s: клиент читает документ, названный в вызове, и пробует well-known пути, только когда там ничего не названо.", x.path, f.metadataURL))
		case isPRM:
			seen.add(text("%s went to the authorization server: the protected resource metadata is the MCP server's own document, at %s.",
				"%s ушёл на сервер авторизации: метаданные защищённого ресурса — документ самого сервера MCP, по адресу %s.", x.request(), f.metadataURL))
		}
	}
	if g := guesses(f.xs[from:]); len(g) > 0 {
		seen.add(textGuessed(g))
	}
	return missing(exercises.Text{}, seen.or(text("The 401 named %s in resource_metadata: GET it on the mcp-auth target.",
		"401 назвал %s в resource_metadata: сделайте GET этого адреса на цели mcp-auth.", f.metadataURL))), -1
}

// serverMetadata finds the GET of the authorization server's metadata.
func (f *authFlow) serverMetadata(from int) (Step, int) {
	var seen notes
	for i, x := range f.xs[from:] {
		asPath := x.path == "/.well-known/oauth-authorization-server" || x.path == "/.well-known/openid-configuration"
		switch {
		case asPath && x.target == resourceTarget:
			seen.add(text("%s went to the MCP server, which issues no tokens: the authorization server is %s (authorization_servers), the oauth target.",
				"%s ушёл на сервер MCP, а он токенов не выдаёт: сервер авторизации — %s (authorization_servers), цель oauth.", x.request(), f.issuer))
		case asPath && x.method == "GET" && x.status == 200:
			if iss := x.jsonMember("issuer"); iss != f.issuer {
				seen.add(text("This metadata says issuer %s, not %s, the server the MCP server named: RFC 8414 says not to use it.",
					"Эти метаданные называют issuer %s, а не %s, названный сервером MCP: по RFC 8414 их нельзя использовать.", iss, f.issuer))
				continue
			}
			for _, e := range []struct {
				path *string
				name string
			}{{&f.register, "registration_endpoint"}, {&f.authorize, "authorization_endpoint"}, {&f.tokenPath, "token_endpoint"}} {
				if u, err := url.Parse(x.jsonMember(e.name)); err == nil && u.Path != "" {
					*e.path = u.Path
				}
			}
			return done(exercises.Text{}, text("GET %s: issuer %s; authorization_endpoint %s, token_endpoint %s, registration_endpoint %s",
				"GET %s: issuer %s; authorization_endpoint %s, token_endpoint %s, registration_endpoint %s",
				x.path, f.issuer, f.authorize, f.tokenPath, f.register)), from + i
		}
	}
	if g := guesses(f.xs[from:]); len(g) > 0 {
		seen.add(textGuessed(g))
	}
	return missing(exercises.Text{}, seen.or(text("The metadata named %s as the authorization server: GET its /.well-known/oauth-authorization-server on the oauth target.",
		"Метаданные назвали сервером авторизации %s: сделайте GET его /.well-known/oauth-authorization-server на цели oauth.", f.issuer))), -1
}

// registration finds the client's registration, or an authorization
// request whose client_id is a client ID metadata document the server
// accepted (it then showed its consent page).
func (f *authFlow) registration(from int) (Step, int) {
	var seen notes
	for i, x := range f.xs[from:] {
		switch {
		case x.target != issuerTarget:
		case x.method == "POST" && x.path == f.register && x.status == 201 && x.jsonMember("client_id") != "":
			f.clientID = x.jsonMember("client_id")
			return done(exercises.Text{}, text("POST %s: 201, client_id %s", "POST %s: 201, client_id %s", x.path, f.clientID)), from + i
		case x.method == "POST" && x.path == f.register:
			seen.add(text("POST %s got %s: %s", "POST %s: %s: %s", x.path, x.outcome(), sentence(orUnknown(x.oauthError()))))
		case x.method == "GET" && x.path == f.authorize && x.status == 200 && strings.HasPrefix(x.query.Get("client_id"), "https://"):
			f.clientID = x.query.Get("client_id")
			// The authorization step starts with this very request.
			return done(exercises.Text{}, text("client_id %s, a client ID metadata document the server accepted",
				"client_id %s — документ метаданных клиента, который сервер принял", f.clientID)), from + i - 1
		}
	}
	var early []exchange
	for _, x := range f.xs[:from] {
		if x.target == issuerTarget && x.method == "POST" && x.path == "/register" && x.status == 201 {
			early = append(early, x)
		}
	}
	if g := guesses(early); len(g) > 0 {
		seen.add(textGuessed(g))
	}
	return missing(exercises.Text{}, seen.or(text("Register a client: POST %s on the oauth target, with JSON naming your redirect_uris and \"token_endpoint_auth_method\": \"none\".",
		"Зарегистрируйте клиента: POST %s на цели oauth, с JSON, где есть redirect_uris и \"token_endpoint_auth_method\": \"none\".", f.register))), -1
}

// authorizationVerdict judges one exchange with the authorization
// endpoint: the code it got, or what is wrong with it ("" code and a
// note), or nothing to say (both empty).
func (f *authFlow) authorizationVerdict(x exchange) (code string, note *exercises.Text) {
	if x.target != issuerTarget || x.path != f.authorize {
		return "", nil
	}
	p := x.params()
	say := func(t exercises.Text) (string, *exercises.Text) { return "", &t }
	switch {
	case p.Get("code_challenge_method") == "plain":
		return say(textPlainPKCE())
	case p.Get("code_challenge") == "":
		return say(textNoPKCE())
	case x.oauthError() != "":
		return say(text("%s %s was refused: %s", "%s %s получил отказ: %s", x.method, x.path, sentence(x.oauthError())))
	case x.method == "GET":
		return "", nil // the consent page; the answer comes with the POST
	case p.Get("decision") == "deny":
		return say(text("You pressed Deny: the client then gets error=access_denied, and no code. Press Allow.",
			"Вы нажали Deny: клиент получает error=access_denied и никакого кода. Нажмите Allow."))
	case x.status == 400:
		return say(text("POST %s got 400: the consent form was refused. Send the csrf value of the consent page that this same request showed.",
			"POST %s получил 400: форма согласия отклонена. Отправьте значение csrf со страницы согласия, которую показал этот же запрос.", x.path))
	}
	loc := x.location()
	if loc == nil || loc.Query().Get("code") == "" {
		return "", nil
	}
	switch res := p.Get("resource"); {
	case res == "":
		return say(textNoResource(authorizationRequest, f.resource))
	case res != f.resource:
		return say(textOtherResource(authorizationRequest, res, f.resource))
	}
	return loc.Query().Get("code"), nil
}

// authorization finds the consent answered with Allow and a code, for a
// request with PKCE S256 and the right resource.
func (f *authFlow) authorization(from int) (Step, int) {
	var seen notes
	first := -1
	var detail exercises.Text
	for i, x := range f.xs[from:] {
		code, note := f.authorizationVerdict(x)
		if note != nil {
			seen.add(*note)
		}
		if code == "" {
			continue
		}
		f.codes = append(f.codes, code)
		if first < 0 {
			first = from + i
			p := x.params()
			detail = text("POST %s, Allow: code %s (scope %s, resource %s, code_challenge_method S256)",
				"POST %s, Allow: код %s (scope %s, resource %s, code_challenge_method S256)",
				x.path, masked(code), orUnknown(p.Get("scope")), p.Get("resource"))
		}
	}
	if first >= 0 {
		return done(exercises.Text{}, detail), first
	}
	return missing(exercises.Text{}, seen.or(text("GET %[1]s with response_type=code, your client_id, redirect_uri, state, code_challenge, code_challenge_method=S256, scope and resource=%[2]s shows the consent page; POST the same parameters to %[1]s with its csrf and decision=allow.",
		"GET %[1]s с response_type=code, вашим client_id, redirect_uri, state, code_challenge, code_challenge_method=S256, scope и resource=%[2]s показывает страницу согласия; отправьте те же параметры POST на %[1]s с её csrf и decision=allow.", f.authorize, f.resource))), -1
}

// tokenVerdict judges one exchange with the token endpoint: the access
// token it got for one of codes, or what is wrong with it.
func (f *authFlow) tokenVerdict(x exchange, codes []string) (token string, note *exercises.Text) {
	if x.target != issuerTarget || x.method != "POST" || x.path != f.tokenPath {
		return "", nil
	}
	p := x.params()
	say := func(t exercises.Text) (string, *exercises.Text) { return "", &t }
	switch {
	case p.Get("grant_type") != "authorization_code" || !slices.Contains(codes, p.Get("code")):
		// Another grant, or a code from an authorization whose own step
		// says what was wrong with it (or a replay made on purpose).
		return "", nil
	case x.status != 200:
		return say(text("POST %s was refused (%s): %s", "POST %s получил отказ (%s): %s", x.path, x.outcome(), sentence(orUnknown(x.oauthError()))))
	case p.Get("resource") == "":
		return say(textNoResource(tokenRequest, f.resource))
	}
	return x.jsonMember("access_token"), nil
}

// tokenExchange finds the code exchanged for an access token.
func (f *authFlow) tokenExchange(from int) (Step, int) {
	var seen notes
	for i, x := range f.xs[from:] {
		token, note := f.tokenVerdict(x, f.codes)
		if note != nil {
			seen.add(*note)
		}
		if token != "" {
			f.token = token
			return done(exercises.Text{}, text("POST %s: 200, access token %s (scope %s)", "POST %s: 200, access token %s (scope %s)",
				x.path, masked(token), orUnknown(x.jsonMember("scope")))), from + i
		}
	}
	return missing(exercises.Text{}, seen.or(text("POST %s on the oauth target, as a form: grant_type=authorization_code, the code, redirect_uri, client_id, code_verifier and resource=%s.",
		"POST %s на цели oauth, формой: grant_type=authorization_code, код, redirect_uri, client_id, code_verifier и resource=%s.", f.tokenPath, f.resource))), -1
}

// refusedNote says what a call with a token got when the token did not
// do, and remembers tokens refused as invalid, to name a learner who
// sends one again: a 401 with error="invalid_token" is final for that
// token, and sending it again is the 401 loop.
func (f *authFlow) refusedNote(x exchange, c toolCall, refused map[string]bool) *exercises.Text {
	ch := x.challenge()
	var t exercises.Text
	switch {
	case x.tokenInQuery():
		t = textQueryToken(x)
	case c.token == "":
		t = text("A tools/call went without an Authorization header and got %s: add Authorization: Bearer and the access token.",
			"tools/call ушёл без заголовка Authorization и получил %s: добавьте Authorization: Bearer и access-токен.", c.answer)
	case refused[c.token]:
		t = text("The token %s was sent again after a 401 with error=\"invalid_token\" refused it. That answer is final for that token: sending it again gets the same 401, the loop a client must not fall into. Get a new token instead.",
			"Токен %s отправлен снова после того, как 401 с error=\"invalid_token\" ему отказал. Для этого токена такой ответ окончателен: повтор получит тот же 401, и клиент не должен попадать в эту петлю. Получите новый токен.", masked(c.token))
	case x.status == 401 && ch["error"] == "invalid_token":
		refused[c.token] = true
		t = text("The token %s was refused with 401 invalid_token: %s", "Токену %s отказано с 401 invalid_token: %s", masked(c.token), sentence(orUnknown(ch["error_description"])))
	case x.status == 401:
		t = text("A call with the token %s got 401: %s", "Вызов с токеном %s получил 401: %s", masked(c.token), sentence(orUnknown(x.rheader.Get("WWW-Authenticate"))))
	default:
		return nil
	}
	return &t
}

// call finds word_count called with the access token.
func (f *authFlow) call(from int) (Step, int) {
	var seen notes
	refused := map[string]bool{}
	for i, x := range f.xs[from:] {
		c, ok := readToolCall(x)
		if !ok || c.tool != "word_count" {
			continue
		}
		if note := f.refusedNote(x, c, refused); note != nil {
			seen.add(*note)
			continue
		}
		switch {
		case c.token == f.token && c.result:
			return done(exercises.Text{}, text("tools/call %s with Authorization: Bearer %s: %s", "tools/call %s с Authorization: Bearer %s: %s",
				c.tool, masked(c.token), c.answer)), from + i
		case c.token != f.token:
			seen.add(text("A tools/call sent Bearer %s, which is not the access token the token endpoint gave (%s).",
				"tools/call отправил Bearer %s, а это не тот access-токен, который выдал эндпоинт токена (%s).", masked(c.token), masked(f.token)))
		default:
			seen.add(text("tools/call %s with the token got %s.", "tools/call %s с токеном: %s.", c.tool, c.answer))
		}
	}
	return missing(exercises.Text{}, seen.or(text("Call word_count on mcp-auth again, now with the header Authorization: Bearer and the access token.",
		"Снова вызовите word_count на mcp-auth, теперь с заголовком Authorization: Bearer и access-токеном."))), -1
}

// forbidden finds the production deploy refused for its scope.
func (f *authFlow) forbidden(from int) (Step, int) {
	var seen notes
	for i, x := range f.xs[from:] {
		c, ok := readToolCall(x)
		if !ok || c.tool != "deploy_service" {
			continue
		}
		ch := x.challenge()
		switch {
		case c.env != "production":
			seen.add(text("A deploy to %q needs no more than mcp:tools, so it got %s. Deploy to production.",
				"Деплою в %q достаточно mcp:tools, ответ: %s. Деплойте в production.", c.env, c.answer))
		case c.token != f.token:
			seen.add(text("This deploy sent Bearer %s; use the token of the steps before, %s.",
				"Этот деплой отправил Bearer %s; возьмите токен предыдущих шагов, %s.", masked(c.token), masked(f.token)))
		case c.result:
			seen.add(text("The deploy went through: your token already carries deploy:production, because the authorization asked for it. Ask for the least a task needs (mcp:tools, the metadata's scopes_supported) and step up when a 403 asks: a leaked token can then count words, not deploy. Authorize again with scope=mcp:tools and start this step over.",
				"Деплой прошёл: у вашего токена уже есть deploy:production, потому что его попросила авторизация. Просите минимум, нужный задаче (mcp:tools, scopes_supported из метаданных), и повышайте права, когда об этом попросит 403: тогда утёкший токен сможет считать слова, но не деплоить. Авторизуйтесь заново со scope=mcp:tools и начните этот шаг сначала."))
		case x.status == 403 && ch["error"] == "insufficient_scope" && slices.Contains(scopes(ch["scope"]), scopeDeploy):
			f.scope = ch["scope"]
			return done(exercises.Text{}, text("deploy_service to production with the same token: 403, WWW-Authenticate: %s",
				"deploy_service в production с тем же токеном: 403, WWW-Authenticate: %s", x.rheader.Get("WWW-Authenticate"))), from + i
		default:
			seen.add(text("The deploy got %s.", "Деплой получил %s.", c.answer))
		}
	}
	return missing(exercises.Text{}, seen.or(text("Call deploy_service with {\"service\":\"api\",\"env\":\"production\"} on mcp-auth, with the same token.",
		"Вызовите deploy_service с {\"service\":\"api\",\"env\":\"production\"} на mcp-auth с тем же токеном."))), -1
}

// stepUp finds a new authorization for the scope the 403 named, its
// token, and the production deploy that token makes.
func (f *authFlow) stepUp(from int) (Step, int) {
	var seen notes
	var codes, tokens []string
	for i, x := range f.xs[from:] {
		if code, note := f.authorizationVerdict(x); note != nil {
			seen.add(*note)
		} else if code != "" {
			asked := scopes(x.params().Get("scope"))
			switch {
			case !slices.Contains(asked, scopeDeploy):
				seen.add(text("The new authorization asked for scope %q: ask for what the 403 named, %q.",
					"Новая авторизация попросила scope %q: попросите то, что назвал 403, %q.", strings.Join(asked, " "), f.scope))
			case !slices.Contains(asked, scopeTools):
				seen.add(text("The new authorization asked for %q alone: its token would lack mcp:tools, which every call to this server needs. The 403 named %q: ask for all of it, so as not to lose what the old token could do.",
					"Новая авторизация попросила только %q: у её токена не будет mcp:tools, который нужен каждому вызову этого сервера. 403 назвал %q: попросите всё это, чтобы не потерять то, что мог старый токен.", strings.Join(asked, " "), f.scope))
			default:
				codes = append(codes, code)
			}
		}
		if token, note := f.tokenVerdict(x, codes); note != nil {
			seen.add(*note)
		} else if token != "" {
			tokens = append(tokens, token)
		}
		c, ok := readToolCall(x)
		if !ok || c.tool != "deploy_service" || c.env != "production" {
			continue
		}
		switch {
		case c.token == f.token:
			seen.add(text("The first token was sent again and got %s: a token's scope never grows. Authorize again with scope=%q, exchange the new code, and deploy with the new token.",
				"Первый токен отправлен снова и получил %s: scope токена никогда не растёт. Авторизуйтесь заново со scope=%q, обменяйте новый код и деплойте с новым токеном.", c.answer, f.scope))
		case !slices.Contains(tokens, c.token):
			seen.add(text("This deploy sent Bearer %s, not a token issued since the 403 for the scope it named.",
				"Этот деплой отправил Bearer %s — не токен, выданный после 403 на названный в нём scope.", masked(c.token)))
		case c.result:
			return done(exercises.Text{}, text("A new token (%s) for %q: deploy_service to production: %s",
				"Новый токен (%s) на %q: deploy_service в production: %s", masked(c.token), f.scope, c.answer)), from + i
		default:
			seen.add(text("The deploy with the new token got %s.", "Деплой с новым токеном получил %s.", c.answer))
		}
	}
	return missing(exercises.Text{}, seen.or(text("The 403 named scope=%q. Authorize again with that scope (GET, then POST %s with the new csrf), exchange the new code at %s, and deploy to production with the new token.",
		"403 назвал scope=%q. Авторизуйтесь снова с этим scope (GET, затем POST %s с новым csrf), обменяйте новый код на %s и задеплойте в production с новым токеном.", f.scope, f.authorize, f.tokenPath))), -1
}

// The fixed values of the flow typed by hand, as the console's templates
// use them: a loopback redirect URI that nothing listens on (the console
// does not follow redirects, so the code is read off the Location
// header), and a public PKCE verifier with its S256 challenge,
// BASE64URL(SHA-256(verifier)), which a learner can check.
const (
	authRedirect  = "http://127.0.0.1:8976/callback"
	authVerifier  = "read-the-wire-then-read-it-again-and-again-1"
	authChallenge = "E_XpUjWevpAoXCA5235oHIPmJxduzfDLRhGgNHnFK0M"
)

// authRequest writes an HTTP frame; {{host}} is the target's.
func authRequest(method, path string, headers []string, body string) string {
	return strings.Join(append([]string{method + " " + path + " HTTP/1.1", "Host: {{host}}"}, headers...), "\n") + "\n\n" + body
}

// authToolCall is a 2026-07-28 tools/call to the protected server, with
// an Authorization header when authorization is not "".
func authToolCall(id int, tool, args, authorization string) Frame {
	h := []string{"Accept: application/json, text/event-stream", "Content-Type: application/json",
		"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: " + tool}
	if authorization != "" {
		h = append(h, "Authorization: "+authorization)
	}
	body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `,` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"console","version":"1"}}}}`
	return Frame{Target: resourceTarget, Text: authRequest("POST", "/mcp", h, body)}
}

// authorizeParams are an authorization request's parameters for scope.
func authorizeParams(scope string) string {
	return "response_type=code&client_id={{client_id}}&redirect_uri=" + url.QueryEscape(authRedirect) +
		"&state=lesson-state-1&code_challenge=" + authChallenge + "&code_challenge_method=S256&scope=" + url.QueryEscape(scope) + "&resource={{resource}}"
}

// authorizeFrames show the consent page for scope, press Allow, and
// exchange the code for a token.
func authorizeFrames(scope string) []Frame {
	form := []string{"Content-Type: application/x-www-form-urlencoded"}
	return []Frame{
		{Target: issuerTarget, Text: authRequest("GET", "/authorize?"+authorizeParams(scope), nil, "")},
		{Target: issuerTarget, Text: authRequest("POST", "/authorize", form, authorizeParams(scope)+"&csrf={{csrf}}&decision=allow")},
		{Target: issuerTarget, Text: authRequest("POST", "/token", form, "grant_type=authorization_code&code={{code}}&redirect_uri="+url.QueryEscape(authRedirect)+
			"&client_id={{client_id}}&code_verifier="+authVerifier+"&resource={{resource}}")},
	}
}

func mcpAuthSolution() []Frame {
	const (
		words      = `{"text":"read the wire"}`
		production = `{"service":"api","env":"production"}`
	)
	fs := []Frame{
		authToolCall(1, "word_count", words, ""),
		{Target: resourceTarget, Text: authRequest("GET", "/.well-known/oauth-protected-resource/mcp", nil, "")},
		{Target: issuerTarget, Text: authRequest("GET", "/.well-known/oauth-authorization-server", nil, "")},
		{Target: issuerTarget, Text: authRequest("POST", "/register", []string{"Content-Type: application/json"},
			`{"client_name":"by hand","redirect_uris":["`+authRedirect+`"],"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"],"response_types":["code"]}`)},
	}
	fs = append(fs, authorizeFrames(scopeTools)...)
	fs = append(fs, authToolCall(2, "word_count", words, "Bearer {{access_token}}"), authToolCall(3, "deploy_service", production, "Bearer {{access_token}}"))
	fs = append(fs, authorizeFrames(scopeTools+" "+scopeDeploy)...)
	return append(fs, authToolCall(4, "deploy_service", production, "Bearer {{access_token}}"))
}
