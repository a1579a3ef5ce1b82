package course

import (
	"bufio"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/static"
)

func mustRender(t *testing.T, src string, l Lang) Rendered {
	t.Helper()
	r, err := NewMarkdown().Render([]byte(src), l)
	if err != nil {
		t.Fatalf("render: %v\nsource:\n%s", err, src)
	}
	return r
}

func TestFrameMarkup(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		lang      Lang
		want      string
	}{
		{
			name: "one line",
			src:  "```frame mcp-stdio\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n```\n",
			lang: English,
			want: `<div class="frame" data-target="mcp-stdio"><div class="frame-head"><span class="frame-target">mcp-stdio</span>` +
				`<button type="button" class="frame-send">Send</button></div>` +
				`<textarea class="frame-input" spellcheck="false" rows="1">{"jsonrpc":"2.0","id":2,"method":"tools/list"}</textarea>` +
				`<div class="frame-output" aria-live="polite"></div></div>` + "\n",
		},
		{
			name: "Russian button, three lines, escaped",
			src:  "```frame stdio\n{\"name\":\"word_count\",\"args\":{\"text\":\"a<b & c\"}}\n\n</textarea>\n```\n",
			lang: Russian,
			want: `<div class="frame" data-target="stdio"><div class="frame-head"><span class="frame-target">stdio</span>` +
				`<button type="button" class="frame-send">Отправить</button></div>` +
				`<textarea class="frame-input" spellcheck="false" rows="3">{"name":"word_count","args":{"text":"a&lt;b &amp; c"}}` + "\n\n" + `&lt;/textarea&gt;</textarea>` +
				`<div class="frame-output" aria-live="polite"></div></div>` + "\n",
		},
		{
			name: "blank lines around the message are dropped",
			src:  "```frame a2a\n\n{}\n\n```\n",
			lang: English,
			want: `<div class="frame" data-target="a2a"><div class="frame-head"><span class="frame-target">a2a</span>` +
				`<button type="button" class="frame-send">Send</button></div>` +
				`<textarea class="frame-input" spellcheck="false" rows="1">{}</textarea>` +
				`<div class="frame-output" aria-live="polite"></div></div>` + "\n",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := mustRender(t, tt.src, tt.lang)
			if diff := cmp.Diff(tt.want, r.HTML); diff != "" {
				t.Errorf("HTML (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFrameTargets(t *testing.T) {
	for _, target := range frameTargets() {
		r := mustRender(t, "```frame "+target+"\n{}\n```\n", English)
		want := []Frame{{Target: target, Content: "{}"}}
		if diff := cmp.Diff(want, r.Frames); diff != "" {
			t.Errorf("frames (-want +got):\n%s", diff)
		}
	}
}

func TestFrameErrors(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string // each must be in the error
	}{
		{"unknown target", "# T\n\n```frame mcp\n{}\n```\n",
			[]string{"line 3", `unknown target "mcp"`, "stdio, http, http-auth, grpc, mcp-stdio, mcp-http, mcp-auth, oauth, mcp-hostile, a2a"}},
		{"no target", "```frame\n{}\n```\n", []string{"line 1", "names no target"}},
		{"a word too many", "```frame http POST\n{}\n```\n", []string{"line 1", `unexpected "POST"`}},
		{"nothing to send", "```frame grpc\n\n```\n", []string{"line 1", "empty"}},
		{"every problem, each with its line", "```frame x\n{}\n```\n\ntext\n\n```frame y\n{}\n```\n",
			[]string{`line 1: frame: unknown target "x"`, `line 7: frame: unknown target "y"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewMarkdown().Render([]byte(tt.src), English)
			if err == nil {
				t.Fatal("rendered with no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestGitHubMarkdown checks the parts of GitHub's dialect lessons use.
func TestGitHubMarkdown(t *testing.T) {
	src := strings.Join([]string{
		"| shape | has id |",
		"|---|---|",
		"| request | yes |",
		"",
		"- [x] sent initialize",
		"- [ ] read the answer",
		"",
		"~~stateless~~ and https://modelcontextprotocol.io in passing.",
		"",
		"<script>alert(1)</script>",
	}, "\n")
	html := mustRender(t, src, English).HTML
	for _, want := range []string{
		"<table>", "<th>shape</th>", "<td>request</td>",
		`<li><input checked="" disabled="" type="checkbox"> sent initialize</li>`,
		`<li><input disabled="" type="checkbox"> read the answer</li>`,
		"<del>stateless</del>",
		`<a href="https://modelcontextprotocol.io">https://modelcontextprotocol.io</a>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in\n%s", want, html)
		}
	}
	// Raw HTML in a lesson is not passed through: the text is trusted, but
	// a page that runs frames should not run whatever a lesson pastes.
	if strings.Contains(html, "<script>") {
		t.Errorf("raw HTML passed through:\n%s", html)
	}
}

func TestHeadings(t *testing.T) {
	src := strings.Join([]string{
		"# Talk to an MCP server by hand",
		"## 1. `initialize`: the session starts here",
		"### Version negotiation",
		"## Согласование версии",
		"## Согласование версии",
		"#### Too deep for a link",
	}, "\n\n")
	r := mustRender(t, src, English)
	if r.Title != "Talk to an MCP server by hand" {
		t.Errorf("title %q", r.Title)
	}
	wantTOC := []Heading{
		{ID: "1-initialize-the-session-starts-here", Text: "1. initialize: the session starts here"},
		{ID: "согласование-версии", Text: "Согласование версии"},
		{ID: "согласование-версии-1", Text: "Согласование версии"},
	}
	if diff := cmp.Diff(wantTOC, r.TOC); diff != "" {
		t.Errorf("contents (-want +got):\n%s", diff)
	}
	for _, want := range []string{
		`<h2 id="1-initialize-the-session-starts-here">1. <code>initialize</code>: the session starts here <a class="anchor" href="#1-initialize-the-session-starts-here" aria-label="Link to this section">#</a></h2>`,
		`<h3 id="version-negotiation">Version negotiation <a class="anchor" href="#version-negotiation" aria-label="Link to this section">#</a></h3>`,
		`<h2 id="согласование-версии-1">Согласование версии <a class="anchor" href="#согласование-версии-1"`,
		`<h4 id="too-deep-for-a-link">Too deep for a link</h4>`,
	} {
		if !strings.Contains(r.HTML, want) {
			t.Errorf("no %s in\n%s", want, r.HTML)
		}
	}
	if strings.Contains(r.HTML, "<h1") {
		t.Errorf("the title is in the HTML; the page shows it:\n%s", r.HTML)
	}
	if ru := mustRender(t, "## Раздел", Russian).HTML; !strings.Contains(ru, `aria-label="Ссылка на этот раздел"`) {
		t.Errorf("the anchor's label is not in Russian: %s", Russian)
	}
}

func TestHighlighting(t *testing.T) {
	html := mustRender(t, "```json\n{\"jsonrpc\": \"2.0\", \"id\": 1}\n```\n\n```\nplain\n```\n", English).HTML
	for _, want := range []string{
		`<pre class="chroma"><code>`,
		`<span class="nt">&#34;jsonrpc&#34;</span>`, // a JSON key
		`<span class="mi">1</span>`,                 // an integer
		"<pre><code>plain\n</code></pre>",           // no language, no colours
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in\n%s", want, html)
		}
	}
	// Colours come from classes, so that each theme can bring its own.
	if strings.Contains(html, "style=") {
		t.Errorf("inline styles in highlighted code:\n%s", html)
	}
}

var updateHighlight = flag.Bool("update-highlight", false, "rewrite static/highlight.css from the chroma styles")

// lightStyle and darkStyle are the chroma styles of the two themes.
const lightStyle, darkStyle = "github", "github-dark"

// TestHighlightCSS checks that static/highlight.css is what the chroma
// styles give today. After changing a style or upgrading chroma, rewrite
// it with go test ./playground/course -run HighlightCSS -update-highlight.
func TestHighlightCSS(t *testing.T) {
	want := highlightCSS(t)
	for _, class := range []string{"nt", "s2", "mi", "k"} {
		for _, theme := range []string{"light", "dark"} {
			if !strings.Contains(want, fmt.Sprintf(":root[data-theme=%s] .chroma .%s {", theme, class)) {
				t.Errorf("no %s colour for .%s", theme, class)
			}
		}
	}
	if *updateHighlight {
		// static.FS was embedded when this test was built, so the file
		// just written is checked on the next run.
		if err := os.WriteFile("../../static/highlight.css", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := fs.ReadFile(static.FS, "highlight.css")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("static/highlight.css is stale; run go test ./playground/course -run HighlightCSS -update-highlight (-want +got):\n%s", diff)
	}
}

// highlightCSS returns the stylesheet: each theme's rules twice, once for
// a page that chose the theme (data-theme on <html>), once for a page that
// follows the system's preference and has not chosen the other theme.
func highlightCSS(t *testing.T) string {
	var b strings.Builder
	b.WriteString("/* Colours for highlighted code, light and dark. Generated from chroma's\n" +
		"   " + lightStyle + " and " + darkStyle + " styles by TestHighlightCSS in\n" +
		"   playground/course/markdown_test.go: do not edit by hand. */\n")
	for _, theme := range []struct{ name, style, other string }{
		{"light", lightStyle, "dark"},
		{"dark", darkStyle, "light"},
	} {
		rules := chromaRules(t, styles.Get(theme.style), theme.style)
		fmt.Fprintf(&b, "\n/* %s (%s) */\n", theme.name, theme.style)
		for _, r := range rules {
			fmt.Fprintf(&b, ":root[data-theme=%s] %s\n", theme.name, r)
		}
		fmt.Fprintf(&b, "@media (prefers-color-scheme: %s) {\n", theme.name)
		for _, r := range rules {
			fmt.Fprintf(&b, "  :root:not([data-theme=%s]) %s\n", theme.other, r)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// chromaRules returns a style's CSS rules, one per line, for code inside
// .chroma. The block's background is left to the page (--code-bg), so
// that code blocks, frames and inline code share one.
func chromaRules(t *testing.T, style *chroma.Style, name string) []string {
	t.Helper()
	if style.Name != name {
		t.Fatalf("chroma has no style %q", name)
	}
	var css strings.Builder
	if err := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithCSSComments(false)).WriteCSS(&css, style); err != nil {
		t.Fatal(err)
	}
	background := regexp.MustCompile(`\s*background-color: [^;]+;`)
	var rules []string
	sc := bufio.NewScanner(strings.NewReader(css.String()))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, ".bg ") {
			continue // the page's own background stays
		}
		if strings.HasPrefix(line, ".chroma {") {
			line = background.ReplaceAllString(line, "")
		}
		if strings.HasSuffix(line, "{ }") {
			continue
		}
		rules = append(rules, line)
	}
	return rules
}

// TestReplyAndInclude checks the two other blocks a lesson has: a reply
// block becomes a captioned figure of plain, escaped text, and code
// included from the project says which file it comes from.
func TestReplyAndInclude(t *testing.T) {
	r := mustRender(t, "```reply\nHTTP/1.1 401 Unauthorized\n\n{\"a\":\"<b>\"}\n```\n", Russian)
	want := `<figure class="reply"><figcaption>Что приходит в ответ</figcaption><pre>HTTP/1.1 401 Unauthorized` + "\n\n" + `{"a":"&lt;b&gt;"}</pre></figure>` + "\n"
	if r.HTML != want {
		t.Errorf("reply block:\n got %s\nwant %s", r.HTML, want)
	}
	// A reply to predict first is the same figure, folded under a
	// summary that asks for the prediction.
	r = mustRender(t, "```reply predict\nHTTP/1.1 200 OK\n```\n", English)
	want = `<details class="reply-predict"><summary>Predict the answer first, then show it</summary><figure class="reply"><figcaption>What comes back</figcaption><pre>HTTP/1.1 200 OK</pre></figure></details>` + "\n"
	if r.HTML != want {
		t.Errorf("reply block to predict:\n got %s\nwant %s", r.HTML, want)
	}
	r = mustRender(t, "```go include=protocols/stdio/server.go:Serve\nfunc Serve() {}\n```\n", English)
	if !strings.HasPrefix(r.HTML, `<p class="include-source">From <code>protocols/stdio/server.go:Serve</code></p>`) {
		t.Errorf("an included block has no caption naming its file:\n%s", r.HTML)
	}
	if !strings.Contains(r.HTML, `class="chroma"`) {
		t.Errorf("an included block is no longer highlighted as Go:\n%s", r.HTML)
	}
}

// TestSequenceBlock checks that a sequence block becomes a drawn
// diagram, and that one the renderer cannot read stops the lesson with
// its line.
func TestSequenceBlock(t *testing.T) {
	r := mustRender(t, "# T\n\n```sequence\nClient -> Server: initialize\nServer --> Client: result\n```\n", English)
	if !strings.HasPrefix(r.HTML, `<figure class="sequence-diagram"><svg`) || !strings.Contains(r.HTML, "initialize") {
		t.Errorf("a sequence block is not drawn:\n%s", r.HTML)
	}
	_, err := NewMarkdown().Render([]byte("# T\n\ntext\n\n```sequence\nClient -> : initialize\n```\n"), English)
	if err == nil || !strings.Contains(err.Error(), "line 5: sequence diagram") {
		t.Errorf("a broken diagram renders, or its error does not say where: %v", err)
	}
}

// TestSections checks the plain text that search reads: cut at level-2
// and level-3 headings, paragraphs, list items and table cells in, code,
// frames and replies out.
func TestSections(t *testing.T) {
	src := "# T\n\nFirst *words*.\n\n## One `two`\n\n- an item\n- another\n\n| a | b |\n|---|---|\n| cell | `code` |\n\n" +
		"```go\nfunc hidden() {}\n```\n\n```frame stdio\n{\"secret\":1}\n```\n\n### Three\n\nLast.\n"
	r, err := NewMarkdown().Render([]byte(src), English)
	if err != nil {
		t.Fatal(err)
	}
	want := []Section{
		{Text: "First words."},
		{ID: "one-two", Heading: "One two", Text: "an item another a b cell code"},
		{ID: "three", Heading: "Three", Text: "Last."},
	}
	if diff := cmp.Diff(want, r.Sections); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
}
