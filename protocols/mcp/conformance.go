package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"time"
)

// This file holds the fixtures of the official MCP conformance suite
// (npm @modelcontextprotocol/conformance): the tools, resources and
// prompts its server scenarios call by name. `wirelab server mcp
// --fixtures conformance` adds them; the course never sees them. Each
// one returns what its scenario's description asks for, and nothing
// here is needed to understand MCP.

// fixtureStep is the pause between the messages of the tools that send
// several notifications, so that a client sees them arrive one by one.
const fixtureStep = 20 * time.Millisecond

// addFixtures adds the conformance fixtures to s.
func addFixtures(s *Server) {
	pngData := tinyPNG()
	text := func(t string) *CallToolResult { return &CallToolResult{Content: []Content{TextContent(t)}} }
	embedded := Content{Type: "resource", Resource: &ResourceContents{
		URI: "test://embedded-resource", MimeType: "text/plain", Text: "This is an embedded resource content."}}
	image := Content{Type: "image", Data: pngData, MimeType: "image/png"}

	s.extraTools = append(s.extraTools,
		fixture("test_simple_text", "Returns a short text.", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			return text("This is a simple text response for testing."), nil
		}),
		fixture("test_image_content", "Returns an image.", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			return &CallToolResult{Content: []Content{image}}, nil
		}),
		fixture("test_audio_content", "Returns a sound.", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			return &CallToolResult{Content: []Content{{Type: "audio", Data: tinyWAV(), MimeType: "audio/wav"}}}, nil
		}),
		fixture("test_embedded_resource", "Returns an embedded resource.", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			return &CallToolResult{Content: []Content{embedded}}, nil
		}),
		fixture("test_multiple_content_types", "Returns text, an image and a resource.", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			return &CallToolResult{Content: []Content{TextContent("Multiple content types test:"), image, embedded}}, nil
		}),
		fixture("test_tool_with_logging", "Sends three log messages while it runs.", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
				if i > 0 && !pause(ctx) {
					return nil, ctx.Err()
				}
				x.log("info", "test_tool_with_logging", msg)
			}
			return text("Tool with logging executed successfully"), nil
		}),
		fixture("test_tool_with_progress", "Reports progress three times.", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			for i, p := range []float64{0, 50, 100} {
				if i > 0 && !pause(ctx) {
					return nil, ctx.Err()
				}
				x.progress(p, 100, fmt.Sprintf("step %d of 3", i+1))
			}
			return text("Progress tool completed"), nil
		}),
		fixture("test_error_handling", "Always fails, as a tool error.", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			return &CallToolResult{IsError: true, Content: []Content{TextContent("This tool intentionally returns an error for testing")}}, nil
		}),
		fixture("test_reconnection", "Answers at once (this server does not close streams early).", noArgs, func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			return text("Reconnection test completed"), nil
		}),
		fixture("test_sampling", "Asks the client's model to answer a prompt.",
			`{"type":"object","properties":{"prompt":{"type":"string"}},"required":["prompt"]}`,
			func(ctx context.Context, x *exchange, raw json.RawMessage) (*CallToolResult, error) {
				var in struct{ Prompt string }
				json.Unmarshal(raw, &in)
				params := map[string]any{
					"messages":  []PromptMessage{{Role: "user", Content: TextContent(in.Prompt)}},
					"maxTokens": 100,
				}
				return ask(ctx, x, "sampling/createMessage", params, func(c ClientCapabilities) json.RawMessage { return c.Sampling },
					func(answer json.RawMessage) string {
						var r struct{ Content Content }
						json.Unmarshal(answer, &r)
						return "LLM response: " + r.Content.Text
					})
			}),
		elicitFixture("test_elicitation", `{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`,
			`{"type":"object","properties":{"username":{"type":"string","description":"User's response"},"email":{"type":"string","description":"User's email address"}},"required":["username","email"]}`),
		elicitFixture("test_elicitation_sep1034_defaults", noArgs,
			`{"type":"object","properties":{`+
				`"name":{"type":"string","default":"John Doe"},`+
				`"age":{"type":"integer","default":30},`+
				`"score":{"type":"number","default":95.5},`+
				`"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},`+
				`"verified":{"type":"boolean","default":true}}}`),
		elicitFixture("test_elicitation_sep1330_enums", noArgs,
			`{"type":"object","properties":{`+
				`"untitledSingle":{"type":"string","enum":["option1","option2","option3"]},`+
				`"titledSingle":{"type":"string","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},`+
				`"legacyEnum":{"type":"string","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},`+
				`"untitledMulti":{"type":"array","items":{"type":"string","enum":["option1","option2","option3"]}},`+
				`"titledMulti":{"type":"array","items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`),
		fixture("json_schema_2020_12_tool", "Has an input schema that uses JSON Schema 2020-12 keywords.",
			`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",`+
				`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},`+
				`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},`+
				`"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},`+
				`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],`+
				`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},`+
				`"then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}`,
			func(ctx context.Context, x *exchange, raw json.RawMessage) (*CallToolResult, error) {
				return text("Received: " + compact(raw)), nil
			}),
	)

	s.resources = append(s.resources,
		resource{Resource: Resource{URI: "test://static-text", Name: "static-text", Description: "A fixed text.", MimeType: "text/plain"},
			read: func() ResourceContents {
				return ResourceContents{MimeType: "text/plain", Text: "This is the content of the static text resource."}
			}},
		resource{Resource: Resource{URI: "test://static-binary", Name: "static-binary", Description: "A fixed image.", MimeType: "image/png"},
			read: func() ResourceContents { return ResourceContents{MimeType: "image/png", Blob: pngData} }},
		resource{Resource: Resource{URI: "test://watched-resource", Name: "watched-resource", Description: "A resource to subscribe to.", MimeType: "text/plain"},
			read: func() ResourceContents {
				return ResourceContents{MimeType: "text/plain", Text: "Watched resource content"}
			}},
	)
	s.templates = append(s.templates, resourceTemplate{
		ResourceTemplate: ResourceTemplate{URITemplate: "test://template/{id}/data", Name: "template", Description: "Data for an id.", MimeType: "application/json"},
		read: func(vars map[string]string) (ResourceContents, bool) {
			b, _ := json.Marshal(map[string]any{"id": vars["id"], "templateTest": true, "data": "Data for ID: " + vars["id"]})
			return ResourceContents{MimeType: "application/json", Text: string(b)}, true
		},
		complete: func(variable, prefix string) []string { return withPrefix([]string{"1", "2", "3"}, prefix) },
	})

	addModernFixtures(s)
	addTaskFixtures(s)
	s.prompts = append(s.prompts,
		prompt{Prompt: Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments."},
			get: func(map[string]string) []PromptMessage {
				return []PromptMessage{{Role: "user", Content: TextContent("This is a simple prompt for testing.")}}
			}},
		prompt{Prompt: Prompt{Name: "test_prompt_with_arguments", Description: "A prompt with two arguments.",
			Arguments: []PromptArgument{{Name: "arg1", Description: "First argument", Required: true}, {Name: "arg2", Description: "Second argument", Required: true}}},
			get: func(a map[string]string) []PromptMessage {
				return []PromptMessage{{Role: "user", Content: TextContent(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"]))}}
			}},
		prompt{Prompt: Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt that embeds a resource.",
			Arguments: []PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
			get: func(a map[string]string) []PromptMessage {
				return []PromptMessage{
					{Role: "user", Content: Content{Type: "resource", Resource: &ResourceContents{URI: a["resourceUri"], MimeType: "text/plain", Text: "Embedded resource content for testing."}}},
					{Role: "user", Content: TextContent("Please process the embedded resource above.")},
				}
			}},
		prompt{Prompt: Prompt{Name: "test_prompt_with_image", Description: "A prompt with an image."},
			get: func(map[string]string) []PromptMessage {
				return []PromptMessage{{Role: "user", Content: image}, {Role: "user", Content: TextContent("Please analyze the image above.")}}
			}},
	)
	for i := range s.prompts {
		if s.prompts[i].complete == nil {
			s.prompts[i].complete = func(arg, prefix string) []string {
				return withPrefix([]string{"test", "testValue1", "testValue2"}, prefix)
			}
		}
	}
}

// noArgs is the input schema of a tool without arguments.
const noArgs = `{"type":"object","properties":{}}`

func fixture(name, description, inputSchema string, call func(context.Context, *exchange, json.RawMessage) (*CallToolResult, error)) extraTool {
	return extraTool{Tool: Tool{Name: name, Description: description, InputSchema: json.RawMessage(inputSchema)}, call: call}
}

// elicitFixture is a tool that asks the user to fill in a form with the
// given schema and reports the answer.
func elicitFixture(name, inputSchema, form string) extraTool {
	return fixture(name, "Asks the user to fill in a form.", inputSchema, func(ctx context.Context, x *exchange, raw json.RawMessage) (*CallToolResult, error) {
		var in struct{ Message string }
		json.Unmarshal(raw, &in)
		if in.Message == "" {
			in.Message = "Please fill in the form."
		}
		return ask(ctx, x, "elicitation/create", ElicitParams{Message: in.Message, RequestedSchema: json.RawMessage(form)},
			func(c ClientCapabilities) json.RawMessage { return c.Elicitation },
			func(answer json.RawMessage) string {
				var r ElicitResult
				json.Unmarshal(answer, &r)
				return fmt.Sprintf("Elicitation completed: action=%s, content=%s", r.Action, compact(r.Content))
			})
	})
}

// ask puts a question to the client, if it declared the capability, and
// turns the answer into the tool's text. The question's key is its
// method: one question per tool.
func ask(ctx context.Context, x *exchange, method string, params any, capability func(ClientCapabilities) json.RawMessage, report func(json.RawMessage) string) (*CallToolResult, error) {
	if !x.clientCan(capability) {
		return &CallToolResult{IsError: true, Content: []Content{TextContent("the client did not declare the capability " + method + " needs")}}, nil
	}
	answers, err := x.ask(ctx, question{key: method, method: method, params: params})
	var more *inputRequired
	switch {
	case errors.As(err, &more):
		return nil, err
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return &CallToolResult{IsError: true, Content: []Content{TextContent(method + " failed: " + err.Error())}}, nil
	}
	return &CallToolResult{Content: []Content{TextContent(report(answers[0]))}}, nil
}

// pause waits one fixtureStep, or less if ctx ends; it reports whether
// the tool should go on.
func pause(ctx context.Context) bool {
	t := time.NewTimer(fixtureStep)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// tinyPNG is a 1x1 PNG, base64 encoded.
func tinyPNG() string {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 0x2a, G: 0x7a, B: 0xe2, A: 0xff})
	var b bytes.Buffer
	png.Encode(&b, img) // writing to memory cannot fail
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// tinyWAV is a hundredth of a second of silence, base64 encoded: a RIFF
// header, a "fmt " chunk (PCM, mono, 8 kHz, 16 bits) and a "data" chunk.
func tinyWAV() string {
	const rate, samples = 8000, 80
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + 2*samples))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1))        // PCM
	le(uint16(1))        // channels
	le(uint32(rate))     // sample rate
	le(uint32(rate * 2)) // bytes per second
	le(uint16(2))        // bytes per frame
	le(uint16(16))       // bits per sample
	b.WriteString("data")
	le(uint32(2 * samples))
	b.Write(make([]byte, 2*samples))
	return base64.StdEncoding.EncodeToString(b.Bytes())
}
