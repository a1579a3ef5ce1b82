package playground

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/frames"
	"github.com/wirelab/wirelab/playground/wire"
)

var record = flag.Bool("record", false, "write the frame exercises' transcripts, as recorded here, to ../exercises/frames/testdata/<id>/")

// frameRun is a sequence of frames typed into the consoles, and what the
// exercise's check must make of the transcript it leaves.
type frameRun struct {
	name   string // "pass" and "fail" are recorded as <name>.jsonl
	frames []frames.Frame
	// failAt is the first step the check must find not done; -1 means
	// every step must be done.
	failAt int
}

// mcpHTTP writes a frame for the mcp-http target, as the console's
// templates do: with the session's id and revision once there is one.
func mcpHTTP(body string, session bool) frames.Frame {
	head := "POST /mcp HTTP/1.1\nHost: {{host}}\nAccept: application/json, text/event-stream\nContent-Type: application/json\n"
	if session {
		head += "Mcp-Session-Id: {{session}}\nMCP-Protocol-Version: 2025-11-25\n"
	}
	return frames.Frame{Target: "mcp-http", Text: head + "\n" + body}
}

// frameRuns are, for each frame exercise, its solution and a learner's
// classic mistake, both recorded, and other ways to pass that are only
// checked live.
func frameRuns() map[string][]frameRun {
	// on makes one frame per line, all to one target.
	on := func(target string, lines ...string) []frames.Frame {
		var fs []frames.Frame
		for _, l := range lines {
			fs = append(fs, frames.Frame{Target: target, Text: l})
		}
		return fs
	}
	initialize := func(version string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"console","version":"1"}}}`
	}
	const (
		initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
		toolsList   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
		wordCount   = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`
	)
	deploy := func(auth string) frames.Frame {
		head := "POST /execute HTTP/1.1\nHost: {{host}}\nContent-Type: application/json\n"
		if auth != "" {
			head += "Authorization: " + auth + "\n"
		}
		return frames.Frame{Target: "http-auth", Text: head + "\n" + `{"id":1,"name":"deploy_service","args":{"service":"api","env":"production"}}`}
	}
	grpcDeploy := func(timeout string) frames.Frame {
		// {"service":"api","env":"staging"}, base64 as ProtoJSON writes bytes
		return frames.Frame{Target: "grpc", Text: "tools.v1.ToolServer/ExecuteTool\ngrpc-timeout: " + timeout + "\n" +
			`{"toolName":"deploy_service","arguments":"eyJzZXJ2aWNlIjoiYXBpIiwiZW52Ijoic3RhZ2luZyJ9"}`}
	}
	a2aPost := func(version, body string) frames.Frame {
		head := "POST / HTTP/1.1\nHost: {{host}}\nContent-Type: application/json\n"
		if version != "" {
			head += "A2A-Version: " + version + "\n"
		}
		return frames.Frame{Target: "a2a", Text: head + "\n" + body}
	}
	card := frames.Frame{Target: "a2a", Text: "GET /.well-known/agent-card.json HTTP/1.1\nHost: {{host}}\n\n"}
	// statelessMeta is the params._meta of a 2026-07-28 request asking for
	// version; statelessCall is a word_count call with meta ("" for none).
	statelessMeta := func(version string) string {
		return `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientInfo":{"name":"console","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	}
	statelessCall := func(id int, meta string) string {
		if meta != "" {
			meta = "," + meta
		}
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}%s}}`, id, meta)
	}
	solution := func(id string) []frames.Frame {
		fs, _ := frames.Solution(id)
		return fs
	}
	return map[string][]frameRun{
		"frames-stdio-errors": {
			{name: "pass", frames: solution("frames-stdio-errors"), failAt: -1},
			// The learner fixes the keys but misspells an argument, and
			// stops there: the server kept serving, but no word_count came
			// back with a result.
			{name: "fail", failAt: 2, frames: on("stdio", "hello",
				`{"id":1,"Name":"word_count","Args":{"text":"read the wire"}}`,
				`{"id":2,"name":"word_count","args":{"txt":"read the wire"}}`)},
		},
		"frames-http-auth": {
			{name: "pass", frames: solution("frames-http-auth"), failAt: -1},
			// 403 expected from a made-up token: the server does not know
			// it, so it is 401 invalid_token.
			{name: "fail", failAt: 1, frames: []frames.Frame{deploy(""), deploy("Bearer guessed"), deploy("Bearer ops")}},
		},
		"frames-grpc-deadline": {
			{name: "pass", frames: solution("frames-grpc-deadline"), failAt: -1},
			// A deadline without its unit is refused; the next is longer
			// than the deploy, so it never runs out.
			{name: "fail", failAt: 0, frames: []frames.Frame{grpcDeploy("50"), grpcDeploy("10S")}},
		},
		"frames-mcp-handshake": {
			{name: "pass", frames: solution("frames-mcp-handshake"), failAt: -1},
			// Straight from initialize to tools/list: the server answers,
			// but the client never said it was ready.
			{name: "fail", failAt: 1, frames: []frames.Frame{mcpHTTP(initialize("2025-11-25"), false), mcpHTTP(toolsList, true), mcpHTTP(wordCount, true)}},
			{name: "pass-http", failAt: -1, frames: []frames.Frame{mcpHTTP(initialize("2025-11-25"), false), mcpHTTP(initialized, true), mcpHTTP(toolsList, true), mcpHTTP(wordCount, true)}},
		},
		"frames-mcp-errors": {
			{name: "pass", frames: solution("frames-mcp-errors"), failAt: -1},
			// Bad arguments taken for a protocol error: they are a tool
			// error too, a result with isError.
			{name: "fail", failAt: 2, frames: on("mcp-stdio", initialize("2025-11-25"), initialized,
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"weather","arguments":{"city":"Lisbon"}}}`,
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"txt":"read the wire"}}}`)},
			{name: "pass-http", failAt: -1, frames: []frames.Frame{mcpHTTP(initialize("2025-11-25"), false), mcpHTTP(initialized, true),
				mcpHTTP(`{"jsonrpc":"2.0","id":2,"method":"tools/nope"}`, true),
				mcpHTTP(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"weather","arguments":{"city":"Lisbon"}}}`, true)}},
		},
		"frames-mcp-version": {
			{name: "pass", frames: solution("frames-mcp-version"), failAt: -1},
			// An older revision is still one the server speaks: it is
			// echoed, not negotiated.
			{name: "fail", failAt: 0, frames: on("mcp-stdio", initialize("2025-06-18"), initialized)},
			{name: "pass-http", failAt: -1, frames: []frames.Frame{mcpHTTP(initialize("2099-01-01"), false), mcpHTTP(initialized, true)}},
		},
		"frames-mcp-stateless": {
			{name: "pass", frames: solution("frames-mcp-stateless"), failAt: -1},
			// The call comes after initialize, so it shows nothing about
			// going without one.
			{name: "fail", failAt: 0, frames: on("mcp-stdio", initialize("2025-11-25"), initialized,
				statelessCall(3, statelessMeta("2026-07-28")),
				`{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{`+statelessMeta("2026-07-28")+`}}`,
				statelessCall(5, statelessMeta("2099-01-01")))},
			// No _meta: the server takes the call for a 2025-11-25 request
			// before initialize.
			{name: "fail-no-meta", failAt: 0, frames: on("mcp-stdio", statelessCall(1, ""),
				`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{`+statelessMeta("2026-07-28")+`}}`,
				statelessCall(3, statelessMeta("2099-01-01")))},
			// The session's revision put in _meta: refused with -32022.
			{name: "fail-version", failAt: 0, frames: on("mcp-stdio", statelessCall(1, statelessMeta("2025-11-25")),
				`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{`+statelessMeta("2026-07-28")+`}}`,
				statelessCall(3, `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`))},
			// Everything served, nothing refused.
			{name: "fail-no-refusal", failAt: 2, frames: on("mcp-stdio", statelessCall(1, statelessMeta("2026-07-28")),
				`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{`+statelessMeta("2026-07-28")+`}}`)},
			// A refusal for a missing _meta field, on server/discover.
			{name: "pass-missing-meta", failAt: -1, frames: on("mcp-stdio", statelessCall(1, statelessMeta("2026-07-28")),
				`{"jsonrpc":"2.0","id":2,"method":"server/discover"}`,
				`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{`+statelessMeta("2026-07-28")+`}}`)},
		},
		"frames-mcp-auth":    mcpAuthRuns(solution("frames-mcp-auth")),
		"frames-mcp-hostile": mcpHostileRuns(solution("frames-mcp-hostile")),
		"frames-a2a-task": {
			{name: "pass", frames: solution("frames-a2a-task"), failAt: -1},
			// The answer goes as a new message, without the taskId: a new
			// task that the agent rejects.
			{name: "fail", failAt: 2, frames: []frames.Frame{card,
				a2aPost("1.0", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"deploy api-gateway"}]}}}`),
				a2aPost("1.0", `{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"staging"}]}}}`)}},
			{name: "pass-0.3", failAt: -1, frames: []frames.Frame{card,
				a2aPost("", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"deploy api-gateway"}]}}}`),
				a2aPost("", `{"jsonrpc":"2.0","id":2,"method":"message/stream","params":{"message":{"kind":"message","messageId":"m2","role":"user","parts":[{"kind":"text","text":"staging"}],"taskId":"{{task}}"}}}`)}},
		},
	}
}

// TestFrameExercises types every frame exercise's runs into the
// consoles' targets, against the reference servers, and checks the
// session's transcript with the exercise's check. With -record, the
// "pass" and "fail" transcripts are written for package frames' tests.
func TestFrameExercises(t *testing.T) {
	targets := liveServers(t)
	_, srv := startHub(t, targets)
	hosts := targetHosts(t, targets)
	runs := frameRuns()
	for _, e := range exercises.List() {
		if e.Kind != exercises.Frame {
			continue
		}
		if len(runs[e.ID]) == 0 {
			t.Errorf("%s: no runs", e.ID)
		}
		for _, run := range runs[e.ID] {
			t.Run(e.ID+"/"+run.name, func(t *testing.T) {
				raw := typeFrames(t, srv, hosts, run.frames)
				var events []frames.Event
				for _, b := range raw {
					var ev frames.Event
					if err := json.Unmarshal(b, &ev); err != nil {
						t.Fatalf("event %s: %v", b, err)
					}
					events = append(events, ev)
				}
				res, err := frames.Check(e.ID, events)
				if err != nil {
					t.Fatal(err)
				}
				if got := firstNotDone(res); got != run.failAt {
					t.Errorf("first step not done: %d, want %d\n%s", got, run.failAt, steps(res))
				}
				if *record && (run.name == "pass" || strings.HasPrefix(run.name, "fail")) {
					dir := filepath.Join("..", "exercises", "frames", "testdata", e.ID)
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, run.name+".jsonl"), append(bytes.Join(raw, []byte("\n")), '\n'), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}

// firstNotDone is the index of the first step not done, or -1.
func firstNotDone(res *frames.Result) int {
	for i, s := range res.Steps {
		if !s.Done {
			return i
		}
	}
	return -1
}

// steps lists a result's steps for a failure message.
func steps(res *frames.Result) string {
	var b strings.Builder
	for i, s := range res.Steps {
		fmt.Fprintf(&b, "  %d done=%v %s: %s\n", i, s.Done, s.Name.EN, s.Detail.EN)
	}
	return b.String()
}

// taskIDField is where a 0.3 answer names its task; the console's script
// looks for it when there is no "task":{"id":...} (taskID).
var taskIDField = regexp.MustCompile(`"taskId":"([^"]+)"`)

// typeFrames opens a tab, sends the frames in order as the console does
// (filling {{host}}, {{session}} and {{task}} from what came back so
// far), waits for each frame's answer, and returns every message the
// playground sent after its hello, exactly as it sent them.
func typeFrames(t *testing.T, srv *httptest.Server, hosts map[string]string, fs []frames.Frame) [][]byte {
	t.Helper()
	var raw [][]byte
	for _, answer := range typeEach(t, srv, hosts, fs, nil) {
		raw = append(raw, answer...)
	}
	return raw
}

// typeEach is typeFrames with the messages grouped by the frame they
// came after: what the page shows under each frame.
//
// A stdio server may send more than the answers to a frame's requests
// (progress, log messages, a request of its own), or send something
// after a frame that asked nothing. So, once frameDone says the frame's
// answers are in, enough (if not nil) is asked whether what came so far
// is all the caller looks for; if not, reading goes on until it is. If
// it never is within replyPatience, typeEach stops there and returns the
// answers so far, the last one as it stood: the caller says what was
// missing.
func typeEach(t *testing.T, srv *httptest.Server, hosts map[string]string, fs []frames.Frame, enough func(i int, answer [][]byte) bool) [][][]byte {
	t.Helper()
	conn := dial(t, srv)
	readHello(t, conn)
	known := map[string]string{"{{session}}": "", "{{task}}": ""}
	each := make([][][]byte, len(fs))
	for i, f := range fs {
		id := int64(i + 1)
		pairs := []string{"{{host}}", hosts[f.Target]}
		for k, v := range known {
			pairs = append(pairs, k, v)
		}
		fill := strings.NewReplacer(pairs...)
		send(t, conn, wire.Command{Op: "send", ID: id, Target: f.Target, Frame: fill.Replace(f.Text)})
		answers := answersTo(f)
		conn.SetReadDeadline(time.Now().Add(patience))
		waiting := false // for enough, after frameDone
		for {
			_, b, err := conn.ReadMessage()
			if err != nil && waiting {
				return each[:i+1]
			}
			if err != nil {
				t.Fatalf("frame %d: %v", id, err)
			}
			each[i] = append(each[i], b)
			var ev wire.Event
			if err := json.Unmarshal(b, &ev); err != nil {
				t.Fatalf("message %s: %v", b, err)
			}
			if m := sessionHeader.FindStringSubmatch(ev.Text); m != nil && ev.Kind == "http-head" {
				known["{{session}}"] = m[1]
			}
			if m := taskID.FindStringSubmatch(ev.Text); m != nil && ev.Dir == "in" {
				known["{{task}}"] = m[1]
			} else if m := taskIDField.FindStringSubmatch(ev.Text); m != nil && ev.Dir == "in" {
				known["{{task}}"] = m[1]
			}
			if ev.Dir == "in" && (ev.Kind == "http-head" || ev.Kind == "http-body") {
				learnOAuth(known, ev.Text)
			}
			if !waiting && !frameDone(ev, id, f.Target, &answers) {
				continue
			}
			if enough == nil || enough(i, each[i]) {
				break
			}
			if !waiting {
				waiting = true
				conn.SetReadDeadline(time.Now().Add(replyPatience))
			}
		}
	}
	return each
}

// replyPatience bounds the wait for an answer that a lesson promises and
// the server has not sent: the in-process servers answer in
// milliseconds, so a wait this long means it is not coming.
const replyPatience = 5 * time.Second

// frameDone reports whether the answer to frame id has all arrived:
// the playground's refusal, the end of an HTTP answer, the gRPC
// exchange, or on a stdio target as many lines as the frame asked for
// (answers counts them down).
func frameDone(ev wire.Event, id int64, target string, answers *int) bool {
	switch {
	case ev.Op == "error" && ev.ID == id:
		return true
	case target == "stdio" || target == "mcp-stdio" || target == "mcp-hostile":
		if ev.Op == "event" && ev.Target == target && ev.Dir == "in" && ev.Kind == "line" && !hostileNotice(target, ev.Text) {
			*answers--
		}
		return *answers <= 0 && ev.Op == "event" && (ev.Dir == "in" || ev.Dir == "out" && ev.ID == id)
	case target == "grpc":
		return ev.ID == id && ev.Kind == "grpc"
	}
	return ev.ID == id && ev.Dir == "note" && ev.Kind == "end"
}

// answersTo counts the lines a stdio frame gets back: one per non-blank
// line on the stdio target; on mcp-stdio, one per request (a line with
// an id) and per line that is not JSON, none for a notification.
func answersTo(f frames.Frame) int {
	n := 0
	for _, l := range strings.Split(f.Text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if f.Target == "stdio" {
			n++
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(l), &m) != nil {
			n++
		} else if id, ok := m["id"]; ok && string(id) != "null" {
			n++
		}
	}
	return n
}
