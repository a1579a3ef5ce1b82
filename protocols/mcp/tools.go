package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// extraTool is a tool written for MCP itself rather than taken from the
// shared catalogue: its result is MCP content, and it may talk to the
// client while it runs. The conformance fixtures are such tools.
type extraTool struct {
	Tool
	call func(ctx context.Context, x *exchange, args json.RawMessage) (*CallToolResult, error)
}

func (ss *session) listTools(raw json.RawMessage) (*ListToolsResult, error) {
	var all []Tool
	if h := ss.srv.hostile; h != nil {
		all = h.tools()
		list, next, err := listPage("tools/list", raw, all, ss.srv.pageSize)
		if err != nil {
			return nil, err
		}
		return &ListToolsResult{Tools: list, NextCursor: next}, nil
	}
	for _, d := range ss.srv.cat.List() {
		all = append(all, Tool{
			Name: d.Name, Description: d.Description,
			InputSchema: d.InputSchema, OutputSchema: d.OutputSchema,
		})
	}
	for _, t := range ss.srv.extraTools {
		all = append(all, t.Tool)
	}
	list, next, err := listPage("tools/list", raw, all, ss.srv.pageSize)
	if err != nil {
		return nil, err
	}
	return &ListToolsResult{Tools: append([]Tool{}, list...), NextCursor: next}, nil
}

func (ss *session) callTool(ctx context.Context, x *exchange, raw json.RawMessage) (*CallToolResult, error) {
	var p CallToolParams
	if err := decodeParams("tools/call", raw, &p); err != nil {
		return nil, err
	}
	if p.Name == "" {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, `invalid params: tools/call needs {"name": string, "arguments": object}`)
	}
	if p.Meta != nil {
		x.progressToken = p.Meta.ProgressToken
	}
	if h := ss.srv.hostile; h != nil {
		return h.call(x, p)
	}
	for _, t := range ss.srv.extraTools {
		if t.Name == p.Name {
			return t.call(ctx, x, p.Arguments)
		}
	}

	req := tools.Request{Name: p.Name, Args: p.Arguments}
	if needs := ss.srv.cat.Needs(req); len(needs) > 0 && x.clientCan(func(c ClientCapabilities) json.RawMessage { return c.Elicitation }) {
		// A call that needs more than a valid token (a deploy to
		// production) is confirmed by the human, through the client.
		if refusal, err := x.confirm(ctx, p.Name, p.Arguments, needs); err != nil || refusal != nil {
			return refusal, err
		}
	}
	opts := &tools.CallOptions{
		Allow: x.who.allow,
		Progress: func(pr tools.Progress) {
			x.progress(float64(pr.Done), float64(pr.Total), pr.Message)
			x.log("info", p.Name, fmt.Sprintf("%s: %s (%d/%d)", p.Name, pr.Message, pr.Done, pr.Total))
		},
	}
	out, err := ss.srv.cat.Call(ctx, req, opts)
	var te *tools.Error
	switch {
	case err == nil:
		ss.srv.toolRan(x, p.Name, out)
		return &CallToolResult{Content: []Content{TextContent(string(out))}, StructuredContent: out}, nil
	case errors.As(err, &te) && te.Code == tools.CodeUnknownTool:
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: %s", te.Message)
	case errors.As(err, &te):
		// The tool refused its arguments or failed: a result the model
		// reads, marked isError, not a protocol error. (Since 2025-11-25
		// that includes arguments that break the input schema, so that a
		// model can correct itself.)
		return &CallToolResult{Content: []Content{TextContent(te.Message)}, IsError: true}, nil
	default:
		return nil, fmt.Errorf("%s: %w", p.Name, err)
	}
}

// confirm asks the user, with elicitation/create, whether a call may go
// ahead: a request to the client in a legacy session, an input request
// named "confirm" in the modern era. It returns nil to go ahead, or the tool result that says why not.
func (x *exchange) confirm(ctx context.Context, name string, args json.RawMessage, needs []tools.Scope) (*CallToolResult, error) {
	scopes := make([]string, len(needs))
	for i, s := range needs {
		scopes[i] = string(s)
	}
	answers, err := x.ask(ctx, question{key: "confirm", method: "elicitation/create", params: ElicitParams{
		Message: fmt.Sprintf("%s %s needs the %s permission. Go ahead?", name, compact(args), strings.Join(scopes, ", ")),
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean","title":"Go ahead",` +
			`"description":"true runs the tool; false stops it"}},"required":["confirm"]}`),
	}})
	var answer json.RawMessage
	if err == nil {
		answer = answers[0]
	}
	var rpcErr *jsonrpc.Error
	switch {
	case errors.As(err, &rpcErr):
		return &CallToolResult{IsError: true, Content: []Content{TextContent(
			fmt.Sprintf("%s did not run: asking the user failed: %s", name, rpcErr.Message))}}, nil
	case errors.Is(err, errInputEnded):
		return &CallToolResult{IsError: true, Content: []Content{TextContent(
			fmt.Sprintf("%s did not run: the user could not be asked: %v", name, err))}}, nil
	case err != nil:
		return nil, err
	}
	var r ElicitResult
	var form struct {
		Confirm bool `json:"confirm"`
	}
	if json.Unmarshal(answer, &r) != nil || (r.Action == "accept" && json.Unmarshal(r.Content, &form) != nil) {
		return &CallToolResult{IsError: true, Content: []Content{TextContent(
			fmt.Sprintf(`%s did not run: the answer to elicitation/create was not {"action": ..., "content": {"confirm": true|false}}`, name))}}, nil
	}
	if r.Action == "accept" && form.Confirm {
		return nil, nil
	}
	why := map[string]string{"accept": "the user said no", "decline": "the user declined", "cancel": "the user dismissed the question"}[r.Action]
	if why == "" {
		why = fmt.Sprintf("the answer's action was %q, not accept, decline or cancel", r.Action)
	}
	return &CallToolResult{IsError: true, Content: []Content{TextContent(fmt.Sprintf("%s did not run: %s", name, why))}}, nil
}

// compact returns JSON on one line, for a message.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "{}"
	}
	return b.String()
}
