package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/grpctool"
	grpcwire "github.com/wirelab/wirelab/protocols/grpctool/wire"
	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// benchFrameRate lifts the hub's rate limit for the benchmarks, which
// send each frame as soon as the last is answered: the limit is for
// learners, and measuring it is not the point.
const benchFrameRate = 1e9

// hopCase is one protocol's word_count call, made directly and through
// the playground.
type hopCase struct {
	targets Targets
	// direct makes the call without the playground, and returns the
	// answer's text.
	direct func() (string, error)
	// capture, if set, makes the call the way the hub makes it, when that
	// is not what direct does.
	capture func() (string, error)
	// command is the same call as the page sends it.
	command func(id int64) Command
	// answer picks the answer's text out of the events of frame id, and
	// says when the answer is complete.
	answer func(ev pageEvent, id int64) (text string, done bool)
}

// pageEvent is what the benchmark reads of an event to know which it is
// and what it says. The rest of the message, a gRPC call's frames above
// all, is read as JSON (Unmarshal checks all of it) but not copied into
// Go values: a page parses it with JSON.parse, and Go's reflective
// decoder turning base64 back into bytes nobody looks at is the
// benchmark's cost, not the hop's.
type pageEvent struct {
	Op, Dir, Kind, Text, Message string
	ID                           int64
}

// BenchmarkHop measures the latency one playground hop adds to a call:
// /direct calls the server as the hub does (a line to a child's stdin
// and a line back; a raw HTTP/1.1 request on a fresh TCP connection),
// except on gRPC, where it is a plain grpctool round trip on a connection
// kept open, what a real client pays; /playground sends the same frame
// over a websocket to the hub and waits for the answer's last event.
// grpc/capture is the hub's own part of a gRPC hop: a captured call on
// the connection a tab keeps, parsed and written out as the page gets
// it. Every call is word_count on "read the wire". ws-B/op is what the
// page receives per call: every byte that crossed, and the parsed forms
// beside them. Compare runs with benchstat.
func BenchmarkHop(b *testing.B) {
	for _, p := range []struct {
		name  string
		setup func(*testing.B) hopCase
	}{
		{"stdio", stdioHop},
		{"http", httpHop},
		{"grpc", grpcHop},
		{"mcp-http", mcpHop},
		{"a2a", a2aHop},
	} {
		b.Run(p.name, func(b *testing.B) {
			c := p.setup(b)
			b.Run("direct", func(b *testing.B) { benchDirect(b, c.direct) })
			if c.capture != nil {
				b.Run("capture", func(b *testing.B) { benchDirect(b, c.capture) })
			}
			b.Run("playground", func(b *testing.B) { benchPlayground(b, c) })
		})
	}
}

func benchDirect(b *testing.B, direct func() (string, error)) {
	call := func() {
		text, err := direct()
		if err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(text, `"words":3`) {
			b.Fatalf("the answer has no word count: %q", text)
		}
	}
	call() // starts what starts on first use, off the clock
	for b.Loop() {
		call()
	}
}

func benchPlayground(b *testing.B, c hopCase) {
	h := newTestHub(b, c.targets)
	h.frameRate, h.frameBurst = benchFrameRate, benchFrameRate
	conn := dial(b, serveHub(b, h, ""))
	readHello(b, conn)
	var id int64
	var received int
	call := func() {
		id++
		send(b, conn, c.command(id))
		conn.SetReadDeadline(time.Now().Add(patience))
		var text strings.Builder
		for {
			_, msg, err := conn.ReadMessage()
			if err != nil {
				b.Fatalf("waiting for the answer to frame %d: %v", id, err)
			}
			received += len(msg)
			var ev pageEvent
			if err := json.Unmarshal(msg, &ev); err != nil {
				b.Fatal(err)
			}
			if ev.Op == "error" {
				b.Fatalf("the playground refused frame %d: %s", id, ev.Message)
			}
			part, done := c.answer(ev, id)
			text.WriteString(part)
			if done {
				break
			}
		}
		if !strings.Contains(text.String(), `"words":3`) {
			b.Fatalf("the answer has no word count: %q", text.String())
		}
	}
	call()
	received = 0
	for b.Loop() {
		call()
	}
	b.ReportMetric(float64(received)/float64(b.N), "ws-B/op")
}

// stdioHop: the stdio tool server as a child process, the test binary.
func stdioHop(b *testing.B) hopCase {
	b.Setenv(childEnv, "1")
	p, err := stdio.StartProcess([]string{os.Args[0], "server", "stdio"}, nil, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		p.Stdin.Close()
		p.Stop()
	})
	stdout := bufio.NewReader(p.Stdout)
	line := `{"name":"word_count","args":{"text":"read the wire"}}`
	return hopCase{
		direct: func() (string, error) {
			if _, err := io.WriteString(p.Stdin, line+"\n"); err != nil {
				return "", err
			}
			return stdout.ReadString('\n')
		},
		command: func(id int64) Command { return Command{Op: "send", ID: id, Target: "stdio", Frame: line} },
		answer: func(ev pageEvent, id int64) (string, bool) {
			if ev.Dir == "in" && ev.Kind == "line" {
				return ev.Text, true
			}
			return "", false
		},
	}
}

// httpFrames makes a hopCase for a server reached by raw HTTP frames.
func httpFrames(base, target string, frame func(id int64) string) hopCase {
	u, _ := url.Parse(base)
	return hopCase{
		direct: func() (string, error) {
			_, body, err := rawExchange(u.Host, frame(0))
			return body, err
		},
		command: func(id int64) Command { return Command{Op: "send", ID: id, Target: target, Frame: frame(id)} },
		answer: func(ev pageEvent, id int64) (string, bool) {
			switch {
			case ev.ID != id:
				return "", false
			case ev.Kind == "http-body":
				return ev.Text, false
			}
			return "", ev.Kind == "end"
		},
	}
}

// rawExchange sends one request, as the hub makes it from a frame
// (rawRequest), on a fresh connection, and reads the answer.
func rawExchange(host, frame string) (*http.Response, string, error) {
	raw, _, err := rawRequest(frame, host)
	if err != nil {
		return nil, "", err
	}
	conn, err := net.Dial("tcp", host)
	if err != nil {
		return nil, "", err
	}
	defer conn.Close()
	if _, err := conn.Write(raw); err != nil {
		return nil, "", err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, string(body), err
}

// httpHop: the HTTP tool server.
func httpHop(b *testing.B) hopCase {
	api := httptest.NewServer(httpjson.NewServer(tools.New(nil), nil))
	b.Cleanup(api.Close)
	c := httpFrames(api.URL, "http", func(int64) string {
		return "POST /execute HTTP/1.1\nContent-Type: application/json\n\n" + `{"name":"word_count","args":{"text":"read the wire"}}`
	})
	c.targets = Targets{HTTPURL: api.URL}
	return c
}

// grpcHop: the gRPC tool server; the arguments are {"text":"read the
// wire"} in base64, as ProtoJSON writes bytes.
func grpcHop(b *testing.B) hopCase {
	addr := startGRPC(b)
	const method = "tools.v1.ToolServer/ExecuteTool"
	const request = `{"toolName":"word_count","arguments":"eyJ0ZXh0IjoicmVhZCB0aGUgd2lyZSJ9"}`
	direct, err := grpctool.NewClient(addr, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { direct.Close() })
	captures := grpcwire.NewClient(addr, nil)
	b.Cleanup(func() { captures.Close() })
	return hopCase{
		targets: Targets{GRPCAddr: addr},
		direct: func() (string, error) {
			result, err := direct.Call(context.Background(), "word_count", json.RawMessage(`{"text":"read the wire"}`), "")
			return string(result), err
		},
		capture: func() (string, error) {
			e, err := captures.Capture(context.Background(), method, []byte(request), &grpcwire.Options{Timeout: exchangeTimeout})
			if err != nil {
				return "", err
			}
			var text bytes.Buffer
			e.Format(&text)
			if len(e.Responses) == 0 || len(e.Responses[0].Fields) == 0 {
				return "", fmt.Errorf("no answer: %v", e.Code)
			}
			return e.Responses[0].Fields[0].Value, nil
		},
		command: func(id int64) Command {
			return Command{Op: "send", ID: id, Target: "grpc", Frame: method + "\n" + request}
		},
		answer: func(ev pageEvent, id int64) (string, bool) {
			if ev.ID == id && ev.Kind == "grpc" {
				return ev.Text, true
			}
			return "", false
		},
	}
}

// mcpHop: the MCP server over Streamable HTTP, with one session opened
// (initialize, notifications/initialized) before the clock starts;
// what is timed is tools/call.
func mcpHop(b *testing.B) hopCase {
	handler := mcp.NewServer(tools.New(nil), &mcp.ServerOptions{Version: "bench"}).HTTPHandler(nil)
	srv := httptest.NewServer(handler)
	b.Cleanup(srv.Close)
	b.Cleanup(handler.Close) // first: it ends the session's streams
	host := strings.TrimPrefix(srv.URL, "http://")
	const head = "POST " + mcp.Endpoint + " HTTP/1.1\nAccept: application/json, text/event-stream\nContent-Type: application/json\n"
	resp, body, err := rawExchange(host, head+"\n"+`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	if err != nil || resp.Header.Get("Mcp-Session-Id") == "" {
		b.Fatalf("initialize: %v %q", err, body)
	}
	session := head + "Mcp-Session-Id: " + resp.Header.Get("Mcp-Session-Id") + "\nMCP-Protocol-Version: 2025-11-25\n\n"
	if resp, body, err := rawExchange(host, session+`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil || resp.StatusCode != http.StatusAccepted {
		b.Fatalf("notifications/initialized: %v %q", err, body)
	}
	c := httpFrames(srv.URL, "mcp-http", func(id int64) string {
		return session + fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`, id+2)
	})
	c.targets = Targets{MCPURL: srv.URL + mcp.Endpoint}
	return c
}

// a2aHop: the A2A agent, protocol 1.0: SendMessage waits for the task to
// complete and answers it with its artifact (testdata/count-1.0.txtar in
// package a2a).
func a2aHop(b *testing.B) hopCase {
	agent := a2a.NewServer(&a2a.Options{Tools: tools.New(nil)})
	srv := httptest.NewServer(agent)
	b.Cleanup(srv.Close)
	b.Cleanup(agent.Close) // first: it ends the tasks' streams
	c := httpFrames(srv.URL, "a2a", func(id int64) string {
		return "POST / HTTP/1.1\nA2A-Version: 1.0\nContent-Type: application/json\n\n" +
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"SendMessage","params":{"message":{"messageId":"m%d","role":"ROLE_USER","parts":[{"text":"count read the wire"}]}}}`, id+1, id+1)
	})
	c.targets = Targets{A2AURL: srv.URL}
	return c
}
