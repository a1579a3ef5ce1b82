package a2a_test

// The data model: TCK tck/requirements/data_model.py (DM-*).

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/protocols/a2a"
)

// tckSample is what a test of the data model reads: the tasks of every
// skill, as SendMessage returned them, and the events of a streamed
// deploy, each as sent.
func tckSample(c *tckClient) (tasks []tckTask, events []json.RawMessage) {
	c.t.Helper()
	tasks = append(tasks, c.waiting())
	for _, text := range []string{"count a b", "search streaming", "weather Oslo", "dance", "deploy api-gateway to staging"} {
		tasks = append(tasks, c.say(text))
	}
	for _, ev := range c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway to staging")}).all() {
		events = append(events, ev.reply.Result)
	}
	return tasks, events
}

// TestTCK_DM_TASK_001: "A Task object MUST contain required fields: id and
// status as defined in the Protocol Buffer definition." (DM-TASK-001,
// MUST, §4.1.1.) And contextId, which the proto marks required too.
func TestTCK_DM_TASK_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, _ := tckSample(c)
		for _, task := range tasks {
			var m map[string]json.RawMessage
			json.Unmarshal(task.raw, &m)
			for _, f := range []string{"id", "contextId", "status"} {
				if len(m[f]) == 0 || string(m[f]) == `""` {
					t.Errorf("task %s has no %s", task.ID, f)
				}
			}
		}
	})
}

// TestTCK_DM_TASK_002: "TaskState values MUST be one of the defined
// enumeration values: submitted, working, input_required, auth_required,
// completed, failed, canceled, rejected." (DM-TASK-002, MUST, §4.1.3.)
// Each skill leads its task to one of them.
func TestTCK_DM_TASK_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, _ := tckSample(c)
		var got []string
		for _, task := range tasks {
			got = append(got, string(tckState(c, task.Status.State)))
		}
		want := []string{"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_COMPLETED", "TASK_STATE_COMPLETED",
			"TASK_STATE_FAILED", "TASK_STATE_REJECTED", "TASK_STATE_COMPLETED"}
		if !cmp.Equal(got, want) {
			t.Errorf("states %v, want %v", got, want)
		}
	})
}

// tckAllMessages is every message of the tasks: history and status.
func tckAllMessages(tasks []tckTask) []tckMessage {
	var ms []tckMessage
	for _, task := range tasks {
		ms = append(ms, task.History...)
		if task.Status.Message != nil {
			ms = append(ms, *task.Status.Message)
		}
	}
	return ms
}

// TestTCK_DM_MSG_001: "A Message object MUST contain required fields:
// role, parts, and messageId as defined in the Protocol Buffer
// definition." (DM-MSG-001, MUST, §4.1.4.)
func TestTCK_DM_MSG_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, _ := tckSample(c)
		for _, m := range tckAllMessages(tasks) {
			if m.Role == "" || len(m.Parts) == 0 || m.MessageID == "" {
				t.Errorf("message %+v lacks role, parts or messageId", m)
			}
			if !c.v10() && m.Kind != "message" {
				t.Errorf("0.3 message %s has kind %q, want message", m.MessageID, m.Kind)
			}
		}
	})
}

// TestTCK_DM_MSG_002: "Role values MUST be one of the defined values: user
// or agent." (DM-MSG-002, MUST, §4.1.5.) The agent's own messages are the
// agent's.
func TestTCK_DM_MSG_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, _ := tckSample(c)
		for _, task := range tasks {
			if m := task.Status.Message; m != nil && m.Role != c.role(a2a.RoleAgent) {
				t.Errorf("status message role %q, want %q", m.Role, c.role(a2a.RoleAgent))
			}
			for _, m := range task.History {
				if m.Role != c.role(a2a.RoleUser) && m.Role != c.role(a2a.RoleAgent) {
					t.Errorf("role %q", m.Role)
				}
			}
			if len(task.History) > 0 && task.History[0].Role != c.role(a2a.RoleUser) {
				t.Errorf("the caller's message has role %q", task.History[0].Role)
			}
		}
	})
}

// tckPartContents names the contents a part holds, as sent.
func tckPartContents(c *tckClient, raw json.RawMessage) []string {
	var m map[string]json.RawMessage
	json.Unmarshal(raw, &m)
	var set []string
	if c.v10() {
		for _, k := range []string{"text", "raw", "url", "data"} {
			if _, ok := m[k]; ok {
				set = append(set, k)
			}
		}
		return set
	}
	var kind string
	json.Unmarshal(m["kind"], &kind)
	for _, k := range []string{"text", "file", "data"} {
		if _, ok := m[k]; ok {
			set = append(set, k)
		}
	}
	if len(set) == 1 && set[0] != kind {
		set = append(set, "kind "+kind)
	}
	return set
}

// tckParts finds every "parts" list in a JSON document.
func tckParts(raw json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	var walk func(v json.RawMessage)
	walk = func(v json.RawMessage) {
		var obj map[string]json.RawMessage
		var list []json.RawMessage
		switch {
		case json.Unmarshal(v, &obj) == nil:
			for k, child := range obj {
				if k == "data" || k == "metadata" {
					continue // the caller's values, not the protocol's
				}
				if k == "parts" {
					var parts []json.RawMessage
					json.Unmarshal(child, &parts)
					out = append(out, parts...)
					continue
				}
				walk(child)
			}
		case json.Unmarshal(v, &list) == nil:
			for _, child := range list {
				walk(child)
			}
		}
	}
	walk(raw)
	return out
}

// TestTCK_DM_PART_001: "A Part object MUST contain exactly one of: text,
// file (raw bytes or URL reference), or data (structured JSON)."
// (DM-PART-001, MUST, §4.1.6.) So do the agent's parts; and a caller's
// part with none or two is refused with -32602. (0.3 parts say which by
// their kind.)
func TestTCK_DM_PART_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, events := tckSample(c)
		n := 0
		for _, raw := range append(events, tasksRaw(tasks)...) {
			for _, p := range tckParts(raw) {
				n++
				if set := tckPartContents(c, p); len(set) != 1 {
					t.Errorf("part %s holds %v", p, set)
				}
			}
		}
		if n < 20 {
			t.Errorf("found only %d parts to check", n)
		}
		bad := map[string]any{"empty": map[string]any{}, "text and data": map[string]any{"text": "a", "data": map[string]any{"b": 1}},
			"text and url": map[string]any{"text": "a", "url": "https://example.com/a.txt", "mediaType": "text/plain"},
			"raw and url":  map[string]any{"raw": "YQ==", "url": "https://example.com/a.txt", "mediaType": "text/plain"}}
		if !c.v10() {
			bad = map[string]any{"no kind": map[string]any{"text": "a"}, "text without text": map[string]any{"kind": "text"},
				"file with both": map[string]any{"kind": "file", "file": map[string]any{"bytes": "YQ==", "uri": "https://example.com/a.txt"}},
				"file with none": map[string]any{"kind": "file", "file": map[string]any{"mimeType": "text/plain"}},
				"unknown kind":   map[string]any{"kind": "image", "text": "a"}}
		}
		for name, part := range bad {
			m := c.msg("count a b")
			m["parts"] = []any{c.textPart("count a b"), part}
			r := c.call("SendMessage", map[string]any{"message": m})
			if r.Error == nil || r.Error.Code != -32602 {
				t.Errorf("%s: %s %+v, want -32602", name, r.Result, r.Error)
			}
		}
	})
}

func tasksRaw(tasks []tckTask) []json.RawMessage {
	var out []json.RawMessage
	for _, t := range tasks {
		out = append(out, t.raw)
	}
	return out
}

// TestTCK_DM_ART_001: "An Artifact object MUST contain required fields:
// artifactId and parts as defined in the Protocol Buffer definition."
// (DM-ART-001, MUST, §4.1.7.) In tasks and in artifact updates.
func TestTCK_DM_ART_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, _ := tckSample(c)
		n := 0
		for _, task := range tasks {
			for _, a := range task.Artifacts {
				n++
				if a.ArtifactID == "" || len(a.Parts) == 0 {
					t.Errorf("artifact %+v lacks artifactId or parts", a)
				}
			}
		}
		if n != 4 {
			t.Errorf("%d artifacts, want 4 (count, search, the deploy's log and deployment)", n)
		}
		evs := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway to staging")}).all()
		for _, ev := range evs {
			if a := ev.Artifact; a != nil && (a.Artifact.ArtifactID == "" || len(a.Artifact.Parts) == 0) {
				t.Errorf("artifact update %+v lacks artifactId or parts", a)
			}
		}
	})
}

// TestTCK_DM_STATUS_001: "A TaskStatus object MUST contain the state field
// with a valid TaskState value." (DM-STATUS-001, MUST, §4.1.2.) In tasks
// and in status updates.
func TestTCK_DM_STATUS_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, _ := tckSample(c)
		for _, task := range tasks {
			tckState(c, task.Status.State) // fails on a state that is not one
		}
		evs := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway to staging")}).all()
		for _, ev := range evs {
			if ev.Status != nil {
				tckState(c, ev.Status.Status.State)
			}
		}
	})
}

// tckKeysOf lists every member name in a JSON document, outside data and
// metadata, which hold the caller's and the tools' own values.
func tckKeysOf(raw json.RawMessage) []string {
	var out []string
	var walk func(v json.RawMessage)
	walk = func(v json.RawMessage) {
		var obj map[string]json.RawMessage
		var list []json.RawMessage
		switch {
		case json.Unmarshal(v, &obj) == nil:
			for k, child := range obj {
				out = append(out, k)
				if k != "data" && k != "metadata" {
					walk(child)
				}
			}
		case json.Unmarshal(v, &list) == nil:
			for _, child := range list {
				walk(child)
			}
		}
	}
	walk(raw)
	return out
}

var tckCamelCase = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)

// TestTCK_DM_SERIAL_001: "All JSON serializations of the A2A protocol data
// model MUST use camelCase naming for field names, not snake_case."
// (DM-SERIAL-001, MUST, §5.5.) 0.3 did the same.
func TestTCK_DM_SERIAL_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, events := tckSample(c)
		for _, raw := range append(events, tasksRaw(tasks)...) {
			for _, k := range tckKeysOf(raw) {
				if !tckCamelCase.MatchString(k) {
					t.Errorf("member %q is not camelCase", k)
				}
			}
		}
		card, _ := json.Marshal(c.srv.cardJSON(t))
		for _, k := range tckKeysOf(card) {
			if !tckCamelCase.MatchString(k) {
				t.Errorf("card member %q is not camelCase", k)
			}
		}
	})
}

// TestTCK_DM_SERIAL_002: "Enum values MUST be represented according to the
// ProtoJSON specification as their string names as defined in the
// Protocol Buffer definition (typically SCREAMING_SNAKE_CASE)."
// (DM-SERIAL-002, MUST, §5.5.) That is 1.0; 0.3 wrote lower-case words.
func TestTCK_DM_SERIAL_002(t *testing.T) {
	enum := map[string]*regexp.Regexp{
		a2a.Version10: regexp.MustCompile(`"(state|role)":"(TASK_STATE|ROLE)_[A-Z_]+"`),
		a2a.Version03: regexp.MustCompile(`"(state|role)":"[a-z]+(-[a-z]+)?"`),
	}
	found := regexp.MustCompile(`"(state|role)":[^,}]*`)
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		tasks, events := tckSample(c)
		for _, raw := range append(events, tasksRaw(tasks)...) {
			for _, m := range found.FindAllString(string(raw), -1) {
				if !enum[c.version].MatchString(m) {
					t.Errorf("enum %s is not in %s form", m, c.version)
				}
			}
		}
	})
}

// TestTCK_DM_SERIAL_003: "Timestamps MUST be represented as ISO 8601
// formatted strings in UTC timezone. Timestamps MUST NOT include timezone
// offsets other than 'Z'." (DM-SERIAL-003, MUST, §5.6.1.) Even when the
// server's clock is set to another zone.
func TestTCK_DM_SERIAL_003(t *testing.T) {
	lisbon := time.FixedZone("UTC+1", 3600)
	opts := func() *a2a.Options {
		return &a2a.Options{Now: func() time.Time { return time.Now().In(lisbon) }}
	}
	stamp := regexp.MustCompile(`"timestamp":"([^"]*)"`)
	tckBoth(t, opts, func(t *testing.T, c *tckClient) {
		tasks, events := tckSample(c)
		n := 0
		for _, raw := range append(events, tasksRaw(tasks)...) {
			for _, m := range stamp.FindAllStringSubmatch(string(raw), -1) {
				n++
				if _, err := time.Parse(time.RFC3339Nano, m[1]); err != nil || !strings.HasSuffix(m[1], "Z") {
					t.Errorf("timestamp %q is not RFC 3339 in UTC (%v)", m[1], err)
				}
			}
		}
		if n < 10 {
			t.Errorf("found only %d timestamps", n)
		}
	})
}

// TestTCK_DM_SERIAL_004: "Fields marked with REQUIRED field_behavior
// annotation MUST be present and set in valid messages. Arrays marked as
// required MUST contain at least one element." (DM-SERIAL-004, MUST,
// §5.7.) For the stream events here; DM-TASK-001, DM-MSG-001 and
// DM-ART-001 check tasks, messages and artifacts.
func TestTCK_DM_SERIAL_004(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		evs := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway to staging")}).all()
		for _, ev := range evs {
			switch {
			case ev.Status != nil:
				if ev.Status.TaskID == "" || ev.Status.ContextID == "" || ev.Status.Status.State == "" {
					t.Errorf("status update %+v lacks taskId, contextId or status.state", ev.Status)
				}
			case ev.Artifact != nil:
				if ev.Artifact.TaskID == "" || ev.Artifact.ContextID == "" || ev.Artifact.Artifact.ArtifactID == "" || len(ev.Artifact.Artifact.Parts) == 0 {
					t.Errorf("artifact update %+v lacks taskId, contextId or a whole artifact", ev.Artifact)
				}
			}
		}
	})
}

// TestTCK_DM_SERIAL_005: "Implementations SHOULD ignore unrecognized
// fields in messages, allowing for forward compatibility as the protocol
// evolves." (DM-SERIAL-005, SHOULD, §5.7.)
func TestTCK_DM_SERIAL_005(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		m := c.msg("count a b c")
		m["tckUnknownField"] = "should-be-ignored"
		part := c.textPart("count a b c")
		part["tckUnknownPartField"] = true
		m["parts"] = []any{part}
		params := map[string]any{"message": m, "tckExtraParam": 42,
			"configuration": map[string]any{"historyLength": 1, "tckFutureOption": []int{1}}}
		task := c.expect(c.send(params), a2a.StateCompleted)
		if len(task.History) != 1 {
			t.Errorf("historyLength 1 was not heeded: %d messages", len(task.History))
		}
		body := `{"jsonrpc":"2.0","id":1,"method":"` + c.method("GetTask") + `","params":{"id":"` + task.ID + `","tckExtra":1},"tckEnvelopeExtra":true}`
		if r := tckRaw(c, body, 200); r.Error != nil {
			t.Errorf("GetTask with unknown members: %+v", r.Error)
		}
	})
}
