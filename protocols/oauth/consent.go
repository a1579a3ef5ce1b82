package oauth

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strconv"

	"golang.org/x/text/language"
)

// The consent page and the error page, in English and Russian. They are
// plain HTML with a small inline style that borrows the playground's
// colours, and no script: the form works in any browser and from curl.

// languages are the page languages, the first the default.
var languages = language.NewMatcher([]language.Tag{language.English, language.Russian})

// chooseLang picks the page language: lang=en or lang=ru when given,
// else the best match for the browser's Accept-Language.
func chooseLang(r *http.Request, explicit string) string {
	if explicit == "en" || explicit == "ru" {
		return explicit
	}
	tags, _, _ := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	_, i, _ := languages.Match(tags...)
	return []string{"en", "ru"}[i]
}

// texts are the words of the pages in one language.
type texts struct {
	Title, Brand, Heading, Intro                      string
	Client, RedirectTo, LoopbackWarning               string
	Resource, NoResource, Scopes, Allow, Deny, Person string
	ErrorTitle, ErrorIntro, Other                     string
	How                                               map[string]string // how the client is known
	Scope                                             map[string]string // what each scope lets it do
}

var words = map[string]texts{
	"en": {
		Title:           "Allow access? · wirelab",
		Brand:           "wirelab authorization server",
		Heading:         "Allow this application to act for you?",
		Intro:           "An application asks for an access token in your name. Check who it is, where the answer goes and what it may do, then choose.",
		Client:          "Application",
		RedirectTo:      "Answer goes to",
		LoopbackWarning: "This address is on your own computer, where any program could be listening: allow only if you started this application yourself.",
		Resource:        "For the resource",
		NoResource:      "none named: the token will carry no audience, and an MCP server must refuse it",
		Scopes:          "It may",
		Allow:           "Allow",
		Deny:            "Deny",
		Person:          "You are learner: this teaching server has one person and no password.",
		ErrorTitle:      "The authorization request was refused",
		ErrorIntro:      "You see this page instead of going back to the application, because the server cannot be sure where to send you. Tell the application's developer:",
		Other:           "Русский",
		How: map[string]string{
			"pre-registered":    "registered before the server started",
			"registered":        "registered itself at /register (RFC 7591)",
			"metadata document": "described by its client ID metadata document at this URL",
		},
		Scope: map[string]string{
			ScopeTools:            "see the MCP server's tools and call them (deploying to production excepted)",
			ScopeDeployProduction: "deploy services to production: deploy_service with env=production",
		},
	},
	"ru": {
		Title:           "Разрешить доступ? · wirelab",
		Brand:           "сервер авторизации wirelab",
		Heading:         "Разрешить этому приложению действовать от вашего имени?",
		Intro:           "Приложение просит токен доступа от вашего имени. Посмотрите, кто это, куда уйдёт ответ и что ему будет можно, и решите.",
		Client:          "Приложение",
		RedirectTo:      "Ответ уйдёт на",
		LoopbackWarning: "Этот адрес — на вашем компьютере, и слушать его может любая программа: разрешайте, только если запустили это приложение сами.",
		Resource:        "Для ресурса",
		NoResource:      "не указан: в токене не будет аудитории (aud), и MCP-сервер обязан его отклонить",
		Scopes:          "Ему будет можно",
		Allow:           "Разрешить",
		Deny:            "Отказать",
		Person:          "Вы — learner: у этого учебного сервера один человек и нет пароля.",
		ErrorTitle:      "Запрос авторизации отклонён",
		ErrorIntro:      "Вы видите эту страницу вместо возврата в приложение: сервер не может быть уверен, куда вас отправить. Передайте разработчику приложения:",
		Other:           "English",
		How: map[string]string{
			"pre-registered":    "зарегистрировано до запуска сервера",
			"registered":        "зарегистрировалось само через /register (RFC 7591)",
			"metadata document": "описано своим документом метаданных клиента по этому URL",
		},
		Scope: map[string]string{
			ScopeTools:            "видеть инструменты MCP-сервера и вызывать их (кроме развёртывания в production)",
			ScopeDeployProduction: "развёртывать сервисы в production: deploy_service с env=production",
		},
	},
}

// style borrows static/wirelab.css's colours, light and dark, so the
// page looks at home beside the playground without depending on it.
const style = `
:root { --bg:#fff; --ink:#1b1f24; --muted:#59636e; --rule:#d1d9e0; --code-bg:#f6f8fa;
  --accent:#0b6e4f; --on-accent:#fff; --link:#0969da; --warn:#9a3412; --danger:#b91c1c; color-scheme:light; }
@media (prefers-color-scheme: dark) { :root { --bg:#0d1117; --ink:#e6edf3; --muted:#9198a1; --rule:#3d444d;
  --code-bg:#151b23; --accent:#3fb985; --on-accent:#0d1117; --link:#4493f8; --warn:#f0a050; --danger:#f47067; color-scheme:dark; } }
body { background:var(--bg); color:var(--ink); font:1rem/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;
  max-width:40rem; margin:2rem auto; padding:0 1rem; overflow-wrap:break-word; }
header { display:flex; justify-content:space-between; border-bottom:1px solid var(--rule); padding-bottom:.5rem; }
.brand { font-weight:700; } a { color:var(--link); }
h1 { font-size:1.4rem; } .note { color:var(--muted); }
code { font:.875rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; background:var(--code-bg);
  padding:.1em .3em; border-radius:4px; overflow-wrap:anywhere; }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; vertical-align:top; padding:.4rem .6rem; border-bottom:1px solid var(--rule); }
th { color:var(--muted); font-weight:600; white-space:nowrap; }
.warn { color:var(--warn); } .error { border-left:3px solid var(--danger); padding:.4em .8em; }
.buttons { display:flex; gap:.75rem; margin-top:1.5rem; }
button { font:inherit; padding:.45rem 1.2rem; border-radius:6px; border:1px solid var(--rule);
  background:var(--bg); color:var(--ink); cursor:pointer; }
button.allow { background:var(--accent); border-color:var(--accent); color:var(--on-accent); font-weight:600; }
button:focus-visible { outline:2px solid var(--link); outline-offset:2px; }
`

var pages = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.T.Title}}</title><style>` + style + `</style></head>
<body>
<header><span class="brand">{{.T.Brand}}</span>{{if .Switch}}<a href="{{.Switch}}">{{.T.Other}}</a>{{end}}</header>
<h1>{{.T.Heading}}</h1>
<p class="note">{{.T.Intro}}</p>
<table>
<tr><th>{{.T.Client}}</th><td><strong>{{.ClientName}}</strong><br><code>{{.ClientID}}</code><br><span class="note">{{.How}}</span></td></tr>
<tr><th>{{.T.RedirectTo}}</th><td><code>{{.RedirectHost}}</code>{{if .Loopback}}<br><span class="warn">{{.T.LoopbackWarning}}</span>{{end}}</td></tr>
<tr><th>{{.T.Resource}}</th><td>{{if .Resource}}<code>{{.Resource}}</code>{{else}}<span class="warn">{{.T.NoResource}}</span>{{end}}</td></tr>
<tr><th>{{.T.Scopes}}</th><td>{{range .Scopes}}<code>{{.Name}}</code>: {{.Text}}<br>{{end}}</td></tr>
</table>
<form method="post" action="/authorize">
{{range .Fields}}<input type="hidden" name="{{.Name}}" value="{{.Value}}">
{{end}}<input type="hidden" name="lang" value="{{.Lang}}">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<div class="buttons"><button class="allow" name="decision" value="allow">{{.T.Allow}}</button>
<button name="decision" value="deny">{{.T.Deny}}</button></div>
</form>
<p class="note">{{.T.Person}}</p>
</body>
</html>
`))

var errorPage = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.T.ErrorTitle}}</title><style>` + style + `</style></head>
<body>
<header><span class="brand">{{.T.Brand}}</span></header>
<h1>{{.T.ErrorTitle}}</h1>
<p>{{.T.ErrorIntro}}</p>
<p class="error"><code>{{.Code}}</code>: {{.Description}}</p>
</body>
</html>
`))

type scopeLine struct{ Name, Text string }
type field struct{ Name, Value string }

// showConsent writes the consent page for a checked request. The form
// repeats the request's own parameters, as sent, so that POST
// /authorize checks exactly what the person saw.
func (s *Server) showConsent(w http.ResponseWriter, lang string, req *authRequest, q url.Values, csrf string) {
	t := words[lang]
	u, _ := url.Parse(req.redirectURI) // checked already
	view := struct {
		Lang, CSRF, Switch                      string
		T                                       texts
		ClientName, ClientID, How, RedirectHost string
		Loopback                                bool
		Resource                                string
		Scopes                                  []scopeLine
		Fields                                  []field
	}{
		Lang: lang, CSRF: csrf, T: t,
		ClientName: req.client.name, ClientID: req.client.id, How: t.How[req.client.how],
		// MCP security considerations: the server "MUST clearly display
		// the redirect URI hostname", and warn when it is localhost.
		RedirectHost: u.Host,
		Loopback:     isLoopbackIP(u.Hostname()) || u.Hostname() == "localhost",
		Resource:     req.resource,
	}
	if view.ClientName == "" {
		view.ClientName = req.client.id
	}
	for _, sc := range req.scope {
		view.Scopes = append(view.Scopes, scopeLine{sc, t.Scope[sc]})
	}
	for _, name := range authParams {
		for _, v := range q[name] {
			view.Fields = append(view.Fields, field{name, v})
		}
	}
	other := url.Values{}
	for _, name := range authParams {
		if v, ok := q[name]; ok {
			other[name] = v
		}
	}
	other.Set("lang", map[string]string{"en": "ru", "ru": "en"}[lang])
	view.Switch = AuthorizePath + "?" + other.Encode()
	writePage(w, http.StatusOK, pages, view)
}

// errorPage shows a refusal to the person instead of redirecting. The
// error and its description are the RFC's ASCII English, the same words
// a redirect would carry; the text around them is in the page's language.
func (s *Server) errorPage(w http.ResponseWriter, lang string, status int, code, description string) {
	writePage(w, status, errorPage, struct {
		Lang, Code, Description string
		T                       texts
	}{lang, code, description, words[lang]})
}

// writePage renders a page whole before sending it, so that it goes out
// with a Content-Length, and keeps it out of caches and out of frames: a
// page that can be framed can be covered by another site's decoy, which
// then steers the person's click onto Allow (clickjacking, RFC 6819
// section 4.4.1.9).
func writePage(w http.ResponseWriter, status int, t *template.Template, data any) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		panic("oauth: rendering a page: " + err.Error()) // the data is always the template's own type
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	w.Write(b.Bytes())
}
