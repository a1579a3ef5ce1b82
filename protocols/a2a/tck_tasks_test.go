package a2a_test

// Sending messages, getting, listing and canceling tasks: TCK
// tck/requirements/core_operations.py (CORE-SEND, CORE-GET, CORE-LIST,
// CORE-CANCEL, CORE-EXECUTION-MODE, CORE-ERR).

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestTCK_CORE_SEND_001: "The SendMessage operation MUST return
// immediately with either task information or a response message."
// (CORE-SEND-001, MUST, §3.1.1.) This agent always answers with a task:
// "count" completes it with a data artifact.
func TestTCK_CORE_SEND_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task := c.completed()
		if task.ContextID == "" {
			t.Error("the task has no contextId")
		}
		if len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 1 {
			t.Fatalf("artifacts %+v, want one with one part", task.Artifacts)
		}
		p := task.Artifacts[0].Parts[0]
		var counts struct{ Words, Chars int }
		if err := json.Unmarshal(p.Data, &counts); err != nil || counts.Words != 3 || counts.Chars != 13 {
			t.Errorf("artifact data %s, want {words: 3, chars: 13} for %q", p.Data, "read the wire")
		}
	})
}

// TestTCK_CORE_SEND_002: "Messages sent to Tasks that are in a terminal
// state (completed, canceled, rejected) MUST return
// UnsupportedOperationError." (CORE-SEND-002, MUST, §3.1.1.) And the task
// does not change: a terminal task is immutable.
func TestTCK_CORE_SEND_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		for _, task := range []tckTask{
			c.completed(),
			c.canceled(),
			c.expect(c.say("dance"), a2a.StateRejected),
			c.expect(c.say("weather Oslo"), a2a.StateFailed),
		} {
			e := c.fail("SendMessage", map[string]any{"message": c.msg("staging", "taskId", task.ID)}, a2a.CodeUnsupportedOperation)
			if c.v10() {
				info := tckFindErrorInfo(t, e)
				if info.Metadata["taskId"] != task.ID || info.Metadata["state"] != task.Status.State {
					t.Errorf("ErrorInfo metadata %v, want taskId %s and state %s", info.Metadata, task.ID, task.Status.State)
				}
			}
			c.streamError("SendStreamingMessage", map[string]any{"message": c.msg("staging", "taskId", task.ID)}, a2a.CodeUnsupportedOperation)
			if after := c.get(task.ID); after.Status.State != task.Status.State || len(after.History) != len(task.History) {
				t.Errorf("task %s changed: %s, %d messages; was %s, %d", task.ID, after.Status.State, len(after.History), task.Status.State, len(task.History))
			}
		}
	})
}

// TestTCK_CORE_SEND_003: "A Media Type provided in the request's message
// parts that is not supported by the agent MUST result in
// ContentTypeNotSupportedError." (CORE-SEND-003, MUST, §3.1.1.) The agent
// reads text/* and application/json, and writes the same, so a caller
// that accepts neither gets the error too.
func TestTCK_CORE_SEND_003(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		m := c.msg("count this")
		m["parts"] = []any{c.filePart("dGNr", "application/x-unsupported-tck-type")}
		e := c.fail("SendMessage", map[string]any{"message": m}, a2a.CodeContentTypeNotSupported)
		if !strings.Contains(e.Message, "application/x-unsupported-tck-type") {
			t.Errorf("message %q does not name the media type", e.Message)
		}
		m["parts"] = []any{c.textPart("count this"), c.filePart("dGNr", "text/plain")}
		c.send(map[string]any{"message": m})

		c.fail("SendMessage", map[string]any{"message": c.msg("count this"),
			"configuration": map[string]any{"acceptedOutputModes": []string{"image/png"}}}, a2a.CodeContentTypeNotSupported)
		c.send(map[string]any{"message": c.msg("count this"),
			"configuration": map[string]any{"acceptedOutputModes": []string{"image/png", "application/*"}}})
	})
}

// TestTCK_CORE_GET_001: "GetTask retrieves the current state of a
// previously initiated task including status, artifacts, and optionally
// history." (CORE-GET-001, MUST, §3.1.3.)
func TestTCK_CORE_GET_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		sent := c.completed()
		got := c.get(sent.ID)
		opts := cmp.AllowUnexported(tckTask{})
		sent.raw, got.raw = nil, nil
		if diff := cmp.Diff(sent, got, opts); diff != "" {
			t.Errorf("GetTask differs from what SendMessage returned (-sent +got):\n%s", diff)
		}
		waiting := c.waiting()
		c.result("CancelTask", map[string]any{"id": waiting.ID})
		c.expect(c.get(waiting.ID), a2a.StateCanceled)
	})
}

// TestTCK_CORE_GET_002: "GetTask MUST return TaskNotFoundError when the
// task ID does not exist or is not accessible." (CORE-GET-002, MUST,
// §3.1.3.)
func TestTCK_CORE_GET_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		e := c.fail("GetTask", map[string]any{"id": "no-such-task"}, a2a.CodeTaskNotFound)
		if c.v10() {
			if info := tckFindErrorInfo(t, e); info.Metadata["taskId"] != "no-such-task" {
				t.Errorf("ErrorInfo metadata %v, want taskId no-such-task", info.Metadata)
			}
		} else if string(e.Data) != `{"taskId":"no-such-task"}` {
			t.Errorf("0.3 data %s, want the task id", e.Data)
		}
	})
}

// tckList is ListTasks (1.0 only), returning the response as sent.
func tckList(c *tckClient, params map[string]any) (a2a.ListTasksResponse, map[string]json.RawMessage) {
	c.t.Helper()
	raw := c.result("ListTasks", params)
	var resp a2a.ListTasksResponse
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &resp); err != nil {
		c.t.Fatalf("ListTasks result: %v: %s", err, raw)
	}
	json.Unmarshal(raw, &members)
	return resp, members
}

func tckIDs(ts []a2a.Task) []string {
	var ids []string
	for _, t := range ts {
		ids = append(ids, t.ID)
	}
	return ids
}

// TestTCK_CORE_LIST_001: "The ListTasks operation MUST return only tasks
// visible to the authenticated client." (CORE-LIST-001, MUST, §3.1.4.)
// This agent's authorization model: a caller with any valid token sees
// every task, and a caller without one sees nothing.
func TestTCK_CORE_LIST_001(t *testing.T) {
	tokens, err := tools.ParseTokens([]string{"reader", "admin:deploy:production"})
	if err != nil {
		t.Fatal(err)
	}
	ts := tckStart(t, &a2a.Options{Tokens: tokens})
	c := ts.client(t, a2a.Version10)
	c.token = "reader"
	task := c.completed()
	resp, _ := tckList(c, map[string]any{})
	if ids := tckIDs(resp.Tasks); len(ids) != 1 || ids[0] != task.ID {
		t.Errorf("tasks %v, want [%s]", ids, task.ID)
	}
	c.token = ""
	if h := c.post(c.request("ListTasks", map[string]any{}), nil); h.status != 401 || strings.Contains(string(h.body), task.ID) {
		t.Errorf("ListTasks without a token: HTTP %d %s, want 401 and no task", h.status, h.body)
	}
}

// TestTCK_CORE_LIST_002: "ListTasks MUST use cursor-based pagination via
// pageToken/nextPageToken." (CORE-LIST-002, MUST, §3.1.4.) ListTasks is
// new in 1.0; 0.3 has no tasks/list.
func TestTCK_CORE_LIST_002(t *testing.T) {
	ts := tckStart(t, nil)
	c := ts.client(t, a2a.Version10)
	for range 3 {
		c.completed()
	}
	two := 2
	first, _ := tckList(c, map[string]any{"pageSize": two})
	if len(first.Tasks) != 2 || first.NextPageToken == "" || first.TotalSize != 3 {
		t.Fatalf("first page: %d tasks, nextPageToken %q, totalSize %d; want 2, a token, 3", len(first.Tasks), first.NextPageToken, first.TotalSize)
	}
	second, _ := tckList(c, map[string]any{"pageSize": two, "pageToken": first.NextPageToken})
	if len(second.Tasks) != 1 || second.NextPageToken != "" {
		t.Fatalf("second page: %d tasks, nextPageToken %q; want 1 and none", len(second.Tasks), second.NextPageToken)
	}
	all, _ := tckList(c, map[string]any{})
	if got, want := append(tckIDs(first.Tasks), tckIDs(second.Tasks)...), tckIDs(all.Tasks); !cmp.Equal(got, want) {
		t.Errorf("pages hold %v, one page %v", got, want)
	}
	c.fail("ListTasks", map[string]any{"pageToken": "not-a-token"}, -32602)
	c.fail("ListTasks", map[string]any{"pageSize": 0}, -32602)

	if r := ts.client(t, a2a.Version03).callRaw("tasks/list", map[string]any{}); r.Error == nil || r.Error.Code != -32601 {
		t.Errorf("0.3 tasks/list: %s %+v, want -32601", r.Result, r.Error)
	}
}

// TestTCK_CORE_LIST_003: "Implementations MUST return tasks sorted by
// their status timestamp in descending order (most recently updated
// first)." (CORE-LIST-003, MUST, §3.1.4.) The clock is one that ticks a
// second at each reading, so that no two changes happen at once.
func TestTCK_CORE_LIST_003(t *testing.T) {
	var ticks atomic.Int64
	start := time.Date(2026, 3, 12, 9, 0, 0, 0, time.UTC)
	ts := tckStart(t, &a2a.Options{Now: func() time.Time { return start.Add(time.Duration(ticks.Add(1)) * time.Second) }})
	c := ts.client(t, a2a.Version10)
	a, b, d := c.waiting(), c.waiting(), c.completed()
	order := func() []string {
		resp, _ := tckList(c, map[string]any{})
		for i := 1; i < len(resp.Tasks); i++ {
			if resp.Tasks[i].Status.Timestamp.After(*resp.Tasks[i-1].Status.Timestamp) {
				t.Errorf("task %d is newer than task %d: %v", i, i-1, tckIDs(resp.Tasks))
			}
		}
		return tckIDs(resp.Tasks)
	}
	if got, want := order(), []string{d.ID, b.ID, a.ID}; !cmp.Equal(got, want) {
		t.Errorf("order %v, want newest first %v", got, want)
	}
	c.result("CancelTask", map[string]any{"id": a.ID})
	if got, want := order(), []string{a.ID, d.ID, b.ID}; !cmp.Equal(got, want) {
		t.Errorf("after canceling the oldest: order %v, want it first: %v", got, want)
	}
}

// TestTCK_CORE_LIST_004: "The nextPageToken field MUST always be present
// in the response. When there are no more results, it MUST be set to an
// empty string." (CORE-LIST-004, MUST, §3.1.4.)
func TestTCK_CORE_LIST_004(t *testing.T) {
	c := tckStart(t, nil).client(t, a2a.Version10)
	for _, tasks := range []int{0, 1} {
		if tasks > 0 {
			c.completed()
		}
		_, members := tckList(c, map[string]any{})
		if string(members["nextPageToken"]) != `""` {
			t.Errorf("with %d tasks: nextPageToken %s, want \"\"", tasks, members["nextPageToken"])
		}
		if string(members["tasks"]) == "null" || members["tasks"] == nil {
			t.Errorf("with %d tasks: tasks %s, want a list", tasks, members["tasks"])
		}
	}
}

// TestTCK_CORE_LIST_005: "When includeArtifacts is false (the default), the
// artifacts field MUST be omitted entirely from each Task object in the
// response." (CORE-LIST-005, MUST, §3.1.4.)
func TestTCK_CORE_LIST_005(t *testing.T) {
	c := tckStart(t, nil).client(t, a2a.Version10)
	c.completed()
	for _, tt := range []struct {
		params map[string]any
		want   bool
	}{
		{map[string]any{}, false},
		{map[string]any{"includeArtifacts": false}, false},
		{map[string]any{"includeArtifacts": true}, true},
	} {
		_, members := tckList(c, tt.params)
		var tasks []map[string]json.RawMessage
		json.Unmarshal(members["tasks"], &tasks)
		if len(tasks) != 1 {
			t.Fatalf("%v: %d tasks, want 1", tt.params, len(tasks))
		}
		if _, has := tasks[0]["artifacts"]; has != tt.want {
			t.Errorf("%v: artifacts present %v, want %v", tt.params, has, tt.want)
		}
	}
}

// TestTCK_CORE_CANCEL_001: "The CancelTask operation attempts to cancel
// the specified task and returns its updated state." (CORE-CANCEL-001,
// MUST, §3.1.5.) Both a task that waits for the caller and one that is
// working: a deploy whose steps take an hour, canceled in the first.
func TestTCK_CORE_CANCEL_001(t *testing.T) {
	slow := func() *a2a.Options {
		return &a2a.Options{Tools: tools.New(&tools.Options{DeployStep: time.Hour})}
	}
	tckBoth(t, slow, func(t *testing.T, c *tckClient) {
		waiting := c.waiting()
		got := c.task(c.result("CancelTask", map[string]any{"id": waiting.ID}))
		c.expect(got, a2a.StateCanceled)
		if got.ID != waiting.ID || got.Status.Timestamp == "" {
			t.Errorf("canceled task %s at %q, want %s with a timestamp", got.ID, got.Status.Timestamp, waiting.ID)
		}
		c.expect(c.get(waiting.ID), a2a.StateCanceled)

		deploying := c.waiting()
		c.expect(c.send(map[string]any{"message": c.msg("staging", "taskId", deploying.ID), "configuration": c.nonBlocking()}), a2a.StateWorking)
		c.expect(c.task(c.result("CancelTask", map[string]any{"id": deploying.ID})), a2a.StateCanceled)
		c.expect(c.get(deploying.ID), a2a.StateCanceled)
	})
}

// TestTCK_CORE_CANCEL_002: "CancelTask MUST return TaskNotCancelableError
// when the task is not in a cancelable state (already completed, failed,
// or canceled)." (CORE-CANCEL-002, MUST, §3.1.5.)
func TestTCK_CORE_CANCEL_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		for _, task := range []tckTask{
			c.completed(),
			c.canceled(),
			c.expect(c.say("weather Oslo"), a2a.StateFailed),
			c.expect(c.say("dance"), a2a.StateRejected),
		} {
			e := c.fail("CancelTask", map[string]any{"id": task.ID}, a2a.CodeTaskNotCancelable)
			if !strings.Contains(e.Message, task.ID) {
				t.Errorf("message %q does not name the task", e.Message)
			}
			c.expect(c.get(task.ID), tckState(c, task.Status.State))
		}
	})
}

// tckState turns a state as the client's revision spells it back into
// the 1.0 name.
func tckState(c *tckClient, s string) a2a.TaskState {
	for _, st := range []a2a.TaskState{a2a.StateSubmitted, a2a.StateWorking, a2a.StateInputRequired, a2a.StateAuthRequired,
		a2a.StateCompleted, a2a.StateFailed, a2a.StateCanceled, a2a.StateRejected} {
		if c.state(st) == s {
			return st
		}
	}
	c.t.Fatalf("%q is not a %s task state", s, c.version)
	return ""
}

// TestTCK_CORE_CANCEL_003: "CancelTask MUST return TaskNotFoundError when
// the task ID does not exist or is not accessible." (CORE-CANCEL-003,
// MUST, §3.1.5.)
func TestTCK_CORE_CANCEL_003(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		c.fail("CancelTask", map[string]any{"id": "no-such-task"}, a2a.CodeTaskNotFound)
	})
}

// TestTCK_CORE_EXECUTION_MODE_001: "When return_immediately is false or
// unset, the operation MUST wait until the task reaches a terminal state
// ... or an interrupted state (input_required, auth_required) before
// returning." (CORE-EXECUTION-MODE-001, MUST, §3.2.2.) "The response MUST
// include the latest task state with all artifacts": a whole deploy log.
func TestTCK_CORE_EXECUTION_MODE_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		waitOn := []map[string]any{nil, {"returnImmediately": false}}
		if !c.v10() {
			waitOn = []map[string]any{nil, {"blocking": true}}
		}
		for _, config := range waitOn {
			params := map[string]any{"message": c.msg("deploy api-gateway")}
			if config != nil {
				params["configuration"] = config
			}
			c.expect(c.send(params), a2a.StateInputRequired)
		}
		done := c.expect(c.say("deploy api-gateway to staging"), a2a.StateCompleted)
		var names []string
		for _, a := range done.Artifacts {
			names = append(names, a.Name)
		}
		if !cmp.Equal(names, []string{"deploy log", "deployment"}) {
			t.Fatalf("artifacts %v, want the deploy log and the deployment", names)
		}
		want := "build image: done\npush image: done\nroll out: done\nhealth check: done\ndeployed\n"
		if got := tckText(done.Artifacts[0].Parts); got != want {
			t.Errorf("deploy log %q, want %q", got, want)
		}
	})
}

// TestTCK_CORE_EXECUTION_MODE_002: "When return_immediately is true, the
// operation MUST return immediately after creating the task, even if
// processing is still in progress." (CORE-EXECUTION-MODE-002, MUST,
// §3.2.2.) The deploy's steps take an hour here, so only an answer that
// does not wait can come back.
func TestTCK_CORE_EXECUTION_MODE_002(t *testing.T) {
	slow := func() *a2a.Options {
		return &a2a.Options{Tools: tools.New(&tools.Options{DeployStep: time.Hour})}
	}
	tckBoth(t, slow, func(t *testing.T, c *tckClient) {
		task := c.send(map[string]any{"message": c.msg("deploy api-gateway to staging"), "configuration": c.nonBlocking()})
		c.expect(task, a2a.StateSubmitted)
		if st := tckState(c, c.get(task.ID).Status.State); st.Terminal() {
			t.Errorf("the hour-long deploy is already %s", st)
		}
	})
}

// TestTCK_CORE_ERR_001: "Servers MUST return appropriate errors and
// SHOULD provide actionable information to help clients resolve issues."
// (CORE-ERR-001, MUST, §3.3.2.) Actionable: the message names what was
// wrong and what to do instead.
func TestTCK_CORE_ERR_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		e := tckDecodeReply(t, c.post(c.request("NonExistentMethod", map[string]any{}), nil).body).Error
		if e == nil {
			t.Fatal("no error for an unknown method")
		}
		tckCheckError(t, c.version, *e, -32601)
		if !strings.Contains(e.Message, "NonExistentMethod") {
			t.Errorf("message %q does not name the method", e.Message)
		}
		other := map[bool]string{true: "message/send", false: "SendMessage"}[c.v10()]
		e = tckDecodeReply(t, c.post(c.request(other, map[string]any{}), nil).body).Error
		if e == nil || e.Code != -32601 || !strings.Contains(e.Message, a2a.VersionHeader) {
			t.Errorf("the other revision's method name: %+v, want -32601 that says to mind %s", e, a2a.VersionHeader)
		}
		m := c.msg("count a b")
		delete(m, "messageId")
		if e := c.fail("SendMessage", map[string]any{"message": m}, -32602); !strings.Contains(e.Message, "messageId") {
			t.Errorf("message %q does not name messageId", e.Message)
		}
	})
}

// TestTCK_CORE_ERR_002: "Servers MUST validate all input parameters
// before processing." (CORE-ERR-002, MUST, §3.3.2.) Each bad request gets
// -32602, and none of them makes a task.
func TestTCK_CORE_ERR_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		msgWith := func(kv map[string]any) map[string]any {
			m := c.msg("count a b")
			for k, v := range kv {
				if v == nil {
					delete(m, k)
				} else {
					m[k] = v
				}
			}
			return m
		}
		text, data := c.textPart("x"), map[string]any{"kind": "data", "data": map[string]any{"a": 1}}
		if c.v10() {
			data = map[string]any{"data": map[string]any{"a": 1}}
		}
		bad := map[string]any{
			"no params":          nil,
			"params not object":  []any{1},
			"no message":         map[string]any{},
			"message not object": map[string]any{"message": "count a b"},
			"no messageId":       map[string]any{"message": msgWith(map[string]any{"messageId": nil})},
			"agent role":         map[string]any{"message": msgWith(map[string]any{"role": c.role(a2a.RoleAgent)})},
			"no parts":           map[string]any{"message": msgWith(map[string]any{"parts": []any{}})},
			"parts not list":     map[string]any{"message": msgWith(map[string]any{"parts": text})},
			"bad historyLength":  map[string]any{"message": c.msg("count a b"), "configuration": map[string]any{"historyLength": "two"}},
			"mixed parts, bad":   map[string]any{"message": msgWith(map[string]any{"parts": []any{text, data, map[string]any{}}})},
		}
		if c.v10() {
			bad["0.3 role"] = map[string]any{"message": msgWith(map[string]any{"role": "user"})}
			bad["raw not base64"] = map[string]any{"message": msgWith(map[string]any{"parts": []any{map[string]any{"raw": "!!", "mediaType": "text/plain"}}})}
		} else {
			bad["1.0 role"] = map[string]any{"message": msgWith(map[string]any{"role": "ROLE_USER"})}
			bad["1.0 part"] = map[string]any{"message": msgWith(map[string]any{"parts": []any{map[string]any{"text": "x"}}})}
			bad["bytes not base64"] = map[string]any{"message": msgWith(map[string]any{"parts": []any{c.filePart("!!", "text/plain")}})}
		}
		for name, params := range bad {
			r := c.call("SendMessage", params)
			if r.Error == nil || r.Error.Code != -32602 {
				t.Errorf("%s: result %s, error %+v; want -32602", name, r.Result, r.Error)
				continue
			}
			tckCheckError(t, c.version, *r.Error, -32602)
		}
		// The server speaks both revisions; a 1.0 client sees every task.
		lister := c.srv.client(t, a2a.Version10)
		if resp, _ := tckList(lister, map[string]any{}); resp.TotalSize != 0 {
			t.Errorf("bad requests made %d tasks", resp.TotalSize)
		}
	})
}
