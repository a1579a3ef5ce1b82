package a2a

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The tests here hold the server to what the store promises when callers
// flood it or walk away: it heals, and refuses only in A2A's own terms.
// They call ServeHTTP directly, so that they can run in a synctest bubble.

// answer is a JSON-RPC response as these tests read it: the task's id
// and state, or the error.
type answer struct {
	Result struct {
		answeredTask
		Task *answeredTask `json:"task"` // 1.0 wraps a task that SendMessage returns
	} `json:"result"`
	Error *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

type answeredTask struct {
	ID     string `json:"id"`
	Status struct {
		State string `json:"state"`
	} `json:"status"`
}

// post sends one JSON-RPC request in a revision (an A2A-Version header
// for 1.0, none for 0.3) and reads the answer.
func post(t *testing.T, s *Server, version, body string) answer {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, Endpoint, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if version == Version10 {
		r.Header.Set("A2A-Version", Version10)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var a answer
	if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
		t.Fatalf("answer %q: %v", w.Body, err)
	}
	if a.Result.Task != nil {
		a.Result.answeredTask = *a.Result.Task
	}
	return a
}

// sendText is a SendMessage (message/send in 0.3) of one text part; a
// non-empty taskID answers that task, and immediately asks for the task
// at once instead of when it stops.
func sendText(version string, n int, text, taskID string, immediately bool) string {
	task := ""
	if taskID != "" {
		task = fmt.Sprintf(`,"taskId":%q`, taskID)
	}
	config := ""
	if immediately {
		config = `,"configuration":{"returnImmediately":true}`
		if version != Version10 {
			config = `,"configuration":{"blocking":false}`
		}
	}
	if version == Version10 {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"SendMessage","params":{"message":{"messageId":"m%d","role":"ROLE_USER","parts":[{"text":%q}]%s}%s}}`,
			n, n, text, task, config)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"message/send","params":{"message":{"kind":"message","messageId":"m%d","role":"user","parts":[{"kind":"text","text":%q}]%s}%s}}`,
		n, n, text, task, config)
}

// TestFloodOfQuestions: MaxTasks deploys, each stopped at input-required
// because nobody says where to deploy, do not lock the agent: a new
// message still becomes a task, the newest questions can still be
// answered, and the oldest, which made room, is gone.
func TestFloodOfQuestions(t *testing.T) {
	for _, v := range []string{Version10, Version03} {
		t.Run(v, func(t *testing.T) {
			s := NewServer(&Options{Tools: tools.New(&tools.Options{DeployStep: time.Millisecond})})
			defer s.Close()
			var ids []string
			for i := range MaxTasks {
				a := post(t, s, v, sendText(v, i, "deploy api-gateway", "", false))
				if a.Error != nil {
					t.Fatalf("deploy %d: %+v", i, a.Error)
				}
				ids = append(ids, a.Result.ID)
			}
			fresh := post(t, s, v, sendText(v, MaxTasks, "count read the wire", "", false))
			if fresh.Error != nil {
				t.Fatalf("a new task after %d questions nobody answered: %d %s", MaxTasks, fresh.Error.Code, fresh.Error.Message)
			}
			if want := map[string]string{Version10: "TASK_STATE_COMPLETED", Version03: "completed"}[v]; fresh.Result.Status.State != want {
				t.Errorf("the new task is %s, want %s", fresh.Result.Status.State, want)
			}
			answered := post(t, s, v, sendText(v, MaxTasks+1, "staging", ids[MaxTasks-1], false))
			if answered.Error != nil {
				t.Errorf("answering the newest question: %d %s", answered.Error.Code, answered.Error.Message)
			}
			late := post(t, s, v, sendText(v, MaxTasks+2, "staging", ids[0], false))
			if late.Error == nil || late.Error.Code != CodeTaskNotFound {
				t.Errorf("answering the question that made room: %+v, want error %d", late.Error, CodeTaskNotFound)
			}
		})
	}
}

// TestUnansweredQuestionExpires: a task nobody answers is canceled after
// InterruptedTTL, says why, and a late answer gets UnsupportedOperation,
// as for any finished task.
func TestUnansweredQuestionExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewServer(&Options{Tools: tools.New(&tools.Options{DeployStep: time.Millisecond})})
		defer s.Close()
		asked := post(t, s, Version10, sendText(Version10, 1, "deploy api-gateway", "", false))
		if asked.Error != nil || asked.Result.Status.State != "TASK_STATE_INPUT_REQUIRED" {
			t.Fatalf("deploy: %+v %+v", asked.Result, asked.Error)
		}
		id := asked.Result.ID
		get := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":%q}}`, id)

		time.Sleep(InterruptedTTL - time.Second)
		if got := post(t, s, Version10, get); got.Result.Status.State != "TASK_STATE_INPUT_REQUIRED" {
			t.Errorf("a second before InterruptedTTL the task is %s", got.Result.Status.State)
		}
		time.Sleep(time.Second)
		if got := post(t, s, Version10, get); got.Result.Status.State != "TASK_STATE_CANCELED" {
			t.Errorf("after InterruptedTTL the task is %s, want TASK_STATE_CANCELED", got.Result.Status.State)
		}
		late := post(t, s, Version10, sendText(Version10, 3, "staging", id, false))
		if late.Error == nil || late.Error.Code != CodeUnsupportedOperation {
			t.Errorf("a late answer: %+v, want error %d", late.Error, CodeUnsupportedOperation)
		}
	})
}

// TestStoreFullRefusal: when the agent is working on MaxTasks tasks, a
// new one is refused with UnsupportedOperation (-32004) and the limit in
// the error's data, in each revision's form; never -32603, which would
// say the agent is broken.
func TestStoreFullRefusal(t *testing.T) {
	for _, v := range []string{Version10, Version03} {
		t.Run(v, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// Deploy steps of an hour keep every task working: the
				// bubble's clock stands still while this test runs.
				s := NewServer(&Options{Tools: tools.New(&tools.Options{DeployStep: time.Hour})})
				defer s.Close()
				for i := range MaxTasks {
					if a := post(t, s, v, sendText(v, i, "deploy api-gateway to staging", "", true)); a.Error != nil {
						t.Fatalf("deploy %d: %+v", i, a.Error)
					}
				}
				a := post(t, s, v, sendText(v, MaxTasks, "count a b", "", false))
				if a.Error == nil || a.Error.Code != CodeUnsupportedOperation {
					t.Fatalf("a new task while the agent works on %d: %+v, want error %d", MaxTasks, a.Error, CodeUnsupportedOperation)
				}
				want := map[string]string{
					Version10: `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","domain":"a2a-protocol.org","metadata":{"limit":"maxTasks","maxTasks":"1000"},"reason":"UNSUPPORTED_OPERATION"}]`,
					Version03: `{"limit":"maxTasks","maxTasks":"1000"}`,
				}[v]
				if diff := cmp.Diff(want, string(a.Error.Data)); diff != "" {
					t.Errorf("the refusal's data (-want +got):\n%s", diff)
				}
			})
		})
	}
}
