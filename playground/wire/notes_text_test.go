package wire

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestWordingHasBothLanguages: every note is worded in English and in
// Russian, with the same fmt verbs in the same order, so that neither
// language misses a note or prints %!d(MISSING).
func TestWordingHasBothLanguages(t *testing.T) {
	verbs := regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?[a-zA-Z%]`)
	for key := range noteKeys {
		w := wordingOf(key)
		if w.en == "" || w.ru == "" {
			t.Errorf("note %d: en %q, ru %q: both are wanted", key, w.en, w.ru)
			continue
		}
		if diff := cmp.Diff(verbs.FindAllString(w.en, -1), verbs.FindAllString(w.ru, -1)); diff != "" {
			t.Errorf("note %d: the verbs differ (-en +ru):\n%s", key, diff)
		}
		// A note with words in it has Russian words in its Russian: one
		// copied over untranslated is caught here.
		words := verbs.ReplaceAllString(w.en, "")
		if strings.ContainsFunc(words, unicode.IsLetter) && !strings.ContainsFunc(w.ru, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) {
			t.Errorf("note %d: %q has no Russian in it", key, w.ru)
		}
	}
}

// TestNoticeWordsItsParts: a notice that says another words both in the
// same language, and reads as English wherever it is only an error.
func TestNoticeWordsItsParts(t *testing.T) {
	n := say(noteStoppedAfter, say(noteReadingBody), exchangeTimeout)
	if got, want := n.in(langRU), "чтение тела: остановлено через 1m0s (поток открыт, пока сервер его не закончит)"; got != want {
		t.Errorf("in Russian: %q, want %q", got, want)
	}
	if got, want := n.Error(), "reading the body: stopped after 1m0s (a stream stays open until the server ends it)"; got != want {
		t.Errorf("as an error: %q, want %q", got, want)
	}
}

// TestLangOf: the pages' rule, ?lang= before the cookie, the cookie
// before Accept-Language, English by default and for anything else.
func TestLangOf(t *testing.T) {
	for _, tt := range []struct {
		query, cookie, accept string
		want                  lang
	}{
		{"", "", "ru-RU,ru;q=0.9,en;q=0.8", langRU},
		{"", "", "de-DE,de;q=0.9", langEN},
		{"", "", "en-US,en;q=0.9,ru;q=0.8", langEN},
		{"", "en", "ru-RU", langEN},
		{"?lang=en", "", "ru", langEN},
		{"", "", "", langEN},
		{"", "ru", "", langRU},
		{"", "en", "", langEN},
		{"?lang=ru", "", "", langRU},
		{"?lang=en", "ru", "", langEN},
		{"?lang=ru", "en", "", langRU},
		{"?lang=fr", "ru", "", langRU},
		{"", "de", "", langEN},
	} {
		r := httptest.NewRequest("GET", "/ws"+tt.query, nil)
		if tt.cookie != "" {
			r.AddCookie(&http.Cookie{Name: "lang", Value: tt.cookie})
		}
		if tt.accept != "" {
			r.Header.Set("Accept-Language", tt.accept)
		}
		if got := langOf(r); got != tt.want {
			t.Errorf("query %q, cookie %q, Accept-Language %q: %q, want %q", tt.query, tt.cookie, tt.accept, got, tt.want)
		}
	}
}

// TestNotesInThePagesLanguage: a tab of a Russian page (by its cookie, or
// by ?lang=) gets the playground's notes and refusals in Russian, and a
// tab of an English page in English; headers and numbers stay as they
// are in both.
func TestNotesInThePagesLanguage(t *testing.T) {
	api := httptest.NewServer(httpjson.NewServer(tools.New(nil), nil))
	defer api.Close()
	_, srv := startHub(t, Targets{HTTPURL: api.URL})
	frame := "POST /execute HTTP/1.1\nContent-Type: application/json\n\n{\"name\":\"word_count\",\"args\":{\"text\":\"read the wire\"}}\n"
	for _, tt := range []struct {
		name           string
		suffix, cookie string
		host, length   string // the starts of the two fix notes
		refusal        string
		grpcTo         string // the start of the refusal of a custom-grpc "to"
		exit           string // the start of a restarted server's exit note
	}{
		{"cookie ru", "", "ru", "добавлен Host: 127.0.0.1:", "добавлен Content-Length: 53, длина тела",
			`неизвестная операция "dance": страница отправляет "send" или "restart"`, `custom-grpc: неизвестный параметр "-bogus"`, "сервер остановлен ("},
		{"query ru", "?lang=ru", "en", "добавлен Host: 127.0.0.1:", "добавлен Content-Length: 53, длина тела",
			`неизвестная операция "dance": страница отправляет "send" или "restart"`, `custom-grpc: неизвестный параметр "-bogus"`, "сервер остановлен ("},
		{"cookie en", "", "en", "added Host: 127.0.0.1:", "added Content-Length: 53, the body's length",
			`unknown op "dance": the page sends "send" or "restart"`, `custom-grpc: unknown option "-bogus"`, "the server was stopped ("},
		{"no cookie", "", "", "added Host: 127.0.0.1:", "added Content-Length: 53, the body's length",
			`unknown op "dance": the page sends "send" or "restart"`, `custom-grpc: unknown option "-bogus"`, "the server was stopped ("},
	} {
		t.Run(tt.name, func(t *testing.T) {
			header := http.Header{"Origin": {srv.URL}}
			if tt.cookie != "" {
				header.Set("Cookie", "lang="+tt.cookie)
			}
			conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+tt.suffix, header)
			if err != nil {
				t.Fatalf("dial: %v (%v)", err, resp)
			}
			defer conn.Close()

			send(t, conn, Command{Op: "send", ID: 1, Target: "http", Frame: frame})
			var fixes []string
			for len(fixes) < 2 {
				fixes = append(fixes, next(t, conn, func(ev Event) bool { return ev.Kind == "fix" }).Text)
			}
			if !strings.HasPrefix(fixes[0], tt.host) || fixes[1] != tt.length {
				t.Errorf("fixes %q, want %q... and %q", fixes, tt.host, tt.length)
			}
			next(t, conn, func(ev Event) bool { return ev.Kind == "end" })

			send(t, conn, Command{Op: "dance", ID: 2})
			if ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" }); ev.Message != tt.refusal {
				t.Errorf("refusal %q, want %q", ev.Message, tt.refusal)
			}
			send(t, conn, Command{Op: "restart", ID: 3, Target: "custom-grpc", To: "127.0.0.1:1 -bogus"})
			if ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" }); !strings.HasPrefix(ev.Message, tt.grpcTo) {
				t.Errorf("refusal %q, want %q...", ev.Message, tt.grpcTo)
			}

			send(t, conn, Command{Op: "send", ID: 4, Target: "stdio", Frame: `{"name":"word_count","args":{"text":"a b"}}`})
			next(t, conn, func(ev Event) bool { return ev.Dir == "in" })
			send(t, conn, Command{Op: "restart", Target: "stdio"})
			if ev := next(t, conn, func(ev Event) bool { return ev.Kind == "exit" }); !strings.HasPrefix(ev.Text, tt.exit) {
				t.Errorf("exit note %q, want %q...", ev.Text, tt.exit)
			}
		})
	}
}
