package playground

import (
	"net/http"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/chapters"
	"github.com/wirelab/wirelab/playground/course"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestGlossary checks every entry of the glossary: an id used once, a
// term and a definition in every language, a lesson that exists, and
// that lesson linking the entry from its text in every language. The
// page shows every entry under its id, and each of its links to a lesson
// answers 200. (TestLessonLinks follows the lessons' links to the
// entries.)
func TestGlossary(t *testing.T) {
	c, err := course.Load(chapters.FS)
	if err != nil {
		t.Fatal(err)
	}
	h := New(tools.New(nil), &Options{})
	if _, ls, _ := c.Find(course.English, "glossary"); ls != nil {
		t.Errorf("a lesson is named glossary: /learn/glossary shows the glossary, never that lesson")
	}
	terms := glossary()
	if len(terms) < 30 {
		t.Errorf("the glossary has %d terms; the course needs about 30", len(terms))
	}
	seen := map[string]bool{}
	for _, g := range terms {
		if seen[g.ID] {
			t.Errorf("%s: two entries with this id", g.ID)
		}
		seen[g.ID] = true
		if g.Term.EN == "" || g.Term.RU == "" || g.Def.EN == "" || g.Def.RU == "" {
			t.Errorf("%s: a term and a definition are needed in every language: %+v", g.ID, g)
		}
		for _, l := range allLangs() {
			_, ls, _ := c.Find(l, g.Lesson)
			if ls == nil {
				t.Errorf("%s: taught in lesson %q, which the %s course does not have", g.ID, g.Lesson, l)
				continue
			}
			if !strings.Contains(ls.HTML, `href="/learn/glossary#`+g.ID+`"`) {
				t.Errorf("%s/%s teaches %q but does not link /learn/glossary#%s", l, g.Lesson, g.Term.In(string(l)), g.ID)
			}
		}
	}
	for _, l := range allLangs() {
		w := get(h, "/learn/glossary?lang="+string(l))
		if w.Code != http.StatusOK {
			t.Fatalf("GET /learn/glossary?lang=%s: %d", l, w.Code)
		}
		body := w.Body.String()
		for _, g := range terms {
			if !hasID(body, g.ID) || !strings.Contains(body, g.Def.In(string(l))) && !strings.Contains(body, escapeHTML(g.Def.In(string(l)))) {
				t.Errorf("%s glossary: no entry %s with its definition", l, g.ID)
			}
		}
		for _, m := range hrefAttr.FindAllStringSubmatch(body, -1) {
			if href := m[1]; strings.HasPrefix(href, "/learn/") && !strings.Contains(href, "?") {
				if code := get(h, href+"?lang="+string(l)).Code; code != http.StatusOK {
					t.Errorf("%s glossary: link %s answers %d", l, href, code)
				}
			}
		}
	}
	if w := get(h, "/learn/glossary?lang=ru"); !strings.Contains(w.Body.String(), "<h1>Словарь терминов</h1>") {
		t.Errorf("the Russian glossary has no Russian title")
	}
}

// escapeHTML is what templ writes for text: & < > " and ' escaped.
func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
