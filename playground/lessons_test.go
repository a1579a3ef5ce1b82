package playground

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wirelab/wirelab/protocols/tools"
)

// get asks h for a page as a browser on this machine would.
func get(h http.Handler, target string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", target, nil)
	r.Host = "127.0.0.1:8018"
	for _, c := range cookies {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestCoursePages(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	ruCookie := &http.Cookie{Name: "lang", Value: "ru"}
	for _, tt := range []struct {
		name, target string
		cookie       *http.Cookie
		status       int
		want, not    []string
	}{
		{"list, English by default", "/learn/", nil, 200,
			[]string{`<html lang="en">`, "<h1>Course</h1>", `<a href="/learn/mcp-by-hand" title="`, `<span class="lesson-num">07</span>`,
				`<span class="lesson-title">Talk to an MCP server by hand</span>`, `href="/learn/?lang=ru"`},
			[]string{"Разговор"}},
		{"list in Russian", "/learn/?lang=ru", nil, 200,
			[]string{`<html lang="ru">`, "<h1>Курс</h1>", `<span class="lesson-title">Разговор с MCP-сервером вручную</span>`},
			[]string{"Talk to"}},
		{"list in the cookie's language", "/learn/", ruCookie, 200, []string{`<html lang="ru">`}, nil},
		{"the query beats the cookie", "/learn/?lang=en", ruCookie, 200, []string{`<html lang="en">`}, nil},
		{"an unknown language is ignored", "/learn/?lang=de", nil, 200, []string{`<html lang="en">`}, nil},
		{"lesson", "/learn/mcp-by-hand", nil, 200,
			[]string{
				"<title>Talk to an MCP server by hand · wirelab</title>",
				`<h1 class="lesson-heading">Talk to an MCP server by hand</h1>`,
				`<header class="course-head">`,
				`<a href="/learn/mcp-by-hand?lang=ru" hreflang="ru" lang="ru">RU</a>`,
				`<a href="/learn/mcp-by-hand?lang=en" hreflang="en" lang="en" aria-current="true">EN</a>`,
				`<nav class="toc" aria-label="Contents">`,
				`<li><a href="#1-initialize-the-session-starts-here">1. initialize: the session starts here</a></li>`,
				`<h2 id="1-initialize-the-session-starts-here">`,
				`<aside class="lesson-intro" aria-label="About this lesson"><p class="lesson-intro-time">About 25 minutes</p>`,
				`Take first: <a href="/learn/mcp">MCP: one plug for every agent</a>`,
				`<div class="frame" data-target="mcp-stdio">`,
				`<button type="button" class="frame-send">Send</button>`,
				`<table>`, `type="checkbox"`, `class="chroma"`,
				`<a class="pager-all" href="/learn/">All lessons</a>`,
			}, nil},
		{"lesson in Russian", "/learn/mcp-by-hand?lang=ru", nil, 200,
			[]string{`<html lang="ru">`, `<nav class="toc" aria-label="Содержание">`,
				`<a href="#1-initialize-с-него-начинается-сессия">`,
				`<button type="button" class="frame-send">Отправить</button>`,
				`<p class="lesson-intro-title">После урока вы сможете:</p>`},
			[]string{`class="frame-send">Send<`}},
		{"embedded lesson", "/learn/mcp-by-hand?embed=1&lang=ru", nil, 200,
			[]string{`<body class="course embed">`, `<h1 class="lesson-heading">Разговор с MCP-сервером вручную</h1>`, `<article class="lesson" data-lesson="mcp-by-hand">`,
				`<div class="frame" data-target="mcp-stdio">`, "Отправить"},
			[]string{"<header", `class="toc"`, `class="pager"`, `class="lang-switch"`, `href="/learn/"`}},
		{"unknown lesson", "/learn/no-such-lesson", nil, 404,
			[]string{"<h1>No such lesson</h1>", "<code>/learn/no-such-lesson</code>", `<p><a href="/learn/">All lessons</a></p>`}, nil},
		{"unknown lesson in Russian", "/learn/no-such-lesson", ruCookie, 404,
			[]string{"<h1>Такого урока нет</h1>", `<a href="/learn/">Все уроки</a>`}, nil},
		{"the course's stylesheets", "/static/lesson.css", nil, 200, []string{".frame-send"}, nil},
		{"the code's colours", "/static/highlight.css", nil, 200, []string{":root[data-theme=dark] .chroma .nt"}, nil},
		{"home links to the course", "/", nil, 200, []string{`href="/learn/"`}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var cookies []*http.Cookie
			if tt.cookie != nil {
				cookies = append(cookies, tt.cookie)
			}
			w := get(h, tt.target, cookies...)
			body := w.Body.String()
			if w.Code != tt.status {
				t.Errorf("GET %s = %d, want %d", tt.target, w.Code, tt.status)
			}
			for _, s := range tt.want {
				if !strings.Contains(body, s) {
					t.Errorf("GET %s: no %s in\n%s", tt.target, s, body)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(body, s) {
					t.Errorf("GET %s: %s should not be in\n%s", tt.target, s, body)
				}
			}
		})
	}
}

func TestLangCookie(t *testing.T) {
	h := New(tools.New(nil), nil)
	for _, tt := range []struct {
		target string
		want   string // the cookie set, or "" for none
	}{
		{"/learn/?lang=ru", "ru"},
		{"/learn/mcp-by-hand?lang=en", "en"},
		{"/learn/", ""},
		{"/learn/?lang=de", ""},
		{"/learn/mcp-by-hand?lang=ru&embed=1", ""}, // an iframe does not choose for the learner
	} {
		w := get(h, tt.target)
		var got string
		for _, c := range w.Result().Cookies() {
			if c.Name != "lang" {
				continue
			}
			got = c.Value
			if c.Path != "/" || c.MaxAge <= 0 {
				t.Errorf("GET %s: cookie %v should last and cover every page", tt.target, c)
			}
		}
		if got != tt.want {
			t.Errorf("GET %s set lang=%q, want %q", tt.target, got, tt.want)
		}
	}
	// And the cookie it sets is the one it reads.
	set := get(h, "/learn/?lang=ru").Result().Cookies()
	if body := get(h, "/learn/mcp-by-hand", set...).Body.String(); !strings.Contains(body, `<html lang="ru">`) {
		t.Errorf("the cookie from ?lang=ru did not choose Russian:\n%.300s", body)
	}
}

// TestCourseHostCheck checks that the course pages are behind the same
// guard as the rest of the playground.
func TestCourseHostCheck(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	for _, target := range []string{"/learn/", "/learn/mcp-by-hand", "/learn/nope", "/static/lesson.css"} {
		for _, host := range []string{"attacker.example", "attacker.example:8018"} {
			r := httptest.NewRequest("GET", target, nil)
			r.Host = host
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusMisdirectedRequest || strings.Contains(w.Body.String(), "<html") {
				t.Errorf("GET %s with Host %s = %d:\n%.200s", target, host, w.Code, w.Body.String())
			}
		}
		if w := get(h, target); w.Code == http.StatusMisdirectedRequest {
			t.Errorf("GET %s from this machine refused: %s", target, w.Body.String())
		}
	}
}

// threeLessons is a small course for the parts one lesson cannot show.
func threeLessons() fstest.MapFS {
	c := fstest.MapFS{}
	for _, l := range []string{"en", "ru"} {
		for _, f := range []struct{ name, title string }{
			{"01-first.md", "First"}, {"02-second.md", "Second"}, {"10-last.md", "Last"},
		} {
			c[l+"/"+f.name] = &fstest.MapFile{Data: []byte("# " + f.title + " " + l + "\n\n## Part\n\ntext\n")}
		}
	}
	return c
}

func TestPreviousAndNext(t *testing.T) {
	mux := routes(nil, nil, newLessonSite(threeLessons()), nil, nil, nil) // the course's routes are served, the rest unused
	for _, tt := range []struct {
		target    string
		want, not []string
	}{
		{"/learn/first", []string{`<a class="pager-next" rel="next" href="/learn/second"><span class="pager-label">Next</span> <span>Second en</span></a>`},
			[]string{"pager-prev"}},
		{"/learn/second?lang=ru", []string{
			`<a class="pager-prev" rel="prev" href="/learn/first"><span class="pager-label">Назад</span> <span>First ru</span></a>`,
			`<a class="pager-next" rel="next" href="/learn/last"><span class="pager-label">Дальше</span> <span>Last ru</span></a>`}, nil},
		{"/learn/last", []string{`href="/learn/second"`}, []string{"pager-next"}},
		{"/learn/", []string{`<span class="lesson-num">01</span>`, `<span class="lesson-num">02</span>`, `<span class="lesson-num">10</span>`}, nil},
	} {
		body := get(mux, tt.target).Body.String()
		for _, s := range tt.want {
			if !strings.Contains(body, s) {
				t.Errorf("GET %s: no %s in\n%s", tt.target, s, body)
			}
		}
		for _, s := range tt.not {
			if strings.Contains(body, s) {
				t.Errorf("GET %s: %s should not be in\n%s", tt.target, s, body)
			}
		}
	}
	if w := get(mux, "/learn"); w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "/learn/" {
		t.Errorf("GET /learn = %d to %q", w.Code, w.Header().Get("Location"))
	}
}
