package frames

import (
	"encoding/json"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// frames-http-auth: the http-auth target is the HTTP tool server with
// bearer tokens (RFC 6750). No token is 401; a token the server knows
// without the scope a call needs is 403 insufficient_scope; the token
// with the scope gets 200. Only a deploy to production needs a scope.

// bearer is the request's bearer token, or "" when it sends none.
func (x exchange) bearer() string {
	scheme, token, _ := strings.Cut(x.header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// deploysTo is the env of a deploy_service call, or "".
func (x exchange) deploysTo() string {
	var req struct {
		Name string `json:"name"`
		Args struct {
			Env string `json:"env"`
		} `json:"args"`
	}
	if x.method != "POST" || json.Unmarshal([]byte(x.body), &req) != nil || req.Name != "deploy_service" {
		return ""
	}
	return req.Args.Env
}

// request names the exchange as a line of its transcript would.
func (x exchange) request() string { return x.method + " " + x.path }

// outcome says how the exchange ended: its status, or why there is none.
func (x exchange) outcome() exercises.Text {
	switch {
	case x.status != 0:
		return text("%d", "%d", x.status)
	case x.refused != "":
		return text("a refusal from the playground (%s)", "отказ площадки (%s)", short(x.refused))
	}
	return text("no answer yet", "ответа пока нет")
}

func checkHTTPAuth(events []Event) []Step {
	xs := httpExchanges(events, "http-auth")
	steps := make([]Step, 0, 3)

	// Step 1: no Authorization header at all: 401.
	name := text("Call without an Authorization header: 401, and WWW-Authenticate says how to authenticate",
		"Вызов без заголовка Authorization: 401, и WWW-Authenticate говорит, как аутентифицироваться")
	var seen notes
	first := -1
	for i, x := range xs {
		if x.header.Get("Authorization") == "" && x.status == 401 {
			first = i
			break
		}
		switch {
		case x.header.Get("Authorization") == "" && x.path == "/openapi.json":
			seen.add(text("/openapi.json is public on purpose: it tells a client how to authenticate. Call /execute or /tools.",
				"/openapi.json открыт намеренно: он объясняет клиенту, как аутентифицироваться. Вызовите /execute или /tools."))
		case x.header.Get("Authorization") == "":
			seen.add(text("%s without a token got %s.", "%s без токена: %s.", x.request(), x.outcome()))
		case x.status == 401:
			seen.add(text("You got 401, but for a request that did send Authorization (%s). This step wants no Authorization header at all.",
				"401 пришёл, но на запрос с заголовком Authorization (%s). Здесь нужен запрос совсем без этого заголовка.", short(x.rheader.Get("WWW-Authenticate"))))
		}
	}
	if first < 0 {
		none := text("Nothing has been sent to the http-auth target yet: choose it in the HTTP console (/console/http).",
			"На цель http-auth пока ничего не отправлено: выберите её в HTTP-консоли (/console/http).")
		if len(xs) == 0 && len(httpExchanges(events, "http")) > 0 {
			none = text("Your requests went to the http target, whose server checks no tokens. Choose http-auth.",
				"Ваши запросы ушли на цель http, а её сервер токены не проверяет. Выберите http-auth.")
		} else if len(xs) > 0 {
			none = text("No request without an Authorization header yet.", "Запроса без заголовка Authorization пока не было.")
		}
		return append(steps, missing(name, seen.or(none)), waiting(text403()), waiting(text200()))
	}
	steps = append(steps, done(name, text("%s without a token: 401, with WWW-Authenticate: %s",
		"%s без токена: 401 и WWW-Authenticate: %s", xs[first].request(), xs[first].rheader.Get("WWW-Authenticate"))))

	// Step 2: a known token without the scope, deploying to production: 403.
	name = text403()
	seen = nil
	second := -1
	for i, x := range xs[first+1:] {
		env, token := x.deploysTo(), x.bearer()
		if env == "production" && token != "" && x.status == 403 {
			second = first + 1 + i
			break
		}
		switch {
		case env == "production" && token != "" && x.status == 401:
			seen.add(text("The server does not know the token %q, so it answered 401 invalid_token, not 403: 403 is for a token it knows that lacks the scope.",
				"Токен %q серверу неизвестен, поэтому он ответил 401 invalid_token, а не 403: 403 — для известного ему токена, которому не хватает scope.", token))
		case env == "production" && token != "" && x.status == 200:
			seen.add(text("The token %q carries deploy:production, so its deploy went through. First use a token without that scope.",
				"У токена %q есть deploy:production, поэтому его деплой прошёл. Сначала возьмите токен без этого scope.", token))
		case env != "" && env != "production" && token != "":
			seen.add(text("A deploy to %q needs no scope, so it got %s. Deploy to production.",
				"Деплою в %q scope не нужен, ответ: %s. Деплойте в production.", env, x.outcome()))
		case env == "production" && token == "":
			seen.add(text("A deploy without a bearer token got %s again. Add Authorization: Bearer TOKEN.",
				"Деплой снова ушёл без bearer-токена, ответ: %s. Добавьте Authorization: Bearer ТОКЕН.", x.outcome()))
		}
	}
	if second < 0 {
		return append(steps, missing(name, seen.or(text(
			"No deploy to production with a bearer token since the 401. Send deploy_service with env production and Authorization: Bearer TOKEN.",
			"После 401 деплоя в production с bearer-токеном ещё не было. Отправьте deploy_service с env production и Authorization: Bearer ТОКЕН."))),
			waiting(text200()))
	}
	x := xs[second]
	steps = append(steps, done(name, text("Bearer %s deploying to production: 403, with WWW-Authenticate: %s",
		"Bearer %s и деплой в production: 403 и WWW-Authenticate: %s", x.bearer(), x.rheader.Get("WWW-Authenticate"))))

	// Step 3: the token with the scope: 200.
	name = text200()
	seen = nil
	for _, x := range xs[second+1:] {
		env, token := x.deploysTo(), x.bearer()
		switch {
		case env == "production" && x.status == 200:
			return append(steps, done(name, text("Bearer %s deploying to production: 200, the deploy went through.",
				"Bearer %s и деплой в production: 200, деплой прошёл.", token)))
		case env == "production" && x.status == 403:
			seen.add(text("Bearer %s got 403 again: that token lacks deploy:production.",
				"Bearer %s снова получил 403: у этого токена нет deploy:production.", token))
		case env == "production" && x.status == 401:
			seen.add(text("A deploy got 401 (%s): the server does not accept that token, or none was sent.",
				"Деплой получил 401 (%s): такой токен сервер не принимает, или токена не было.", short(x.rheader.Get("WWW-Authenticate"))))
		}
	}
	return append(steps, missing(name, seen.or(text(
		"No deploy to production has succeeded since the 403. Send the same call with the token that carries deploy:production.",
		"После 403 ни один деплой в production не прошёл. Отправьте тот же вызов с токеном, у которого есть deploy:production."))))
}

func text403() exercises.Text {
	return text("A valid token without the deploy:production scope, deploying to production: 403 insufficient_scope",
		"Действительный токен без scope deploy:production и деплой в production: 403 insufficient_scope")
}

func text200() exercises.Text {
	return text("The same call with the token that carries the scope: 200",
		"Тот же вызов с токеном, у которого этот scope есть: 200")
}

func httpAuthSolution() []Frame {
	deploy := func(auth string) string {
		head := "POST /execute HTTP/1.1\nHost: {{host}}\nContent-Type: application/json\n"
		if auth != "" {
			head += "Authorization: Bearer " + auth + "\n"
		}
		return head + "\n" + `{"id":1,"name":"deploy_service","args":{"service":"api","env":"production"}}`
	}
	return []Frame{
		{Target: "http-auth", Text: deploy("")},
		{Target: "http-auth", Text: deploy("reader")},
		{Target: "http-auth", Text: deploy("ops")},
	}
}
