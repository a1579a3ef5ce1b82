package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sort"

	"github.com/wirelab/wirelab/protocols/mcp"
)

// conformanceMCP is `wirelab client mcp --conformance URL`, the client
// the official conformance suite (npm @modelcontextprotocol/conformance)
// drives: for each client scenario it starts a test server, runs this
// command with the server's URL as the last argument, and judges what
// arrives on the wire. The environment says what to do:
//
//   - MCP_CONFORMANCE_SCENARIO: the scenario's name;
//   - MCP_CONFORMANCE_PROTOCOL_VERSION: the revision under test, which
//     pins the era: a session through 2025-11-25, stateless for
//     2026-07-28;
//   - MCP_CONFORMANCE_CONTEXT: JSON with what some scenarios need, such
//     as the exact tool calls to make ({"toolCalls":[{"name":...,
//     "arguments":{...}}]}).
//
// Every scenario gets the same client doing what a host would: list the
// tools and call each (with the context's calls, or arguments made up
// from each tool's required parameters), then read every resource and
// get every prompt the server offers. Questions from the server are
// accepted with the form's defaults. Only the scenarios whose point is
// the listing stop after it.
func conformanceMCP(ctx context.Context, url string, opts *mcp.ClientOptions, auth mcp.AuthOptions, env Env) (int, error) {
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if v := os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"); v != "" && opts.ProtocolVersion == "" {
		opts.ProtocolVersion = v
	}
	var sc struct {
		ToolCalls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolCalls"`
		// The auth scenarios: a pre-registered client, and the issuer
		// it was registered with; or a client ID metadata document.
		ClientID          string `json:"client_id"`
		ClientSecret      string `json:"client_secret"`
		Issuer            string `json:"issuer"`
		ClientMetadataURL string `json:"client_metadata_url"`
	}
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &sc); err != nil {
			return exitUsage, fmt.Errorf("MCP_CONFORMANCE_CONTEXT is not the JSON expected: %w", err)
		}
	}
	// The auth scenarios' authorization server approves every request at
	// once, redirecting to redirect_uri: the client reads the code from
	// Location, no browser or listener needed. The metadata document URL
	// is the one the suite's basic-cimd scenario expects, unless the
	// context or a flag names another (it is never fetched: the suite's
	// server accepts it as it is).
	if sc.ClientID != "" {
		auth.ClientID, auth.ClientSecret, auth.ClientIssuer = sc.ClientID, sc.ClientSecret, sc.Issuer
	}
	switch {
	case sc.ClientMetadataURL != "":
		auth.ClientMetadataURL = sc.ClientMetadataURL
	case auth.ClientMetadataURL == "":
		auth.ClientMetadataURL = conformanceClientMetadataURL
	}
	auth.Redirect = &mcp.DirectRedirect{}
	opts.HTTPClient = &http.Client{Transport: mcp.NewAuthorizer(auth)}

	// SEP-1034: a client that accepts without asking sends the defaults.
	opts.Elicit = func(_ context.Context, p mcp.ElicitParams) (mcp.ElicitResult, error) {
		content, err := json.Marshal(mcp.FormDefaults(p.RequestedSchema))
		return mcp.ElicitResult{Action: "accept", Content: content}, err
	}

	cl, err := mcp.ConnectHTTP(ctx, url, opts)
	if err != nil {
		return exitProtocol, err
	}
	defer cl.Close()
	printConnected(env.Stderr, cl)

	// A step that fails is reported and the rest still run, so that one
	// refusal does not hide what the other steps would show.
	failed := false
	step := func(what string, v any, err error) {
		var toolErr *mcp.ToolError
		switch {
		case errors.As(err, &toolErr):
			// The tool ran and said no: an answer, not a failure.
			fmt.Fprintf(env.Stdout, "%s: %s\n", what, toolErr.Raw)
		case err != nil:
			failed = true
			fmt.Fprintf(env.Stderr, "wirelab: %s: %v\n", what, err)
		default:
			b, _ := json.Marshal(v)
			fmt.Fprintf(env.Stdout, "%s: %s\n", what, b)
		}
	}

	tools, err := cl.ListTools(ctx)
	step("tools/list", tools, err)
	switch scenario {
	case "initialize", "json-schema-ref-no-deref":
		return conformanceExit(failed)
	}

	if scenario == "json-schema-2020-12-preservation" {
		// The scenario checks that a tool's inputSchema survives the
		// client whole: it is sent back as the echo tool's argument,
		// byte for byte as it arrived.
		for _, tool := range tools {
			if tool.Name == "json_schema_2020_12_tool" {
				args := json.RawMessage(`{"schema":` + string(tool.InputSchema) + `}`)
				res, err := cl.CallTool(ctx, "json_schema_echo", args, false)
				step("tools/call json_schema_echo", res, err)
			}
		}
		return conformanceExit(failed)
	}
	if len(sc.ToolCalls) > 0 {
		for _, call := range sc.ToolCalls {
			res, err := cl.CallTool(ctx, call.Name, call.Arguments, false)
			step("tools/call "+call.Name, res, err)
		}
	} else {
		for _, tool := range tools {
			res, err := cl.CallTool(ctx, tool.Name, sampleArguments(tool.InputSchema), false)
			step("tools/call "+tool.Name, res, err)
		}
	}

	caps := cl.InitializeResult().Capabilities
	if caps.Resources != nil {
		resources, err := cl.ListResources(ctx)
		step("resources/list", resources, err)
		for _, raw := range resources {
			var r mcp.Resource
			if json.Unmarshal(raw, &r) == nil && r.URI != "" {
				res, err := cl.ReadResource(ctx, r.URI)
				step("resources/read "+r.URI, res, err)
			}
		}
	}
	if caps.Prompts != nil {
		prompts, err := cl.ListPrompts(ctx)
		step("prompts/list", prompts, err)
		for _, raw := range prompts {
			var p mcp.Prompt
			if json.Unmarshal(raw, &p) != nil || p.Name == "" {
				continue
			}
			args := make(map[string]string)
			for _, a := range p.Arguments {
				if a.Required {
					args[a.Name] = "conformance"
				}
			}
			res, err := cl.GetPrompt(ctx, p.Name, args)
			step("prompts/get "+p.Name, res, err)
		}
	}
	return conformanceExit(failed)
}

// conformanceClientMetadataURL is the client_id the suite's auth/basic-cimd
// scenario expects a client to present when the authorization server
// supports client ID metadata documents.
const conformanceClientMetadataURL = "https://conformance-test.local/client-metadata.json"

func conformanceExit(failed bool) (int, error) {
	if failed {
		return exitProtocol, errors.New("some conformance steps failed (see above)")
	}
	return exitOK, nil
}

// sampleArguments makes up arguments for a tool from its inputSchema:
// a value of the right type for each required parameter, which is what
// the suite's tools check.
func sampleArguments(inputSchema json.RawMessage) json.RawMessage {
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	args := make(map[string]any)
	if json.Unmarshal(inputSchema, &schema) == nil {
		required := append([]string(nil), schema.Required...)
		sort.Strings(required)
		for i, name := range required {
			switch schema.Properties[name].Type {
			case "string":
				args[name] = "conformance"
			case "integer", "number":
				args[name] = i + 1
			case "boolean":
				args[name] = true
			}
		}
	}
	b, _ := json.Marshal(args)
	return b
}
