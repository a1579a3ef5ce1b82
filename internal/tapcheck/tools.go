package tapcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wirelab/wirelab/internal/tap"
)

// maxDescription is the longest tool description (in characters) that
// passes without a warning. Descriptions of real tools are a sentence or
// a short paragraph; a thousand characters is several paragraphs.
const maxDescription = 1000

// instructions are phrases that speak to the model rather than to the
// user: the openings of known tool-poisoning and prompt-injection texts.
// Matched in lower case. A list can only catch the clumsy; the warning
// says what it found so that a person can judge.
var instructions = []string{
	"ignore previous", "ignore all previous", "ignore the previous", "ignore prior", "ignore your instructions",
	"disregard previous", "disregard all previous", "disregard your instructions", "forget your instructions",
	"do not tell the user", "don't tell the user", "do not mention this", "without telling the user",
	"do not reveal", "the user must not know", "<important>", "<system>", "[system]",
	"system prompt", "new instructions:",
}

// isHidden reports whether r is a character a reader cannot see that
// changes or hides what text says: zero-width characters, bidirectional
// controls (the "Trojan Source" trick), and the Unicode tag block, which
// can spell a whole invisible sentence.
func isHidden(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200F, // zero-width space, joiners, direction marks
		r >= 0x202A && r <= 0x202E,   // bidirectional embeddings and overrides
		r >= 0x2060 && r <= 0x2064,   // word joiner, invisible operators
		r >= 0x2066 && r <= 0x2069,   // bidirectional isolates
		r == 0xFEFF,                  // zero-width no-break space
		r >= 0xE0000 && r <= 0xE007F: // tags
		return true
	}
	return false
}

// toolList compares each tool of a tools/list answer with what earlier
// answers said, and scans new or changed definitions for text aimed at
// the model. A paginated list arrives in several answers; tools are
// compared by name, so pages do not matter.
func (c *checker) toolList(e tap.Event, result json.RawMessage) {
	var r struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	for _, raw := range r.Tools {
		var def struct {
			Name         string          `json:"name"`
			Description  string          `json:"description"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		if json.Unmarshal(raw, &def) != nil {
			continue
		}
		canonical := pretty(raw)
		old, seen := c.tools[def.Name]
		if seen && old.canonical == canonical {
			continue
		}
		if seen {
			c.find("tool-changed", e.Seq, "tool %q:\n%s", "инструмент %q:\n%s", def.Name, tap.DiffLines(old.canonical, canonical))
		}
		c.tools[def.Name] = &tool{canonical: canonical, output: def.OutputSchema}
		if n := utf8.RuneCountInString(def.Description); n > maxDescription {
			c.find("long-description", e.Seq, "tool %q: %s", "инструмент %q: %s", def.Name,
				phrase{fmt.Sprintf("%d characters", n), fmt.Sprintf("%d %s", n, plural(n, "символ", "символа", "символов"))})
		}
		c.scanText(e, phrase{fmt.Sprintf("tool %q", def.Name), fmt.Sprintf("инструмент %q", def.Name)}, raw)
		// Results that came before any list described their tool (a
		// host that sent both at once) are checked now.
		early := c.early[def.Name]
		delete(c.early, def.Name)
		for _, r := range early {
			c.checkStructured(r.event, def.Name, r.result)
		}
	}
}

// toolResult checks a tools/call result against the tool's declaration.
func (c *checker) toolResult(e tap.Event, name string, result json.RawMessage) {
	var r struct {
		Content           json.RawMessage `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		ResultType        string          `json:"resultType"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	if r.ResultType != "" && r.ResultType != "complete" {
		return // input_required: not the tool's output yet
	}
	c.scanText(e, phrase{fmt.Sprintf("result of %q", name), fmt.Sprintf("результат %q", name)}, r.Content)
	if r.IsError {
		c.find("tool-error", e.Seq, "tool %q", "инструмент %q", name)
		return // the output schema binds successful results only
	}
	if c.tools[name] == nil {
		if c.early == nil {
			c.early = map[string][]earlyResult{}
		}
		c.early[name] = append(c.early[name], earlyResult{e, result})
		return
	}
	c.checkStructured(e, name, result)
}

// earlyResult is a tools/call result whose tool no tools/list has
// described yet.
type earlyResult struct {
	event  tap.Event
	result json.RawMessage
}

// checkStructured checks a successful result's structuredContent
// against the tool's outputSchema.
func (c *checker) checkStructured(e tap.Event, name string, result json.RawMessage) {
	var r struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	json.Unmarshal(result, &r)
	t := c.tools[name]
	if t == nil || len(t.output) == 0 {
		return
	}
	if len(r.StructuredContent) == 0 || string(r.StructuredContent) == "null" {
		c.find("structured-content-missing", e.Seq, "tool %q declares an outputSchema", "инструмент %q объявил outputSchema", name)
		return
	}
	if s := t.compile(); s != nil {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.StructuredContent))
		if err == nil {
			err = s.Validate(doc)
		}
		if err != nil {
			why := phrase{err.Error(), err.Error()}
			var verr *jsonschema.ValidationError
			if errors.As(err, &verr) {
				_, ru := leaves(verr, 3)
				why.ru = strings.Join(ru, "; ")
			}
			c.find("structured-content-invalid", e.Seq, "tool %q: %s", "инструмент %q: %s", name, why)
		}
	}
}

// outputSchema is a tool's compiled outputSchema.
type outputSchema = jsonschema.Schema

// compile compiles the tool's outputSchema once. A schema that does not
// compile is not this checker's business to judge; it checks nothing.
// Nothing is loaded from elsewhere: a server's $ref to a file or a URL
// must not make the checker read one.
func (t *tool) compile() *outputSchema {
	if t.compiled {
		return t.schema
	}
	t.compiled = true
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(t.output))
	if err != nil {
		return nil
	}
	cmp := jsonschema.NewCompiler()
	cmp.DefaultDraft(jsonschema.Draft2020)
	cmp.UseLoader(jsonschema.SchemeURLLoader{})
	const url = "tapcheck:///output.json"
	if cmp.AddResource(url, doc) != nil {
		return nil
	}
	t.schema, _ = cmp.Compile(url)
	return t.schema
}

// scanText looks at every string inside raw (a tool definition: name,
// description, schema descriptions; or a result's content) for
// instructions and hidden characters, and reports each kind once.
func (c *checker) scanText(e tap.Event, what phrase, raw json.RawMessage) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	var found string // the first instruction found
	var hidden []string
	walkStrings(v, func(s string) {
		lower := strings.ToLower(s)
		for _, p := range instructions {
			if found == "" && strings.Contains(lower, p) {
				found = p
			}
		}
		for _, r := range s {
			if isHidden(r) && len(hidden) < 5 {
				hidden = append(hidden, fmt.Sprintf("U+%04X", r))
			}
		}
	})
	if found != "" {
		c.find("model-instructions", e.Seq, "%s contains %q", "%s содержит %q", what, found)
	}
	if len(hidden) > 0 {
		c.find("hidden-characters", e.Seq, "%s contains %s", "%s содержит %s", what, strings.Join(hidden, " "))
	}
}

func walkStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []any:
		for _, x := range v {
			walkStrings(x, f)
		}
	case map[string]any:
		for k, x := range v {
			f(k)
			walkStrings(x, f)
		}
	}
}
