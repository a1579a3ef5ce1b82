package grade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Placeholders a wanted JSON value may use where any value of a kind will
// do: "<string>" matches any non-empty string, "<number>" any number,
// "<any>" anything present.
const (
	AnyString = `"<string>"`
	AnyNumber = `"<number>"`
	AnyValue  = `"<any>"`
)

// Modes of CompareJSON.
const (
	// Exact: the same JSON, ignoring key order and whitespace only.
	Exact = false
	// Subset: every key of the wanted objects is there with a matching
	// value; other keys are allowed. Arrays still match element by
	// element.
	Subset = true
)

// CompareJSON checks a line the program wrote against the JSON wanted,
// and returns nil if it matches. Otherwise the failure shows the wanted
// JSON rearranged into the program's key order, the line received, the
// first byte where they differ, and a hint when the difference is a
// classic mistake (capitalized keys, an id of the wrong type, a null that
// should be left out, a protocol error where a tool error belongs).
//
// Strings are compared by value and numbers by their text: an id sent as
// 10 must not come back as 1e1.
func CompareJSON(got []byte, want string, subset bool) *Failure {
	w, err := parseJSON([]byte(want))
	if err != nil {
		// A grader's own want that is not JSON is a bug in the grader.
		panic(fmt.Sprintf("grade: wanted JSON does not parse: %v: %s", err, want))
	}
	g, err := parseJSON(got)
	if err != nil {
		return notJSON(got)
	}
	var exp bytes.Buffer
	view(&exp, w, g, subset, true)
	if bytes.Equal(exp.Bytes(), g.raw) {
		return nil
	}
	f := Failf("the answer is not the one expected")
	f.setDiff(exp.Bytes(), g.raw, firstDiff(exp.Bytes(), g.raw))
	if !bytes.Equal(g.raw, got) {
		f.addf(" (whitespace removed from what came back)")
	}
	f.Hint = diagnose(w, g, subset)
	return f
}

// notJSON is the failure for a line that should be a message and is not.
func notJSON(line []byte) *Failure {
	f := Failf("the program wrote a line that is not JSON")
	f.Got, f.Hint = shorten(string(line)), HintStdoutLogs
	t := strings.TrimSpace(string(line))
	if t == "{" || t == "[" || strings.HasSuffix(t, "{") || strings.HasPrefix(t, `"`) {
		f.Hint = HintIndented
	}
	return f
}

func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// node is a parsed JSON value that keeps its bytes and its key order,
// which encoding/json's maps do not.
type node struct {
	kind    byte   // 'o' object, 'a' array, 's' string, 'n' number, 't' true/false, 'z' null
	raw     []byte // the value, compacted
	str     string // a string's value
	keys    []string
	rawKeys [][]byte // each key as it was written
	vals    []*node  // an object's values, an array's elements
}

func (n *node) get(key string) (*node, bool) {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i], true
		}
	}
	return nil, false
}

func parseJSON(b []byte) (*node, error) {
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return nil, err
	}
	return parseCompact(c.Bytes())
}

// parseCompact parses one compacted JSON value.
func parseCompact(b []byte) (*node, error) {
	n := &node{raw: b}
	switch b[0] {
	case '{':
		n.kind = 'o'
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.Token() // {
		for dec.More() {
			start := dec.InputOffset()
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := tok.(string)
			// The key's raw bytes run from after the previous separator
			// to the colon.
			rawKey := bytes.Trim(b[start:dec.InputOffset()], ",:")
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			child, err := parseCompact(v)
			if err != nil {
				return nil, err
			}
			n.keys, n.rawKeys, n.vals = append(n.keys, k), append(n.rawKeys, rawKey), append(n.vals, child)
		}
	case '[':
		n.kind = 'a'
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.Token() // [
		for dec.More() {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			child, err := parseCompact(v)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, child)
		}
	case '"':
		n.kind = 's'
		if err := json.Unmarshal(b, &n.str); err != nil {
			return nil, err
		}
	case 't', 'f':
		n.kind = 't'
	case 'n':
		n.kind = 'z'
	default:
		n.kind = 'n'
	}
	return n, nil
}

// view writes want as it would look if got matched it: in got's key
// order, with got's bytes wherever got already matches (a string escaped
// differently, a placeholder's value, and in subset mode the keys want
// does not mention). got matches want exactly when the two are the same
// bytes, and the first byte where they differ is the first difference
// worth showing.
//
// At the root, "result" and "error" are never extra keys: JSON-RPC and
// the stdio protocol both allow exactly one of them, so an answer with
// both is wrong even when the rest matches.
func view(buf *bytes.Buffer, w, g *node, subset, root bool) {
	if g != nil && w.kind == 's' {
		switch string(w.raw) {
		case AnyString:
			if g.kind == 's' && g.str != "" {
				buf.Write(g.raw)
				return
			}
		case AnyNumber:
			if g.kind == 'n' {
				buf.Write(g.raw)
				return
			}
		case AnyValue:
			buf.Write(g.raw)
			return
		}
	}
	switch {
	case g == nil || w.kind != g.kind:
		buf.Write(w.raw)
	case w.kind == 'o':
		buf.WriteByte('{')
		first := true
		comma := func() {
			if !first {
				buf.WriteByte(',')
			}
			first = false
		}
		// A wanted key that is missing, where got has one spelled almost
		// the same ("Result", "input_schema"), goes in that key's place,
		// so that the first difference is the spelling.
		placed := map[string]bool{}
		for i, k := range g.keys {
			if wv, ok := w.get(k); ok {
				comma()
				buf.Write(g.rawKeys[i])
				buf.WriteByte(':')
				view(buf, wv, g.vals[i], subset, false)
			} else if j := similarKey(w, g, k); j >= 0 && !placed[w.keys[j]] {
				placed[w.keys[j]] = true
				comma()
				buf.Write(w.rawKeys[j])
				buf.WriteByte(':')
				view(buf, w.vals[j], g.vals[i], subset, false)
			} else if subset && !(root && oneOfResultError(w, k)) {
				comma()
				buf.Write(g.rawKeys[i])
				buf.WriteByte(':')
				buf.Write(g.vals[i].raw)
			}
		}
		for i, k := range w.keys {
			if _, ok := g.get(k); !ok && !placed[k] {
				comma()
				buf.Write(w.rawKeys[i])
				buf.WriteByte(':')
				buf.Write(w.vals[i].raw)
			}
		}
		buf.WriteByte('}')
	case w.kind == 'a':
		buf.WriteByte('[')
		for i, wv := range w.vals {
			if i > 0 {
				buf.WriteByte(',')
			}
			var gv *node
			if i < len(g.vals) {
				gv = g.vals[i]
			}
			view(buf, wv, gv, subset, false)
		}
		buf.WriteByte(']')
	case w.kind == 's' && w.str == g.str:
		buf.Write(g.raw)
	default:
		buf.Write(w.raw)
	}
}

// diagnose finds the classic mistake behind a mismatch, if it is one.
// When several show, the one most likely to explain the others wins:
// untagged structs produce wrong keys, nulls and all.
func diagnose(w, g *node, subset bool) string {
	found := map[string]bool{}
	walkDiag(w, g, subset, true, found)
	for _, h := range []string{HintJSONTags, HintCamelCase, HintToolErrorAsProtocolError, HintProtocolErrorAsToolError, HintIDType, HintIDChanged, HintOmitempty} {
		if found[h] {
			return h
		}
	}
	return ""
}

func walkDiag(w, g *node, subset, root bool, found map[string]bool) {
	if w.kind == 'o' && g.kind == 'o' {
		_, gotResult := g.get("result")
		_, gotError := g.get("error")
		_, wantResult := w.get("result")
		_, wantError := w.get("error")
		if root {
			if wr, ok := w.get("result"); ok && !gotResult && gotError && isErrorResult(wr) {
				found[HintToolErrorAsProtocolError] = true
			}
			if gr, ok := g.get("result"); ok && wantError && !wantResult && isErrorResult(gr) {
				found[HintProtocolErrorAsToolError] = true
			}
			if gotResult && gotError && wantResult != wantError {
				found[HintOmitempty] = true
			}
			if wid, ok := w.get("id"); ok {
				if gid, ok := g.get("id"); ok && !bytes.Equal(wid.raw, gid.raw) {
					switch {
					case wid.kind != gid.kind && (wid.kind == 's' || wid.kind == 'n') && (gid.kind == 's' || gid.kind == 'n'):
						found[HintIDType] = true
					case wid.kind == 'n' && gid.kind == 'n':
						found[HintIDChanged] = true
					}
				}
			}
		}
		for i, k := range w.keys {
			gv, ok := g.get(k)
			if ok {
				walkDiag(w.vals[i], gv, subset, false, found)
				continue
			}
			for _, gk := range g.keys {
				switch {
				case strings.EqualFold(gk, k):
					found[HintJSONTags] = true
				case strings.EqualFold(strings.ReplaceAll(gk, "_", ""), k):
					found[HintCamelCase] = true
				}
			}
		}
		if !subset {
			for i, k := range g.keys {
				if _, ok := w.get(k); !ok && g.vals[i].kind == 'z' {
					found[HintOmitempty] = true
				}
			}
		}
		return
	}
	if w.kind == 'a' && g.kind == 'a' {
		for i := range min(len(w.vals), len(g.vals)) {
			walkDiag(w.vals[i], g.vals[i], subset, false, found)
		}
	}
}

// similarKey returns the index of a key of w that g lacks and that is
// spelled like gk but for case and underscores, or -1.
func similarKey(w, g *node, gk string) int {
	fold := func(k string) string { return strings.ToLower(strings.ReplaceAll(k, "_", "")) }
	for j, k := range w.keys {
		if _, ok := g.get(k); !ok && fold(k) == fold(gk) {
			return j
		}
	}
	return -1
}

// oneOfResultError reports whether key is "result" or "error" and want
// has one of them: then the other may not be there.
func oneOfResultError(w *node, key string) bool {
	_, r := w.get("result")
	_, e := w.get("error")
	return (key == "result" || key == "error") && (r || e)
}

// isErrorResult reports whether an MCP result says "isError": true.
func isErrorResult(n *node) bool {
	v, ok := n.get("isError")
	return ok && string(v.raw) == "true"
}

// Field returns the value at a path of object keys in a JSON message,
// compacted, or nil if it is not there: Field(line, "result",
// "protocolVersion"). Array elements are reached with their index as a
// key ("0").
func Field(msg []byte, path ...string) json.RawMessage {
	n, err := parseJSON(msg)
	if err != nil {
		return nil
	}
	for _, p := range path {
		switch n.kind {
		case 'o':
			v, ok := n.get(p)
			if !ok {
				return nil
			}
			n = v
		case 'a':
			var i int
			if _, err := fmt.Sscan(p, &i); err != nil || i < 0 || i >= len(n.vals) {
				return nil
			}
			n = n.vals[i]
		default:
			return nil
		}
	}
	return n.raw
}

// compact returns b without insignificant whitespace, or b itself if it
// is not JSON.
func compact(b []byte) []byte {
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return b
	}
	return c.Bytes()
}
