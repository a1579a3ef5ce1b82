package playground

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"
	"github.com/google/go-cmp/cmp"
	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// fiveWiresPlayground serves a whole playground, as wirelab serve does,
// with the test binary as its stdio server.
func fiveWiresPlayground(t *testing.T, targets wire.Targets) *httptest.Server {
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
	targets := wire.Targets{HTTPURL: "http://127.0.0.1:9999", GRPCAddr: "127.0.0.1:9998",
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
		words := fiveWiresWordsFor(en)
		if strings.Contains(tt.target, "lang=ru") {
			words = fiveWiresWordsFor(ru)
		}
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s = %d\n%.500s", tt.target, w.Code, body)
		}
		want := append(tt.want,
			`id="five-wires"`, `id="fw-run-all"`, `id="fw-status"`,
			// The verdict's sentences, which the script fills.
			`data-done="`+templ.EscapeString(words.Done)+`"`, `data-too-close="`+templ.EscapeString(words.TooClose)+`"`,
			`data-too-close-rival="`+templ.EscapeString(words.TooCloseRival)+`"`, `data-alone="`+templ.EscapeString(words.Alone)+`"`,
			// The script's count of calls to measure, and its pace.
			`data-runs="`+strconv.Itoa(fiveWiresRuns)+`"`, `data-frame-rate="`+strconv.Itoa(wire.FramesPerSecond)+`"`,
			`<script type="module" src="/static/fivewires.js">`, `href="/static/fivewires.css"`)
		for _, c := range columns {
			want = append(want, `id="fw-`+c.Slug+`"`, `data-target="`+c.Target+`"`, `data-era="`+c.Era+`"`)
			// Every column has the places for the spread under each
			// median and for the first call, apart.
			section := body[strings.Index(body, `id="fw-`+c.Slug+`"`):]
			section = section[:strings.Index(section, "</section>")]
			// And the whole cost of one call beside the times, with
			// what it counts.
			for _, place := range []string{`class="fw-wire-latency"`, `class="fw-spread fw-wire-spread"`, `class="fw-page-latency"`,
				`class="fw-spread fw-page-spread"`, `class="fw-runs"`, `class="fw-warm"`, `class="fw-warm-wire"`, `class="fw-warm-page"`,
				`class="fw-warm-why"`, `class="fw-warm-result"`, `class="fw-last"`,
				`class="fw-numbers fw-cost"`, `class="fw-trips"`, `class="fw-bytes-out"`, `class="fw-bytes-in"`} {
				if strings.Count(section, place) != 1 {
					t.Errorf("GET %s: column %s has %d %s, want 1", tt.target, c.Slug, strings.Count(section, place), place)
				}
			}
			// Each revision the column speaks has its frames and its
			// texts, each once; all but the column's own are hidden, and
			// a column with more than one offers the choice.
			eras := c.frames()
			if got := strings.Count(section, `class="fw-frames"`); got != len(eras) {
				t.Errorf("GET %s: column %s has %d sets of frames, want %d", tt.target, c.Slug, got, len(eras))
			}
			if got, want := strings.Count(section, `<option value="`), len(c.Eras)+min(len(c.Eras), 1); got != want {
				t.Errorf("GET %s: column %s offers %d revisions, want %d", tt.target, c.Slug, got, want)
			}
			for _, e := range eras {
				hidden := ""
				if e.Era != c.Era {
					hidden = " hidden"
					if !strings.Contains(section, `<option value="`+e.Era+`">`+templ.EscapeString(words.EraNames[e.Era])+`</option>`) {
						t.Errorf("GET %s: column %s does not offer %s by its name", tt.target, c.Slug, e.Era)
					}
				}
				for _, place := range []string{
					`<div class="fw-frames" data-era="` + e.Era + `"` + hidden + `><p class="fw-adds">` + templ.EscapeString(words.Adds[c.key(e)]) + `<`,
					`<p class="fw-cost-what" data-era="` + e.Era + `"` + hidden + `>` + templ.EscapeString(words.CostWhat[c.key(e)]) + `<`,
					`id="fw-` + c.key(e) + `-frame"`,
					">" + templ.EscapeString(e.Call) + "</textarea>",
				} {
					if strings.Count(section, place) != 1 {
						t.Errorf("GET %s: column %s has %d %s, want 1", tt.target, c.Slug, strings.Count(section, place), place)
					}
				}
				for _, s := range append(e.Before, e.After...) {
					want = append(want, ">"+templ.EscapeString(s.Frame)+"</textarea>")
				}
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
		// fivewires.js imports wire.js and verdict.js: the page lists
		// only its entry module.
		for _, imported := range []string{"/static/wire.js", "/static/verdict.js"} {
			if strings.Contains(body, imported) {
				t.Errorf("GET %s: the page lists %s, which fivewires.js imports", tt.target, imported)
			}
		}
	}
	for _, asset := range []string{"/static/fivewires.js", "/static/fivewires.css", "/static/wire.js", "/static/verdict.js"} {
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

// TestFiveWiresWords: every string of the page is there in every
// language, with the same columns' texts, and the placeholders the
// script fills.
func TestFiveWiresWords(t *testing.T) {
	keys := func(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
	english := fiveWiresWordsFor(en)
	for _, l := range allLangs() {
		w := fiveWiresWordsFor(l)
		v := reflect.ValueOf(w)
		for i := range v.NumField() {
			if v.Field(i).IsZero() {
				t.Errorf("%s: %s is empty", l, v.Type().Field(i).Name)
			}
		}
		for slug, s := range w.Adds {
			if s == "" {
				t.Errorf("%s: Adds[%s] is empty", l, slug)
			}
		}
		if diff := cmp.Diff(keys(english.Adds), keys(w.Adds)); diff != "" {
			t.Errorf("%s: the columns of Adds differ from English (-en +%s):\n%s", l, l, diff)
		}
		if diff := cmp.Diff(keys(english.Notes), keys(w.Notes)); diff != "" {
			t.Errorf("%s: the columns of Notes differ from English (-en +%s):\n%s", l, l, diff)
		}
		// Every column says what its whole cost counts.
		if diff := cmp.Diff(keys(w.Adds), keys(w.CostWhat)); diff != "" {
			t.Errorf("%s: the columns of CostWhat differ from those of Adds (-Adds +CostWhat):\n%s", l, diff)
		}
		for slug, s := range w.CostWhat {
			if s == "" {
				t.Errorf("%s: CostWhat[%s] is empty", l, slug)
			}
		}
		// The verdict's sentences hold the placeholders the script fills.
		for name, tt := range map[string]struct {
			s    string
			want []string
		}{
			"Done":          {w.Done, []string{"{name}", "{median}", "{max}"}},
			"DoneNext":      {w.DoneNext, []string{"{name}", "{min}"}},
			"TooClose":      {w.TooClose, []string{"{name}", "{median}", "{max}"}},
			"TooCloseRival": {w.TooCloseRival, []string{"{name}", "{min}"}},
			"Alone":         {w.Alone, []string{"{name}"}},
		} {
			for _, p := range tt.want {
				if !strings.Contains(tt.s, p) {
					t.Errorf("%s: %s is %q, without %s for the script to fill", l, name, tt.s, p)
				}
			}
		}
		if !strings.Contains(w.CallOf, "{i}") || !strings.Contains(w.CallOf, "{n}") {
			t.Errorf("%s: CallOf is %q, without {i} and {n} for the script to fill", l, w.CallOf)
		}
		// The texts that say how many calls are measured say the number
		// fiveWiresRuns is.
		n := strconv.Itoa(fiveWiresRuns)
		for name, s := range map[string]string{"Measure": w.Measure, "Runs": w.Runs, "Spread": w.Spread} {
			if !strings.Contains(s, " "+n+" ") {
				t.Errorf("%s: %s does not say %s calls:\n%s", l, name, n, s)
			}
		}
	}
}

// fiveWiresAnswer is what came back for one frame: the answer line on
// stdio, the frame dump on gRPC, and on HTTP the raw answer and its
// parsed head; and the time on the wire, from the playground's own
// timestamps, as the page reads it: from the "out" event to the last
// "in" event of the answer.
type fiveWiresAnswer struct {
	text, head string
	wire       time.Duration
}

// fiveWiresExchange sends one frame and returns what came back. It fails
// if the playground had to fix the frame: the page's frames are sent
// exactly as shown.
func fiveWiresExchange(t *testing.T, conn *websocket.Conn, id int64, target, frame string) fiveWiresAnswer {
	t.Helper()
	send(t, conn, wire.Command{Op: "send", ID: id, Target: target, Frame: frame})
	var raw strings.Builder
	var a fiveWiresAnswer
	var out, in time.Time
	at := func(ev wire.Event) time.Time {
		when, err := time.Parse(time.RFC3339Nano, ev.At)
		if err != nil {
			t.Fatalf("%s: an event's time %q: %v", target, ev.At, err)
		}
		return when
	}
	next(t, conn, func(ev wire.Event) bool {
		if ev.Op == "error" && ev.ID == id {
			t.Fatalf("%s: the playground refused the frame: %s", target, ev.Message)
		}
		if ev.ID != id && !(target == "stdio" && ev.ID == 0 && ev.Target == target) {
			return false
		}
		switch {
		case ev.Dir == "out":
			out = at(ev)
		case ev.Kind == "fix":
			t.Errorf("%s: the playground fixed the frame: %s", target, ev.Text)
		case ev.Kind == "raw":
			raw.WriteString(ev.Text)
			in = at(ev)
		case ev.Kind == "http-head":
			a.head = ev.Text
		case ev.Dir == "in" && (ev.Kind == "line" || ev.Kind == "grpc"):
			a.text = ev.Text
			in = at(ev)
			return !out.IsZero()
		case ev.Kind == "end":
			a.text = raw.String()
			return true
		}
		return false
	})
	a.wire = in.Sub(out)
	return a
}

var (
	fiveWiresSessionHeader = regexp.MustCompile(`(?im)^Mcp-Session-Id:[ \t]*(\S+)`)
	// fiveWiresSessionLine is what static/fivewires.js replaces with the
	// session's id (withSession).
	fiveWiresSessionLine = regexp.MustCompile(`(?im)^(Mcp-Session-Id:)[^\r\n]*$`)
	// fiveWiresFrameLine is a frame's line in a gRPC dump, as
	// static/fivewires.js reads it (http2Bytes).
	fiveWiresFrameLine = regexp.MustCompile(`(?m)^(->|<-) (\S+)(?: stream=\d+)? len=(\d+)`)
	// fiveWiresStreamLine is a stream the client opens, as
	// static/fivewires.js counts them (http2Trips).
	fiveWiresStreamLine = regexp.MustCompile(`(?m)^-> HEADERS stream=(\d+)`)
)

// TestFiveWiresThroughTheHub makes every column's call as a Run of the
// page does, through the hub of a whole playground to the real servers,
// in every revision the column speaks: once, then fiveWiresRuns times
// more, each 2025-11-25 MCP call in a session of its own and each
// 2026-07-28 one alone, one frame after another at the pace static/fivewires.js keeps
// (the hub's framesPerSecond), so that none is refused. Each answer
// holds the count ("read the wire" is 3 words) and a time on the wire;
// on gRPC, only the first call's dump opens the connection, which is how
// the page tells what the first call included.
func TestFiveWiresThroughTheHub(t *testing.T) {
	targets := liveServers(t)
	targets.Executable = os.Args[0]
	srv := fiveWiresPlayground(t, targets)
	conn := dialPath(t, srv, "/ws")
	// The page sends one frame per 1/framesPerSecond, and waits for each
	// answer; so does the test.
	pace := time.NewTicker(time.Second / wire.FramesPerSecond)
	defer pace.Stop()
	id := int64(0)
	exchange := func(t *testing.T, target, frame string) fiveWiresAnswer {
		t.Helper()
		<-pace.C
		id++
		return fiveWiresExchange(t, conn, id, target, frame)
	}
	for _, col := range fiveWiresColumns(targets) {
		for _, e := range col.frames() {
			// c is the column as the page sends it with e chosen.
			c := col
			c.Before, c.Call, c.After = e.Before, e.Call, e.After
			t.Run(col.key(e), func(t *testing.T) { fiveWiresRun(t, c, exchange) })
		}
	}
}

// fiveWiresRun makes a column's call 1+fiveWiresRuns times, with the
// steps around it, and holds each answer to the count and a time on the
// wire.
func fiveWiresRun(t *testing.T, c wireColumn, exchange func(t *testing.T, target, frame string) fiveWiresAnswer) {
	for call := range 1 + fiveWiresRuns {
		session := ""
		withSession := func(frame string) string {
			if session == "" {
				return frame
			}
			return fiveWiresSessionLine.ReplaceAllLiteralString(frame, "Mcp-Session-Id: "+session)
		}
		for i, s := range c.Before {
			a := exchange(t, c.Target, withSession(s.Frame))
			if !strings.HasPrefix(a.text, "HTTP/1.1 2") {
				t.Fatalf("call %d, %s: %q", call, s.Name, a.text)
			}
			if i == 0 {
				m := fiveWiresSessionHeader.FindStringSubmatch(a.head)
				if m == nil {
					t.Fatalf("call %d: %s answered without Mcp-Session-Id:\n%s", call, s.Name, a.head)
				}
				session = m[1]
			}
		}
		a := exchange(t, c.Target, withSession(c.Call))
		if !strings.Contains(a.text, `"words":3`) {
			t.Errorf("call %d: the answer has no count of 3 words:\n%s", call, a.text)
		}
		// A call of 2026-07-28 stands alone: no session before it
		// or in its answer, and the result says what it is.
		if len(c.Before) == 0 && c.Target == "mcp-http" {
			if m := fiveWiresSessionHeader.FindString(a.head); m != "" || !strings.Contains(a.text, `"structuredContent":{"words":3,"chars":13}`) || !strings.Contains(a.text, `"resultType":"complete"`) {
				t.Errorf("call %d: the 2026-07-28 answer is\n%s\nwant the count in structuredContent, resultType complete and no session", call, a.text)
			}
		}
		if a.wire <= 0 {
			t.Errorf("call %d: the answer came back %v after the call went out; want a time after it", call, a.wire)
		}
		if c.Target == "grpc" {
			// static/fivewires.js counts the bytes each way from the
			// dump's frame lines (http2Bytes), with this expression,
			// and takes a preface to mean the call opened the
			// connection.
			frames := fiveWiresFrameLine.FindAllStringSubmatch(a.text, -1)
			dirs := map[string]int{}
			for _, f := range frames {
				dirs[f[1]]++
			}
			// The server may send its SETTINGS before the client's
			// preface arrives, so the preface is the first frame
			// out, not always the first frame.
			opened := false
			for _, f := range frames {
				if f[1] == "->" {
					opened = f[2] == "PREFACE" && f[3] == "24"
					break
				}
			}
			if len(frames) == 0 || dirs["->"] < 2 || dirs["<-"] < 2 || opened != (call == 0) {
				t.Errorf("call %d: the gRPC dump is not in the form the page reads (%q; a preface only in the first call's):\n%s", call, frames, a.text)
			}
			// The page counts a call's round trips from its dump:
			// one per stream the client opened, the call's only,
			// and one for SETTINGS when it opened the connection.
			streams := map[string]bool{}
			for _, m := range fiveWiresStreamLine.FindAllStringSubmatch(a.text, -1) {
				streams[m[1]] = true
			}
			if len(streams) != 1 {
				t.Errorf("call %d: the client opened %d streams, want the call's one:\n%s", call, len(streams), a.text)
			}
			settings := strings.Contains(a.text, "\n-> SETTINGS stream=0 len=") && strings.Contains(a.text, "\n<- SETTINGS stream=0 len=")
			if settings != opened {
				t.Errorf("call %d: SETTINGS each way %v, the connection opened %v; want both or neither:\n%s", call, settings, opened, a.text)
			}
		}
		for _, s := range c.After {
			if a := exchange(t, c.Target, withSession(s.Frame)); !strings.HasPrefix(a.text, "HTTP/1.1 2") {
				t.Errorf("call %d, %s: %q", call, s.Name, a.text)
			}
		}
	}
}

// TestFiveWiresMissingTargets: with no servers and no binary to start,
// each column's first frame is refused with a message the column shows.
func TestFiveWiresMissingTargets(t *testing.T) {
	srv := fiveWiresPlayground(t, wire.Targets{})
	conn := dialPath(t, srv, "/ws")
	says := map[string]string{
		"stdio": "cannot start stdio servers",
		"http":  "no http server runs",
		"grpc":  "no gRPC server runs",
		"mcp":   "no mcp-http server runs",
		"a2a":   "no a2a server runs",
	}
	for i, c := range fiveWiresColumns(wire.Targets{}) {
		frame := c.Call
		if len(c.Before) > 0 {
			frame = c.Before[0].Frame
		}
		id := int64(i + 1)
		send(t, conn, wire.Command{Op: "send", ID: id, Target: c.Target, Frame: frame})
		ev := next(t, conn, func(ev wire.Event) bool { return ev.Op == "error" && ev.ID == id })
		if !strings.Contains(ev.Message, says[c.Slug]) {
			t.Errorf("%s: refused with %q, want a message containing %q", c.Slug, ev.Message, says[c.Slug])
		}
	}
}
