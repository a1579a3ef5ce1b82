package tools

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func call(t *testing.T, c *Catalogue, name, version, args string, opts *CallOptions) (json.RawMessage, error) {
	t.Helper()
	return c.Call(context.Background(), Request{Name: name, Version: version, Args: json.RawMessage(args)}, opts)
}

func TestCallResults(t *testing.T) {
	c := New(&Options{DeployStep: time.Millisecond})
	tests := []struct {
		name, tool, version, args, want string
	}{
		{"word_count", "word_count", "", `{"text":"read the wire"}`, `{"words":3,"chars":13}`},
		{"code points not bytes", "word_count", "", `{"text":"привет мир"}`, `{"words":2,"chars":10}`},
		{"any whitespace separates", "word_count", "", `{"text":"  a\tb\nc  "}`, `{"words":3,"chars":9}`},
		{"empty text", "word_count", "", `{"text":""}`, `{"words":0,"chars":0}`},
		{"compatible version", "word_count", "1.0", `{"text":"x"}`, `{"words":1,"chars":1}`},
		{"current version", "word_count", "1.1", `{"text":"x"}`, `{"words":1,"chars":1}`},
		{"search limit", "search", "", `{"q":"stdout","limit":1}`,
			`{"hits":[{"id":"stdio","title":"stdio: a tool as a child process","snippet":"The host starts the tool server as a child process and writes one JSON request per line to its stdin.","score":2}],"total":1}`},
		{"search no hits", "search", "", `{"q":"zebra"}`, `{"hits":[],"total":0}`},
		{"deploy staging", "deploy_service", "", `{"service":"api","env":"staging"}`,
			`{"service":"api","env":"staging","status":"deployed","url":"https://api.staging.example.test","steps":4}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := call(t, c, tt.tool, tt.version, tt.args, nil)
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if diff := cmp.Diff(decode(t, tt.want), decode(t, string(got))); diff != "" {
				t.Errorf("result mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCallErrors(t *testing.T) {
	c := New(&Options{DeployStep: time.Millisecond})
	noScopes := &CallOptions{Allow: Token{Secret: "x"}.Allows}
	tests := []struct {
		name, tool, version, args string
		opts                      *CallOptions
		want                      *Error
	}{
		{"unknown tool", "nope", "", `{}`, nil, &Error{Code: CodeUnknownTool, Tool: "nope"}},
		{"unserved version", "word_count", "3.0", `{"text":"x"}`, nil,
			&Error{Code: CodeIncompatibleVersion, Tool: "word_count", Versions: []string{"1.1", "1.0"}}},
		{"missing field", "word_count", "", `{}`, nil, &Error{Code: CodeInvalidArguments, Tool: "word_count",
			Fields: []FieldError{{Field: "text", Rule: "required", Message: "is required"}}}},
		{"null args are an empty object", "word_count", "", `null`, nil, &Error{Code: CodeInvalidArguments, Tool: "word_count",
			Fields: []FieldError{{Field: "text", Rule: "required", Message: "is required"}}}},
		{"wrong type", "word_count", "", `{"text":5}`, nil, &Error{Code: CodeInvalidArguments, Tool: "word_count",
			Fields: []FieldError{{Field: "text", Rule: "type", Message: "got number, want string"}}}},
		{"unknown field", "word_count", "", `{"text":"a","Text":"b"}`, nil, &Error{Code: CodeInvalidArguments, Tool: "word_count",
			Fields: []FieldError{{Field: "Text", Rule: "additionalProperties", Message: "is not a known argument"}}}},
		{"not an object", "word_count", "", `["a"]`, nil, &Error{Code: CodeInvalidArguments, Tool: "word_count",
			Fields: []FieldError{{Field: "", Rule: "type", Message: "got array, want object"}}}},
		{"enum", "deploy_service", "", `{"service":"api","env":"prod"}`, nil, &Error{Code: CodeInvalidArguments, Tool: "deploy_service",
			Fields: []FieldError{{Field: "env", Rule: "enum", Message: "value must be one of 'staging', 'production'"}}}},
		{"limit range", "search", "", `{"q":"a","limit":50}`, nil, &Error{Code: CodeInvalidArguments, Tool: "search",
			Fields: []FieldError{{Field: "limit", Rule: "maximum", Message: "maximum: got 50, want 10"}}}},
		{"production needs scope", "deploy_service", "", `{"service":"api","env":"production"}`, noScopes,
			&Error{Code: CodeForbidden, Tool: "deploy_service", Scope: ScopeDeployProduction}},
		{"upstream down", "weather", "", `{"city":"Lisbon"}`, nil, &Error{Code: CodeToolFailed, Tool: "weather"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := call(t, c, tt.tool, tt.version, tt.args, tt.opts)
			var got *Error
			if !errors.As(err, &got) {
				t.Fatalf("Call error = %v, want *Error", err)
			}
			if got.Message == "" {
				t.Error("error has no message")
			}
			if diff := cmp.Diff(tt.want, got, cmp.FilterPath(func(p cmp.Path) bool {
				return p.Last().String() == ".Message" && len(p) == 3
			}, cmp.Ignore())); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s\nmessage: %s", diff, got.Message)
			}
		})
	}
}

func TestErrorMessagesTeach(t *testing.T) {
	c := New(nil)
	for _, tt := range []struct{ tool, version, args, want string }{
		{"nope", "", `{}`, `unknown tool "nope"; this server has: word_count, search, deploy_service, weather`},
		{"word_count", "3.0", `{"text":"x"}`, `word_count: version "3.0" is not served; served versions: 1.1, 1.0`},
		{"word_count", "", `{"txt":"x"}`, `word_count: invalid arguments: text: is required (rule "required"); txt: is not a known argument (rule "additionalProperties")`},
		{"weather", "", `{"city":"Oslo"}`, `weather failed: upstream forecast service unavailable (HTTP 503 from forecast.invalid) while looking up "Oslo"`},
	} {
		_, err := call(t, c, tt.tool, tt.version, tt.args, nil)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s %s: error = %v\nwant %s", tt.tool, tt.args, err, tt.want)
		}
	}
}

func TestProductionWithScope(t *testing.T) {
	c := New(&Options{DeployStep: time.Millisecond})
	tok, err := ParseToken("ops:deploy:production")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, c, "deploy_service", "", `{"service":"api","env":"production"}`, &CallOptions{Allow: tok.Allows}); err != nil {
		t.Fatalf("deploy with scope: %v", err)
	}
}

func TestDeployProgressAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(nil)
		var got []Progress
		start := time.Now()
		_, err := c.Call(context.Background(), Request{Name: "deploy_service", Args: json.RawMessage(`{"service":"api","env":"staging"}`)},
			&CallOptions{Progress: func(p Progress) { got = append(got, p) }})
		if err != nil {
			t.Fatal(err)
		}
		want := []Progress{{1, 4, "build image"}, {2, 4, "push image"}, {3, 4, "roll out"}, {4, 4, "health check"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("progress (-want +got):\n%s", diff)
		}
		if took := time.Since(start); took != 4*DefaultDeployStep {
			t.Errorf("deploy took %v of fake time, want %v", took, 4*DefaultDeployStep)
		}

		ctx, cancel := context.WithTimeout(context.Background(), DefaultDeployStep*3/2)
		defer cancel()
		got = nil
		_, err = c.Call(ctx, Request{Name: "deploy_service", Args: json.RawMessage(`{"service":"api","env":"staging"}`)},
			&CallOptions{Progress: func(p Progress) { got = append(got, p) }})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want context.DeadlineExceeded", err)
		}
		if len(got) != 1 {
			t.Errorf("got %d progress reports before the deadline, want 1", len(got))
		}
	})
}

// TestOutputsMatchSchemas runs every tool and checks its result against
// its own output schema, so the published contract cannot drift from the code.
func TestOutputsMatchSchemas(t *testing.T) {
	c := New(&Options{DeployStep: time.Millisecond})
	samples := map[string]string{
		"word_count":     `{"text":"a b"}`,
		"search":         `{"q":"json rpc","limit":10}`,
		"deploy_service": `{"service":"web","env":"production"}`,
	}
	for _, d := range c.List() {
		args, ok := samples[d.Name]
		if !ok {
			continue
		}
		out, err := call(t, c, d.Name, "", args, nil)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		v, err := compile(d.Name+"-output", d.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		fields, err := v.check(out)
		if err != nil || len(fields) > 0 {
			t.Errorf("%s output %s breaks its output schema: %v %v", d.Name, out, fields, err)
		}
	}
	for _, d := range c.List() {
		if _, ok := samples[d.Name]; !ok && d.Name != "weather" {
			t.Errorf("tool %s has no sample call in this test", d.Name)
		}
	}
}

func TestParseToken(t *testing.T) {
	for _, tt := range []struct {
		spec    string
		want    Token
		wantErr bool
	}{
		{"reader", Token{Secret: "reader"}, false},
		{"ops:deploy:production", Token{Secret: "ops", Scopes: []Scope{ScopeDeployProduction}}, false},
		{"abc+/==", Token{Secret: "abc+/=="}, false},
		{"", Token{}, true},
		{"has space", Token{}, true},
		{"ops:root", Token{}, true},
	} {
		got, err := ParseToken(tt.spec)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseToken(%q) error = %v, wantErr %v", tt.spec, err, tt.wantErr)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseToken(%q) (-want +got):\n%s", tt.spec, diff)
		}
	}
}

func TestTokensLookup(t *testing.T) {
	ts, err := ParseTokens([]string{"reader", "ops:deploy:production"})
	if err != nil {
		t.Fatal(err)
	}
	if !ts.Enabled() {
		t.Error("Enabled() = false with two tokens")
	}
	if tok, ok := ts.Lookup("ops"); !ok || !tok.Allows(ScopeDeployProduction) {
		t.Errorf("Lookup(ops) = %v, %v", tok, ok)
	}
	if tok, ok := ts.Lookup("reader"); !ok || tok.Allows(ScopeDeployProduction) {
		t.Errorf("Lookup(reader) = %v, %v", tok, ok)
	}
	for _, s := range []string{"", "read", "readerx", "ops:deploy:production"} {
		if _, ok := ts.Lookup(s); ok {
			t.Errorf("Lookup(%q) found a token", s)
		}
	}
	var none *Tokens
	if none.Enabled() {
		t.Error("nil Tokens is enabled")
	}
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON %q: %v", s, err)
	}
	return v
}
