package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// The conformance suite's fixtures for revision 2026-07-28: tools and a
// prompt that need input from the client (input_required results, with
// the exact keys and questions the scenarios expect), one that needs a
// capability the client may lack, and one that logs.

// Questions the fixtures ask, by the keys the scenarios expect.
var (
	askName = question{key: "user_name", method: "elicitation/create", params: map[string]any{
		"message":         "What is your name?",
		"requestedSchema": json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	}}
	askCapital = question{key: "capital_question", method: "sampling/createMessage", params: map[string]any{
		"messages":  []PromptMessage{{Role: "user", Content: TextContent("What is the capital of France?")}},
		"maxTokens": 100,
	}}
	askGreeting = question{key: "greeting", method: "sampling/createMessage", params: map[string]any{
		"messages":  []PromptMessage{{Role: "user", Content: TextContent("Generate a greeting")}},
		"maxTokens": 50,
	}}
	askRoots   = question{key: "client_roots", method: "roots/list", params: struct{}{}}
	askConfirm = question{key: "confirm", method: "elicitation/create", params: map[string]any{
		"message":         "Please confirm",
		"requestedSchema": json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`),
	}}
	askStep1 = question{key: "step1", method: "elicitation/create", params: map[string]any{
		"message":         "Step 1: What is your name?",
		"requestedSchema": json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	}}
	askStep2 = question{key: "step2", method: "elicitation/create", params: map[string]any{
		"message":         "Step 2: What is your favorite color?",
		"requestedSchema": json.RawMessage(`{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`),
	}}
	askContext = question{key: "user_context", method: "elicitation/create", params: map[string]any{
		"message":         "What context should the prompt use?",
		"requestedSchema": json.RawMessage(`{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`),
	}}
)

// capabilityOf names the client capability a question's method needs.
func capabilityOf(method string) (string, func(ClientCapabilities) json.RawMessage) {
	switch method {
	case "sampling/createMessage":
		return "sampling", func(c ClientCapabilities) json.RawMessage { return c.Sampling }
	case "roots/list":
		return "roots", func(c ClientCapabilities) json.RawMessage { return c.Roots }
	}
	return "elicitation", func(c ClientCapabilities) json.RawMessage { return c.Elicitation }
}

// needs refuses, with -32021, a request whose questions need capabilities
// the client did not declare.
func needs(x *exchange, qs ...question) error {
	missing := map[string]struct{}{}
	for _, q := range qs {
		name, has := capabilityOf(q.method)
		if !x.clientCan(has) {
			missing[name] = struct{}{}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": missing})
	names := make([]string, 0, len(missing))
	for n := range missing {
		names = append(names, n)
	}
	return &jsonrpc.Error{Code: CodeMissingClientCapability, Data: data,
		Message: "missing required client capability: declare " + strings.Join(names, ", ") + " in io.modelcontextprotocol/clientCapabilities"}
}

// field reads one string member of an answer's form or message.
func field(answer json.RawMessage, name string) string {
	var r struct {
		Content map[string]any `json:"content"`
	}
	json.Unmarshal(answer, &r)
	if v, ok := r.Content[name]; ok {
		return fmt.Sprint(v)
	}
	return ""
}

// sampled reads the text of a sampling answer.
func sampled(answer json.RawMessage) string {
	var r struct{ Content Content }
	json.Unmarshal(answer, &r)
	return r.Content.Text
}

// askTool is a fixture whose questions are fixed: it asks them all in one
// round, if the client can answer them, and reports the answers.
func askTool(name string, qs []question, report func(x *exchange, answers []json.RawMessage) string) extraTool {
	return fixture(name, "Needs input from the client before it can answer.", noArgs,
		func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
			if err := needs(x, qs...); err != nil {
				return nil, err
			}
			answers, err := x.ask(ctx, qs...)
			if err != nil {
				return nil, err
			}
			return &CallToolResult{Content: []Content{TextContent(report(x, answers))}}, nil
		})
}

func addModernFixtures(s *Server) {
	s.extraTools = append(s.extraTools,
		askTool("test_input_required_result_elicitation", []question{askName}, func(_ *exchange, a []json.RawMessage) string {
			return "Hello, " + field(a[0], "name") + "!"
		}),
		askTool("test_input_required_result_sampling", []question{askCapital}, func(_ *exchange, a []json.RawMessage) string {
			return "The model said: " + sampled(a[0])
		}),
		askTool("test_input_required_result_list_roots", []question{askRoots}, func(_ *exchange, a []json.RawMessage) string {
			var r struct {
				Roots []struct{ URI, Name string }
			}
			json.Unmarshal(a[0], &r)
			var uris []string
			for _, root := range r.Roots {
				uris = append(uris, root.URI)
			}
			return fmt.Sprintf("The client has %d root(s): %s", len(uris), strings.Join(uris, ", "))
		}),
		askTool("test_input_required_result_request_state", []question{askConfirm}, func(x *exchange, a []json.RawMessage) string {
			if x.modern != nil && x.modern.stateVerified {
				return "state-ok: the requestState came back signed and unchanged; confirmed " + compact(a[0])
			}
			return "confirmed without a requestState: " + compact(a[0])
		}),
		askTool("test_input_required_result_tampered_state", []question{askConfirm}, func(_ *exchange, a []json.RawMessage) string {
			return "confirmed: " + compact(a[0])
		}),
		askTool("test_input_required_result_multiple_inputs", []question{askName, askGreeting, askRoots}, func(_ *exchange, a []json.RawMessage) string {
			return fmt.Sprintf("name %s, greeting %q, roots %s", field(a[0], "name"), sampled(a[1]), compact(a[2]))
		}),
		fixture("test_input_required_result_multi_round", "Asks two questions, one round each.", noArgs,
			func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
				if err := needs(x, askStep1); err != nil {
					return nil, err
				}
				// Two calls to ask: the second question is asked only once
				// the first is answered, so the client sees two rounds.
				first, err := x.ask(ctx, askStep1)
				if err != nil {
					return nil, err
				}
				second, err := x.ask(ctx, askStep2)
				if err != nil {
					return nil, err
				}
				return &CallToolResult{Content: []Content{TextContent(fmt.Sprintf("%s likes %s",
					field(first[0], "name"), field(second[0], "color")))}}, nil
			}),
		fixture("test_input_required_result_capabilities", "Asks only what the client declared it can answer.", noArgs,
			func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
				var qs []question
				for _, q := range []question{askName, askCapital, askRoots} {
					if _, has := capabilityOf(q.method); x.clientCan(has) {
						qs = append(qs, q)
					}
				}
				answers, err := x.ask(ctx, qs...)
				if err != nil {
					return nil, err
				}
				return &CallToolResult{Content: []Content{TextContent(fmt.Sprintf("%d answer(s)", len(answers)))}}, nil
			}),
		askTool("test_missing_capability", []question{askCapital}, func(_ *exchange, a []json.RawMessage) string {
			return "The model said: " + sampled(a[0])
		}),
		elicitFixture("test_streaming_elicitation", noArgs,
			`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		fixture("test_custom_header", "Echoes a region that travels in the Mcp-Param-Region header too.",
			`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"query":{"type":"string"}},"required":["region"]}`,
			func(ctx context.Context, x *exchange, raw json.RawMessage) (*CallToolResult, error) {
				return &CallToolResult{Content: []Content{TextContent("Received: " + compact(raw))}}, nil
			}),
		fixture("test_logging_tool", "Logs one message at info, if the request asked for log messages.", noArgs,
			func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
				x.log("info", "test_logging_tool", "the tool ran")
				return &CallToolResult{Content: []Content{TextContent("logged, if asked to")}}, nil
			}),
	)
	s.prompts = append(s.prompts, prompt{
		Prompt: Prompt{Name: "test_input_required_result_prompt", Description: "A prompt that asks the user for context first."},
		ask: func(ctx context.Context, x *exchange, _ map[string]string) ([]PromptMessage, error) {
			if err := needs(x, askContext); err != nil {
				return nil, err
			}
			a, err := x.ask(ctx, askContext)
			if err != nil {
				return nil, err
			}
			return []PromptMessage{{Role: "user", Content: TextContent("Use this context: " + field(a[0], "context"))}}, nil
		},
	})
}
