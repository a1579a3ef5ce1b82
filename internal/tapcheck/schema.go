package tapcheck

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/wirelab/wirelab/internal/tap"
)

// The official JSON schema of each revision, copied from the
// specification's repository (schemas/README.md says from where).
//
//go:embed schemas/*.json
var schemaFiles embed.FS

// schema is one revision's JSON schema, its definitions compiled as the
// checker first needs them.
type schema struct {
	rev      string
	compiler *jsonschema.Compiler
	defs     map[string]bool
	// methods maps, for each side (tap.Out: the host, the client;
	// tap.In: the server), a method to the definition of its request or
	// notification, as the schema's unions ClientRequest, ServerRequest,
	// ClientNotification and ServerNotification list them.
	methods  map[string]map[string]string
	compiled map[string]*jsonschema.Schema
}

// schemaURL names a revision's schema inside the compiler; nothing is
// ever loaded from it.
func schemaURL(rev string) string { return "tapcheck:///schema/" + rev + ".json" }

// loadSchema reads the embedded schema of rev; nil when there is none.
func loadSchema(rev string) (*schema, error) {
	raw, err := schemaFiles.ReadFile("schemas/" + rev + ".json")
	if err != nil {
		return nil, nil
	}
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("the embedded schema of %s: %w", rev, err)
	}
	s := &schema{rev: rev, defs: map[string]bool{}, compiled: map[string]*jsonschema.Schema{},
		methods: map[string]map[string]string{tap.Out: {}, tap.In: {}}}
	for name := range doc.Defs {
		s.defs[name] = true
	}
	for union, side := range map[string]string{"ClientRequest": tap.Out, "ClientNotification": tap.Out, "ServerRequest": tap.In, "ServerNotification": tap.In} {
		for _, def := range unionMembers(doc.Defs[union]) {
			var d struct {
				Properties struct {
					Method struct {
						Const string `json:"const"`
					} `json:"method"`
				} `json:"properties"`
			}
			if json.Unmarshal(doc.Defs[def], &d) == nil && d.Properties.Method.Const != "" {
				s.methods[side][d.Properties.Method.Const] = def
			}
		}
	}
	instance, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the embedded schema of %s: %w", rev, err)
	}
	s.compiler = jsonschema.NewCompiler()
	s.compiler.DefaultDraft(jsonschema.Draft2020)
	s.compiler.UseLoader(jsonschema.SchemeURLLoader{}) // loads nothing: every $ref is inside the file
	if err := s.compiler.AddResource(schemaURL(rev), instance); err != nil {
		return nil, fmt.Errorf("the embedded schema of %s: %w", rev, err)
	}
	return s, nil
}

// unionMembers lists the definitions a union refers to: {"anyOf":
// [{"$ref": "#/$defs/X"}, ...]}, or a single {"$ref": ...}.
func unionMembers(raw json.RawMessage) []string {
	type ref struct {
		Ref string `json:"$ref"`
	}
	var u struct {
		ref
		AnyOf []ref `json:"anyOf"`
	}
	json.Unmarshal(raw, &u)
	var names []string
	for _, r := range append(u.AnyOf, u.ref) {
		if name, ok := strings.CutPrefix(r.Ref, "#/$defs/"); ok {
			names = append(names, name)
		}
	}
	return names
}

// def returns the compiled definition name.
func (s *schema) def(name string) (*jsonschema.Schema, error) {
	if c, ok := s.compiled[name]; ok {
		return c, nil
	}
	c, err := s.compiler.Compile(schemaURL(s.rev) + "#/$defs/" + name)
	if err != nil {
		return nil, fmt.Errorf("compiling %s of the %s schema: %w", name, s.rev, err)
	}
	s.compiled[name] = c
	return c, nil
}

// resultDef is the definition a successful answer to method (sent by
// side) must match, and whether it describes the whole response
// message (2026-07-28's XResultResponse, which allows
// InputRequiredResult too) rather than its result.
func (s *schema) resultDef(side, method string, taskAugmented bool) (name string, whole bool) {
	req, ok := s.methods[side][method]
	if !ok {
		return "", false
	}
	base := strings.TrimSuffix(req, "Request")
	switch {
	case taskAugmented && s.defs["CreateTaskResult"]:
		// 2025-11-25: a request with params.task is answered at once
		// with the task, its result comes later (tasks/result).
		return "CreateTaskResult", false
	case s.defs[base+"ResultResponse"]:
		return base + "ResultResponse", true
	case s.defs[base+"Result"]:
		return base + "Result", false
	case s.defs["EmptyResult"]:
		return "EmptyResult", false
	}
	return "Result", false
}

// schemas holds the schema of each revision met so far in one check.
type schemas struct {
	byRev map[string]*schema
	err   error // the first schema that would not load or compile: a bug here
}

func (ss *schemas) get(rev string) *schema {
	if s, ok := ss.byRev[rev]; ok {
		return s
	}
	s, err := loadSchema(rev)
	if err != nil && ss.err == nil {
		ss.err = err
	}
	if ss.byRev == nil {
		ss.byRev = map[string]*schema{}
	}
	ss.byRev[rev] = s
	return s
}

// revision is the revision an era names: "2026-07-28", or the revision
// of a "2025-11-25 session".
func revision(era string) string {
	rev, _, _ := strings.Cut(era, " ")
	return rev
}

// validate checks one whole message, or part of it, against a definition
// of the schema of rev, and reports what does not match. It returns the
// index of the finding in the report, or -1.
func (c *checker) validate(e tap.Event, rev, def string, instance []byte, what phrase) int {
	s := c.schemas.get(rev)
	if s == nil {
		return -1 // a revision whose schema is not embedded
	}
	compiled, err := s.def(def)
	if err != nil {
		if c.schemas.err == nil {
			c.schemas.err = err
		}
		return -1
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(instance))
	if err != nil {
		return -1 // not JSON: reported as such elsewhere
	}
	var verr *jsonschema.ValidationError
	if err := compiled.Validate(doc); errors.As(err, &verr) {
		en, ru := leaves(verr, 3)
		c.find("schema", e.Seq, "%s does not match %s in the %s schema: %s", "%s не соответствует %s в схеме %s: %s",
			what, def, rev, phrase{strings.Join(en, "; "), strings.Join(ru, "; ")})
		return len(c.report.Findings) - 1
	}
	return -1
}

// leaves returns the innermost failures of a validation, at most max, each
// with where in the message it is, in English and in Russian. A failed
// anyOf (a content block that is none of the kinds) lists why each branch
// failed, so the count is bounded.
func leaves(e *jsonschema.ValidationError, max int) (out, ru []string) {
	english := message.NewPrinter(language.English)
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(out) >= max {
			return
		}
		if len(e.Causes) == 0 {
			where := "/" + strings.Join(e.InstanceLocation, "/")
			what := e.ErrorKind.LocalizedString(english)
			s := fmt.Sprintf("at %s: %s", where, what)
			if !slices.Contains(out, s) {
				out = append(out, s)
				ru = append(ru, fmt.Sprintf("в %s: %s", where, kindRU(e.ErrorKind, what)))
			}
			return
		}
		for _, cause := range e.Causes {
			walk(cause)
		}
	}
	walk(e)
	return out, ru
}

// kindRU says in Russian why a value fails a schema, for the failures a
// message most often has; the rest keep the validator's English.
func kindRU(k jsonschema.ErrorKind, english string) string {
	switch k := k.(type) {
	case *kind.Required:
		return "нет " + plural(len(k.Missing), "поля", "полей", "полей") + " " + quoted(k.Missing)
	case *kind.AdditionalProperties:
		return plural(len(k.Properties), "лишнее поле", "лишние поля", "лишние поля") + " " + quoted(k.Properties)
	case *kind.Type:
		return fmt.Sprintf("тип %s, а нужен %s", k.Got, strings.Join(k.Want, " или "))
	case *kind.FalseSchema:
		return "здесь схема не допускает никакого значения"
	}
	return english
}

// quoted lists names as the validator quotes them: 'a', 'b'.
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return strings.Join(q, ", ")
}
