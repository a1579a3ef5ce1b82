package grade

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// MCPServer grades the mcp-server exercise: an MCP server (revision
// 2025-11-25) over stdio, one JSON-RPC message per line.
func MCPServer() *Grader {
	return &Grader{
		Exercise: "mcp-server",
		Stages: []Stage{
			{Name: "completes the handshake", Run: mcpHandshakeStage},
			{Name: "negotiates the protocol version", Run: mcpNegotiates},
			{Name: "refuses requests before initialize", Run: mcpBeforeInitialize},
			{Name: "lists its tools", Run: mcpListsTools},
			{Name: "calls word_count", Run: mcpCallsTool},
			{Name: "tells tool errors from protocol errors", Run: mcpErrorKinds},
			{Name: "survives bad frames", Run: mcpBadFrames},
			{Name: "handles a 100 KiB message", Run: mcpLongLine},
			{Name: "keeps stdout clean", Run: mcpCleanEnd},
		},
	}
}

// mcpInitialize is an initialize request asking for version.
func mcpInitialize(id, version string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"wirelab-grader","version":"1"}}}`, id, version)
}

// mcpInitialized is the notification that ends the handshake.
const mcpInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// mcpInitializeResult is what initialize must answer, at least: the
// version, a tools capability (an object), and who the server is.
func mcpInitializeResult(id, version string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"<string>","version":"<string>"}}}`, id, version)
}

const (
	hintNegotiate     = `An unknown protocol version is not an error: answer initialize with the latest version you speak, and let the client decide whether to go on.`
	hintEchoVersion   = `When the client asks for a version you speak, answer with that same version: the session then speaks it.`
	hintBeforeInit    = `Until initialize has been answered the session has not started: answer every request but ping with an error (such as -32600) instead of running it.`
	hintContentText   = `A tool with an output schema gives its output twice: as structuredContent, and as the same JSON in a text block ({"type":"text","text":"{\"words\":3,\"chars\":13}"}) for clients that only read text.`
	hintSuccessMarked = `"isError": true marks a failed call; a call that worked leaves it out (or false), or the host shows the model an error.`
)

// mcpHandshake runs initialize and notifications/initialized, then a
// ping: the ping's answer must be the next line, which shows that the
// notification was not answered.
func mcpHandshake(p *Process) error {
	if err := p.ExpectSubset("initialize", mcpInitialize("1", "2025-11-25"), mcpInitializeResult("1", "2025-11-25")); err != nil {
		return err
	}
	if err := p.Send(mcpInitialized); err != nil {
		return About(err, "notifications/initialized", mcpInitialized)
	}
	const ping = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	got, err := p.Call("a ping after notifications/initialized", ping)
	if err != nil {
		return err
	}
	if string(Field(got, "id")) != "2" && (Field(got, "result") != nil || Field(got, "error") != nil) {
		f := Failf("notifications/initialized was answered; a notification gets no answer")
		f.Sent = mcpInitialized + "\n" + ping
		f.Got, f.Hint = shorten(string(got)), HintNotification
		return f
	}
	if f := CompareJSON(got, `{"jsonrpc":"2.0","id":2,"result":{}}`, Exact); f != nil {
		return About(f, "a ping after notifications/initialized", ping)
	}
	return nil
}

func mcpHandshakeStage(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	return mcpHandshake(p)
}

func mcpNegotiates(t *T) error {
	for _, c := range []struct{ what, id, asked, answered, hint string }{
		{"initialize asking for 2025-06-18, an older version a server should speak", "1", "2025-06-18", "2025-06-18", hintEchoVersion},
		{"initialize asking for 2099-01-01, a version no server speaks yet", `"future"`, "2099-01-01", "2025-11-25", hintNegotiate},
	} {
		p, err := t.Start() // initialize comes once per session
		if err != nil {
			return err
		}
		send := mcpInitialize(c.id, c.asked)
		got, err := p.Call(c.what, send)
		if err != nil {
			return err
		}
		if f := CompareJSON(got, mcpInitializeResult(c.id, c.answered), Subset); f != nil {
			// The hint is for an answer that negotiated wrongly, not for
			// an initialize that does not work at all.
			if v := Field(got, "result", "protocolVersion"); (v != nil && string(v) != strconv.Quote(c.answered)) || (c.hint == hintNegotiate && Field(got, "error") != nil) {
				WithHint(f, c.hint)
			}
			return About(f, c.what, send)
		}
	}
	return nil
}

func mcpBeforeInitialize(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	return p.ExpectAnswered(Answered{
		What: "tools/list before initialize",
		Bad:  `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		Want: `{"jsonrpc":"2.0","id":1,"error":{"code":"<number>","message":"<string>"}}`,
		Hint: hintBeforeInit,
		Next: mcpInitialize("2", "2025-11-25"), NextWant: mcpInitializeResult("2", "2025-11-25"),
	})
}

func mcpListsTools(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := mcpHandshake(p); err != nil {
		return err
	}
	const list = `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`
	got, err := p.Call("tools/list", list)
	if err != nil {
		return err
	}
	if f := CompareJSON(got, `{"jsonrpc":"2.0","id":"list","result":{"tools":"<any>"}}`, Subset); f != nil {
		return About(f, "tools/list", list)
	}
	var names []string
	for i := 0; ; i++ {
		raw := Field(got, "result", "tools", strconv.Itoa(i))
		if raw == nil {
			break
		}
		name := Field(raw, "name")
		names = append(names, string(name))
		if string(name) != `"word_count"` {
			continue
		}
		const want = `{"name":"word_count","description":"<string>","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}`
		if f := CompareJSON(raw, want, Subset); f != nil {
			f.restatef("the word_count tool in the answer is not right")
			return About(f, "tools/list", list)
		}
		return nil
	}
	f := Failf("the answer lists no word_count tool (tools named: %s)", strings.Join(names, ", "))
	if len(names) == 0 {
		f.restatef("the answer lists no tools")
	}
	f.Sent, f.Got = list, shorten(string(got))
	return f
}

func mcpCallsTool(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := mcpHandshake(p); err != nil {
		return err
	}
	const what = "a tools/call of word_count"
	const call = `{"jsonrpc":"2.0","id":"call-3","method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`
	got, err := p.Call(what, call)
	if err != nil {
		return err
	}
	const want = `{"jsonrpc":"2.0","id":"call-3","result":{"content":[{"type":"text","text":"<string>"}],"structuredContent":{"words":3,"chars":13}}}`
	if f := CompareJSON(got, want, Subset); f != nil {
		return About(WithHint(f, hintContentText), what, call)
	}
	if string(Field(got, "result", "isError")) == "true" {
		f := Failf("the call worked, but its result says isError: true")
		f.Sent, f.Got, f.Hint = call, shorten(string(got)), hintSuccessMarked
		return f
	}
	var text string
	json.Unmarshal(Field(got, "result", "content", "0", "text"), &text)
	if f := CompareJSON([]byte(text), `{"words":3,"chars":13}`, Exact); f != nil {
		f.restatef("the text block does not hold the output as JSON")
		f.Hint = hintContentText
		return About(f, what, call)
	}
	return nil
}

func mcpErrorKinds(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := mcpHandshake(p); err != nil {
		return err
	}
	for _, c := range []struct{ what, send, want string }{
		{`a word_count call without its "text" argument`,
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"word_count","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"<string>"}],"isError":true}}`},
		{`a word_count call whose "text" is a number`,
			`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"word_count","arguments":{"text":5}}}`,
			`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"<string>"}],"isError":true}}`},
		{"a call of a tool that does not exist",
			`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"<string>"}}`},
		{"a method that does not exist",
			`{"jsonrpc":"2.0","id":7,"method":"tools/delete"}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"<string>"}}`},
	} {
		if err := p.ExpectSubset(c.what, c.send, c.want); err != nil {
			return err
		}
	}
	return nil
}

func mcpBadFrames(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := mcpHandshake(p); err != nil {
		return err
	}
	return p.ExpectAnswered(Answered{
		What: "a line that is not JSON (a message cut short)",
		Bad:  `{"jsonrpc":"2.0","id":8,"method":"tools/list"`,
		Want: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"<string>"}}`,
		Next: `{"jsonrpc":"2.0","id":"next","method":"ping"}`, NextWant: `{"jsonrpc":"2.0","id":"next","result":{}}`,
	})
}

func mcpLongLine(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := mcpHandshake(p); err != nil {
		return err
	}
	text := strings.Repeat("word ", 20480)
	err = p.ExpectSubset("a tools/call whose line is 100 KiB long",
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"`+text+`"}}}`,
		`{"jsonrpc":"2.0","id":9,"result":{"structuredContent":{"words":20480,"chars":102400}}}`)
	if err != nil {
		return WithHint(err, HintScanner)
	}
	return WithHint(p.Expect("a ping after the long line",
		`{"jsonrpc":"2.0","id":10,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":10,"result":{}}`), HintScanner)
}

func mcpCleanEnd(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := mcpHandshake(p); err != nil {
		return err
	}
	err = p.ExpectSubset("a tools/call of word_count",
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"one more"}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"structuredContent":{"words":2,"chars":8}}}`)
	if err != nil {
		return err
	}
	return About(p.ExpectEnd(), "the end of input", "(stdin closed)")
}
