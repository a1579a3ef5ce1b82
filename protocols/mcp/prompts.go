package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// maxCompletions is the most values completion/complete may return; the
// spec caps it at 100 and says hasMore when there are more.
const maxCompletions = 100

// prompt is a prompt and the code that fills it in. get may assume the
// required arguments are there; complete offers values for one argument.
// A prompt that needs to ask the user first has ask instead of get.
type prompt struct {
	Prompt
	get      func(args map[string]string) []PromptMessage
	ask      func(ctx context.Context, x *exchange, args map[string]string) ([]PromptMessage, error)
	complete func(arg, prefix string) []string
}

// coursePrompts are the prompts a user can pick: a message about one of the
// protocols, with its note embedded as a resource, and a checklist before
// a deploy.
func coursePrompts() []prompt {
	notes := tools.Notes()
	ids := make([]string, len(notes))
	for i, n := range notes {
		ids[i] = n.ID
	}
	return []prompt{{
		Prompt: Prompt{Name: "explain", Title: "Explain a protocol",
			Description: "Ask for an explanation of one of the course's topics, with wirelab's note on it attached.",
			Arguments:   []PromptArgument{{Name: "topic", Description: "A note id, such as mcp or grpc.", Required: true}}},
		get: func(args map[string]string) []PromptMessage {
			msgs := []PromptMessage{{Role: "user", Content: TextContent(fmt.Sprintf(
				"Explain %s to someone who knows HTTP but has never seen %s. Show one message on the wire.", args["topic"], args["topic"]))}}
			if i := slices.Index(ids, args["topic"]); i >= 0 {
				n := notes[i]
				msgs = append(msgs, PromptMessage{Role: "user", Content: Content{Type: "resource", Resource: &ResourceContents{
					URI: "wirelab://notes/" + n.ID, MimeType: "text/markdown", Text: "# " + n.Title + "\n\n" + n.Body + "\n"}}})
			}
			return msgs
		},
		complete: func(arg, prefix string) []string { return withPrefix(ids, prefix) },
	}, {
		Prompt: Prompt{Name: "deploy_checklist", Title: "Before a deploy",
			Description: "Ask for a checklist to go through before deploying a service.",
			Arguments: []PromptArgument{
				{Name: "service", Description: "The service to deploy.", Required: true},
				{Name: "env", Description: "staging or production (default staging)."},
			}},
		get: func(args map[string]string) []PromptMessage {
			env := args["env"]
			if env == "" {
				env = "staging"
			}
			return []PromptMessage{{Role: "user", Content: TextContent(fmt.Sprintf(
				"I am about to deploy %s to %s with the deploy_service tool. List what to check first, most important first.", args["service"], env))}}
		},
		complete: func(arg, prefix string) []string {
			if arg == "env" {
				return withPrefix([]string{"production", "staging"}, prefix)
			}
			return []string{}
		},
	}}
}

func (ss *session) listPrompts(raw json.RawMessage) (*ListPromptsResult, error) {
	all := make([]Prompt, len(ss.srv.prompts))
	for i, pr := range ss.srv.prompts {
		all[i] = pr.Prompt
	}
	list, next, err := listPage("prompts/list", raw, all, ss.srv.pageSize)
	if err != nil {
		return nil, err
	}
	return &ListPromptsResult{Prompts: list, NextCursor: next}, nil
}

func (ss *session) getPrompt(ctx context.Context, x *exchange, raw json.RawMessage) (*GetPromptResult, error) {
	if err := stringArguments(raw); err != nil {
		return nil, err
	}
	var p GetPromptParams
	if err := decodeParams("prompts/get", raw, &p); err != nil {
		return nil, err
	}
	pr, ok := ss.srv.prompt(p.Name)
	if !ok {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: unknown prompt %q; prompts/list says what there is", p.Name)
	}
	var missing []string
	for _, a := range pr.Arguments {
		if a.Required && p.Arguments[a.Name] == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: prompt %q needs the argument(s) %s", p.Name, strings.Join(missing, ", "))
	}
	if pr.ask != nil {
		msgs, err := pr.ask(ctx, x, p.Arguments)
		if err != nil {
			return nil, err
		}
		return &GetPromptResult{Description: pr.Description, Messages: msgs}, nil
	}
	return &GetPromptResult{Description: pr.Description, Messages: pr.get(p.Arguments)}, nil
}

// stringArguments refuses a prompts/get whose arguments are not all
// strings, naming the first that is not (in name order). The schema has
// arguments as { [key: string]: string }. encoding/json would say only that
// "arguments" holds something other than a string, not which argument.
// A null argument passes, as absent: decoding leaves it "".
func stringArguments(raw json.RawMessage) error {
	var p struct {
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return nil // params or arguments not an object: decodeParams says so
	}
	for _, name := range slices.Sorted(maps.Keys(p.Arguments)) {
		v := p.Arguments[name]
		if kind := jsonrpc.ValueKind(v); kind != "a string" && kind != "null" {
			return jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
				"invalid params: prompts/get: argument %q must be a string, not %s; every prompt argument is a string", name, kind)
		}
	}
	return nil
}

func (s *Server) prompt(name string) (prompt, bool) {
	i := slices.IndexFunc(s.prompts, func(p prompt) bool { return p.Name == name })
	if i < 0 {
		return prompt{}, false
	}
	return s.prompts[i], true
}

// complete offers values for an argument of a prompt or a variable of a
// resource template, for a client to show as the user types.
func (ss *session) complete(raw json.RawMessage) (*CompleteResult, error) {
	var p CompleteParams
	if err := decodeParams("completion/complete", raw, &p); err != nil {
		return nil, err
	}
	var values []string
	switch p.Ref.Type {
	case "ref/prompt":
		pr, ok := ss.srv.prompt(p.Ref.Name)
		if !ok {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: unknown prompt %q", p.Ref.Name)
		}
		values = pr.complete(p.Argument.Name, p.Argument.Value)
	case "ref/resource":
		i := slices.IndexFunc(ss.srv.templates, func(t resourceTemplate) bool { return t.URITemplate == p.Ref.URI })
		if i < 0 {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: no resource template %q", p.Ref.URI)
		}
		values = ss.srv.templates[i].complete(p.Argument.Name, p.Argument.Value)
	default:
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, `invalid params: ref.type must be "ref/prompt" or "ref/resource", not %q`, p.Ref.Type)
	}
	r := &CompleteResult{}
	r.Completion.Values = values
	if len(values) > maxCompletions {
		r.Completion.Values, r.Completion.Total, r.Completion.HasMore = values[:maxCompletions], len(values), true
	}
	return r, nil
}
