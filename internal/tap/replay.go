package tap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultWait is how long a replay waits for each answer the recording
// had before it goes on without it. The answer is then reported missing.
const DefaultWait = 5 * time.Second

// Difference is one way the fresh server's answers differ from the
// recorded ones.
type Difference struct {
	// Event is the Seq of the recorded message that differs or is
	// missing; 0 for a message the recording does not have.
	Event int
	// What names the message: "server->host response id 3 (tools/call)".
	What string
	// Diff shows recorded (-) against replayed (+), normalised.
	Diff string
}

func (d Difference) String() string {
	where := "not in the recording"
	if d.Event > 0 {
		where = fmt.Sprintf("event %d", d.Event)
	}
	return fmt.Sprintf("%s: %s\n%s", where, d.What, strings.TrimRight(d.Diff, "\n"))
}

// Placeholders that normalisation puts where values change from run to
// run by design.
const (
	placeholderTime    = "<time>"
	placeholderSession = "<session>"
	placeholderState   = "<requestState>"
	placeholderID      = "<server request id>"
	placeholderGen     = "<generated id>"
	placeholderAddress = "<this server>"
)

// normalize returns a message as pretty JSON with what differs from run
// to run replaced by placeholders: timestamps, session ids,
// requestState (signed, with a time in it), the ids of requests the
// server sends, which it chooses, and the ids a server makes up for what
// it creates (generatedID). A line that is not JSON is returned as it
// is.
func normalize(data []byte) string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return string(data)
	}
	if m, ok := v.(map[string]any); ok {
		if _, isRequest := m["method"]; isRequest && m["id"] != nil {
			m["id"] = placeholderID
		}
	}
	v = normalizeValue(v)
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func normalizeValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch strings.ToLower(k) {
			case "requeststate":
				v[k] = placeholderState
			case "sessionid", "mcp-session-id":
				v[k] = placeholderSession
			default:
				if _, ok := x.(string); ok && generatedID(k, v) {
					v[k] = placeholderGen
					continue
				}
				v[k] = normalizeValue(x)
			}
		}
	case []any:
		for i, x := range v {
			v[i] = normalizeValue(x)
		}
	case string:
		if _, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return placeholderTime
		}
	}
	return v
}

// generatedID reports whether the value of key in obj is an id the
// server made up for something it created, different on every run: an
// A2A task's id and context id, the ids of its artifacts and of the
// agent's messages (an MCP task's taskId too). Ids the host chose, such
// as its own messages' messageId, are the same in a replay, and kept.
func generatedID(key string, obj map[string]any) bool {
	switch key {
	case "taskId", "contextId", "artifactId":
		return true
	case "id":
		_, isTask := obj["contextId"] // an A2A Task: id, contextId, status
		return isTask
	case "messageId":
		role, _ := obj["role"].(string)
		return role == "ROLE_AGENT" || role == "agent"
	}
	return false
}

// generatedIDs returns the values of the generated ids in a message, in
// the order they first appear (objects' keys in sorted order).
func generatedIDs(data []byte) []string {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return nil
	}
	var ids []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if s, ok := v[k].(string); ok && generatedID(k, v) {
					ids = append(ids, s)
				} else {
					walk(v[k])
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return ids
}

// genMap maps the ids the server generated in the recording (an A2A
// task's, say) to those the fresh server generates, so that a later
// request naming a recorded task (GetTask, a reply to input-required)
// names the fresh one. Ids are paired in the order they first appear in
// the server's answers.
type genMap struct {
	mu               sync.Mutex // guards all below
	recorded, actual []string
	seenR, seenA     map[string]bool
}

func newGenMap() *genMap { return &genMap{seenR: map[string]bool{}, seenA: map[string]bool{}} }

// addRecorded and addActual take the generated ids of a recorded answer
// and of a replayed one.
func (m *genMap) addRecorded(data []byte) { m.add(&m.recorded, m.seenR, data) }
func (m *genMap) addActual(data []byte)   { m.add(&m.actual, m.seenA, data) }

func (m *genMap) add(ids *[]string, seen map[string]bool, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range generatedIDs(data) {
		if !seen[id] {
			seen[id] = true
			*ids = append(*ids, id)
		}
	}
}

// rewrite puts the fresh server's ids in a request where the recorded
// ones were, as whole JSON strings; the rest of the bytes are kept.
func (m *genMap) rewrite(data []byte) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, r := range m.recorded {
		if i < len(m.actual) && m.actual[i] != r {
			old, _ := json.Marshal(r)
			now, _ := json.Marshal(m.actual[i])
			data = bytes.ReplaceAll(data, old, now)
		}
	}
	return data
}

// idMap maps the ids of requests the server sent in the recording to
// the ids the fresh server chose, so that the host's answers can be
// replayed with the right ids. Requests are paired in the order the
// server sent them.
type idMap struct {
	mu       sync.Mutex // guards all below
	recorded []string   // the recorded server requests' ids, in order
	actual   []string   // the fresh server's, in order
}

func (m *idMap) addRecorded(id json.RawMessage) {
	m.mu.Lock()
	m.recorded = append(m.recorded, string(id))
	m.mu.Unlock()
}

func (m *idMap) addActual(id json.RawMessage) {
	m.mu.Lock()
	m.actual = append(m.actual, string(id))
	m.mu.Unlock()
}

// rewrite gives a host's response to a server request the fresh
// server's id for it. Anything else passes as it is.
func (m *idMap) rewrite(data []byte) []byte {
	var msg map[string]json.RawMessage
	if json.Unmarshal(data, &msg) != nil {
		return data
	}
	id, isResponse := msg["id"]
	if _, isRequest := msg["method"]; isRequest || !isResponse {
		return data
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, r := range m.recorded {
		if r == string(id) && i < len(m.actual) && m.actual[i] != r {
			msg["id"] = json.RawMessage(m.actual[i])
			b, err := json.Marshal(msg)
			if err != nil {
				return data
			}
			return b
		}
	}
	return data
}

// serverRequestID returns the id of a request the server sent, if data
// is one.
func serverRequestID(data []byte) (json.RawMessage, bool) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(data, &msg) != nil || msg.Method == "" || len(msg.ID) == 0 {
		return nil, false
	}
	return msg.ID, true
}

// messageKey names a message for pairing recorded with replayed ones: a
// response by its id (the host chose it, and the replay sends the same),
// anything else by its method and how many of that method came before
// it; a line that is not JSON by its place among such lines.
func messageKey(data []byte, counts map[string]int) (key, what string) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	switch {
	case json.Unmarshal(data, &msg) != nil:
		key = "noise"
		what = "a line that is not JSON"
	case msg.Method == "" && len(msg.ID) > 0:
		// Counted too: a stream answers one request with many results
		// of the same id (A2A's SendStreamingMessage).
		key = "response " + string(msg.ID)
		counts[key]++
		what = "response id " + string(msg.ID)
		if n := counts[key]; n > 1 {
			what += fmt.Sprintf(" (number %d)", n)
		}
		return fmt.Sprintf("%s #%d", key, counts[key]), what
	case len(msg.ID) > 0:
		key, what = "request "+msg.Method, "request "+msg.Method
	case msg.Method == "":
		// Neither a method nor an id: JSON, but no JSON-RPC message.
		key, what = "notification ", "message with neither method nor id"
	default:
		key, what = "notification "+msg.Method, "notification "+msg.Method
	}
	counts[key]++
	n := counts[key]
	return fmt.Sprintf("%s #%d", key, n), fmt.Sprintf("%s (number %d)", what, n)
}

// compareMessages pairs recorded and replayed messages by key and
// returns their differences. methods names the host's requests by id,
// for the report.
func compareMessages(recorded []recordedMessage, got [][]byte, methods map[string]string, prefix string) []Difference {
	var diffs []Difference
	gotByKey := map[string][]byte{}
	gotWhat := map[string]string{}
	var gotOrder []string
	counts := map[string]int{}
	for _, g := range got {
		k, what := messageKey(g, counts)
		gotByKey[k], gotWhat[k] = g, what
		gotOrder = append(gotOrder, k)
	}
	counts = map[string]int{}
	seen := map[string]bool{}
	for _, r := range recorded {
		k, what := messageKey(r.data, counts)
		if id, ok := strings.CutPrefix(k, "response "); ok {
			id = id[:strings.LastIndex(id, " #")]
			if m := methods[id]; m != "" {
				what += " (" + m + ")"
			}
		}
		what = prefix + what
		seen[k] = true
		g, ok := gotByKey[k]
		if !ok {
			diffs = append(diffs, Difference{Event: r.seq, What: what + ": missing from the replay", Diff: DiffLines(normalize(r.data), "")})
			continue
		}
		if d := DiffLines(normalize(r.data), normalize(g)); d != "" {
			diffs = append(diffs, Difference{Event: r.seq, What: what + ": differs", Diff: d})
		}
	}
	for _, k := range gotOrder {
		if !seen[k] {
			diffs = append(diffs, Difference{What: prefix + gotWhat[k] + ": only in the replay", Diff: DiffLines("", normalize(gotByKey[k]))})
		}
	}
	return diffs
}

type recordedMessage struct {
	seq  int
	data []byte
}

// hostMethods maps the ids of the host's requests to their methods.
func hostMethods(events []Event, isHost func(Event) bool, data func(Event) []byte) map[string]string {
	methods := map[string]string{}
	for _, e := range events {
		if !isHost(e) {
			continue
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(data(e), &msg) == nil && msg.Method != "" && len(msg.ID) > 0 {
			methods[string(msg.ID)] = msg.Method
		}
	}
	return methods
}
