package playground

import (
	"context"
	"io/fs"
	"mime"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/wirelab/wirelab/protocols/tools"
	"github.com/wirelab/wirelab/static"
)

// parse reads a page, failing the test if it is not HTML.
func parse(t *testing.T, body string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parsing the page: %v", err)
	}
	return doc
}

// all returns the elements under n that match, in document order.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var found []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && match(d) {
			found = append(found, d)
		}
	}
	return found
}

// first returns the first element under n that matches, or nil.
func first(n *html.Node, match func(*html.Node) bool) *html.Node {
	if found := all(n, match); len(found) > 0 {
		return found[0]
	}
	return nil
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// is matches elements by tag and, in pairs, attribute values: is("a",
// "rel", "next").
func is(tag string, attrs ...string) func(*html.Node) bool {
	return func(n *html.Node) bool {
		if n.Data != tag {
			return false
		}
		for i := 0; i+1 < len(attrs); i += 2 {
			if v, ok := attr(n, attrs[i]); !ok || v != attrs[i+1] {
				return false
			}
		}
		return true
	}
}

// textOf is the text under n, its spaces collapsed.
func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestEveryPageHasTheFrame checks the shared frame on every kind of page,
// in both languages: comfort.js before any stylesheet, the header with
// its sections, the language switch and the three buttons labelled in
// the page's language, and the list of shortcuts.
func TestEveryPageHasTheFrame(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	for _, target := range []string{"/", "/learn/", "/learn/mcp-by-hand", "/learn/no-such-lesson", "/exercises/", "/exercises/mcp-server"} {
		for _, l := range allLangs() {
			t.Run(target+" "+string(l), func(t *testing.T) {
				w := get(h, target+"?lang="+string(l))
				doc := parse(t, w.Body.String())
				ui := uiTextOf(l)
				if got, _ := attr(first(doc, is("html")), "lang"); got != string(l) {
					t.Errorf("<html lang=%q>, want %q", got, l)
				}

				// comfort.js runs before the first paint: in <head>,
				// neither deferred, async nor a module, before the
				// stylesheets. Every other script is an ES module.
				head := first(doc, is("head"))
				var order []string
				for _, n := range all(head, func(n *html.Node) bool { return n.Data == "script" || n.Data == "link" }) {
					src, _ := attr(n, "src")
					href, _ := attr(n, "href")
					order = append(order, src+href)
					if n.Data != "script" {
						continue
					}
					kind, _ := attr(n, "type")
					_, deferred := attr(n, "defer")
					_, async := attr(n, "async")
					if src == "/static/comfort.js" {
						if deferred || async || kind == "module" {
							t.Errorf("comfort.js is deferred, async or a module: the theme would flash")
						}
					} else if kind != "module" || deferred || async {
						t.Errorf("<script src=%q type=%q defer=%v async=%v>, want type=module alone (a module is deferred already)", src, kind, deferred, async)
					}
				}
				if len(order) == 0 || order[0] != "/static/comfort.js" {
					t.Errorf("head loads %v, want /static/comfort.js first", order)
				}

				header := first(doc, is("header"))
				if header == nil {
					t.Fatal("no header")
				}
				var links []string
				for _, a := range all(header, is("a")) {
					href, _ := attr(a, "href")
					key, _ := attr(a, "data-key")
					links = append(links, strings.Join(strings.Fields(href+" "+key+" "+textOf(a)), " "))
				}
				want := []string{"/ wirelab", "/learn/ l " + ui.Lessons, "/console/ c " + ui.Consoles, "/five-wires w " + ui.FiveWires, "/exercises/ x " + ui.Exercises}
				for _, other := range allLangs() {
					want = append(want, target+"?lang="+string(other)+" "+uiTextOf(other).Label)
				}
				if diff := cmp.Diff(want, links); diff != "" {
					t.Errorf("header links (-want +got):\n%s", diff)
				}

				for _, b := range []struct{ comfort, label, key string }{
					{"theme", ui.ThemeSystem, "t"},
					{"size", ui.LargeText, "f"},
					{"keys", ui.Shortcuts, "?"},
				} {
					n := first(header, is("button", "data-comfort", b.comfort))
					if n == nil {
						t.Errorf("no %s button", b.comfort)
						continue
					}
					label, _ := attr(n, "aria-label")
					title, _ := attr(n, "title")
					if label != b.label || title != b.label+" ("+b.key+")" {
						t.Errorf("%s button: aria-label %q, title %q; want %q and %q", b.comfort, label, title, b.label, b.label+" ("+b.key+")")
					}
				}
				theme := first(header, is("button", "data-comfort", "theme"))
				for _, s := range []struct{ attr, want string }{
					{"data-label-system", ui.ThemeSystem}, {"data-label-light", ui.ThemeLight}, {"data-label-dark", ui.ThemeDark},
				} {
					if got, _ := attr(theme, s.attr); got != s.want {
						t.Errorf("theme button %s=%q, want %q", s.attr, got, s.want)
					}
				}
				if got, _ := attr(first(header, is("button", "data-comfort", "size")), "aria-pressed"); got != "false" {
					t.Errorf("size button aria-pressed=%q, want false until comfort.js says", got)
				}

				list := first(doc, is("dialog", "id", "shortcuts"))
				if list == nil {
					t.Fatal("no shortcuts dialog")
				}
				var keys []string
				for _, k := range all(list, is("kbd")) {
					keys = append(keys, textOf(k))
				}
				if diff := cmp.Diff([]string{"?", "t", "f", "l", "c", "w", "x", "[", "]", "Ctrl+Enter", "⌘+Enter", "Esc"}, keys); diff != "" {
					t.Errorf("shortcut keys (-want +got):\n%s", diff)
				}
				if got := textOf(first(list, is("h2"))); got != ui.Shortcuts {
					t.Errorf("shortcuts title %q, want %q", got, ui.Shortcuts)
				}
				for _, s := range shortcuts(viewOf(l)) {
					if !strings.Contains(textOf(list), s.Text) {
						t.Errorf("the shortcuts list lacks %q", s.Text)
					}
				}
			})
		}
	}
}

// viewOf is the view of a page in a language, as a request would make it.
func viewOf(l lang) pageView {
	return pageView{uiText: uiTextOf(l), Path: "/"}
}

// TestEmbedIsBare checks that an embedded page has its text and its
// theme, and nothing around them.
func TestEmbedIsBare(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	for _, target := range []string{"/?embed=1", "/learn/?embed=1", "/learn/mcp-by-hand?embed=1&lang=ru"} {
		t.Run(target, func(t *testing.T) {
			w := get(h, target)
			doc := parse(t, w.Body.String())
			for _, tag := range []string{"header", "dialog", "nav"} {
				if n := first(doc, is(tag)); n != nil {
					t.Errorf("an embedded page has a <%s>", tag)
				}
			}
			if n := first(doc, func(n *html.Node) bool { _, ok := attr(n, "data-comfort"); return ok }); n != nil {
				c, _ := attr(n, "data-comfort")
				t.Errorf("an embedded page has the %s button", c)
			}
			if first(doc, is("script", "src", "/static/comfort.js")) == nil {
				t.Errorf("an embedded page should still follow the stored theme")
			}
			if class, _ := attr(first(doc, is("body")), "class"); !strings.Contains(class, "embed") {
				t.Errorf("<body class=%q>, want embed", class)
			}
			for _, c := range w.Result().Cookies() {
				t.Errorf("an embedded page set cookie %v", c)
			}
		})
	}
}

// TestLangSwitchKeepsThePage checks that the switch links to the same
// page, with the rest of its query, in the other language.
func TestLangSwitchKeepsThePage(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	for _, tt := range []struct {
		target string
		want   []string
	}{
		{"/", []string{"/?lang=en", "/?lang=ru"}},
		{"/learn/mcp-by-hand", []string{"/learn/mcp-by-hand?lang=en", "/learn/mcp-by-hand?lang=ru"}},
		{"/learn/mcp-by-hand?lang=ru", []string{"/learn/mcp-by-hand?lang=en", "/learn/mcp-by-hand?lang=ru"}},
		{"/learn/?step=2&lang=en", []string{"/learn/?lang=en&step=2", "/learn/?lang=ru&step=2"}},
	} {
		doc := parse(t, get(h, tt.target).Body.String())
		var got []string
		for _, a := range all(first(doc, is("nav", "class", "lang-switch")), is("a")) {
			href, _ := attr(a, "href")
			got = append(got, href)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("GET %s: switch links (-want +got):\n%s", tt.target, diff)
		}
	}
}

// TestViewFor checks the language rules every page shares.
func TestViewFor(t *testing.T) {
	ruCookie := &http.Cookie{Name: "lang", Value: "ru"}
	for _, tt := range []struct {
		target    string
		cookie    *http.Cookie
		lang      lang
		embed     bool
		setCookie string
	}{
		{"/", nil, en, false, ""},
		{"/?lang=ru", nil, ru, false, "ru"},
		{"/", ruCookie, ru, false, ""},
		{"/?lang=en", ruCookie, en, false, "en"},
		{"/?lang=xx", ruCookie, ru, false, ""},
		{"/?lang=ru&embed=1", nil, ru, true, ""},
		{"/?embed=1", ruCookie, ru, true, ""},
	} {
		r := httptest.NewRequest("GET", tt.target, nil)
		if tt.cookie != nil {
			r.AddCookie(tt.cookie)
		}
		w := httptest.NewRecorder()
		v := viewFor(w, r)
		var set string
		for _, c := range w.Result().Cookies() {
			set = c.Value
		}
		if v.Lang != tt.lang || v.Embed != tt.embed || set != tt.setCookie || v.Query.Has("lang") {
			t.Errorf("GET %s with %v: lang %s, embed %v, cookie %q, query %v; want %s, %v, %q",
				tt.target, tt.cookie, v.Lang, v.Embed, set, v.Query, tt.lang, tt.embed, tt.setCookie)
		}
	}
}

// TestPageAssets checks that a page's own stylesheets and scripts are
// in its head, after the shared ones, its scripts as ES modules in the
// order given, and that coursePage adds the course's stylesheets without
// touching the caller's list.
func TestPageAssets(t *testing.T) {
	v := viewOf(en)
	v.Styles = make([]string, 1, 4) // room to grow, which must not be used
	v.Styles[0] = "/static/console.css"
	v.Scripts = []string{"/static/console.js", "/static/exercise.js"}
	for _, tt := range []struct {
		name string
		page func(pageView) templ.Component
		want []string
	}{
		{"page", func(v pageView) templ.Component { return page(v, "t") }, []string{
			"script /static/comfort.js", "link /static/wirelab.css", "link /static/console.css",
			"script type=module /static/console.js", "script type=module /static/exercise.js"}},
		{"coursePage", func(v pageView) templ.Component { return coursePage(v, "t") }, []string{
			"script /static/comfort.js", "link /static/wirelab.css", "link /static/highlight.css", "link /static/lesson.css",
			"link /static/console.css", "script type=module /static/console.js", "script type=module /static/exercise.js"}},
	} {
		var b strings.Builder
		if err := tt.page(v).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		doc := parse(t, b.String())
		var got []string
		for _, n := range all(first(doc, is("head")), func(n *html.Node) bool { return n.Data == "script" || n.Data == "link" }) {
			s := n.Data
			for _, a := range n.Attr {
				switch a.Key {
				case "src", "href":
					s += " " + a.Val
				case "type":
					s += " type=" + a.Val
				case "defer", "async":
					s += " " + a.Key
				}
			}
			got = append(got, s)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: head (-want +got):\n%s", tt.name, diff)
		}
	}
	if diff := cmp.Diff([]string{"/static/console.css"}, v.Styles); diff != "" || v.Styles[:2][1] != "" {
		t.Errorf("coursePage changed the caller's styles: %v", v.Styles[:cap(v.Styles)])
	}
}

// TestComfortScript checks that the script every page loads is served,
// and is the comfort script.
func TestComfortScript(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	w := get(h, "/static/comfort.js")
	if w.Code != http.StatusOK {
		t.Fatalf("GET /static/comfort.js = %d", w.Code)
	}
	for _, s := range []string{"data-comfort", "localStorage", `getElementById("shortcuts")`, "showModal"} {
		if !strings.Contains(w.Body.String(), s) {
			t.Errorf("comfort.js lacks %s", s)
		}
	}
}

// javaScriptTypes are the MIME types the HTML standard counts as
// JavaScript: a browser runs no module served under any other type (a
// classic script it would run anyway), so a type from the system's
// mime.types that is not one of these would silently break every page.
var javaScriptTypes = []string{
	"text/javascript", "application/javascript", "application/ecmascript", "application/x-ecmascript",
	"application/x-javascript", "text/ecmascript", "text/javascript1.0", "text/javascript1.1",
	"text/javascript1.2", "text/javascript1.3", "text/javascript1.4", "text/javascript1.5",
	"text/jscript", "text/livescript", "text/x-ecmascript", "text/x-javascript",
}

// TestScriptsServedAsJavaScript checks that every script of static/ is
// served, with a type a browser accepts for an ES module.
func TestScriptsServedAsJavaScript(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	names, err := fs.Glob(static.FS, "*.js")
	if err != nil || len(names) == 0 {
		t.Fatalf("no scripts in static/: %v", err)
	}
	for _, name := range names {
		w := get(h, "/static/"+name)
		if w.Code != http.StatusOK {
			t.Errorf("GET /static/%s = %d", name, w.Code)
			continue
		}
		ct := w.Header().Get("Content-Type")
		if mt, _, err := mime.ParseMediaType(ct); err != nil || !slices.Contains(javaScriptTypes, mt) {
			t.Errorf("/static/%s is served as %q: a browser runs no module of that type", name, ct)
		}
	}
}

// TestEveryStringTranslated checks that no language leaves a string of
// the pages empty.
func TestEveryStringTranslated(t *testing.T) {
	for _, l := range allLangs() {
		v := reflect.ValueOf(uiTextOf(l))
		for i := range v.NumField() {
			if v.Field(i).IsZero() {
				t.Errorf("%s: %s is empty", l, v.Type().Field(i).Name)
			}
		}
	}
}
