package playground

import (
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/protocols/tools"
)

// fiveWiresPlayground serves a whole playground, as wirelab serve does,
// with the test binary as its stdio server.
func fiveWiresPlayground(t *testing.T, targets Targets) *httptest.Server {
	t.Helper()
	t.Setenv(childEnv, "1")
	pg := New(tools.New(nil), &Options{HTTPURL: targets.HTTPURL, GRPCAddr: targets.GRPCAddr,
		MCPURL: targets.MCPURL, A2AURL: targets.A2AURL, Executable: targets.Executable})
	srv := httptest.NewServer(pg)
	t.Cleanup(func() {
		srv.Close()
		pg.Close()
	})
	return srv
}

func TestFiveWiresPage(t *testing.T) {
	targets := Targets{HTTPURL: "http://127.0.0.1:9999", GRPCAddr: "127.0.0.1:9998",
		MCPURL: "http://127.0.0.1:9997/mcp", A2AURL: "http://127.0.0.1:9996"}
	h := New(tools.New(nil), &Options{HTTPURL: targets.HTTPURL, GRPCAddr: targets.GRPCAddr,
		MCPURL: targets.MCPURL, A2AURL: targets.A2AURL})
	defer h.Close()
	columns := fiveWiresColumns(targets)
	if len(columns) != 5 {
		t.Fatalf("%d columns, want 5", len(columns))
	}
	for _, tt := range []struct {
		target    string
		want, not []string
	}{
		{"/five-wires", []string{`<html lang="en">`, "<h1>Five wires, one call</h1>", ">Run all</button>", "Newline framing", `data-bytes="B"`},
			[]string{"Запустить", "Построчная"}},
		{"/five-wires?lang=ru", []string{`<html lang="ru">`, "<h1>Пять проводов, один вызов</h1>", ">Запустить все</button>", "Построчная рамка", `data-bytes="Б"`},
			[]string{"Run all", "Newline framing"}},
	} {
		w := get(h, tt.target)
		body := w.Body.String()
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s = %d\n%.500s", tt.target, w.Code, body)
		}
		want := append(tt.want,
			`id="five-wires"`, `id="fw-run-all"`, `id="fw-status"`,
			`src="/static/wire.js"`, `src="/static/fivewires.js"`, `href="/static/fivewires.css"`)
		for _, c := range columns {
			want = append(want, `id="fw-`+c.Slug+`"`, `data-target="`+c.Target+`"`,
				">"+templ.EscapeString(c.Call)+"</textarea>")
			for _, s := range append(c.Before, c.After...) {
				want = append(want, ">"+templ.EscapeString(s.Frame)+"</textarea>")
			}
		}
		for _, s := range want {
			if !strings.Contains(body, s) {
				t.Errorf("GET %s: no %q in the page", tt.target, s)
			}
		}
		for _, s := range tt.not {
			if strings.Contains(body, s) {
				t.Errorf("GET %s: %q is in the page, in the other language", tt.target, s)
			}
		}
		// wire.js defines WireSocket, which fivewires.js uses: it must
		// come first.
		if strings.Index(body, "/static/wire.js") > strings.Index(body, "/static/fivewires.js") {
			t.Errorf("GET %s: fivewires.js is loaded before wire.js", tt.target)
		}
	}
	for _, asset := range []string{"/static/fivewires.js", "/static/fivewires.css", "/static/wire.js"} {
		if w := get(h, asset); w.Code != http.StatusOK {
			t.Errorf("GET %s = %d", asset, w.Code)
		}
	}
	// The frames name the servers the playground points at.
	for _, s := range []string{"Host: 127.0.0.1:9999", "POST /execute HTTP/1.1", "POST /mcp HTTP/1.1\nHost: 127.0.0.1:9997", "POST / HTTP/1.1\nHost: 127.0.0.1:9996"} {
		found := false
		for _, c := range columns {
			found = found || strings.Contains(c.Call, s)
		}
		if !found {
			t.Errorf("no frame contains %q", s)
		}
	}
}

// fiveWiresExchange sends one frame and returns what came back: the
// answer line on stdio, the frame dump on gRPC, and on HTTP the raw
// answer and its parsed head. It fails if the playground had to fix the
// frame: the page's frames are sent exactly as shown.
func fiveWiresExchange(t *testing.T, conn *websocket.Conn, id int64, target, frame string) (answer, head string) {
	t.Helper()
	send(t, conn, command{Op: "send", ID: id, Target: target, Frame: frame})
	var raw strings.Builder
	var out bool
	next(t, conn, func(ev event) bool {
		if ev.Op == "error" && ev.ID == id {
			t.Fatalf("%s: the playground refused the frame: %s", target, ev.Message)
		}
		if ev.ID != id && !(target == "stdio" && ev.ID == 0 && ev.Target == target) {
			return false
		}
		switch {
		case ev.Dir == "out":
			out = true
		case ev.Kind == "fix":
			t.Errorf("%s: the playground fixed the frame: %s", target, ev.Text)
		case ev.Kind == "raw":
			raw.WriteString(ev.Text)
		case ev.Kind == "http-head":
			head = ev.Text
		case ev.Dir == "in" && (ev.Kind == "line" || ev.Kind == "grpc"):
			answer = ev.Text
			return out
		case ev.Kind == "end":
			answer = raw.String()
			return true
		}
		return false
	})
	return answer, head
}

var (
	fiveWiresSessionHeader = regexp.MustCompile(`(?im)^Mcp-Session-Id:[ \t]*(\S+)`)
	// fiveWiresSessionLine is what static/fivewires.js replaces with the
	// session's id (withSession).
	fiveWiresSessionLine = regexp.MustCompile(`(?im)^(Mcp-Session-Id:)[^\r\n]*$`)
	// fiveWiresFrameLine is a frame's line in a gRPC dump, as
	// static/fivewires.js reads it (http2Bytes).
	fiveWiresFrameLine = regexp.MustCompile(`(?m)^(->|<-) (\S+)(?: stream=\d+)? len=(\d+)`)
)

// TestFiveWiresThroughTheHub sends every column's frames, as the page
// does, through the hub of a whole playground to the real servers, and
// finds the count in each answer: "read the wire" is 3 words.
func TestFiveWiresThroughTheHub(t *testing.T) {
	targets := liveServers(t)
	targets.Executable = os.Args[0]
	srv := fiveWiresPlayground(t, targets)
	conn := dialPath(t, srv, "/ws")
	id := int64(0)
	for _, c := range fiveWiresColumns(targets) {
		t.Run(c.Slug, func(t *testing.T) {
			session := ""
			withSession := func(frame string) string {
				if session == "" {
					return frame
				}
				return fiveWiresSessionLine.ReplaceAllLiteralString(frame, "Mcp-Session-Id: "+session)
			}
			for i, s := range c.Before {
				id++
				answer, head := fiveWiresExchange(t, conn, id, c.Target, withSession(s.Frame))
				if !strings.HasPrefix(answer, "HTTP/1.1 2") {
					t.Fatalf("%s: %q", s.Name, answer)
				}
				if i == 0 {
					m := fiveWiresSessionHeader.FindStringSubmatch(head)
					if m == nil {
						t.Fatalf("%s answered without Mcp-Session-Id:\n%s", s.Name, head)
					}
					session = m[1]
				}
			}
			id++
			answer, _ := fiveWiresExchange(t, conn, id, c.Target, withSession(c.Call))
			if !strings.Contains(answer, `"words":3`) {
				t.Errorf("the answer has no count of 3 words:\n%s", answer)
			}
			if c.Target == "grpc" {
				// static/fivewires.js counts the bytes each way from the
				// dump's frame lines (http2Bytes), with this expression.
				frames := fiveWiresFrameLine.FindAllStringSubmatch(answer, -1)
				dirs := map[string]int{}
				for _, f := range frames {
					dirs[f[1]]++
				}
				if len(frames) == 0 || frames[0][2] != "PREFACE" || frames[0][3] != "24" || dirs["->"] < 3 || dirs["<-"] < 3 {
					t.Errorf("the gRPC dump is not in the form the page counts bytes from (%q):\n%s", frames, answer)
				}
			}
			for _, s := range c.After {
				id++
				if answer, _ := fiveWiresExchange(t, conn, id, c.Target, withSession(s.Frame)); !strings.HasPrefix(answer, "HTTP/1.1 2") {
					t.Errorf("%s: %q", s.Name, answer)
				}
			}
		})
	}
}

// TestFiveWiresMissingTargets: with no servers and no binary to start,
// each column's first frame is refused with a message the column shows.
func TestFiveWiresMissingTargets(t *testing.T) {
	srv := fiveWiresPlayground(t, Targets{})
	conn := dialPath(t, srv, "/ws")
	says := map[string]string{
		"stdio": "cannot start stdio servers",
		"http":  "no http server runs",
		"grpc":  "no gRPC server runs",
		"mcp":   "no mcp-http server runs",
		"a2a":   "no a2a server runs",
	}
	for i, c := range fiveWiresColumns(Targets{}) {
		frame := c.Call
		if len(c.Before) > 0 {
			frame = c.Before[0].Frame
		}
		id := int64(i + 1)
		send(t, conn, command{Op: "send", ID: id, Target: c.Target, Frame: frame})
		ev := next(t, conn, func(ev event) bool { return ev.Op == "error" && ev.ID == id })
		if !strings.Contains(ev.Message, says[c.Slug]) {
			t.Errorf("%s: refused with %q, want a message containing %q", c.Slug, ev.Message, says[c.Slug])
		}
	}
}
