package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// The conformance suite's fixtures for the tasks extension (tasks.go):
// a tool that never becomes a task, and tools that do, slowly, failing,
// asking the user in the middle, or asking first and then going on as a
// task.

// addTaskFixtures adds the tools the suite's tasks-* scenarios call.
func addTaskFixtures(s *Server) {
	text := func(t string) *CallToolResult { return &CallToolResult{Content: []Content{TextContent(t)}} }
	s.extraTools = append(s.extraTools,
		fixture("greet", "Greets by name, at once: never a task.",
			`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`,
			func(ctx context.Context, x *exchange, raw json.RawMessage) (*CallToolResult, error) {
				var in struct{ Name string }
				json.Unmarshal(raw, &in)
				return text("Hello, " + in.Name + "!"), nil
			}),
		fixture("slow_compute", "Takes the given number of seconds: a task, if the client can take one.",
			`{"type":"object","properties":{"seconds":{"type":"number","minimum":0},"label":{"type":"string"}},"required":["seconds"]}`,
			func(ctx context.Context, x *exchange, raw json.RawMessage) (*CallToolResult, error) {
				var in struct {
					Seconds float64
					Label   string
				}
				json.Unmarshal(raw, &in)
				return x.asTask(ctx, taskOptional, func(ctx context.Context, x *exchange) (*CallToolResult, error) {
					t := time.NewTimer(time.Duration(in.Seconds * float64(time.Second)))
					defer t.Stop()
					select {
					case <-ctx.Done():
						return nil, ctx.Err()
					case <-t.C:
					}
					return text(fmt.Sprintf("%s: computed in %g second(s)", in.Label, in.Seconds)), nil
				})
			}),
		fixture("failing_job", "Runs only as a task, and fails as a tool: the task completes with isError.", noArgs,
			func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
				return x.asTask(ctx, taskRequired, func(ctx context.Context, x *exchange) (*CallToolResult, error) {
					if !pause(ctx) {
						return nil, ctx.Err()
					}
					return &CallToolResult{IsError: true, Content: []Content{TextContent("failing_job failed, on purpose")}}, nil
				})
			}),
		fixture("protocol_error_job", "Runs as a task that ends in a JSON-RPC error: the task fails.", noArgs,
			func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
				return x.asTask(ctx, taskRequired, func(ctx context.Context, x *exchange) (*CallToolResult, error) {
					return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error: protocol_error_job fails, on purpose")
				})
			}),
		fixture("confirm_delete", "Asks the user, from within its task, before it deletes a file.",
			`{"type":"object","properties":{"filename":{"type":"string"}},"required":["filename"]}`,
			func(ctx context.Context, x *exchange, raw json.RawMessage) (*CallToolResult, error) {
				var in struct{ Filename string }
				json.Unmarshal(raw, &in)
				return x.asTask(ctx, taskOptional, func(ctx context.Context, x *exchange) (*CallToolResult, error) {
					a, err := x.ask(ctx, question{key: "confirm_delete", method: "elicitation/create", params: ElicitParams{
						Message:         fmt.Sprintf("Delete %s?", in.Filename),
						RequestedSchema: json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`),
					}})
					if err != nil {
						return nil, err
					}
					if field(a[0], "confirm") == "true" {
						return text("Deleted " + in.Filename), nil
					}
					return text("Kept " + in.Filename), nil
				})
			}),
		fixture("multi_input", "Asks two questions at once, from within its task.", noArgs,
			func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
				return x.asTask(ctx, taskOptional, func(ctx context.Context, x *exchange) (*CallToolResult, error) {
					a, err := x.ask(ctx, askName, askConfirm)
					if err != nil {
						return nil, err
					}
					return text(fmt.Sprintf("name %s, confirmed %s", field(a[0], "name"), compact(a[1]))), nil
				})
			}),
		fixture("test_tool_with_task", "Asks the user's name within the request, then goes on as a task.", noArgs,
			func(ctx context.Context, x *exchange, _ json.RawMessage) (*CallToolResult, error) {
				// "Server implementations that use multi round-trip
				// requests in conjunction with task creation ... SHOULD
				// resolve all MRTR exchanges synchronously before
				// responding with a CreateTaskResult."
				if err := needs(x, askName); err != nil {
					return nil, err
				}
				a, err := x.ask(ctx, askName)
				if err != nil {
					return nil, err
				}
				name := field(a[0], "name")
				return x.asTask(ctx, taskRequired, func(ctx context.Context, x *exchange) (*CallToolResult, error) {
					if !pause(ctx) {
						return nil, ctx.Err()
					}
					return text("Hello, " + name + ", from a task!"), nil
				})
			}),
	)
}
