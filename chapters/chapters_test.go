package chapters

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/tools"
)

// langs are the languages every lesson is written in.
var langs = []string{"en", "ru"}

// lessonName is how a lesson file is named: NN-slug.md.
var lessonName = regexp.MustCompile(`^[0-9]{2}-[a-z0-9]+(-[a-z0-9]+)*\.md$`)

// lessonFiles returns the lesson file names of a language, sorted.
func lessonFiles(t *testing.T, lang string) []string {
	t.Helper()
	names, err := fs.Glob(FS, lang+"/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		names[i] = path.Base(n)
	}
	return names
}

func TestLessonsAreNamedAndTitled(t *testing.T) {
	en := lessonFiles(t, "en")
	if len(en) == 0 {
		t.Fatal("no lessons in en/")
	}
	for _, lang := range langs {
		names := lessonFiles(t, lang)
		if diff := cmp.Diff(en, names); diff != "" {
			t.Errorf("%s/ has other lessons than en/ (-en +%s):\n%s", lang, lang, diff)
		}
		for _, n := range names {
			if !lessonName.MatchString(n) {
				t.Errorf("%s/%s: a lesson is named NN-slug.md, with a lower-case slug", lang, n)
			}
			src, err := fs.ReadFile(FS, lang+"/"+n)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(src), "# ") {
				t.Errorf("%s/%s: a lesson starts with its title, a line \"# Title\"", lang, n)
			}
		}
	}
}

// block is what the tests read in a lesson: a level-2 heading, a frame,
// or a json code block, with its line.
type block struct {
	Kind    string // "section", "frame" or "json"
	Target  string // a frame's target
	Content string
	Line    int
}

// blocks returns a lesson's sections, frames and json blocks, in order.
func blocks(src []byte) []block {
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var out []block
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 2 {
				out = append(out, block{Kind: "section", Line: lineOf(src, n.Lines().At(0).Start)})
			}
		case *ast.FencedCodeBlock:
			var b bytes.Buffer
			for i := range n.Lines().Len() {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			info := strings.Fields(string(n.Info.Segment.Value(src)))
			line := lineOf(src, n.Info.Segment.Start)
			switch {
			case info[0] == "frame" && len(info) > 1:
				out = append(out, block{Kind: "frame", Target: info[1], Content: b.String(), Line: line})
			case info[0] == "json":
				out = append(out, block{Kind: "json", Content: b.String(), Line: line})
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

func lineOf(src []byte, offset int) int { return bytes.Count(src[:offset], []byte("\n")) + 1 }

// TestLanguagesMatch checks that every translation has the sections of
// the English lesson and exactly its frames and messages: the wire is the
// same in every language.
func TestLanguagesMatch(t *testing.T) {
	for _, name := range lessonFiles(t, "en") {
		shape := func(lang string) []block {
			src, err := fs.ReadFile(FS, lang+"/"+name)
			if err != nil {
				t.Fatal(err)
			}
			bs := blocks(src)
			for i := range bs {
				bs[i].Line = 0 // lines differ between languages; order does not
				if bs[i].Kind == "json" {
					bs[i].Content = compact(bs[i].Content)
				}
			}
			return bs
		}
		want := shape("en")
		for _, lang := range langs[1:] {
			if diff := cmp.Diff(want, shape(lang)); diff != "" {
				t.Errorf("%s/%s differs from en/%s in sections, frames or json (-en +%s):\n%s", lang, name, name, lang, diff)
			}
		}
	}
}

func compact(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

// TestLessonsAgainstServers replays each lesson against the real server:
// every frame, and every JSON-RPC request or notification shown in a
// json block, is sent in the order of the text and waits for its answer,
// as a learner pressing Send would; every JSON-RPC response shown in a
// json block must agree with the answer the server gave to that id.
//
// A shown answer may leave things out (a field, or the tail of a list)
// but may not say anything the server did not: each object's fields
// must be in the server's object with the same values, and each list
// must be the beginning of the server's list.
func TestLessonsAgainstServers(t *testing.T) {
	for _, lang := range langs {
		for _, name := range lessonFiles(t, lang) {
			t.Run(lang+"/"+name, func(t *testing.T) {
				src, err := fs.ReadFile(FS, lang+"/"+name)
				if err != nil {
					t.Fatal(err)
				}
				replay(t, blocks(src))
			})
		}
	}
}

// replyWait bounds the wait for one answer. An in-process server answers
// in microseconds; the bound only turns a hang into a failure.
const replyWait = 10 * time.Second

func replay(t *testing.T, bs []block) {
	var mcpSession *stdioSession // started at the first message for it
	session := func() *stdioSession {
		if mcpSession == nil {
			mcpSession = startMCP(t)
		}
		return mcpSession
	}
	for _, b := range bs {
		switch b.Kind {
		case "frame":
			if b.Target != "mcp-stdio" {
				t.Errorf("line %d: frames to %q are not replayed yet: teach this test to send them, so that the lesson cannot drift", b.Line, b.Target)
				continue
			}
			for line := range strings.Lines(b.Content) {
				if strings.TrimSpace(line) == "" {
					continue
				}
				session().send(t, b.Line, strings.TrimRight(line, "\n"))
			}
		case "json":
			var msg map[string]any
			if err := json.Unmarshal([]byte(b.Content), &msg); err != nil {
				// Only shown JSON that is one object can be a message; any
				// shown JSON must at least be JSON.
				var v any
				if err := json.Unmarshal([]byte(b.Content), &v); err != nil {
					t.Errorf("line %d: the json block is not JSON: %v", b.Line, err)
				}
				continue
			}
			if msg["jsonrpc"] == nil {
				continue
			}
			if msg["method"] != nil {
				session().send(t, b.Line, compact(b.Content))
				continue
			}
			session().check(t, b.Line, msg)
		}
	}
	if mcpSession != nil {
		mcpSession.close(t)
	}
}

// stdioSession is one MCP session over a pair of pipes, with the answers
// received so far.
type stdioSession struct {
	in      io.WriteCloser
	lines   chan string               // the server's output, one message a line
	done    chan error                // ServeStdio's result
	replies map[string]map[string]any // by the id's JSON
}

func startMCP(t *testing.T) *stdioSession {
	ctx, cancel := context.WithCancel(t.Context())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioSession{in: inW, lines: make(chan string), done: make(chan error, 1), replies: map[string]map[string]any{}}
	srv := mcp.NewServer(tools.New(nil), &mcp.ServerOptions{Version: "test"})
	// Ends when the test closes the server's input (close) or ends (ctx).
	go func() {
		err := srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		s.done <- err
	}()
	// Ends at the end of the server's output, which the goroutine above
	// closes.
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		for range s.lines {
		}
	})
	return s
}

// send writes one message, and for a request waits for its answer.
func (s *stdioSession) send(t *testing.T, line int, msg string) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(msg), &m); err != nil {
		t.Errorf("line %d: a message is one JSON object on one line: %v in %s", line, err, msg)
		return
	}
	if _, err := io.WriteString(s.in, msg+"\n"); err != nil {
		t.Fatalf("line %d: writing to the server: %v", line, err)
	}
	id, ok := m["id"]
	if !ok {
		return // a notification: nothing comes back
	}
	want := compact(string(id))
	select {
	case got, ok := <-s.lines:
		if !ok {
			t.Fatalf("line %d: the server ended without answering %s", line, msg)
		}
		var reply map[string]any
		if err := json.Unmarshal([]byte(got), &reply); err != nil {
			t.Fatalf("line %d: the server's answer is not JSON: %v: %s", line, err, got)
		}
		gotID, _ := json.Marshal(reply["id"])
		if string(gotID) != want {
			t.Fatalf("line %d: sent id %s, got an answer for id %s: %s", line, want, gotID, got)
		}
		s.replies[want] = reply
	case <-time.After(replyWait):
		t.Fatalf("line %d: no answer to %s within %v", line, msg, replyWait)
	}
}

// check compares an answer shown in the lesson with the server's.
func (s *stdioSession) check(t *testing.T, line int, shown map[string]any) {
	t.Helper()
	id, _ := json.Marshal(shown["id"])
	got, ok := s.replies[string(id)]
	if !ok {
		t.Errorf("line %d: the lesson shows an answer to id %s, but sends no request with that id before it", line, id)
		return
	}
	if err := within("", got, shown); err != nil {
		t.Errorf("line %d: the answer to id %s is not what the server sent: %v", line, id, err)
	}
}

// close ends the session and checks that nothing else came back: in
// particular, no answer to a notification.
func (s *stdioSession) close(t *testing.T) {
	t.Helper()
	s.in.Close()
	for extra := range s.lines {
		t.Errorf("the server sent a message the lesson does not account for: %s", extra)
	}
	if err := <-s.done; err != nil {
		t.Errorf("serving the session: %v", err)
	}
}

// within reports where shown says something that got does not.
func within(at string, got, shown any) error {
	switch shown := shown.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: the lesson shows an object, the server sent %v", name(at), got)
		}
		for k, v := range shown {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s: the server sent no such field", name(at+"."+k))
			}
			if err := within(at+"."+k, gv, v); err != nil {
				return err
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(shown) {
			return fmt.Errorf("%s: the lesson shows %d items, the server sent %v", name(at), len(shown), got)
		}
		for i, v := range shown {
			if err := within(fmt.Sprintf("%s[%d]", at, i), g[i], v); err != nil {
				return err
			}
		}
		return nil
	default:
		if !cmp.Equal(got, shown) {
			return fmt.Errorf("%s: the lesson says %v, the server sent %v", name(at), shown, got)
		}
		return nil
	}
}

func name(at string) string {
	if at == "" {
		return "the message"
	}
	return strings.TrimPrefix(at, ".")
}
