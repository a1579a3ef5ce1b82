package httpjson

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// getOpenAPI fetches the document the way a client would, without a
// token: it is public even when tokens are on.
func getOpenAPI(t *testing.T, opts *ServerOptions) []byte {
	t.Helper()
	srv := newTestServer(t, opts)
	resp, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /openapi.json: %s, Content-Type %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	return body
}

func TestOpenAPIDocument(t *testing.T) {
	for _, secured := range []bool{false, true} {
		t.Run("secured="+strconv.FormatBool(secured), func(t *testing.T) {
			opts := &ServerOptions{}
			if secured {
				opts.Tokens = mustTokens(t, "reader")
			}
			var doc struct {
				OpenAPI    string                     `json:"openapi"`
				Paths      map[string]json.RawMessage `json:"paths"`
				Security   []map[string][]string      `json:"security"`
				Components struct {
					Schemas         map[string]json.RawMessage `json:"schemas"`
					SecuritySchemes map[string]json.RawMessage `json:"securitySchemes"`
				} `json:"components"`
			}
			if err := json.Unmarshal(getOpenAPI(t, opts), &doc); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if doc.OpenAPI != "3.1.0" {
				t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
			}
			for _, p := range []string{"/execute", "/tools"} {
				if doc.Paths[p] == nil {
					t.Errorf("no path %s", p)
				}
			}
			for _, d := range testCatalogue().List() {
				for _, name := range []string{d.Name + ".request", d.Name + ".result"} {
					if doc.Components.Schemas[name] == nil {
						t.Errorf("no schema %s", name)
					}
				}
			}
			var wantSecurity []map[string][]string
			var wantSchemes map[string]json.RawMessage
			if secured {
				wantSecurity = []map[string][]string{{"bearer": {}}}
				wantSchemes = map[string]json.RawMessage{"bearer": json.RawMessage(
					`{"description":"Authorization: Bearer TOKEN (RFC 6750). Some calls need a scope, such as deploy:production.","scheme":"bearer","type":"http"}`)}
			}
			if diff := cmp.Diff(wantSecurity, doc.Security); diff != "" {
				t.Errorf("security mismatch (-want +got):\n%s", diff)
			}
			compact := func(m map[string]json.RawMessage) map[string]string {
				out := map[string]string{}
				for k, v := range m {
					var b bytes.Buffer
					json.Compact(&b, v)
					out[k] = b.String()
				}
				return out
			}
			if diff := cmp.Diff(compact(wantSchemes), compact(doc.Components.SecuritySchemes)); diff != "" {
				t.Errorf("securitySchemes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// compileFrom compiles the schema at a JSON pointer inside the document,
// as an OpenAPI tool would: $refs resolve within the document.
func compileFrom(t *testing.T, doc []byte, pointer string) *jsonschema.Schema {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "wirelab:///openapi.json"
	if err := c.AddResource(url, v); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url + "#" + pointer)
	if err != nil {
		t.Fatalf("compiling %s: %v", pointer, err)
	}
	return s
}

func validate(s *jsonschema.Schema, instance string) error {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// TestOpenAPIRequestSchemas checks example requests against the schemas
// in the document: each tool's own request schema, and the oneOf that
// /execute takes.
func TestOpenAPIRequestSchemas(t *testing.T) {
	doc := getOpenAPI(t, nil)
	execute := compileFrom(t, doc, "/paths/~1execute/post/requestBody/content/application~1json/schema")
	tests := []struct {
		tool, request string
		valid         bool
	}{
		{"word_count", `{"name":"word_count","args":{"text":"read the wire"}}`, true},
		{"word_count", `{"id":1,"name":"word_count","version":"1.0","args":{"text":"hi"}}`, true},
		{"search", `{"name":"search","args":{"q":"stdout","limit":3}}`, true},
		{"deploy_service", `{"name":"deploy_service","args":{"service":"api","env":"production"}}`, true},
		{"weather", `{"name":"weather","args":{"city":"Lisbon"}}`, true},
		{"word_count", `{"name":"word_count","args":{"text":5}}`, false},
		{"word_count", `{"name":"word_count","version":"3.0","args":{"text":"hi"}}`, false},
		{"word_count", `{"Name":"word_count","args":{"text":"hi"}}`, false},
		{"word_count", `{"name":"search","args":{"text":"hi"}}`, false},
		{"deploy_service", `{"name":"deploy_service","args":{"service":"api","env":"prod"}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			own := compileFrom(t, doc, "/components/schemas/"+tt.tool+".request")
			if err := validate(own, tt.request); (err == nil) != tt.valid {
				t.Errorf("%s.request: valid = %v, want %v (%v)", tt.tool, err == nil, tt.valid, err)
			}
			if err := validate(execute, tt.request); (err == nil) != tt.valid {
				t.Errorf("/execute request body: valid = %v, want %v (%v)", err == nil, tt.valid, err)
			}
		})
	}
}

// TestOpenAPIDescribesAnswers sends real requests and checks each answer
// against the schema the document gives for its status, so the document
// cannot drift from the server.
func TestOpenAPIDescribesAnswers(t *testing.T) {
	opts := &ServerOptions{Tokens: mustTokens(t, "reader")}
	doc := getOpenAPI(t, opts)
	srv := newTestServer(t, opts)
	tests := []struct {
		path, token, body string
		status            int
	}{
		{"/execute", "reader", `{"id":1,"name":"word_count","args":{"text":"read the wire"}}`, http.StatusOK},
		{"/execute", "reader", `{"name":"search","args":{"q":"stdout"}}`, http.StatusOK},
		{"/execute", "reader", `{"name":"deploy_service","args":{"service":"api","env":"staging"}}`, http.StatusOK},
		{"/execute", "reader", `{"name":"weather","args":{"city":"Lisbon"}}`, http.StatusOK},
		{"/execute", "reader", `{"name":"word_count","args":{}}`, http.StatusUnprocessableEntity},
		{"/execute", "reader", `{"name":"word_count","version":"3.0"}`, http.StatusBadRequest},
		{"/execute", "reader", `not json`, http.StatusBadRequest},
		{"/execute", "reader", `{"name":"nope"}`, http.StatusNotFound},
		{"/execute", "reader", `{"name":"deploy_service","args":{"service":"api","env":"production"}}`, http.StatusForbidden},
		{"/execute", "", `{"name":"word_count","args":{"text":"hi"}}`, http.StatusUnauthorized},
		{"/tools", "reader", "", http.StatusOK},
		{"/tools", "", "", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+strconv.Itoa(tt.status)+" "+tt.body, func(t *testing.T) {
			method, op := http.MethodGet, "get"
			if tt.path == "/execute" {
				method, op = http.MethodPost, "post"
			}
			req, err := http.NewRequest(method, srv.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d; body %s", resp.StatusCode, tt.status, body)
			}
			pointer := "/paths/~1" + strings.TrimPrefix(tt.path, "/") + "/" + op + "/responses/" + strconv.Itoa(tt.status) + "/content/application~1json/schema"
			if err := validate(compileFrom(t, doc, pointer), string(body)); err != nil {
				t.Errorf("answer %s does not match the document's schema for %d: %v", body, tt.status, err)
			}
		})
	}
}
