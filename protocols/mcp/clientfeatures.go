package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// What a client does with a server: list and call tools, list and read
// resources, list and get prompts. Each works in either era; call picks
// the envelope.
//
// Every result keeps the JSON it arrived as, in Raw, beside the decoded
// fields: a server may send fields this package does not model (a
// resource_link block's uri and name, annotations, _meta), and a client
// that passes results on must not lose them. Encoding one of these
// types with encoding/json gives back exactly Raw.

// ListedTool is one tool from tools/list.
type ListedTool struct {
	Tool
	Raw json.RawMessage // the tool's whole definition
}

// MarshalJSON returns the tool as it arrived.
func (t ListedTool) MarshalJSON() ([]byte, error) { return rawOr(t.Raw, t.Tool) }

// ToolResult is the result of tools/call.
type ToolResult struct {
	CallToolResult
	Raw json.RawMessage // the whole result
}

// MarshalJSON returns the result as it arrived.
func (r ToolResult) MarshalJSON() ([]byte, error) { return rawOr(r.Raw, r.CallToolResult) }

// ResourceResult is the result of resources/read.
type ResourceResult struct {
	ReadResourceResult
	Raw json.RawMessage // the whole result
}

// MarshalJSON returns the result as it arrived.
func (r ResourceResult) MarshalJSON() ([]byte, error) { return rawOr(r.Raw, r.ReadResourceResult) }

// PromptResult is the result of prompts/get.
type PromptResult struct {
	GetPromptResult
	Raw json.RawMessage // the whole result
}

// MarshalJSON returns the result as it arrived.
func (r PromptResult) MarshalJSON() ([]byte, error) { return rawOr(r.Raw, r.GetPromptResult) }

func rawOr(raw json.RawMessage, decoded any) ([]byte, error) {
	if len(raw) > 0 {
		return raw, nil
	}
	return json.Marshal(decoded)
}

// keep decodes raw into v and returns raw, for the types above.
func keep(raw json.RawMessage, v any) (json.RawMessage, error) {
	return raw, json.Unmarshal(raw, v)
}

// ListTools returns all the server's tools. In the modern era over HTTP,
// a tool whose x-mcp-header annotations are invalid is left out, with a
// warning: "Clients using the Streamable HTTP transport MUST reject tool
// definitions where any x-mcp-header value violates these constraints."
func (c *Client) ListTools(ctx context.Context) ([]ListedTool, error) {
	items, err := c.listPages(ctx, "tools/list", "tools")
	if err != nil {
		return nil, err
	}
	tools := make([]ListedTool, len(items))
	for i, raw := range items {
		tools[i].Raw = raw
		if err := json.Unmarshal(raw, &tools[i].Tool); err != nil {
			return nil, fmt.Errorf("tools/list: tool %d is not a tool: %w", i, err)
		}
	}
	if !c.modern {
		return tools, nil
	}
	kept, warnings := c.t.carry(tools)
	for _, w := range warnings {
		c.warn(w)
	}
	return kept, nil
}

// listPages returns every item of a list: member's elements, page after
// page. A page with a nextCursor has more after it, asked for by sending
// that cursor back.
func (c *Client) listPages(ctx context.Context, method, member string) ([]json.RawMessage, error) {
	var all []json.RawMessage
	var p ListParams
	seen := make(map[string]bool)
	for {
		var page map[string]json.RawMessage
		if err := c.call(ctx, c.newID(), method, p, &page); err != nil {
			return nil, err
		}
		var items []json.RawMessage
		if err := json.Unmarshal(page[member], &items); err != nil {
			return nil, fmt.Errorf("%s: %q is not a list: %w", method, member, err)
		}
		all = append(all, items...)
		var next string
		if page["nextCursor"] != nil {
			if err := json.Unmarshal(page["nextCursor"], &next); err != nil {
				return nil, fmt.Errorf("%s: nextCursor is not a string: %w", method, err)
			}
		}
		if next == "" {
			return all, nil
		}
		if seen[next] {
			return nil, fmt.Errorf("%s: the server sent cursor %q twice; stopping rather than looping forever", method, next)
		}
		seen[next] = true
		p.Cursor = next
	}
}

// ToolError is a tool that ran and failed, or refused its arguments: a
// result with "isError": true. Its content says why, for a model to read
// and perhaps correct. It is not a protocol error: the request was fine.
type ToolError struct {
	Tool    string
	Content []Content
	Raw     json.RawMessage // the whole result
}

func (e *ToolError) Error() string {
	var texts []string
	for _, b := range e.Content {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	if len(texts) == 0 {
		return fmt.Sprintf("tool error (%s), with no text to say why", e.Tool)
	}
	return fmt.Sprintf("tool error (%s): %s", e.Tool, strings.Join(texts, "; "))
}

// CallTool runs a tool. With progress, it asks the server for
// notifications/progress, which arrive at OnNotification while the tool
// runs.
//
// The error says who failed. A [*ToolError]: the tool ran and failed. A
// [*jsonrpc.Error]: the server refused the request (-32602 for an unknown
// tool). ctx's error: the caller stopped waiting. Anything else: no
// answer arrived (the process exited, the connection broke, an HTTP
// status such as [*HTTPError]).
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage, progress bool) (*ToolResult, error) {
	if err := c.learnTool(ctx, name); err != nil {
		return nil, err
	}
	id := c.newID()
	p := CallToolParams{Name: name, Arguments: args}
	if progress {
		// "The progress token MUST be unique across all active requests."
		// The request's own id already is.
		p.Meta = &RequestMeta{ProgressToken: json.RawMessage(id.String())}
	}
	// The content lives inside the response's result:
	//   {"jsonrpc":"2.0","id":3,"result":{"content":[...],"isError":true}}
	// call decodes result, so the content is at the right depth. Reading
	// "content" from the top level of the response finds nothing.
	var raw json.RawMessage
	if err := c.call(ctx, id, "tools/call", p, &raw); err != nil {
		return nil, err
	}
	res := &ToolResult{}
	var err error
	if res.Raw, err = keep(raw, &res.CallToolResult); err != nil {
		return nil, fmt.Errorf("tools/call: the result is not the JSON expected: %w", err)
	}
	if res.IsError {
		// Returned as an error so that no caller can mistake the failure
		// text for the tool's output.
		return nil, &ToolError{Tool: name, Content: res.Content, Raw: res.Raw}
	}
	return res, nil
}

// learnTool makes sure the transport has seen name's definition before
// the tool is called, when it needs it: modern HTTP mirrors annotated
// arguments into headers, and "the client MUST ... inspect the tool's
// inputSchema" for them. A tool the server does not list is called
// anyway, so that the server says what is wrong.
func (c *Client) learnTool(ctx context.Context, name string) error {
	h, ok := c.t.(*httpTransport)
	if !c.modern || !ok {
		return nil
	}
	if known, reason := h.toolKnown(name); known {
		if reason != "" {
			return fmt.Errorf("tools/call: tool %q was left out of tools/list: %s", name, reason)
		}
		return nil
	}
	_, err := c.ListTools(ctx)
	return err
}

// ListResources returns all the server's resources.
func (c *Client) ListResources(ctx context.Context) ([]json.RawMessage, error) {
	return c.listPages(ctx, "resources/list", "resources")
}

// ReadResource reads the resource named by uri.
func (c *Client) ReadResource(ctx context.Context, uri string) (*ResourceResult, error) {
	var raw json.RawMessage
	if err := c.call(ctx, c.newID(), "resources/read", ResourceParams{URI: uri}, &raw); err != nil {
		return nil, err
	}
	res := &ResourceResult{}
	var err error
	if res.Raw, err = keep(raw, &res.ReadResourceResult); err != nil {
		return nil, fmt.Errorf("resources/read: the result is not the JSON expected: %w", err)
	}
	return res, nil
}

// ListPrompts returns all the server's prompts.
func (c *Client) ListPrompts(ctx context.Context) ([]json.RawMessage, error) {
	return c.listPages(ctx, "prompts/list", "prompts")
}

// GetPrompt fills in the prompt name with args.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*PromptResult, error) {
	var raw json.RawMessage
	if err := c.call(ctx, c.newID(), "prompts/get", GetPromptParams{Name: name, Arguments: args}, &raw); err != nil {
		return nil, err
	}
	res := &PromptResult{}
	var err error
	if res.Raw, err = keep(raw, &res.GetPromptResult); err != nil {
		return nil, fmt.Errorf("prompts/get: the result is not the JSON expected: %w", err)
	}
	return res, nil
}
