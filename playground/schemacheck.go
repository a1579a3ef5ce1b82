package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/wirelab/wirelab/playground/wire"
)

// maxSchemaCheck bounds one check, the schema and the value together: a
// tool's inputSchema and the arguments typed into its form are a few
// kilobytes, and a form of thousands of fields would be no form.
const maxSchemaCheck = 256 << 10

// schemaURL names the schema being checked inside the compiler; nothing
// is ever loaded from it.
const schemaURL = "wirelab:///console/schema.json"

// schemaFinding is one rule a value breaks: where (a JSON pointer's
// segments joined by "/", "" for the value itself), the top-level
// property the form shows it beside ("" for the value itself), and what
// is wrong, in the page's language.
type schemaFinding struct {
	At      string `json:"at"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// schemaCheck serves POST /console/schema/check, which the form over a
// console's frame (static/schemaform.js) asks as the learner types: is
// this value valid against this JSON Schema? The body is
//
//	{"schema": {...}, "value": ..., "lang": "en" or "ru"}
//
// and the answer {"findings": [...]}, empty when the value is valid, or
// {"error": ...}: 422 when the schema is not valid JSON Schema (a server
// may declare anything), 400 for a body that is not such JSON, 413 for
// one larger than maxSchemaCheck.
//
// The check runs the JSON Schema library wirelab's own tools validate
// their arguments with (protocols/tools), so that the page and the
// servers agree: draft 2020-12 unless the schema says otherwise, formats
// asserted (an elicitation's email is checked as an email), patterns as
// Go's regular expressions, which run in linear time whatever the
// pattern. A schema's $ref to anything outside itself is an error, never
// a request: the check loads nothing. The playground's door has checked
// Host and Origin, as for every request; the check itself is for a page
// on this machine only, as every custom target is.
func schemaCheck(w http.ResponseWriter, r *http.Request) {
	if !wire.IsLocalPeer(r) {
		jsonError(w, http.StatusForbidden, "the schema check is for a page on this machine only")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxSchemaCheck)
	var ask struct {
		Schema json.RawMessage `json:"schema"`
		Value  json.RawMessage `json:"value"`
		Lang   string          `json:"lang"`
	}
	err := json.NewDecoder(r.Body).Decode(&ask)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		jsonError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the schema and the value are larger than %d KiB together, the most the check reads", maxSchemaCheck>>10))
		return
	}
	if err != nil || len(ask.Schema) == 0 || len(ask.Value) == 0 {
		jsonError(w, http.StatusBadRequest, `send {"schema": {...}, "value": ..., "lang": "en"} as JSON`)
		return
	}
	l, ok := parseLang(ask.Lang)
	if !ok {
		l = en
	}
	schema, err := compileSchema(ask.Schema)
	if err != nil {
		jsonError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	findings, err := checkValue(schema, ask.Value, consoleStrings(l).Schema.Rules)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string][]schemaFinding{"findings": findings})
}

// compileSchema compiles a schema as a server sent it.
func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{}) // knows no scheme: nothing outside the schema is loaded
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compiling the schema: %w", err)
	}
	return s, nil
}

// checkValue validates a value against a schema and words each rule it
// breaks in rules' language.
func checkValue(s *jsonschema.Schema, raw json.RawMessage, rules schemaRules) ([]schemaFinding, error) {
	value, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("reading the value: %w", err)
	}
	findings := []schemaFinding{}
	err = s.Validate(value)
	if err == nil {
		return findings, nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return nil, fmt.Errorf("validating the value: %w", err)
	}
	collectFindings(verr, rules, &findings)
	sort.SliceStable(findings, func(i, j int) bool { return findings[i].At < findings[j].At })
	return findings, nil
}

// collectFindings walks the library's tree of errors down to the rules
// broken: its leaves, and the choices (anyOf, oneOf), which are said as
// one finding rather than as every branch that failed, since a titled
// enum is a oneOf of consts and "must be 'a'", "must be 'b'"... helps
// nobody.
func collectFindings(e *jsonschema.ValidationError, rules schemaRules, out *[]schemaFinding) {
	at := e.InstanceLocation
	add := func(path []string, msg string) {
		f := schemaFinding{At: strings.Join(path, "/"), Message: msg}
		if len(path) > 0 {
			f.Field = path[0]
		}
		*out = append(*out, f)
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		add(at, rules.NoChoice)
		return
	case *kind.OneOf:
		if len(k.Subschemas) > 1 {
			add(at, rules.ManyChoices)
		} else {
			add(at, rules.NoChoice)
		}
		return
	case *kind.Required:
		// The missing properties are the fields to name, not their parent.
		for _, p := range k.Missing {
			add(append(at[:len(at):len(at)], p), rules.Required)
		}
		return
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add(append(at[:len(at):len(at)], p), rules.NotKnown)
		}
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collectFindings(c, rules, out)
		}
		return
	}
	add(at, rules.say(e.ErrorKind))
}

// say words one broken rule.
func (rules schemaRules) say(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, t := range k.Want {
			want[i] = rules.typeName(t)
		}
		return fmt.Sprintf(rules.Type, strings.Join(want, " | "), rules.typeName(k.Got))
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, v := range k.Want {
			want[i] = jsonText(v)
		}
		return fmt.Sprintf(rules.Enum, strings.Join(want, ", "))
	case *kind.Const:
		return fmt.Sprintf(rules.Const, jsonText(k.Want))
	case *kind.Pattern:
		return fmt.Sprintf(rules.Pattern, k.Want)
	case *kind.Format:
		return fmt.Sprintf(rules.Format, k.Want)
	case *kind.MinLength:
		return fmt.Sprintf(rules.MinLength, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf(rules.MaxLength, k.Want)
	case *kind.Minimum:
		return fmt.Sprintf(rules.Minimum, ratText(k.Want))
	case *kind.Maximum:
		return fmt.Sprintf(rules.Maximum, ratText(k.Want))
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf(rules.ExclusiveMinimum, ratText(k.Want))
	case *kind.ExclusiveMaximum:
		return fmt.Sprintf(rules.ExclusiveMaximum, ratText(k.Want))
	case *kind.MinItems:
		return fmt.Sprintf(rules.MinItems, k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf(rules.MaxItems, k.Want)
	}
	return k.LocalizedString(message.NewPrinter(language.English))
}

// typeName is a JSON type's name in the rules' language.
func (rules schemaRules) typeName(t string) string {
	if name, ok := rules.Types[t]; ok {
		return name
	}
	return t
}

// jsonText writes a value from the schema as JSON, as the frame has it.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ratText writes a bound as the schema did: 5, or 0.5 rather than 1/2.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.RatString()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}
