package wire

import (
	"crypto/x509"
	"errors"
	"fmt"
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
	"github.com/wirelab/wirelab/static"
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

// TestRefusalsInThePagesLanguage: a Russian tab's refusals of a custom
// target, of its command line, of a gRPC call and of a TLS handshake
// are in Russian; Go's own errors, header names and addresses stay as
// they are.
func TestRefusalsInThePagesLanguage(t *testing.T) {
	api := httptest.NewTLSServer(http.NotFoundHandler())
	defer api.Close()
	_, srv := startHub(t, Targets{})
	conn := dialPath(t, srv, "?lang=ru")
	readHello(t, conn)
	addr := strings.TrimPrefix(api.URL, "https://")
	for _, tt := range []struct {
		name string
		c    Command
		want string
	}{
		{"no to", Command{Op: "send", ID: 1, Target: "custom-http", Frame: "GET / HTTP/1.1"},
			`для custom-http нужен "to": URL вашего сервера, например "http://127.0.0.1:9000/mcp"`},
		{"command line", Command{Op: "send", ID: 2, Target: "custom-stdio", To: `python3 "my_server.py`, Frame: "{}"},
			`непарная двойная кавычка в байте 8 командной строки: "python3 \"my_server.py"`},
		{"no restart", Command{Op: "restart", ID: 3, Target: "custom-http", To: "http://127.0.0.1:1/mcp"},
			"перезапускаются только серверы stdio и соединения gRPC; у custom-http нет нашего процесса или соединения"},
		{"no gRPC server", Command{Op: "send", ID: 4, Target: "grpc", Frame: "tools.v1.ToolServer/ListTools\n{}"},
			"в этой песочнице не запущен сервер gRPC"},
		{"grpc-timeout", Command{Op: "send", ID: 5, Target: "custom-grpc", To: "127.0.0.1:1", Frame: "tools.v1.ToolServer/ListTools\ngrpc-timeout: 5x\n{}"},
			`grpc-timeout "5x": gRPC записывает срок как не больше 8 цифр и единицу`},
		{"unknown authority", Command{Op: "send", ID: 6, Target: "custom-http", To: api.URL + "/mcp", Frame: "GET /mcp HTTP/1.1"},
			"TLS с " + addr + `: его сертификат подписан "", а проверка по системным корневым сертификатам этому центру не доверяет (неизвестный удостоверяющий центр); укажите после URL CA, который его подписал: -cacert FILE`},
	} {
		send(t, conn, tt.c)
		ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" })
		if ev.ID != tt.c.ID || !strings.HasPrefix(ev.Message, tt.want) {
			t.Errorf("%s: refusal %d %q, want %d %q...", tt.name, ev.ID, ev.Message, tt.c.ID, tt.want)
		}
	}
}

// TestDoctorReadsBothLanguages: the connection doctor (static/doctor.js)
// tells a failed step by words of the refusal; each of those notes, in
// English and in Russian, has words the doctor's pattern for that step
// matches. The pattern is the first regular expression literal on the
// line of doctor.js that answers with the step's key.
func TestDoctorReadsBothLanguages(t *testing.T) {
	doctor, err := static.FS.ReadFile("doctor.js")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile(`/((?:[^/\\\n]|\\.)+)/\.test\(`)
	pattern := func(key string) *regexp.Regexp {
		for line := range strings.SplitSeq(string(doctor), "\n") {
			if !strings.Contains(line, `key: "`+key+`"`) {
				continue
			}
			m := literal.FindStringSubmatch(line)
			if m == nil {
				break
			}
			return regexp.MustCompile(m[1])
		}
		t.Fatalf("doctor.js has no pattern for %q", key)
		return nil
	}
	const addr = "127.0.0.1:8443"
	for _, tt := range []struct {
		key  string
		note *notice
	}{
		{"notStarted", say(noteCouldNotStart, "nope", errors.New(`exec: "nope": executable file not found in $PATH`))},
		{"refused", say(noteConnecting, addr, errors.New("dial tcp 127.0.0.1:8443: connect: connection refused"))},
		{"tlsUnknown", tlsDiagnosis(addr, say(noteTrustsSystem), x509.UnknownAuthorityError{}, tlsAdvice{unknown: say(noteAdviceHTTPUnknown)})},
		{"tlsName", say(noteTLSWrongName, addr, say(noteVerbatim, "localhost"), "api.example.com", say(noteAdviceGRPCName))},
		{"tlsPlain", say(noteTLSNotTLS, addr, say(noteAdviceHTTPPlain))},
		{"tlsClientCert", say(noteNoClientCertNone, addr, say(noteServerAlert, "certificate required"))},
		{"tlsClientCert", say(noteNoClientCertUnsigned, addr, credsWords("the client certificate in c.pem"), say(noteAskedThenClosed))},
		{"tlsClientCert", say(noteClientCertRefused, addr, credsWords("the client certificate in c.pem"), "bad certificate")},
		{"timeout", say(noteStoppedAfter, say(noteReadingBody), exchangeTimeout)},
		{"timeout", say(noteGRPCCall, say(noteStoppedAfter, say(noteReadingAnswer), exchangeTimeout))},
	} {
		re := pattern(tt.key)
		for _, l := range []lang{langEN, langRU} {
			if text := tt.note.in(l); !re.MatchString(text) {
				t.Errorf("%s, %s: /%s/ does not match %q", tt.key, l, re, text)
			}
		}
	}
	// A stdio server that was stopped did not exit early: the doctor
	// passes over its exit note, in either language.
	re := pattern("exitEarly")
	for _, l := range []lang{langEN, langRU} {
		if text := say(noteStopped, "signal: killed").in(l); !re.MatchString(text) {
			t.Errorf("exitEarly, %s: /%s/ does not match %q", l, re, text)
		}
	}
}

// TestCredsWords: the words grpcDial and clientCertSays use for what
// verifies a certificate and which one this side presents are worded
// in Russian too; anything else is kept as it is.
func TestCredsWords(t *testing.T) {
	for _, tt := range []struct{ in, ru string }{
		{"the system roots", "системным корневым сертификатам"},
		{"this machine's system roots", "системным корневым сертификатам этой машины"},
		{"the CA in /tmp/ca.pem", "CA из /tmp/ca.pem"},
		{"the CA pasted on the page (upload:7)", "CA, вставленному на странице (upload:7)"},
		{"the client certificate in c.pem", "сертификат клиента из c.pem"},
		{"the client certificate pasted on the page (upload:8)", "сертификат клиента, вставленный на странице (upload:8)"},
		{"the system roots and more", "the system roots and more"},
	} {
		n := credsWords(tt.in)
		if got := n.Error(); got != tt.in {
			t.Errorf("%q in English: %q", tt.in, got)
		}
		if got := n.in(langRU); got != tt.ru {
			t.Errorf("%q in Russian: %q, want %q", tt.in, got, tt.ru)
		}
	}
}

// TestFollowersInTheirLanguage: each follower of a session hears its
// refusal and the session's end in its own page's language, whatever
// the others' and the tab's.
func TestFollowersInTheirLanguage(t *testing.T) {
	_, srv := startHub(t, Targets{})
	tab := dial(t, srv)
	id := readHello(t, tab).Session
	for _, tt := range []struct {
		lang, refusal string
	}{
		{"en", "this tab is watching session " + id + "; it cannot send"},
		{"ru", "эта вкладка наблюдает за сессией " + id + "; отправлять из неё нельзя"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			watcher := dialPath(t, srv, "?watch="+id+"&lang="+tt.lang)
			readHello(t, watcher)
			send(t, watcher, Command{Op: "send", ID: 1, Target: "http", Frame: "GET / HTTP/1.1"})
			if ev := next(t, watcher, func(ev Event) bool { return ev.Op == "error" }); ev.Message != tt.refusal {
				t.Errorf("refusal %q, want %q", ev.Message, tt.refusal)
			}
		})
	}
	en := dialPath(t, srv, "?watch="+id+"&lang=en")
	ru := dialPath(t, srv, "?watch="+id+"&lang=ru")
	readHello(t, en)
	readHello(t, ru)
	tab.Close()
	for conn, want := range map[*websocket.Conn]string{en: "the session you were watching ended", ru: "сессия, за которой вы наблюдали, закончилась"} {
		if ev := next(t, conn, func(ev Event) bool { return ev.Kind == "session-end" }); ev.Text != want {
			t.Errorf("session-end %q, want %q", ev.Text, want)
		}
	}
	// A follower refused before its websocket opens is told why in its
	// page's language too, for a developer's tools to show.
	status, body := dialStatus(t, srv, "?watch="+id+"&lang=ru", srv.URL)
	if want := "нет сессии " + fmt.Sprintf("%q", id) + ", за которой можно наблюдать: она закончилась"; status != http.StatusNotFound || !strings.HasPrefix(body, want) {
		t.Errorf("watching the ended session: %d %q, want 404 %q...", status, body, want)
	}
}
