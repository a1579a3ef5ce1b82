package playground

import (
	"net/http/httptest"
	"regexp"
	"testing"
	"unicode"

	"github.com/wirelab/wirelab/playground/wire"
)

var (
	// latinWord is a word of a template's English name that can be
	// prose: three letters or more.
	latinWord = regexp.MustCompile(`[A-Za-z]{3,}`)
	// frameWord is a word of a frame, of any length.
	frameWord = regexp.MustCompile(`[A-Za-z]+`)
)

// prose is the words of name that are not words of frame: the English
// around the wire's own tokens ("with", "token" in "GET /tools without a
// token (401)"), which a Russian page must translate. A method, header,
// key or tool name is on the wire, so it is a word of the frame too.
func prose(name, frame string) []string {
	onWire := map[string]bool{}
	for _, w := range frameWord.FindAllString(frame, -1) {
		onWire[w] = true
	}
	var ws []string
	for _, w := range latinWord.FindAllString(name, -1) {
		if !onWire[w] {
			ws = append(ws, w)
		}
	}
	return ws
}

func hasCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// TestTemplateNamesRU: every template of every console has a Russian
// name; one whose English name has prose has it in Russian, and one
// left untranslated (a name all of the wire) is the English name exactly.
func TestTemplateNamesRU(t *testing.T) {
	for _, c := range consoles() {
		for _, tpl := range c.Templates {
			switch words := prose(tpl.Name, tpl.Frame); {
			case tpl.NameRU == "":
				t.Errorf("/console/%s: template %q (%s) has no Russian name", c.Slug, tpl.Name, tpl.Target)
			case len(words) > 0 && !hasCyrillic(tpl.NameRU):
				t.Errorf("/console/%s: template %q (%s) has prose %q, but its Russian name %q is not in Russian", c.Slug, tpl.Name, tpl.Target, words, tpl.NameRU)
			case !hasCyrillic(tpl.NameRU) && tpl.NameRU != tpl.Name:
				t.Errorf("/console/%s: template %q (%s) keeps its English name on a Russian page, but changed: %q", c.Slug, tpl.Name, tpl.Target, tpl.NameRU)
			}
		}
	}
}

// TestConsoleTemplateNamesByLang: a console page lists its templates
// under the names of its language, in the composer's order: the
// Russian page under their Russian names, the English page under the
// English ones.
func TestConsoleTemplateNamesByLang(t *testing.T) {
	mux := routes(nil, nil, nil, newConsoleSite(wire.Targets{}, nil), nil, nil)
	for _, c := range consoles() {
		for _, l := range []lang{en, ru} {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "/console/"+c.Slug+"?lang="+string(l), nil)
			req.RemoteAddr = "127.0.0.1:5000"
			mux.ServeHTTP(rec, req)
			got := consoleDataOf(t, rec.Body.String()).Templates
			if len(got) != len(c.Templates) {
				t.Fatalf("/console/%s?lang=%s: %d templates, want %d", c.Slug, l, len(got), len(c.Templates))
			}
			for i, tpl := range c.Templates {
				want := tpl.Name
				if l == ru {
					want = tpl.NameRU
				}
				if got[i].Name != want {
					t.Errorf("/console/%s?lang=%s: template %d is named %q, want %q", c.Slug, l, i, got[i].Name, want)
				}
			}
		}
	}
}
