package playground

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/wirelab/wirelab/chapters"
	"github.com/wirelab/wirelab/exercises/frames"
	"github.com/wirelab/wirelab/playground/wire"
)

// TestLessonFrames is a learner reading every lesson, in every language,
// and pressing every Send: the lesson's frames go to the reference
// servers in the order of the text, from one tab per lesson (so the
// stdio children and the MCP session live from one frame to the next, as
// on the page), and every reply block must agree with the answer to the
// frame above it (replyMatches says how).
func TestLessonFrames(t *testing.T) {
	targets := liveServers(t)
	_, srv := startHub(t, targets)
	hosts := targetHosts(t, targets)
	for _, l := range allLangs() {
		names, err := fs.Glob(chapters.FS, string(l)+"/*.md")
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			t.Run(strings.TrimSuffix(name, ".md"), func(t *testing.T) {
				src, err := fs.ReadFile(chapters.FS, name)
				if err != nil {
					t.Fatal(err)
				}
				steps, err := lessonSteps(src)
				if err != nil {
					t.Fatal(err)
				}
				if len(steps) == 0 {
					t.Skip("no frames")
				}
				var fs []frames.Frame
				for _, s := range steps {
					fs = append(fs, s.frame)
				}
				// A frame's answer is in when every reply block under it
				// matches, or, for a frame without one, when frameDone says.
				matched := func(i int, answer [][]byte) bool {
					got := answerText(t, steps[i].frame.Target, answer)
					for _, r := range steps[i].replies {
						if replyMatches(r.text, got, ordered(steps[i].frame.Target)) != nil {
							return false
						}
					}
					return true
				}
				answers := typeEach(t, srv, hosts, fs, matched)
				for i, s := range steps {
					if i >= len(answers) {
						t.Errorf("line %d: not sent: the lesson stopped at the reply that did not match", s.line)
						continue
					}
					got := answerText(t, s.frame.Target, answers[i])
					if len(s.replies) == 0 && strings.HasPrefix(got, "error: ") {
						t.Errorf("line %d: the playground refused the %s frame: %s", s.line, s.frame.Target, got)
					}
					for _, r := range s.replies {
						if err := replyMatches(r.text, got, ordered(s.frame.Target)); err != nil {
							t.Errorf("line %d: the reply block does not match the %s server's answer to the frame at line %d: %v\nthe answer was:\n%s", r.line, s.frame.Target, s.line, err, got)
						}
					}
				}
			})
		}
	}
}

// lessonStep is a frame of a lesson and the reply blocks after it.
type lessonStep struct {
	frame   frames.Frame
	line    int
	replies []replyBlock
}

// replyBlock is a reply block's text and line.
type replyBlock struct {
	text string
	line int
}

// ordered says whether a target's answers come in a known order: a
// stdio server may answer two requests of one frame either way round.
func ordered(target string) bool { return !strings.Contains(target, "stdio") }

// lessonSteps reads a lesson's frames and reply blocks in order. A reply
// block belongs to the nearest frame above it.
func lessonSteps(src []byte) ([]lessonStep, error) {
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var steps []lessonStep
	var errs []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		b, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok || b.Info == nil {
			return ast.WalkContinue, nil
		}
		var content bytes.Buffer
		for i := range b.Lines().Len() {
			seg := b.Lines().At(i)
			content.Write(seg.Value(src))
		}
		info := strings.Fields(string(b.Info.Segment.Value(src)))
		line := bytes.Count(src[:b.Info.Segment.Start], []byte("\n")) + 1
		switch {
		case len(info) == 2 && info[0] == "frame":
			steps = append(steps, lessonStep{frame: frames.Frame{Target: info[1], Text: strings.Trim(content.String(), "\n")}, line: line})
		case len(info) > 0 && info[0] == "reply":
			if len(steps) == 0 {
				errs = append(errs, fmt.Sprintf("line %d: a reply block before any frame: it shows the answer to the frame above it", line))
				break
			}
			last := &steps[len(steps)-1]
			last.replies = append(last.replies, replyBlock{content.String(), line})
		}
		return ast.WalkSkipChildren, nil
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return steps, nil
}

// answerText is what the page shows under a frame, as text: an HTTP
// answer's head and body, the gRPC call's wire, a stdio server's lines,
// or "error: ..." when the playground refused the frame.
func answerText(t *testing.T, target string, raw [][]byte) string {
	t.Helper()
	var b strings.Builder
	body := false
	for _, m := range raw {
		var ev wire.Event
		if err := json.Unmarshal(m, &ev); err != nil {
			t.Fatalf("message %s: %v", m, err)
		}
		switch {
		case ev.Op == "error":
			fmt.Fprintf(&b, "error: %s\n", ev.Message)
		case ev.Kind == "http-head":
			b.WriteString(ev.Text)
			b.WriteString("\n")
		case ev.Kind == "http-body":
			b.WriteString(ev.Text)
			body = true
		case ev.Kind == "grpc" && ev.Dir == "in":
			b.WriteString(ev.Text)
		case ev.Kind == "line" && ev.Dir == "in" && ev.Target == target:
			b.WriteString(strings.TrimRight(ev.Text, "\n"))
			b.WriteString("\n")
		}
	}
	if body {
		b.WriteString("\n")
	}
	return b.String()
}

// replyItem is one thing a reply block shows, or an answer holds: a line,
// or a JSON value after an optional prefix ("data: ", "as JSON: "),
// which may span lines.
type replyItem struct {
	text   string // the line(s), trimmed
	prefix string // before the JSON value
	value  any    // the JSON value; nil for a plain line
}

// replyItems splits text into items.
func replyItems(text string) []replyItem {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var items []replyItem
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || line == "..." || line == "…" {
			continue
		}
		start := strings.IndexAny(line, "{[")
		if start < 0 {
			items = append(items, replyItem{text: line})
			continue
		}
		// The value may go on over the next lines, pretty-printed.
		item := replyItem{text: line}
		rest := line[start:]
		for j := i; j < len(lines); j++ {
			if j > i {
				rest += "\n" + lines[j]
			}
			var v any
			if json.Unmarshal([]byte(rest), &v) == nil {
				item = replyItem{text: strings.TrimSpace(line[:start] + rest), prefix: strings.TrimSpace(line[:start]), value: v}
				i = j
				break
			}
		}
		items = append(items, item)
	}
	return items
}

// replyMatches checks a reply block against an answer: every item shown
// must match an item of the answer, in order when ordered is set (on a
// stdio server, answers may come in any order). A JSON value matches
// when its prefix is the answer's and it says nothing the answer does
// not (within); a line matches when it is the answer's line, with
// header names in any case and "..." standing for anything.
func replyMatches(shown, got string, ordered bool) error {
	want, have := replyItems(shown), replyItems(got)
	if len(want) == 0 {
		return fmt.Errorf("the reply block is empty")
	}
	used := make([]bool, len(have))
	from := 0
	for _, w := range want {
		found := -1
		for j := from; j < len(have); j++ {
			if !used[j] && itemMatches(w, have[j]) {
				found = j
				break
			}
		}
		if found < 0 {
			if why := nearest(w, have[from:]); why != nil {
				return fmt.Errorf("%q is not in the answer: nearest, %v", w.text, why)
			}
			if ordered {
				return fmt.Errorf("%q is not in the answer after the lines matched before it", w.text)
			}
			return fmt.Errorf("%q is not in the answer", w.text)
		}
		used[found] = true
		if ordered {
			from = found + 1
		}
	}
	return nil
}

// nearest says how a JSON item differs from the first answer item with
// the same prefix, if there is one: what a lesson's author needs to see.
func nearest(w replyItem, have []replyItem) error {
	if w.value == nil {
		return nil
	}
	for _, h := range have {
		if h.value != nil && sameLine(w.prefix, h.prefix) {
			return within("", h.value, w.value)
		}
	}
	return nil
}

// headerName is a line's "Name:" when it looks like a header line.
var headerName = regexp.MustCompile(`^[A-Za-z0-9-]+:`)

func itemMatches(w, h replyItem) bool {
	if w.value != nil {
		return h.value != nil && sameLine(w.prefix, h.prefix) && within("", h.value, w.value) == nil
	}
	return sameLine(w.text, h.text)
}

// sameLine compares two lines, header names in any case, "..." in the
// shown line standing for anything.
func sameLine(shown, got string) bool {
	if n := headerName.FindString(shown); n != "" && strings.HasPrefix(strings.ToLower(got), strings.ToLower(n)) {
		shown, got = strings.ToLower(n)+shown[len(n):], strings.ToLower(n)+got[len(n):]
	}
	if !strings.Contains(shown, "...") && !strings.Contains(shown, "…") {
		return shown == got
	}
	var pattern strings.Builder
	pattern.WriteString("^")
	for i, part := range regexp.MustCompile(`\.\.\.|…`).Split(shown, -1) {
		if i > 0 {
			pattern.WriteString(".*")
		}
		pattern.WriteString(regexp.QuoteMeta(part))
	}
	pattern.WriteString("$")
	return regexp.MustCompile(pattern.String()).MatchString(got)
}

// within reports where shown says something that got does not: each
// object's fields must be in the server's object with the same values,
// and each list must be the beginning of the server's list.
func within(at string, got, shown any) error {
	switch shown := shown.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: the lesson shows an object, the server sent %v", jsonPath(at), got)
		}
		for k, v := range shown {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s: the server sent no such field", jsonPath(at+"."+k))
			}
			if err := within(at+"."+k, gv, v); err != nil {
				return err
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(shown) {
			return fmt.Errorf("%s: the lesson shows %d items, the server sent %v", jsonPath(at), len(shown), got)
		}
		for i, v := range shown {
			if err := within(fmt.Sprintf("%s[%d]", at, i), g[i], v); err != nil {
				return err
			}
		}
		return nil
	case string:
		// A shown string may stand for a longer one with "...".
		if g, ok := got.(string); ok && (strings.Contains(shown, "...") || strings.Contains(shown, "…")) && sameLine(shown, g) {
			return nil
		}
	}
	if !cmp.Equal(got, shown) {
		return fmt.Errorf("%s: the lesson says %v, the server sent %v", jsonPath(at), shown, got)
	}
	return nil
}

func jsonPath(at string) string {
	if at == "" {
		return "the value"
	}
	return strings.TrimPrefix(at, ".")
}

// TestReplyMatches checks the matching rules of reply blocks on answers
// the servers really give, so that a lesson cannot pass by accident.
func TestReplyMatches(t *testing.T) {
	answer := "HTTP/1.1 401 Unauthorized\nWww-Authenticate: Bearer realm=\"tools\", error=\"invalid_token\"\nContent-Type: application/json\n\n{\"error\":{\"code\":\"unauthorized\",\"message\":\"the token is not valid\"},\"id\":1}\n"
	sse := "HTTP/1.1 200 OK\nContent-Type: text/event-stream\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"3\"},{\"type\":\"text\",\"text\":\"x\"}]}}\n\n"
	for _, c := range []struct {
		name, shown, got string
		ordered, ok      bool
	}{
		{"status and a field", "HTTP/1.1 401 Unauthorized\n\n{\"error\":{\"code\":\"unauthorized\"}}", answer, true, true},
		{"header name in any case, value with ...", "WWW-Authenticate: Bearer ... error=\"invalid_token\"", answer, true, true},
		{"pretty JSON over lines", "{\n  \"error\": {\n    \"code\": \"unauthorized\"\n  }\n}", answer, true, true},
		{"a wrong status", "HTTP/1.1 403 Forbidden", answer, true, false},
		{"a field the server did not send", "{\"error\":{\"code\":\"unauthorized\",\"scope\":\"x\"}}", answer, true, false},
		{"a changed value", "{\"id\":2}", answer, true, false},
		{"out of order", "{\"id\":1}\nHTTP/1.1 401 Unauthorized", answer, true, false},
		{"out of order, unordered", "{\"id\":1}\nHTTP/1.1 401 Unauthorized", answer, false, true},
		{"an SSE event", "event: message\ndata: {\"id\":3,\"result\":{\"content\":[{\"text\":\"3\"}]}}", sse, true, true},
		{"a list's tail left out, not its head", "data: {\"result\":{\"content\":[{\"text\":\"x\"}]}}", sse, true, false},
		{"a prefix must match", "as JSON: {\"id\":3}", sse, true, false},
		{"a string with ...", "{\"error\":{\"message\":\"the token ...\"}}", answer, true, true},
		{"empty", "\n", answer, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := replyMatches(c.shown, c.got, c.ordered)
			if (err == nil) != c.ok {
				t.Errorf("replyMatches = %v, want ok=%v", err, c.ok)
			}
		})
	}
}
