package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// Modern Streamable HTTP copies parts of the body into headers, so that
// a load balancer or gateway can route a request without parsing JSON:
//
//	MCP-Protocol-Version: 2026-07-28        params._meta's protocolVersion
//	Mcp-Method: tools/call                  method
//	Mcp-Name: execute_sql                   params.name or params.uri
//	Mcp-Param-Region: us-west1              an argument the tool marked with x-mcp-header
//
// A tool marks an argument in its inputSchema:
//
//	"properties": {"region": {"type": "string", "x-mcp-header": "Region"}}
//
// The server checks that every header matches the body, so the two
// sources of truth cannot disagree.

// paramHeader is one x-mcp-header annotation: the header
// Mcp-Param-{Name} carries the argument at Path.
type paramHeader struct {
	Name string   // as the tool wrote it; header names ignore case
	Path []string // property names from the schema's root
}

// parseParamHeaders reads a tool's x-mcp-header annotations, or says why
// they are invalid, which makes the whole tool definition invalid.
func parseParamHeaders(inputSchema json.RawMessage) ([]paramHeader, error) {
	var root any
	if len(inputSchema) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(inputSchema, &root); err != nil {
		return nil, fmt.Errorf("inputSchema is not JSON: %w", err)
	}
	var found []paramHeader
	if err := walkSchema(root, []string{}, &found); err != nil {
		return nil, err
	}
	// "MUST be case-insensitively unique among all x-mcp-header values"
	seen := make(map[string]bool)
	for _, h := range found {
		key := strings.ToLower(h.Name)
		if seen[key] {
			return nil, fmt.Errorf("x-mcp-header %q is used twice (header names ignore case)", h.Name)
		}
		seen[key] = true
	}
	return found, nil
}

// walkSchema visits a schema node. path is the chain of "properties"
// keys that leads to it, or nil once the chain has passed through
// anything else (items, oneOf, $defs, ...): an annotation "MUST only be
// applied to properties that are statically reachable from the schema
// root: reachable via a chain consisting solely of properties keys".
func walkSchema(node any, path []string, found *[]paramHeader) error {
	switch n := node.(type) {
	case []any:
		for _, item := range n {
			if err := walkSchema(item, nil, found); err != nil {
				return err
			}
		}
	case map[string]any:
		if v, ok := n["x-mcp-header"]; ok {
			h, err := checkAnnotation(n, v, path)
			if err != nil {
				return err
			}
			*found = append(*found, h)
		}
		keys := make([]string, 0, len(n))
		for k := range n {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch k {
			case "properties":
				props, _ := n[k].(map[string]any)
				names := make([]string, 0, len(props))
				for name := range props {
					names = append(names, name)
				}
				sort.Strings(names)
				for _, name := range names {
					var next []string
					if path != nil {
						next = append(append([]string{}, path...), name)
					}
					if err := walkSchema(props[name], next, found); err != nil {
						return err
					}
				}
			case "x-mcp-header", "const", "default", "enum", "examples":
				// Values, not schemas.
			default:
				if err := walkSchema(n[k], nil, found); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkAnnotation checks one x-mcp-header against the constraints the
// specification lists.
func checkAnnotation(schema map[string]any, value any, path []string) (paramHeader, error) {
	name, ok := value.(string)
	switch {
	case !ok:
		return paramHeader{}, fmt.Errorf("x-mcp-header is %v, not a string", value)
	case name == "":
		return paramHeader{}, fmt.Errorf("x-mcp-header is empty")
	case !isToken(name):
		// "MUST match HTTP field-name token syntax (1*tchar)", which
		// leaves out spaces, colons, control characters and non-ASCII.
		return paramHeader{}, fmt.Errorf("x-mcp-header %q is not an HTTP header name (letters, digits and !#$%%&'*+-.^_`|~ only)", name)
	case len(path) == 0:
		return paramHeader{}, fmt.Errorf("x-mcp-header %q is not on a property reachable through properties alone", name)
	}
	// "MUST only be applied to parameters with primitive types (integer,
	// string, boolean). Parameters with type number are not permitted."
	switch schema["type"] {
	case "string", "integer", "boolean":
	default:
		return paramHeader{}, fmt.Errorf("x-mcp-header %q is on %s, whose type is %v: only string, integer and boolean may be mirrored",
			name, strings.Join(path, "."), schema["type"])
	}
	return paramHeader{Name: name, Path: path}, nil
}

// isToken reports whether s is an RFC 9110 token: 1*tchar.
func isToken(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("!#$%&'*+-.^_`|~", r):
		default:
			return false
		}
	}
	return s != ""
}

// maxSafeInteger is the largest integer a JavaScript number holds
// exactly: "Integer values MUST be within the safe range for JavaScript".
const maxSafeInteger = 1<<53 - 1

// setParamHeaders adds Mcp-Param-{Name} for every annotated argument
// present in args. "If no value is present at that path in the call
// arguments, the header is omitted", and so is a null.
func setParamHeaders(h http.Header, headers []paramHeader, args json.RawMessage) error {
	if len(headers) == 0 || len(args) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber() // 42 stays "42", never "42.0" or 4.2e+01
	var root any
	if err := dec.Decode(&root); err != nil {
		return fmt.Errorf("arguments are not JSON: %w", err)
	}
	for _, ph := range headers {
		v := root
		for _, key := range ph.Path {
			obj, _ := v.(map[string]any)
			v = obj[key] // nil when absent
		}
		var s string
		switch x := v.(type) {
		case nil:
			continue
		case string:
			s = x
		case bool:
			s = strconv.FormatBool(x) // "true" or "false"
		case json.Number:
			// 42.0 is the integer 42 written another way.
			f, err := x.Float64()
			n := int64(f)
			if err != nil || float64(n) != f || n > maxSafeInteger || n < -maxSafeInteger {
				return fmt.Errorf("argument %s = %s: a mirrored integer must be whole and within ±(2^53-1)", strings.Join(ph.Path, "."), x)
			}
			s = strconv.FormatInt(n, 10)
		default:
			return fmt.Errorf("argument %s is %T; a mirrored argument is a string, an integer or a boolean", strings.Join(ph.Path, "."), v)
		}
		h.Set("Mcp-Param-"+ph.Name, encodeHeaderValue(s))
	}
	return nil
}

// encodeHeaderValue encodes a value for Mcp-Name or Mcp-Param-*. A value that
// is not plain visible ASCII, or has whitespace at either end, goes as
// Base64 of its UTF-8 inside the sentinel =?base64?...?=; so does a plain
// value that looks like the sentinel, "to avoid ambiguity".
func encodeHeaderValue(s string) string {
	plain := strings.TrimSpace(s) == s
	for i := 0; i < len(s) && plain; i++ {
		plain = s[i] >= 0x20 && s[i] <= 0x7e // a tab is a control character too
	}
	if plain && !(strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?=")) {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

// standardHeaders sets Mcp-Method, and Mcp-Name for the three methods
// that name something: "params.name or params.uri, for tools/call,
// resources/read, prompts/get". It returns the tool's arguments for
// tools/call, for the Mcp-Param-* headers.
func standardHeaders(h http.Header, method string, params json.RawMessage) (tool string, args json.RawMessage) {
	h.Set("Mcp-Method", method)
	var p struct {
		Name      string          `json:"name"`
		URI       string          `json:"uri"`
		Arguments json.RawMessage `json:"arguments"`
	}
	switch method {
	case "tools/call", "prompts/get":
		if json.Unmarshal(params, &p) == nil {
			h.Set("Mcp-Name", encodeHeaderValue(p.Name))
		}
	case "resources/read":
		if json.Unmarshal(params, &p) == nil {
			h.Set("Mcp-Name", encodeHeaderValue(p.URI))
		}
	}
	if method == "tools/call" {
		return p.Name, p.Arguments
	}
	return "", nil
}
