package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// The server's questions to the client. Both eras ask the same three
// (elicitation/create, sampling/createMessage, roots/list) and want the
// same answers; only the envelope differs. The legacy era sends each as a
// request of the server's own, on a response stream or the GET stream,
// and the client answers with a response. The modern era puts them in an
// input_required result, and the client answers by sending its request
// again with inputResponses. One hook, ClientOptions.Elicit, serves both.

// capabilities says which questions this client can answer: initialize's
// capabilities in the legacy era, _meta's clientCapabilities on every
// modern request. "Servers MUST NOT send an inputRequests that the
// client has not declared support for in its capabilities."
func (c *Client) capabilities() ClientCapabilities {
	var caps ClientCapabilities
	if c.elicit != nil {
		// Form mode only: this client shows fields, it opens no URLs.
		caps.Elicitation = json.RawMessage(`{"form":{}}`)
	}
	return caps
}

// answerInput answers one question from the server with the result it
// asks for, or a *jsonrpc.Error saying why not.
func (c *Client) answerInput(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if method != "elicitation/create" || c.elicit == nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound,
			"method %q not found: this client declared %s", method, c.declared())
	}
	var p ElicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "elicitation/create: %v", err)
	}
	res, err := c.elicit(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("asking the user: %w", err)
	}
	return json.Marshal(res)
}

// declared names the capabilities this client declared, for errors.
func (c *Client) declared() string {
	if c.elicit != nil {
		return "only elicitation (and answers ping)"
	}
	return "no capabilities and answers only ping"
}

// answerInputs answers every question of an input_required result,
// under the same keys: "For each key in the response's inputRequests
// field, the same key must appear here with the associated response."
// The questions are asked one at a time, in the order of their keys, so
// a user sees them in a stable order.
func (c *Client) answerInputs(ctx context.Context, requests map[string]InputRequest) (map[string]json.RawMessage, error) {
	keys := make([]string, 0, len(requests))
	for k := range requests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	answers := make(map[string]json.RawMessage, len(requests))
	for _, k := range keys {
		r := requests[k]
		res, err := c.answerInput(ctx, r.Method, r.Params)
		if err != nil {
			return nil, fmt.Errorf("the server asked %s (%q), which this client cannot answer: %w", r.Method, k, err)
		}
		answers[k] = res
	}
	return answers, nil
}

// FormDefaults returns the default value of every field of an
// elicitation's requestedSchema that has one. A client pre-fills its
// form with them (SEP-1034); one that accepts without asking sends them
// as the answer.
func FormDefaults(requestedSchema json.RawMessage) map[string]any {
	var schema struct {
		Properties map[string]struct {
			Default any `json:"default"`
		} `json:"properties"`
	}
	out := make(map[string]any)
	if json.Unmarshal(requestedSchema, &schema) != nil {
		return out
	}
	for name, field := range schema.Properties {
		if field.Default != nil {
			out[name] = field.Default
		}
	}
	return out
}
