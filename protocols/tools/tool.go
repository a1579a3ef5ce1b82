package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Definition describes a tool to a client: what it does, how to call it,
// what it returns, and which versions of that contract are served.
// The JSON keys are the ones the stdio and HTTP protocols put on the wire.
type Definition struct {
	Name               string          `json:"name"`
	Description        string          `json:"description"`
	InputSchema        json.RawMessage `json:"input_schema"`
	OutputSchema       json.RawMessage `json:"output_schema"`
	Version            string          `json:"version"`
	CompatibleVersions []string        `json:"compatible_versions,omitempty"`
}

// Serves reports whether a call asking for version v is served: the current
// version, any version listed as compatible, or no version at all.
func (d Definition) Serves(v string) bool {
	if v == "" || v == d.Version {
		return true
	}
	for _, c := range d.CompatibleVersions {
		if v == c {
			return true
		}
	}
	return false
}

// Versions lists every version served, the current one first.
func (d Definition) Versions() []string {
	return append([]string{d.Version}, d.CompatibleVersions...)
}

// Request is one call of a tool, as every protocol hands it to [Catalogue.Call].
type Request struct {
	Name    string
	Version string          // empty: the current version
	Args    json.RawMessage // a JSON object; empty or null means {}
}

// Progress is a report from a slow tool while it runs.
type Progress struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Message string `json:"message"`
}

// CallOptions carries what a call needs beyond its request. A nil
// *CallOptions is the same as the zero value.
type CallOptions struct {
	// Allow reports whether the caller holds a scope. Nil allows every
	// scope: the caller is the local user (stdio), or a network server was
	// started without tokens.
	Allow func(Scope) bool

	// Progress, when set, receives progress reports from slow tools. It is
	// called on the goroutine running the tool and must not block for long.
	Progress func(Progress)
}

// Tool is a definition plus the code that runs it.
type Tool struct {
	Definition

	// Needs returns the scopes a call with these (already validated)
	// arguments requires beyond a valid token. Nil means none.
	Needs func(args json.RawMessage) []Scope

	// Run executes the tool. A returned error is a tool failure, unless it
	// wraps the context's error, which means the call was canceled.
	Run func(ctx context.Context, args json.RawMessage, progress func(Progress)) (any, error)
}

// typed adapts a tool body written with Go types to [Tool.Run]: arguments
// are decoded into In (after schema validation, so decoding cannot
// surprise) and the Out value is encoded by the caller.
func typed[In, Out any](run func(ctx context.Context, in In, progress func(Progress)) (Out, error)) func(context.Context, json.RawMessage, func(Progress)) (any, error) {
	return func(ctx context.Context, raw json.RawMessage, progress func(Progress)) (any, error) {
		var in In
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, fmt.Errorf("decoding arguments: %w", err)
		}
		return run(ctx, in, progress)
	}
}

// schema compacts a JSON Schema literal written readably in Go source.
// A malformed literal is a programmer error, so it panics at construction.
func schema(s string) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		panic(fmt.Sprintf("tools: bad schema literal: %v\n%s", err, s))
	}
	return b.Bytes()
}

// names lists tool names for error messages.
func names(tools []*Tool) string {
	n := make([]string, len(tools))
	for i, t := range tools {
		n[i] = t.Name
	}
	return strings.Join(n, ", ")
}
