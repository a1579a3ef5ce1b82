package a2a_test

// The JSON-RPC binding and versions: TCK tck/requirements/binding_jsonrpc.py
// (JSONRPC-*) and versioning.py (VER-*).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/a2a"
)

// tckRaw posts body as is and decodes the JSON-RPC response, which must
// come with HTTP status.
func tckRaw(c *tckClient, body string, status int) tckReply {
	c.t.Helper()
	h := c.post([]byte(body), nil)
	if h.status != status {
		c.t.Fatalf("%s: HTTP %d, want %d: %s", body, h.status, status, h.body)
	}
	return tckDecodeReply(c.t, h.body)
}

// TestTCK_JSONRPC_FMT_001: "All JSON-RPC requests MUST follow the standard
// JSON-RPC 2.0 format with jsonrpc, id, method, and params fields."
// (JSONRPC-FMT-001, MUST, §9.1, binding_jsonrpc.py.) The answer echoes the
// id exactly, and a request that is not JSON-RPC 2.0 is refused as the
// JSON-RPC specification says: -32700 for bytes that are not JSON, -32600
// for JSON that is not a request, with id null when none could be read.
func TestTCK_JSONRPC_FMT_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		getTask := c.method("GetTask")
		for _, id := range []string{`"req-1"`, `7`, `"0"`} {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{"id":"none"}}`, id, getTask)
			if r := tckRaw(c, body, http.StatusOK); string(r.ID) != id {
				t.Errorf("id %s came back as %s", id, r.ID)
			}
		}
		for _, tt := range []struct {
			name, body string
			code       int64
			id         string
		}{
			{"not JSON", `{"jsonrpc":"2.0","id":1,"method":`, -32700, "null"},
			{"not an object", `"SendMessage"`, -32600, "null"},
			{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"GetTask"}]`, -32600, "null"},
			{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"method":"GetTask","params":{}}`, -32600, "3"},
			{"no jsonrpc", `{"id":4,"method":"GetTask","params":{}}`, -32600, "4"},
			{"no method", `{"jsonrpc":"2.0","id":5,"params":{}}`, -32600, "5"},
			{"params a string", fmt.Sprintf(`{"jsonrpc":"2.0","id":6,"method":%q,"params":"x"}`, getTask), -32600, "6"},
			{"id an object", `{"jsonrpc":"2.0","id":{},"method":"GetTask"}`, -32600, "null"},
		} {
			r := tckRaw(c, tt.body, http.StatusOK)
			if r.Error == nil {
				t.Errorf("%s: result %s, want error %d", tt.name, r.Result, tt.code)
				continue
			}
			tckCheckError(t, c.version, *r.Error, tt.code)
			if string(r.ID) != tt.id {
				t.Errorf("%s: id %s, want %s", tt.name, r.ID, tt.id)
			}
		}
		// A notification (no id) is never answered.
		h := c.post([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{"id":"none"}}`, getTask)), nil)
		if h.status != http.StatusNoContent || len(h.body) != 0 {
			t.Errorf("notification: HTTP %d with %q, want 204 and nothing", h.status, h.body)
		}
	})
}

// TestTCK_JSONRPC_FMT_002: "JSON-RPC requests and responses MUST use
// Content-Type application/json." (JSONRPC-FMT-002, MUST, §9.1,
// binding_jsonrpc.py.) A request of another type is refused, before it is
// read, with 415 and ContentTypeNotSupportedError.
func TestTCK_JSONRPC_FMT_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		body := c.request(c.method("GetTask"), map[string]any{"id": "none"})
		for _, ct := range []string{"text/plain", "", "application/x-www-form-urlencoded", "application/jsonl"} {
			h := c.post(body, func(r *http.Request) { r.Header.Set("Content-Type", ct) })
			if h.status != http.StatusUnsupportedMediaType {
				t.Errorf("Content-Type %q: HTTP %d, want 415", ct, h.status)
				continue
			}
			if got := h.header.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type %q: the refusal is %q, want application/json", ct, got)
			}
			r := tckDecodeReply(t, h.body)
			if r.Error == nil || string(r.ID) != "null" {
				t.Fatalf("Content-Type %q: %s, want an error with id null", ct, h.body)
			}
			tckCheckError(t, c.version, *r.Error, a2a.CodeContentTypeNotSupported)
		}
		for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON"} {
			h := c.post(body, func(r *http.Request) { r.Header.Set("Content-Type", ct) })
			if h.status != http.StatusOK || h.header.Get("Content-Type") != "application/json" {
				t.Errorf("Content-Type %q: HTTP %d, %q; want 200 application/json", ct, h.status, h.header.Get("Content-Type"))
			}
		}
	})
}

// TestTCK_JSONRPC_SVC_001: "JSON-RPC method names MUST use PascalCase
// matching gRPC conventions (e.g., SendMessage, GetTask)."
// (JSONRPC-SVC-001, MUST, §9.1, binding_jsonrpc.py.) In 1.0; 0.3 named
// them like paths. Each revision knows its own names only, and says
// where the other's belong.
func TestTCK_JSONRPC_SVC_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		names := []string{"SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask", "SubscribeToTask",
			"CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs",
			"DeleteTaskPushNotificationConfig", "GetExtendedAgentCard"}
		for _, name := range names {
			own, other := name, tckV03Methods[name]
			if !c.v10() {
				own, other = other, name
			}
			if own != "" {
				// Empty params: a known method complains about them, not
				// about its name (a stream says so in its one event).
				if h := c.post(c.request(own, map[string]any{}), nil); bytes.Contains(h.body, []byte(`"code":-32601`)) {
					t.Errorf("%s: method not found: %s", own, h.body)
				}
			}
			if other == "" {
				continue
			}
			r := c.callRaw(other, map[string]any{})
			if r.Error == nil {
				t.Errorf("%s: result %s, want -32601", other, r.Result)
				continue
			}
			tckCheckError(t, c.version, *r.Error, -32601)
			if !strings.Contains(r.Error.Message, a2a.VersionHeader) {
				t.Errorf("%s: message %q does not mention %s", other, r.Error.Message, a2a.VersionHeader)
			}
		}
		for _, name := range []string{"tasks/send", "sendMessage", "send_message", ""} {
			if r := c.callRaw(name, map[string]any{}); r.Error == nil || (r.Error.Code != -32601 && name != "") {
				t.Errorf("%q: %s %+v, want -32601", name, r.Result, r.Error)
			}
		}
	})
}

// TestTCK_JSONRPC_SVC_002: "A2A service parameters MUST be transmitted
// using standard HTTP request headers for JSON-RPC binding."
// (JSONRPC-SVC-002, MUST, §9.2, binding_jsonrpc.py.) A2A-Version is read
// from its header (VER-SERVER-001 checks what it selects), and an
// A2A-Extensions header naming extensions the agent does not know is no
// reason to fail.
func TestTCK_JSONRPC_SVC_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		body := c.request(c.method("SendMessage"), map[string]any{"message": c.msg("count a b")})
		h := c.post(body, func(r *http.Request) {
			r.Header.Set("A2A-Extensions", "https://example.com/extensions/geolocation/v1,https://standards.org/extensions/citations/v1")
		})
		if r := tckDecodeReply(t, h.body); r.Error != nil {
			t.Errorf("with A2A-Extensions: %+v", r.Error)
		}
	})
}

// TestTCK_JSONRPC_ERR_001: "JSON-RPC error responses MUST use the standard
// JSON-RPC 2.0 error object structure with code, message, and optional
// data. The data field, when present, MUST be an array containing
// google.protobuf.Any messages in ProtoJSON representation."
// (JSONRPC-ERR-001, MUST, §9.5, binding_jsonrpc.py.) The array is 1.0's
// rule; 0.3 data was any value, here an object.
func TestTCK_JSONRPC_ERR_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		for _, e := range tckErrors(c) {
			if c.v10() && !bytes.HasPrefix(e.err.Data, []byte("[")) {
				t.Errorf("%s: data %s, want a list", e.name, e.err.Data)
			}
			tckCheckError(t, c.version, e.err, e.code)
		}
	})
}

// tckTriggered is an error that a request provoked.
type tckTriggered struct {
	name string
	code int64
	err  tckError
}

// tckErrors provokes every error this agent can give.
func tckErrors(c *tckClient) []tckTriggered {
	c.t.Helper()
	var out []tckTriggered
	add := func(name string, code int64, r tckReply) {
		if r.Error == nil {
			c.t.Fatalf("%s: result %s, want error %d", name, r.Result, code)
		}
		out = append(out, tckTriggered{name, code, *r.Error})
	}
	done := c.completed()
	add("parse error", -32700, tckRaw(c, "{", http.StatusOK))
	add("invalid request", -32600, tckRaw(c, `{"jsonrpc":"2.0","id":1}`, http.StatusOK))
	add("method not found", -32601, c.callRaw("NoSuchMethod", map[string]any{}))
	add("invalid params", -32602, c.call("GetTask", []any{}))
	add("task not found", a2a.CodeTaskNotFound, c.call("GetTask", map[string]any{"id": "no-such-task"}))
	add("task not cancelable", a2a.CodeTaskNotCancelable, c.call("CancelTask", map[string]any{"id": done.ID}))
	add("push not supported", a2a.CodePushNotSupported, c.call("GetTaskPushNotificationConfig", map[string]any{"taskId": done.ID, "id": "x"}))
	add("unsupported operation", a2a.CodeUnsupportedOperation, c.call("SendMessage", map[string]any{"message": c.msg("staging", "taskId", done.ID)}))
	m := c.msg("count")
	m["parts"] = []any{c.filePart("dGNr", "image/png")}
	add("content type not supported", a2a.CodeContentTypeNotSupported, c.call("SendMessage", map[string]any{"message": m}))
	if c.v10() {
		old := *c
		old.header = "9.9"
		add("version not supported", a2a.CodeVersionNotSupported, old.call("GetTask", map[string]any{"id": "none"}))
	}
	return out
}

// TestTCK_JSONRPC_ERR_002: "A2A-specific errors MUST use error codes in
// the range -32001 to -32099 as defined in the error code mappings."
// (JSONRPC-ERR-002, MUST, §9.5, binding_jsonrpc.py.) And the others are
// JSON-RPC's own, -32700 to -32600.
func TestTCK_JSONRPC_ERR_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		for _, e := range tckErrors(c) {
			_, a2aError := tckReasons[e.code]
			if a2aError && (e.err.Code < -32099 || e.err.Code > -32001) {
				t.Errorf("%s: code %d is outside -32099..-32001", e.name, e.err.Code)
			}
			if !a2aError && (e.err.Code < -32700 || e.err.Code > -32600) {
				t.Errorf("%s: code %d is outside -32700..-32600", e.name, e.err.Code)
			}
		}
	})
}

// TestTCK_JSONRPC_ERR_003: "For A2A-specific errors, implementations MUST
// include a google.rpc.ErrorInfo message in the data array with reason
// (UPPER_SNAKE_CASE), domain (a2a-protocol.org), and optional metadata."
// (JSONRPC-ERR-003, MUST, §9.5, binding_jsonrpc.py.) A 1.0 rule.
func TestTCK_JSONRPC_ERR_003(t *testing.T) {
	c := tckStart(t, nil).client(t, a2a.Version10)
	for _, e := range tckErrors(c) {
		info := tckFindErrorInfo(t, e.err)
		want, a2aError := tckReasons[e.code]
		if !a2aError {
			continue
		}
		if info == nil || info.Reason != want || info.Domain != "a2a-protocol.org" {
			t.Errorf("%s: ErrorInfo %+v, want reason %s, domain a2a-protocol.org", e.name, info, want)
		}
	}
	e := c.fail("GetTask", map[string]any{"id": "no-such-task"}, a2a.CodeTaskNotFound)
	var data []map[string]any
	json.Unmarshal(e.Data, &data)
	want := []map[string]any{{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND",
		"domain": "a2a-protocol.org", "metadata": map[string]any{"taskId": "no-such-task"}}}
	if fmt.Sprint(data) != fmt.Sprint(want) {
		t.Errorf("data %v, want %v", data, want)
	}
}

// TestTCK_JSONRPC_SSE_001: "JSON-RPC streaming responses MUST use
// Server-Sent Events with Content-Type text/event-stream. Each SSE data
// line contains a JSON-RPC response wrapping a StreamResponse object."
// (JSONRPC-SSE-001, MUST, §9.4.2, binding_jsonrpc.py.) Every event
// answers the one request, by its id. (c.stream checks the Content-Type;
// next checks each event's data line and id; readEvent the result.)
func TestTCK_JSONRPC_SSE_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		evs := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway to staging")}).all()
		if len(evs) < 10 {
			t.Fatalf("%d events, want the whole deploy", len(evs))
		}
		for i, ev := range evs {
			if ev.reply.Error != nil || (ev.Task == nil && ev.Status == nil && ev.Artifact == nil) {
				t.Errorf("event %d holds no StreamResponse: %s", i, ev.reply.Result)
			}
		}
	})
}

// TestTCK_JSONRPC_SSE_002: "All A2A-specific error types MUST be mapped to
// their specified JSON-RPC error codes: TaskNotFoundError=-32001,
// TaskNotCancelableError=-32002, PushNotificationNotSupportedError=-32003,
// UnsupportedOperationError=-32004, ContentTypeNotSupportedError=-32005,
// ..., VersionNotSupportedError=-32009." (JSONRPC-SSE-002, MUST, §5.4,
// binding_jsonrpc.py.) tckErrors provokes each with its cause, and
// checks that the code is the one the cause calls for.
func TestTCK_JSONRPC_SSE_002(t *testing.T) {
	want := map[string]int64{
		"task not found": -32001, "task not cancelable": -32002, "push not supported": -32003,
		"unsupported operation": -32004, "content type not supported": -32005, "version not supported": -32009,
	}
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		seen := 0
		for _, e := range tckErrors(c) {
			if code, ok := want[e.name]; ok {
				seen++
				if e.err.Code != code {
					t.Errorf("%s: code %d, want %d", e.name, e.err.Code, code)
				}
			}
		}
		if n := map[bool]int{true: 6, false: 5}[c.v10()]; seen != n {
			t.Errorf("provoked %d A2A errors, want %d", seen, n)
		}
	})
}

// TestTCK_VER_SERVER_001: "Agents MUST process requests using the
// semantics of the requested A2A-Version (matching Major.Minor)."
// (VER-SERVER-001, MUST, §3.6.2, versioning.py.) 1.0 wraps SendMessage's
// result and spells states TASK_STATE_*; 0.3 names kinds. §3.6.1 adds:
// "Clients MAY provide the A2A-Version as a request parameter instead of
// a header."
func TestTCK_VER_SERVER_001(t *testing.T) {
	ts := tckStart(t, nil)
	shapes := map[string]string{
		a2a.Version10: `{"task":{"id":`,
		a2a.Version03: `{"kind":"task",`,
	}
	for _, v := range tckRevisions {
		c := ts.client(t, v)
		c.send(map[string]any{"message": c.msg("count a b")}) // checks the shape
		raw := c.result("SendMessage", map[string]any{"message": c.msg("count a b")})
		if !bytes.HasPrefix(raw, []byte(shapes[v])) {
			t.Errorf("%s: result begins %.30s, want %s", v, raw, shapes[v])
		}
	}
	t.Run("query parameter", func(t *testing.T) {
		c := ts.client(t, a2a.Version10)
		c.header = ""
		c.url += "?" + a2a.VersionHeader + "=1.0"
		c.send(map[string]any{"message": c.msg("count a b")})
	})
}

// TestTCK_VER_SERVER_002: "If the version is not supported by the
// interface, agents MUST return a VersionNotSupportedError."
// (VER-SERVER-002, MUST, §3.6.2, versioning.py.) Always in 1.0's form,
// the only one that has the error, with the versions that are supported;
// and before any stream begins.
func TestTCK_VER_SERVER_002(t *testing.T) {
	ts := tckStart(t, nil)
	for _, bad := range []string{"99.0", "2.0", "0.2", "1", "0.3x", "latest"} {
		c := ts.client(t, a2a.Version10)
		c.header = bad
		e := c.fail("SendMessage", map[string]any{"message": c.msg("count a b")}, a2a.CodeVersionNotSupported)
		info := tckFindErrorInfo(t, e)
		if info.Metadata["requestedVersion"] != bad || info.Metadata["supportedVersions"] != "1.0,0.3" {
			t.Errorf("%q: ErrorInfo metadata %v, want requestedVersion %q and supportedVersions 1.0,0.3", bad, info.Metadata, bad)
		}
		c.fail("SendStreamingMessage", map[string]any{"message": c.msg("count a b")}, a2a.CodeVersionNotSupported)
	}
	if resp, _ := tckList(ts.client(t, a2a.Version10), map[string]any{}); resp.TotalSize != 0 {
		t.Errorf("refused requests made %d tasks", resp.TotalSize)
	}
}

// TestTCK_VER_SERVER_003: "Agents MUST interpret an empty A2A-Version
// value as version 0.3." (VER-SERVER-003, MUST, §3.6.2, versioning.py.)
// Absent, or present and empty.
func TestTCK_VER_SERVER_003(t *testing.T) {
	ts := tckStart(t, nil)
	c := ts.client(t, a2a.Version03)
	c.completed()
	h := c.post(c.request("message/send", map[string]any{"message": c.msg("count a b")}), func(r *http.Request) {
		r.Header[a2a.VersionHeader] = []string{""}
	})
	if !bytes.Contains(h.body, []byte(`"result":{"kind":"task"`)) {
		t.Errorf("with an empty header: %s, want a 0.3 task", h.body)
	}
}

// TestTCK_VER_CLIENT_002: "Patch version numbers MUST NOT be considered
// when clients and servers negotiate protocol versions. Patch version
// numbers SHOULD NOT be used in requests, responses and Agent Cards."
// (VER-CLIENT-002, MUST, §3.6, versioning.py.) The server takes "1.0.0" as
// 1.0, and its card's interfaces name Major.Minor only.
func TestTCK_VER_CLIENT_002(t *testing.T) {
	ts := tckStart(t, nil)
	for header, v := range map[string]string{"1.0.0": a2a.Version10, "1.0.7": a2a.Version10, "0.3.0": a2a.Version03, " 1.0 ": a2a.Version10} {
		c := ts.client(t, v)
		c.header = header
		c.completed()
	}
	for _, iface := range tckInterfaces(t, ts) {
		if strings.Count(iface.ProtocolVersion, ".") != 1 {
			t.Errorf("interface protocolVersion %q, want Major.Minor", iface.ProtocolVersion)
		}
	}
}
