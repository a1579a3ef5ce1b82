package playground

import (
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"

	"github.com/wirelab/wirelab/protocols/tools"
)

func TestHome(t *testing.T) {
	h := New(tools.New(nil), &Options{HTTPURL: "http://127.0.0.1:9999", GRPCAddr: "127.0.0.1:9998",
		MCPURL: "http://127.0.0.1:9997/mcp", A2AURL: "http://127.0.0.1:9996"})
	for _, tt := range []struct {
		path, host string
		status     int
		contains   string
	}{
		{"/", "127.0.0.1:8018", 200, `<code>word_count</code>`},
		{"/", "127.0.0.1:8018", 200, `curl -s http://127.0.0.1:9999/tools`},
		{"/", "127.0.0.1:8018", 200, `1.1 (also serves 1.0)`},
		{"/", "127.0.0.1:8018", 200, `wirelab client grpc --addr 127.0.0.1:9998 --wire word_count`},
		{"/", "127.0.0.1:8018", 200, `wirelab client mcp --url http://127.0.0.1:9997/mcp word_count`},
		{"/", "127.0.0.1:8018", 200, `curl -s http://127.0.0.1:9996/.well-known/agent-card.json`},
		{"/static/wirelab.css", "localhost:8018", 200, `--accent`},
		{"/nope", "127.0.0.1:8018", 404, ""},
		{"/", "attacker.example", http.StatusMisdirectedRequest, "its own address"},
	} {
		r := httptest.NewRequest("GET", tt.path, nil)
		r.Host = tt.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.contains) {
			t.Errorf("GET %s (Host %s) = %d, want %d containing %q; body:\n%.300s", tt.path, tt.host, w.Code, tt.status, tt.contains, w.Body.String())
		}
	}
}

func TestHomeWithoutHTTPServer(t *testing.T) {
	h := New(tools.New(nil), nil)
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/", nil)
	r.Host = "127.0.0.1:8018"
	h.ServeHTTP(w, r)
	if w.Code != 200 || strings.Contains(w.Body.String(), "Try it") || !strings.Contains(w.Body.String(), "not started") {
		t.Errorf("home without an HTTP server: %d\n%s", w.Code, w.Body.String())
	}
}

// TestHomeLanguages checks the home page in each language, chosen as on
// every page: ?lang=, else the cookie, else English.
func TestHomeLanguages(t *testing.T) {
	h := New(tools.New(nil), &Options{HTTPURL: "http://127.0.0.1:9999"})
	ruCookie := &http.Cookie{Name: "lang", Value: "ru"}
	english := []string{`<html lang="en">`, "<h2>Servers</h2>", "<h2>Try it</h2>", "<h2>Tools</h2>",
		`<a href="/learn/">Start the course</a>`, `<a href="/console/">Consoles</a>`, `<a href="/five-wires">Five wires</a>`,
		`<span class="live">live</span> at <code class="address">http://127.0.0.1:9999</code>`,
		"runs as a child process of its client", "not started (over stdio: <code>wirelab server mcp</code>)",
		"1.1 (also serves 1.0)", "<th>What it does</th>"}
	russian := []string{`<html lang="ru">`, "<h2>Серверы</h2>", "<h2>Попробуйте</h2>", "<h2>Инструменты</h2>",
		`<a href="/learn/">Начать курс</a>`, `<a href="/console/">Консоли</a>`, `<a href="/five-wires">Пять проводов</a>`,
		`<span class="live">работает</span> по адресу <code class="address">http://127.0.0.1:9999</code>`,
		"запускается как дочерний процесс своего клиента", "не запущен (через stdio: <code>wirelab server mcp</code>)",
		"1.1 (обслуживает и 1.0)", "<th>Что делает</th>"}
	for _, tt := range []struct {
		name, target string
		cookie       *http.Cookie
		want, not    []string
	}{
		{"English by default", "/", nil, english, russian},
		{"Russian asked for", "/?lang=ru", nil, russian, english},
		{"Russian remembered", "/", ruCookie, russian, english},
		{"the query beats the cookie", "/?lang=en", ruCookie, english, russian},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var cookies []*http.Cookie
			if tt.cookie != nil {
				cookies = append(cookies, tt.cookie)
			}
			w := get(h, tt.target, cookies...)
			body := w.Body.String()
			if w.Code != http.StatusOK || w.Header().Get("Vary") != "Cookie, Accept-Language" {
				t.Errorf("GET %s = %d, Vary %q", tt.target, w.Code, w.Header().Get("Vary"))
			}
			for _, s := range tt.want {
				if !strings.Contains(body, s) {
					t.Errorf("GET %s: no %s in\n%s", tt.target, s, body)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(body, s) {
					t.Errorf("GET %s: %s should not be there", tt.target, s)
				}
			}
		})
	}
	// Without a choice, the browser's preference decides.
	for _, tt := range []struct {
		accept string
		cookie *http.Cookie
		want   []string
	}{
		{"ru-RU,ru;q=0.9,en;q=0.8", nil, russian},
		{"ru", nil, russian},
		{"en-US,ru;q=0.5", nil, english},
		{"de-DE,de;q=0.9", nil, english},
		{"not a header;;;", nil, english},
		{"ru-RU", &http.Cookie{Name: "lang", Value: "en"}, english}, // a choice made beats the browser's
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = "127.0.0.1:8018"
		r.Header.Set("Accept-Language", tt.accept)
		if tt.cookie != nil {
			r.AddCookie(tt.cookie)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if !strings.Contains(w.Body.String(), tt.want[0]) {
			t.Errorf("Accept-Language %q (cookie %v): want %s", tt.accept, tt.cookie, tt.want[0])
		}
	}
	// Choosing on the home page is remembered for the course.
	set := get(h, "/?lang=ru").Result().Cookies()
	if len(set) != 1 || set[0].Name != "lang" || set[0].Value != "ru" {
		t.Fatalf("GET /?lang=ru set cookies %v", set)
	}
	if body := get(h, "/learn/", set...).Body.String(); !strings.Contains(body, `<html lang="ru">`) {
		t.Errorf("the cookie from the home page did not choose Russian for the course")
	}
}

// TestHomeToolDescriptions: the home page describes each tool in its own
// language; every tool of the catalogue has a Russian description, so a
// tool added or reworded without one fails here.
func TestHomeToolDescriptions(t *testing.T) {
	cat := tools.New(nil)
	h := New(cat, &Options{})
	en, ru := get(h, "/").Body.String(), get(h, "/?lang=ru").Body.String()
	for _, d := range cat.List() {
		translated := toolDescriptionsRU[d.Description]
		if !strings.ContainsFunc(translated, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) {
			t.Errorf("%s has no Russian description", d.Name)
			continue
		}
		if !strings.Contains(en, html.EscapeString(d.Description)) || strings.Contains(en, html.EscapeString(translated)) {
			t.Errorf("the English home page does not describe %s in English only", d.Name)
		}
		if !strings.Contains(ru, html.EscapeString(translated)) || strings.Contains(ru, html.EscapeString(d.Description)) {
			t.Errorf("the Russian home page does not describe %s in Russian only", d.Name)
		}
	}
}
