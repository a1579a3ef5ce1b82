package playground

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/chapters"
	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/playground/course"
	"github.com/wirelab/wirelab/protocols/tools"
)

// specHosts are the sites a lesson may link to outside the playground:
// the specifications it teaches from. Nothing outside can be checked
// offline, so the list is short on purpose.
var specHosts = []string{
	"modelcontextprotocol.io", "a2a-protocol.org", "grpc.io", "protobuf.dev",
	"www.rfc-editor.org", "datatracker.ietf.org", "spec.openapis.org",
	"json-schema.org", "www.jsonrpc.org", "github.com",
}

var (
	hrefAttr = regexp.MustCompile(`href="([^"]*)"`)
	idAttr   = regexp.MustCompile(`id="([^"]*)"`)
)

// TestLessonLinks follows every link of every lesson, in every language,
// in the playground itself: a page must answer 200, and an anchor must
// be an id on the page it points to. A link out of the playground may
// only go to a specification's site. And every lesson links every
// exercise that belongs to it.
func TestLessonLinks(t *testing.T) {
	h := New(tools.New(nil), &Options{HTTPURL: "http://127.0.0.1:9999", HTTPAuthURL: "http://127.0.0.1:9995", GRPCAddr: "127.0.0.1:9998",
		MCPURL: "http://127.0.0.1:9997/mcp", A2AURL: "http://127.0.0.1:9996"})
	c, err := course.Load(chapters.FS)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{} // body by address, fetched once
	page := func(l lang, path string) (string, int) {
		key := string(l) + " " + path
		if body, ok := pages[key]; ok {
			return body, http.StatusOK
		}
		w := get(h, path+"?lang="+string(l))
		if w.Code == http.StatusOK {
			pages[key] = w.Body.String()
		}
		return w.Body.String(), w.Code
	}
	for _, l := range allLangs() {
		for _, ls := range c.In(l) {
			where := string(l) + "/" + ls.Slug
			linked := map[string]bool{}
			for _, m := range hrefAttr.FindAllStringSubmatch(ls.HTML, -1) {
				href := strings.ReplaceAll(m[1], "&amp;", "&")
				u, err := url.Parse(href)
				if err != nil {
					t.Errorf("%s: link %q: %v", where, href, err)
					continue
				}
				switch {
				case u.Scheme == "https" || u.Scheme == "http":
					if u.Scheme != "https" || !slices.Contains(specHosts, u.Host) {
						t.Errorf("%s: link %q leaves the playground for a site that is not a specification's (https, one of %v)", where, href, specHosts)
					}
					continue
				case u.Scheme != "" || u.Host != "" || (u.Path != "" && !strings.HasPrefix(u.Path, "/")):
					t.Errorf("%s: link %q: a lesson links to /learn/..., /exercises/..., /console/..., /five-wires or #anchor", where, href)
					continue
				}
				body := ls.HTML
				if u.Path != "" {
					linked[u.Path] = true
					b, code := page(l, u.Path)
					if code != http.StatusOK {
						t.Errorf("%s: link %q: GET %s answers %d", where, href, u.Path, code)
						continue
					}
					body = b
				}
				if u.Fragment != "" && !hasID(body, u.Fragment) {
					t.Errorf("%s: link %q: no id %q on that page", where, href, u.Fragment)
				}
			}
			for _, e := range exercises.List() {
				if _, cur, _ := c.Find(l, e.Lesson); cur == nil {
					t.Errorf("exercise %s belongs to lesson %q, which the %s course does not have", e.ID, e.Lesson, l)
				}
				if e.Lesson == ls.Slug && !linked["/exercises/"+e.ID] {
					t.Errorf("%s: the lesson does not link its exercise /exercises/%s", where, e.ID)
				}
			}
		}
	}
}

func hasID(body, id string) bool {
	for _, m := range idAttr.FindAllStringSubmatch(body, -1) {
		if m[1] == id {
			return true
		}
	}
	return false
}

// TestLessonLinksCatch checks the check: a page that is not there, an
// anchor that is not there, and a site that is not a specification's.
func TestLessonLinksCatch(t *testing.T) {
	h := New(tools.New(nil), &Options{})
	if w := get(h, "/learn/no-such-lesson"); w.Code == http.StatusOK {
		t.Errorf("GET /learn/no-such-lesson = 200: a broken lesson link would pass")
	}
	if hasID(`<h2 id="a-b">`, "a-c") || !hasID(`<h2 id="a-b">`, "a-b") {
		t.Errorf("hasID does not tell ids apart")
	}
	if slices.Contains(specHosts, "example.com") {
		t.Errorf("example.com is not a specification's site")
	}
}
