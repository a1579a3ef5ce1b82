package a2a_test

// Conversations: contexts, task ids, answers and history. TCK
// tck/requirements/core_operations.py (CORE-MULTI, CORE-HIST).

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/protocols/a2a"
)

// TestTCK_CORE_MULTI_001a: "If an agent generates a new contextId, it
// MUST be included in the response (either Task or Message)."
// (CORE-MULTI-001a, MUST, §3.4.1.) The caller's message, kept in the
// history, gets it too, with the task's id.
func TestTCK_CORE_MULTI_001a(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task := c.completed()
		if task.ContextID == "" {
			t.Fatal("no contextId in the task")
		}
		if len(task.History) == 0 {
			t.Fatal("no history")
		}
		if m := task.History[0]; m.ContextID != task.ContextID || m.TaskID != task.ID {
			t.Errorf("the caller's message has contextId %q, taskId %q; want %q, %q", m.ContextID, m.TaskID, task.ContextID, task.ID)
		}
	})
}

// TestTCK_CORE_MULTI_002: "Agents MAY accept and preserve client-provided
// contextId values." (CORE-MULTI-002, MAY, §3.4.1.) This one does: a new
// task in a known context continues that conversation, and ListTasks
// finds the conversation's tasks by it.
func TestTCK_CORE_MULTI_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		first := c.completed()
		second := c.expect(c.say("search streaming", "contextId", first.ContextID), a2a.StateCompleted)
		mine := c.expect(c.say("count a b", "contextId", "tck-context-1"), a2a.StateCompleted)
		if second.ContextID != first.ContextID || second.ID == first.ID {
			t.Errorf("second task %s in context %q, want a new task in %q", second.ID, second.ContextID, first.ContextID)
		}
		if mine.ContextID != "tck-context-1" {
			t.Errorf("contextId %q, want the caller's tck-context-1", mine.ContextID)
		}
		resp, _ := tckList(c.srv.client(t, a2a.Version10), map[string]any{"contextId": first.ContextID})
		if got, want := tckIDs(resp.Tasks), []string{second.ID, first.ID}; !cmp.Equal(got, want) {
			t.Errorf("tasks in the context: %v, want %v", got, want)
		}
	})
}

// TestTCK_CORE_MULTI_003: "Agents MUST generate a unique taskId for each
// new task they create. The generated taskId MUST be included in the Task
// object." (CORE-MULTI-003, MUST, §3.4.2.)
func TestTCK_CORE_MULTI_003(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		seen := map[string]bool{}
		for range 5 {
			task := c.completed()
			if seen[task.ID] {
				t.Errorf("task id %s given twice", task.ID)
			}
			seen[task.ID] = true
		}
	})
}

// TestTCK_CORE_MULTI_004: "When a client includes a taskId in a Message
// that does not correspond to an existing task, agents MUST return
// TaskNotFoundError." (CORE-MULTI-004, MUST, §3.4.2.)
func TestTCK_CORE_MULTI_004(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		c.fail("SendMessage", map[string]any{"message": c.msg("staging", "taskId", "no-such-task")}, a2a.CodeTaskNotFound)
		c.streamError("SendStreamingMessage", map[string]any{"message": c.msg("staging", "taskId", "no-such-task")}, a2a.CodeTaskNotFound)
	})
}

// TestTCK_CORE_MULTI_005: "Agents MUST infer contextId from the task if
// only taskId is provided." (CORE-MULTI-005, MUST, §3.4.3.)
func TestTCK_CORE_MULTI_005(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task := c.waiting()
		done := c.expect(c.say("staging", "taskId", task.ID), a2a.StateCompleted)
		if done.ID != task.ID || done.ContextID != task.ContextID {
			t.Errorf("answer led to task %s in %q, want %s in %q", done.ID, done.ContextID, task.ID, task.ContextID)
		}
		answer := done.History[2]
		if tckText(answer.Parts) != "staging" || answer.ContextID != task.ContextID {
			t.Errorf("the answer in the history: %q in context %q, want %q in %q", tckText(answer.Parts), answer.ContextID, "staging", task.ContextID)
		}
	})
}

// TestTCK_CORE_MULTI_006: "Agents MUST reject messages containing
// mismatching contextId and taskId (i.e., the provided contextId is
// different from that of the referenced Task)." (CORE-MULTI-006, MUST,
// §3.4.3.) The task waits for an answer, so only the mismatch can be the
// reason; it is an invalid parameter, and the task is untouched.
func TestTCK_CORE_MULTI_006(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task := c.waiting()
		c.fail("SendMessage", map[string]any{"message": c.msg("staging", "taskId", task.ID, "contextId", "another-context")}, -32602)
		after := c.expect(c.get(task.ID), a2a.StateInputRequired)
		if len(after.History) != len(task.History) {
			t.Errorf("history grew from %d to %d messages", len(task.History), len(after.History))
		}
	})
}

// tckConversation is a finished deploy: the caller asks, the agent asks
// which environment, the caller answers, the agent deploys.
func tckConversation(c *tckClient) (tckTask, []map[string]any) {
	c.t.Helper()
	ask := c.msg("deploy api-gateway")
	task := c.expect(c.send(map[string]any{"message": ask}), a2a.StateInputRequired)
	answer := c.msg("staging", "taskId", task.ID, "contextId", task.ContextID)
	c.expect(c.send(map[string]any{"message": answer}), a2a.StateCompleted)
	return c.get(task.ID), []map[string]any{ask, answer}
}

// tckHistoryLength is GetTask with historyLength n.
func tckHistoryLength(c *tckClient, id string, n int) tckTask {
	c.t.Helper()
	return c.task(c.result("GetTask", map[string]any{"id": id, "historyLength": n}))
}

// TestTCK_CORE_HIST_001: "When historyLength is set to 0, no history
// should be returned; the history field SHOULD be omitted."
// (CORE-HIST-001, SHOULD, §3.2.4.)
func TestTCK_CORE_HIST_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task, _ := tckConversation(c)
		var members map[string]json.RawMessage
		json.Unmarshal(tckHistoryLength(c, task.ID, 0).raw, &members)
		if h, ok := members["history"]; ok {
			t.Errorf("history %s, want none", h)
		}
	})
}

// TestTCK_CORE_HIST_002: "The server MUST NOT return more messages than
// the provided historyLength value." (CORE-HIST-002, MUST, §3.2.4.) "Return
// at most this many recent messages": the last ones.
func TestTCK_CORE_HIST_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task, _ := tckConversation(c)
		all := task.History
		if len(all) < 4 {
			t.Fatalf("the conversation has %d messages, want at least 4", len(all))
		}
		for _, n := range []int{1, 2, len(all), len(all) + 5} {
			got := tckHistoryLength(c, task.ID, n).History
			want := all[max(0, len(all)-n):]
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("historyLength %d (-want +got):\n%s", n, diff)
			}
		}
	})
}

// TestTCK_CORE_HIST_003: "When historyLength is set to 0 in
// SendMessageConfiguration, no history should be returned; the history
// field SHOULD be omitted." (CORE-HIST-003, SHOULD, §3.2.4.)
func TestTCK_CORE_HIST_003(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		for _, stream := range []bool{false, true} {
			params := map[string]any{"message": c.msg("count a b"), "configuration": map[string]any{"historyLength": 0}}
			var raw json.RawMessage
			if stream {
				ev, _ := c.stream("SendStreamingMessage", params).next()
				raw = ev.Task.raw
			} else {
				raw = c.send(params).raw
			}
			var members map[string]json.RawMessage
			json.Unmarshal(raw, &members)
			if h, ok := members["history"]; ok {
				t.Errorf("streaming %v: history %s, want none", stream, h)
			}
		}
	})
}

// TestTCK_CORE_HIST_004: "Agents MAY choose to persist all Messages that
// contain important information in the Task history." (CORE-HIST-004,
// MAY, §3.2.4.) This agent keeps every message, the caller's and its own.
func TestTCK_CORE_HIST_004(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task, _ := tckConversation(c)
		var roles []string
		for _, m := range task.History {
			roles = append(roles, m.Role)
		}
		user, agent := c.role(a2a.RoleUser), c.role(a2a.RoleAgent)
		// Ask, the agent's question, the answer, "Deploying...", four
		// progress steps, "Deployed...".
		want := []string{user, agent, user, agent, agent, agent, agent, agent, agent}
		if !cmp.Equal(roles, want) {
			t.Errorf("history roles %v, want %v", roles, want)
		}
	})
}

// TestTCK_CORE_HIST_005: "Task history SHOULD contain Messages in the
// order they were exchanged during task execution (chronological
// order)." (CORE-HIST-005, SHOULD, §3.2.4.)
func TestTCK_CORE_HIST_005(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task, _ := tckConversation(c)
		var texts []string
		for _, m := range task.History {
			texts = append(texts, tckText(m.Parts))
		}
		want := []string{
			"deploy api-gateway",
			"Deploy api-gateway to which environment: staging or production?",
			"staging",
			"Deploying api-gateway to staging.",
			"build image (1/4)", "push image (2/4)", "roll out (3/4)", "health check (4/4)",
			"Deployed api-gateway to staging.",
		}
		if diff := cmp.Diff(want, texts); diff != "" {
			t.Errorf("history (-want +got):\n%s", diff)
		}
	})
}

// TestTCK_CORE_HIST_006: "When messages are persisted in task history,
// the content of each history entry SHOULD match the message that was
// originally exchanged." (CORE-HIST-006, SHOULD, §3.2.4.)
func TestTCK_CORE_HIST_006(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task, sent := tckConversation(c)
		kept := []tckMessage{task.History[0], task.History[2]}
		for i, m := range sent {
			b, _ := json.Marshal(m)
			var want tckMessage
			json.Unmarshal(b, &want)
			want.TaskID, want.ContextID = task.ID, task.ContextID // filled in by the agent
			if diff := cmp.Diff(want, kept[i]); diff != "" {
				t.Errorf("message %d as kept (-sent +kept):\n%s", i, diff)
			}
		}
	})
}
