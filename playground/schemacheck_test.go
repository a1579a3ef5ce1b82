package playground

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/tools"
)

// deploySchema is deploy_service's inputSchema, as wirelab's servers
// declare it: a pattern, an enum, two required properties.
const deploySchema = `{"type":"object","properties":{
	"service":{"type":"string","pattern":"^[a-z][a-z0-9-]{0,39}$"},
	"env":{"type":"string","enum":["staging","production"]}},
	"required":["service","env"],"additionalProperties":false}`

// askSchemaCheck posts body to the schema check as a page on this
// machine would, and returns the status and the decoded answer.
func askSchemaCheck(t *testing.T, body string) (int, map[string]json.RawMessage) {
	t.Helper()
	req := httptest.NewRequest("POST", "/console/schema/check", strings.NewReader(body))
	req.RemoteAddr = "127.0.0.1:50000"
	rec := httptest.NewRecorder()
	schemaCheck(rec, req)
	var answer map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil {
		t.Fatalf("the answer is not JSON: %v\n%s", err, rec.Body)
	}
	return rec.Code, answer
}

// TestSchemaCheckFindings: the check says each rule a value breaks, by
// the field the form shows it beside, in the page's language.
func TestSchemaCheckFindings(t *testing.T) {
	titled := `{"type":"object","properties":{"color":{"type":"string","oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]}}}`
	email := `{"type":"object","properties":{"email":{"type":"string","format":"email"},"n":{"type":"integer","minimum":1}}}`
	for _, tt := range []struct {
		name, schema, value, lang string
		want                      []schemaFinding
	}{
		{"valid", deploySchema, `{"service":"api","env":"staging"}`, "en", []schemaFinding{}},
		{"required", deploySchema, `{"env":"staging"}`, "en",
			[]schemaFinding{{At: "service", Field: "service", Message: "is required"}}},
		{"required, in Russian", deploySchema, `{"env":"staging"}`, "ru",
			[]schemaFinding{{At: "service", Field: "service", Message: "обязательное поле"}}},
		{"pattern and enum", deploySchema, `{"service":"API","env":"prod"}`, "en", []schemaFinding{
			{At: "env", Field: "env", Message: `must be one of "staging", "production"`},
			{At: "service", Field: "service", Message: "must match ^[a-z][a-z0-9-]{0,39}$"},
		}},
		{"a property the schema has not", deploySchema, `{"service":"api","env":"staging","force":true}`, "en",
			[]schemaFinding{{At: "force", Field: "force", Message: "is not in the schema"}}},
		{"type", deploySchema, `{"service":7,"env":"staging"}`, "ru",
			[]schemaFinding{{At: "service", Field: "service", Message: "ожидается строка, а пришло число"}}},
		{"a titled enum is one finding", titled, `{"color":"b"}`, "en",
			[]schemaFinding{{At: "color", Field: "color", Message: "matches none of the choices"}}},
		{"formats are asserted", email, `{"email":"nobody","n":0}`, "en", []schemaFinding{
			{At: "email", Field: "email", Message: "is not a valid email"},
			{At: "n", Field: "n", Message: "must be at least 1"},
		}},
		{"the value itself", deploySchema, `[]`, "en",
			[]schemaFinding{{At: "", Field: "", Message: "must be an object, not an array"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, answer := askSchemaCheck(t, `{"schema":`+tt.schema+`,"value":`+tt.value+`,"lang":"`+tt.lang+`"}`)
			if code != http.StatusOK {
				t.Fatalf("status %d, answer %s", code, answer["error"])
			}
			var got []schemaFinding
			if err := json.Unmarshal(answer["findings"], &got); err != nil {
				t.Fatalf("findings %s: %v", answer["findings"], err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSchemaCheckRefuses: what is not a schema and a value, or is too
// big, or is a schema that does not compile, is refused with a status
// that says which, and an error to show.
func TestSchemaCheckRefuses(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		want       int
		says       string
	}{
		{"not JSON", `{"schema":`, http.StatusBadRequest, `send {"schema"`},
		{"no value", `{"schema":{"type":"object"}}`, http.StatusBadRequest, `send {"schema"`},
		{"too big", `{"schema":{"type":"object"},"value":"` + strings.Repeat("x", maxSchemaCheck) + `"}`, http.StatusRequestEntityTooLarge, "KiB"},
		{"not JSON Schema", `{"schema":{"type":12},"value":{}}`, http.StatusUnprocessableEntity, "compiling the schema"},
		{"a pattern Go cannot read", `{"schema":{"type":"string","pattern":"(?<=a)b"},"value":"b"}`, http.StatusUnprocessableEntity, "compiling the schema"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, answer := askSchemaCheck(t, tt.body)
			var says string
			json.Unmarshal(answer["error"], &says)
			if code != tt.want || !strings.Contains(says, tt.says) {
				t.Errorf("status %d, error %q; want %d and an error with %q", code, says, tt.want, tt.says)
			}
		})
	}
}

// TestSchemaCheckLoadsNothing: a $ref to a URL is an error in the
// schema, and no request leaves for it.
func TestSchemaCheckLoadsNothing(t *testing.T) {
	var asked atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Write([]byte(`{"type":"string"}`))
	}))
	defer elsewhere.Close()
	code, answer := askSchemaCheck(t, `{"schema":{"$ref":"`+elsewhere.URL+`/s.json"},"value":"x"}`)
	if code != http.StatusUnprocessableEntity {
		t.Errorf("status %d, answer %s; want 422", code, answer["error"])
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the check asked %s for the $ref %d times; it must load nothing", elsewhere.URL, n)
	}
}

// TestSchemaCheckOnlyThisMachine: the check answers a page of the
// playground's own on this machine; a page from another origin is turned
// away at the door, and a page from another machine by the check.
func TestSchemaCheckOnlyThisMachine(t *testing.T) {
	t.Setenv(childEnv, "1")
	pg := New(tools.New(nil), &Options{Executable: os.Args[0]})
	srv := httptest.NewServer(pg)
	t.Cleanup(func() { srv.Close(); pg.Close() })
	body := `{"schema":{"type":"object"},"value":{}}`
	for _, tt := range []struct {
		name, origin string
		want         int
	}{
		{"its own page", srv.URL, http.StatusOK},
		{"a foreign page", "http://evil.example", http.StatusForbidden},
		{"another port of this machine", "http://127.0.0.1:1", http.StatusForbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+"/console/schema/check", strings.NewReader(body))
			req.Header.Set("Origin", tt.origin)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}

	req := httptest.NewRequest("POST", "/console/schema/check", strings.NewReader(body))
	req.RemoteAddr = "192.0.2.99:50000" // another machine, in a classroom
	rec := httptest.NewRecorder()
	schemaCheck(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("a page from another machine: status %d, want 403", rec.Code)
	}
}
