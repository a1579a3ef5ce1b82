package playground

import (
	"net/http"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/tools"
)

// TestNotFound checks that a path no route serves gets the site's own
// 404 page, with the header and the stylesheet, in the reader's
// language, while the home page stays at / alone.
func TestNotFound(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	ruCookie := &http.Cookie{Name: "lang", Value: "ru"}
	layout := []string{`<link rel="stylesheet" href="/static/wirelab.css">`, `class="course-head"`, `<a href="/learn/">`}
	for _, tt := range []struct {
		name, target string
		cookie       *http.Cookie
		want         []string
	}{
		{"English", "/nope", nil, []string{`<html lang="en">`, "<h1>No such page</h1>", "There is nothing at <code>/nope</code>"}},
		{"a deeper path", "/a/b/c", nil, []string{"There is nothing at <code>/a/b/c</code>"}},
		{"Russian asked for", "/nope?lang=ru", nil, []string{`<html lang="ru">`, "<h1>Такой страницы нет</h1>", "Здесь ничего нет: <code>/nope</code>"}},
		{"Russian remembered", "/nope", ruCookie, []string{`<html lang="ru">`, "<h1>Такой страницы нет</h1>"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var cookies []*http.Cookie
			if tt.cookie != nil {
				cookies = append(cookies, tt.cookie)
			}
			w := get(h, tt.target, cookies...)
			if w.Code != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 404", tt.target, w.Code)
			}
			if ct := w.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("GET %s: Content-Type %q", tt.target, ct)
			}
			body := w.Body.String()
			for _, s := range append(layout, tt.want...) {
				if !strings.Contains(body, s) {
					t.Errorf("GET %s: no %s in\n%s", tt.target, s, body)
				}
			}
		})
	}
	// The fallback does not take the home page's place.
	if w := get(h, "/"); w.Code != http.StatusOK || strings.Contains(w.Body.String(), "No such page") {
		t.Errorf("GET / = %d, or it is the 404 page", w.Code)
	}
}
