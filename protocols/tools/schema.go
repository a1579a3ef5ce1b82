package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// validator checks arguments against one tool's input schema. The JSON
// Schema library does the checking; this file only turns its findings
// into [FieldError] values that name the field and the rule.
type validator struct {
	schema  *jsonschema.Schema
	printer *message.Printer
}

// compile prepares a tool's input schema. Schemas are written in this
// package, so a schema that does not compile is a programmer error.
func compile(name string, raw json.RawMessage) (*validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: reading input schema: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "wirelab:///tools/" + name + "/input.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: adding input schema: %w", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s: compiling input schema: %w", name, err)
	}
	return &validator{schema: s, printer: message.NewPrinter(language.English)}, nil
}

// check validates raw arguments. It returns nil when they are valid.
func (v *validator) check(raw json.RawMessage) ([]FieldError, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []FieldError{{Rule: "json", Message: "arguments are not valid JSON: " + err.Error()}}, nil
	}
	err = v.schema.Validate(doc)
	var verr *jsonschema.ValidationError
	if err == nil {
		return nil, nil
	}
	if !errors.As(err, &verr) {
		return nil, fmt.Errorf("validating arguments: %w", err)
	}
	var out []FieldError
	v.collect(verr, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out, nil
}

// collect walks the library's error tree down to its leaves, where each
// leaf is one rule broken at one place in the arguments.
func (v *validator) collect(e *jsonschema.ValidationError, out *[]FieldError) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			v.collect(c, out)
		}
		return
	}
	at := strings.Join(e.InstanceLocation, ".")
	rule := strings.Join(e.ErrorKind.KeywordPath(), "/")
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		// The missing properties are the fields to name, not their parent.
		for _, p := range k.Missing {
			*out = append(*out, FieldError{Field: join(at, p), Rule: rule, Message: "is required"})
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			*out = append(*out, FieldError{Field: join(at, p), Rule: rule, Message: "is not a known argument"})
		}
	default:
		*out = append(*out, FieldError{Field: at, Rule: rule, Message: e.ErrorKind.LocalizedString(v.printer)})
	}
}

func join(parent, child string) string {
	if parent == "" {
		return child
	}
	return parent + "." + child
}
