package grade

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// MCPClient grades the mcp-client exercise: a program that calls one
// tool of an MCP server (revision 2025-11-25) over Streamable HTTP,
//
//	mcp-client --url http://127.0.0.1:PORT/mcp TOOL [KEY=VALUE | KEY:=JSON]...
//
// and prints the text blocks of the result on stdout (exit status 0),
// or the tool's text on stderr when the result has isError (status 1),
// or what went wrong on stderr for anything else (status 2). Each stage
// runs a server, wirelab's own or a scripted one (mcppeer.go), starts
// the program against it, waits for it to exit, and then looks at what
// it sent, what it printed and how it exited.
func MCPClient() *Grader {
	return &Grader{
		Exercise: "mcp-client",
		Stages: []Stage{
			{Name: "completes the handshake", Run: mcpcHandshake},
			{Name: "prints the tool's text", Run: mcpcPrintsText},
			{Name: "prints every text block", Run: mcpcTextBlocks},
			{Name: "reads an SSE answer", Run: mcpcReadsSSE},
			{Name: "reports a tool error", Run: mcpcToolError},
			{Name: "reports a protocol error", Run: mcpcProtocolError},
		},
	}
}

const (
	hintMCPAccept      = `Every POST carries "Accept: application/json, text/event-stream": the server chooses, request by request, between one JSON answer and an SSE stream, and it may refuse (406) a client that does not take both.`
	hintMCPInitialized = `Once initialize has been answered, send notifications/initialized (a notification: no id) before anything else. The server answers it with 202 and no body; some servers refuse every request until it has come.`
	hintMCPNoID        = `A notification has no "id" at all: that is what tells it from a request. The server does not answer it, so an id would be a request nobody answers.`
	hintMCPSession     = `The answer to initialize carries an Mcp-Session-Id header. Keep its value and send it back, unchanged, as Mcp-Session-Id on every later request of the session: the server answers 400 without it and 404 for an id it does not know.`
	hintMCPVersion     = `Every request after initialize carries "MCP-Protocol-Version: 2025-11-25", the revision initialize agreed on. Without it a server assumes the older 2025-03-26.`
	hintMCPNeedsID     = `A request needs an "id", a string or a number: without one it is a notification, which the server never answers. 0 is an id like any other, but an int field tagged omitempty leaves it out: make the field a pointer, nil for no id.`
	hintMCPNewID       = `A request id is never used twice in a session, or answers cannot be told apart: count up (1 for initialize, 2 for tools/call, ...).`
	hintMCPWholeJSON   = `Print what the tool said, not the protocol around it: decode the response and print the "text" of each block of result.content whose "type" is "text", one per line.`
	hintMCPTextBlocks  = `result.content is a list of blocks. Print the text of every block whose type is "text", each on its own line, in order, and skip the other kinds (image, audio, resource), which are not text.`
	hintMCPSSE         = `A server may answer a POST with "Content-Type: text/event-stream" instead of JSON. Read the stream line by line: an event is "data: ..." lines ended by an empty line. Skip events without data and messages that are not your answer (notifications such as notifications/message), and stop at the response whose id is your request's.`
	hintMCPIsError     = `"isError": true is the tool saying that it failed, inside a normal result. Check it before printing: write the text on stderr and exit with status 1, so that whoever ran the client knows the call did not work.`
	hintMCPToolExit    = `A tool error (a result with "isError": true) exits with status 1, and its text goes on stderr; status 2 is for protocol errors. A script, or a person, can then tell "the tool failed" from "the client or the server is broken".`
	hintMCPRPCError    = `An answer with "error" in place of "result" is a protocol error: the request itself was wrong (here, a tool that does not exist). Check for it before reading result, print its code and message on stderr, and exit with status 2.`
)

// mcpcWantInitialize is the initialize request, as far as it is checked.
const mcpcWantInitialize = `{"jsonrpc":"2.0","id":"<any>","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"<string>","version":"<string>"}}}`

func mcpcHandshake(t *T) error {
	r, err := mcpcStart(t, newWirelabPeer(), "word_count", "text=read the wire")
	if err != nil {
		return err
	}
	return r.scrub(r.checkHandshake(`{"name":"word_count","arguments":{"text":"read the wire"}}`))
}

// checkHandshake checks the first three POSTs: initialize,
// notifications/initialized, and a tools/call with params.
func (r *mcpcRun) checkHandshake(params string) error {
	posts := r.posts()
	if len(posts) == 0 {
		f := r.fail("the program sent no message to the server; it exited with status %d", r.code)
		f.Sent = "command line: " + r.commandLine()
		f.Expected = "POST " + mcpcWantInitialize
		return f
	}
	init := posts[0]
	if f := r.checkAccept(init); f != nil {
		f.Sent = "command line: " + r.commandLine()
		return f
	}
	if mt := mcpMediaType(init.Header); mt != "application/json" {
		f := r.fail("the initialize POST's body is not declared as JSON")
		f.Sent = "command line: " + r.commandLine()
		f.Expected, f.Got = "Content-Type: application/json", "Content-Type: "+init.Header.Get("Content-Type")
		return f
	}
	if f := CompareJSON(compact(init.Body), mcpcWantInitialize, Subset); f != nil {
		f.restatef("the first message is not the initialize request expected")
		f.Sent, f.Stderr = "command line: "+r.commandLine(), r.stderr
		if Field(init.Body, "id") == nil {
			f.Hint = hintMCPNeedsID
		}
		return f
	}
	if init.Status != http.StatusOK {
		f := r.fail("the server refused initialize with HTTP %d", init.Status)
		f.Sent, f.Got = init.answer(), init.request()
		return f
	}

	if len(posts) < 2 {
		f := r.fail("after the answer to initialize the program sent nothing more, and exited with status %d", r.code)
		f.Sent, f.Expected, f.Hint = init.answer(), "POST "+mcpInitialized, hintMCPInitialized
		return f
	}
	notice := posts[1]
	if m := notice.method(); m != "notifications/initialized" {
		if m == "" {
			m = "a message without a method"
		}
		f := r.fail("after the answer to initialize, the next message is %s, not notifications/initialized", m)
		f.Sent, f.Expected, f.Got, f.Hint = init.answer(), "POST "+mcpInitialized, notice.request(), hintMCPInitialized
		return f
	}
	if Field(notice.Body, "id") != nil {
		f := r.fail("notifications/initialized has an id, which makes it a request")
		f.Expected, f.Got, f.Hint = "POST "+mcpInitialized, notice.request(), hintMCPNoID
		return f
	}
	session := init.Answer.Get("Mcp-Session-Id")
	for _, x := range posts[1:] {
		if f := r.checkSessionHeaders(x, init, session); f != nil {
			return f
		}
	}
	if notice.Status != http.StatusAccepted {
		f := r.fail("the server answered notifications/initialized with HTTP %d, not 202 Accepted", notice.Status)
		f.Sent, f.Got = notice.answer(), notice.request()
		return f
	}

	wantCall := `{"jsonrpc":"2.0","id":"<any>","method":"tools/call","params":` + params + `}`
	if len(posts) < 3 {
		f := r.fail("after notifications/initialized the program sent nothing more, and exited with status %d; it should call the tool", r.code)
		f.Sent, f.Expected = notice.answer(), "POST "+wantCall
		return f
	}
	call := posts[2]
	if f := CompareJSON(compact(call.Body), wantCall, Subset); f != nil {
		f.restatef("after the handshake, the message is not the tools/call expected")
		f.Sent, f.Stderr = "command line: "+r.commandLine(), r.stderr
		if Field(call.Body, "id") == nil {
			f.Hint = hintMCPNeedsID
		}
		return f
	}
	if id := Field(call.Body, "id"); bytes.Equal(id, Field(init.Body, "id")) {
		f := r.fail("tools/call has the id %s, which initialize already had", id)
		f.Got, f.Hint = call.request(), hintMCPNewID
		return f
	}
	return nil
}

// checkSessionHeaders checks the headers of a POST after initialize.
func (r *mcpcRun) checkSessionHeaders(x, init mcpExchange, session string) *Failure {
	if f := r.checkAccept(x); f != nil {
		return f
	}
	if got := x.Header.Get("Mcp-Session-Id"); got != session {
		f := r.fail("%s does not carry the session id that the answer to initialize gave", x.what())
		f.Sent, f.Expected, f.Got, f.Hint = init.answer(), "Mcp-Session-Id: "+session, "Mcp-Session-Id: "+got, hintMCPSession
		if got == "" {
			f.Got = "(no Mcp-Session-Id header)"
		}
		return f
	}
	if got := x.Header.Get("MCP-Protocol-Version"); got != "2025-11-25" {
		f := r.fail("%s does not carry the protocol version that initialize agreed on", x.what())
		f.Sent, f.Expected, f.Got, f.Hint = init.answer(), "MCP-Protocol-Version: 2025-11-25", "MCP-Protocol-Version: "+got, hintMCPVersion
		if got == "" {
			f.Got = "(no MCP-Protocol-Version header)"
		}
		return f
	}
	return nil
}

// checkAccept checks that a POST takes both kinds of answer.
func (r *mcpcRun) checkAccept(x mcpExchange) *Failure {
	if acceptsBoth(x.Header) {
		return nil
	}
	f := r.fail("%s does not say that it takes both kinds of answer", x.what())
	f.Expected, f.Got, f.Hint = "Accept: application/json, text/event-stream", "Accept: "+x.Header.Get("Accept"), hintMCPAccept
	if len(x.Header.Values("Accept")) == 0 {
		f.Got = "(no Accept header)"
	}
	return f
}

// acceptsBoth reports whether a request's Accept header lists both
// application/json and text/event-stream (or a wildcard covering them).
func acceptsBoth(h http.Header) bool {
	has := map[string]bool{}
	for _, v := range h.Values("Accept") {
		for _, item := range strings.Split(v, ",") {
			mt, _, _ := strings.Cut(item, ";")
			has[strings.ToLower(strings.TrimSpace(mt))] = true
		}
	}
	if has["*/*"] {
		return true
	}
	return (has["application/json"] || has["application/*"]) && (has["text/event-stream"] || has["text/*"])
}

func mcpcPrintsText(t *T) error {
	r, err := mcpcStart(t, newWirelabPeer(), "word_count", "text=read the wire")
	if err != nil {
		return err
	}
	return r.scrub(r.checkOutput("{\"words\":3,\"chars\":13}\n", hintMCPWholeJSON))
}

func mcpcTextBlocks(t *T) error {
	const result = `{"content":[` +
		`{"type":"text","text":"Sessions start with initialize."},` +
		`{"type":"image","data":"R0lGODlhAQABAAAAACw=","mimeType":"image/gif"},` +
		`{"type":"text","text":"Every later request carries Mcp-Session-Id."}]}`
	r, err := mcpcStart(t, newMCPPeer(&mcpScripted{result: result}, nil), "search", "q=session")
	if err != nil {
		return err
	}
	return r.scrub(r.checkOutput("Sessions start with initialize.\nEvery later request carries Mcp-Session-Id.\n", hintMCPTextBlocks))
}

func mcpcReadsSSE(t *T) error {
	const result = `{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13}}`
	r, err := mcpcStart(t, newMCPPeer(&mcpScripted{result: result, sse: true}, nil), "word_count", "text=read the wire")
	if err != nil {
		return err
	}
	err = r.checkOutput("{\"words\":3,\"chars\":13}\n", hintMCPSSE)
	return r.scrub(About(err, "the server answered every request with an SSE stream", ""))
}

// checkOutput checks a call that worked: status 0, and want on stdout.
// hint is for an output that is not want, unless it is the whole
// response.
func (r *mcpcRun) checkOutput(want, hint string) error {
	call, called := r.answerTo("tools/call")
	switch {
	case !called:
		f := r.notCalled()
		f.Hint = hint
		return f
	case r.code != 0:
		f := r.fail("the call worked, but the program exited with status %d", r.code)
		f.Sent, f.Hint = call.answer(), hint
		return f
	case r.stdout != want:
		f := r.fail("stdout is not the text of the tool's answer")
		f.Sent = call.answer()
		f.setDiff([]byte(want), []byte(r.stdout), firstDiff([]byte(want), []byte(r.stdout)))
		f.Hint = hint
		if strings.Contains(r.stdout, `"content"`) || strings.Contains(r.stdout, `"jsonrpc"`) {
			f.Hint = hintMCPWholeJSON
		}
		return f
	}
	return nil
}

// notCalled is the failure of a program that never called the tool.
func (r *mcpcRun) notCalled() *Failure {
	posts := r.posts()
	if len(posts) == 0 {
		f := r.fail("the program exited with status %d without sending a message", r.code)
		f.Sent = "command line: " + r.commandLine()
		return f
	}
	last := posts[len(posts)-1]
	f := r.fail("the program exited with status %d after %s, before calling the tool", r.code, last.what())
	f.Sent = last.answer()
	return f
}

func mcpcToolError(t *T) error {
	r, err := mcpcStart(t, newWirelabPeer(), "weather", "city=Lisbon")
	if err != nil {
		return err
	}
	return r.scrub(r.checkToolError())
}

func (r *mcpcRun) checkToolError() error {
	call, called := r.answerTo("tools/call")
	if !called {
		return r.notCalled()
	}
	var text string
	json.Unmarshal(Field(call.Reply, "result", "content", "0", "text"), &text)
	// What stderr must show: the text, up to where quoting could change it.
	shown, _, _ := strings.Cut(text, `"`)
	var f *Failure
	switch {
	case r.code == 0:
		f = r.fail("the tool failed (its result has isError: true), but the program exited with status 0, as if it had worked")
		f.Hint = hintMCPIsError
	case r.code != 1:
		f = r.fail("the tool failed (its result has isError: true), and the program exited with status %d, not 1", r.code)
		f.Hint = hintMCPToolExit
	case r.stdout != "":
		f = r.fail("the tool failed, and the program wrote on stdout, which is for a tool's output; the text of a tool error goes on stderr")
		f.Hint = hintMCPToolExit
	case shown == "" || !strings.Contains(r.stderr, shown):
		f = r.fail("the tool failed, and the program's stderr does not show the text of its result")
		f.Expected, f.Hint = shorten(text), hintMCPToolExit
	default:
		return nil
	}
	f.Sent = call.answer()
	if r.stdout != "" {
		f.Got = "stdout: " + shorten(r.stdout)
	}
	return f
}

func mcpcProtocolError(t *T) error {
	r, err := mcpcStart(t, newWirelabPeer(), "nope")
	if err != nil {
		return err
	}
	return r.scrub(r.checkProtocolError())
}

func (r *mcpcRun) checkProtocolError() error {
	call, called := r.answerTo("tools/call")
	if !called {
		return r.notCalled()
	}
	code := string(Field(call.Reply, "error", "code"))
	var message string
	json.Unmarshal(Field(call.Reply, "error", "message"), &message)
	shown, _, _ := strings.Cut(message, `"`) // as in checkToolError
	var f *Failure
	switch {
	case r.code == 0:
		f = r.fail("the server answered tools/call with a JSON-RPC error, and the program exited with status 0, as if the call had worked")
	case r.code != 2:
		f = r.fail("the server answered tools/call with a JSON-RPC error, and the program exited with status %d, not 2", r.code)
	case r.stdout != "":
		f = r.fail("the call failed, and the program wrote on stdout, which is for a tool's output; say what went wrong on stderr")
	case code == "" || (!strings.Contains(r.stderr, code) && (shown == "" || !strings.Contains(r.stderr, shown))):
		f = r.fail("the call failed, and the program's stderr shows neither the error's code nor its message")
	default:
		return nil
	}
	f.Sent, f.Hint = call.answer(), hintMCPRPCError
	if r.stdout != "" {
		f.Got = "stdout: " + shorten(r.stdout)
	}
	return f
}
