package grade

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// MCPSDKServer grades the mcp-sdk-server exercise: an MCP server built
// with the official Go SDK, over stdio. The grader reads the wire the
// SDK writes for the learner's types: the schemas tools/list shows, and
// the structuredContent and isError of a call.
func MCPSDKServer() *Grader {
	return &Grader{
		Exercise: "mcp-sdk-server",
		Stages: []Stage{
			{Name: "completes the handshake", Run: sdkHandshakeStage},
			{Name: "lists word_count with closed schemas", Run: sdkListsTool},
			{Name: "answers with structuredContent", Run: sdkCallsTool},
			{Name: "reports a tool error", Run: sdkToolError},
		},
	}
}

const (
	hintSDKNoTool    = `The SDK declares the tools capability in its answer to initialize once a tool is registered, and this server has none yet: add word_count with mcp.AddTool.`
	hintSDKAddTool   = `Register the tool with the generic mcp.AddTool(server, &mcp.Tool{...}, handler), whose handler takes a typed input struct and returns a typed output: the SDK then writes inputSchema and outputSchema from those types, each closed with "additionalProperties": false. Server.AddTool with a hand-written schema gets none of that.`
	hintSDKTags      = "The schema's property names come from the input struct's JSON tags, and without a tag from the Go field name: give the field the tag `json:\"text\"`, or the model is told to send \"Text\"."
	hintSDKOutput    = `The output schema, and the structuredContent of every call, come from the handler's second result, the Out type: return a struct with json:"words" and json:"chars" fields, not a text you format yourself.`
	hintSDKToolError = `Return the failure as the handler's error (return nil, countOut{}, errors.New("...")): the SDK turns it into a result with "isError": true and the message as text. A result you build yourself with the message but no IsError tells the model the call worked.`
)

// sdkHandshake is mcpHandshake, with a hint for a server that
// registered no tool, which the SDK shows as no tools capability.
func sdkHandshake(p *Process) error {
	err := mcpHandshake(p)
	var f *Failure
	if errors.As(err, &f) && strings.HasPrefix(f.Summary, "initialize:") && strings.Contains(f.Got, `"capabilities"`) && !strings.Contains(f.Got, `"tools"`) {
		f.Hint = hintSDKNoTool
	}
	return err
}

func sdkHandshakeStage(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	return sdkHandshake(p)
}

func sdkListsTool(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := sdkHandshake(p); err != nil {
		return err
	}
	const list = `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`
	got, err := p.Call("tools/list", list)
	if err != nil {
		return err
	}
	var tool json.RawMessage
	var names []string
	for i := 0; ; i++ {
		raw := Field(got, "result", "tools", strconv.Itoa(i))
		if raw == nil {
			break
		}
		names = append(names, string(Field(raw, "name")))
		if string(Field(raw, "name")) == `"word_count"` {
			tool = raw
		}
	}
	if tool == nil {
		f := Failf("the answer lists no word_count tool (tools named: %s)", strings.Join(names, ", "))
		f.Sent, f.Got, f.Hint = list, shorten(string(got)), hintSDKAddTool
		return f
	}
	input := Field(tool, "inputSchema")
	const wantInput = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`
	if f := CompareJSON(input, wantInput, Subset); f != nil {
		f.restatef("word_count's inputSchema is not the one its input struct makes")
		switch {
		case Field(input, "properties", "text") == nil && Field(input, "properties", "Text") != nil:
			f.Hint = hintSDKTags
		case Field(input, "additionalProperties") == nil:
			f.Hint = hintSDKAddTool
		}
		return About(f, "tools/list", list)
	}
	output := Field(tool, "outputSchema")
	const wantOutput = `{"type":"object","properties":{"words":{"type":"integer"},"chars":{"type":"integer"}},"additionalProperties":false}`
	if output == nil {
		f := Failf("word_count has no outputSchema, so a client cannot know the shape of its structuredContent")
		f.Sent, f.Expected, f.Got, f.Hint = list, `"outputSchema":`+wantOutput, shorten(string(tool)), hintSDKOutput
		return f
	}
	if f := CompareJSON(output, wantOutput, Subset); f != nil {
		f.restatef("word_count's outputSchema is not the one a struct with words and chars makes")
		return About(WithHint(f, hintSDKOutput), "tools/list", list)
	}
	return nil
}

func sdkCallsTool(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := sdkHandshake(p); err != nil {
		return err
	}
	const what = "a tools/call of word_count on Cyrillic text"
	const call = `{"jsonrpc":"2.0","id":"call-3","method":"tools/call","params":{"name":"word_count","arguments":{"text":"привет, мир"}}}`
	got, err := p.Call(what, call)
	if err != nil {
		return err
	}
	const want = `{"jsonrpc":"2.0","id":"call-3","result":{"content":[{"type":"text","text":"<string>"}],"structuredContent":{"words":2,"chars":11}}}`
	if f := CompareJSON(got, want, Subset); f != nil {
		switch {
		case string(Field(got, "result", "structuredContent", "chars")) == "20":
			f.Hint = hintRunes
		case Field(got, "result", "structuredContent") == nil:
			f.Hint = hintSDKOutput
		}
		return About(f, what, call)
	}
	if string(Field(got, "result", "isError")) == "true" {
		f := Failf("the call worked, but its result says isError: true")
		f.Sent, f.Got, f.Hint = call, shorten(string(got)), hintSuccessMarked
		return f
	}
	return nil
}

func sdkToolError(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := sdkHandshake(p); err != nil {
		return err
	}
	const what = "a tools/call of word_count on a text with no words"
	const call = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"   "}}}`
	err = p.ExpectSubset(what, call,
		`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"<string>"}],"isError":true}}`)
	return WithHint(err, hintSDKToolError)
}
