package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// Tasks: the extension io.modelcontextprotocol/tasks, server side, in the
// modern era (2026-07-28). The 2025-11-25 era had experimental tasks of
// its own, with another wire; this server does not implement those.
//
// A task is a handle on work that outlives the request that started it.
// Some tool calls take longer than a client, a proxy or a load balancer
// will hold a request open for: a deploy, a CI run, a wait for a human.
// Instead of the tool's result, the server answers tools/call at once
// with a task (resultType "task"), and the client asks about it later,
// as often as it likes, with its id:
//
//	-> {"method":"tools/call","params":{"name":"deploy_service",...,"_meta":{...,"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}
//	<- {"result":{"resultType":"task","taskId":"Q3R...","status":"working","ttlMs":600000,"pollIntervalMs":500,...}}
//	-> {"method":"tasks/get","params":{"taskId":"Q3R...",...}}
//	<- {"result":{"resultType":"complete","taskId":"Q3R...","status":"completed","result":{"content":[...],...},...}}
//
// Only a client that says it can take a task gets one: it declares the
// extension in each request's clientCapabilities, and the server decides,
// per call, whether the work becomes a task. A client that did not declare
// it gets the ordinary result (the tool runs within the request), or, for
// a tool that can only run as a task, -32021 naming the extension.
//
// Why polling. The experimental tasks of 2025-11-25 had tasks/result,
// which blocked until the work was done, and a task that needed the user
// sent its elicitation/create on that blocked request's stream. That made
// every task hold a long-lived connection again, the very thing tasks were
// for avoiding, and it leaned on requests from server to client, which the
// modern era no longer has. So tasks/result is gone (it is -32601 here, as
// any unknown method), and tasks/get is the only read: it returns the
// task's state, and once the task is done, the result or the error inline.
// A read that changes nothing can be repeated, cached or retried safely.
//
// How input reaches a task. A task that needs the user moves to
// "input_required", and tasks/get lists its questions in inputRequests,
// keyed like the input_required results of a plain request (modern.go).
// The client answers with tasks/update, {taskId, inputResponses}, which
// is only acknowledged: the next tasks/get shows the effect. Here the
// tool's handler asks exactly as it would within a request (exchange.ask);
// where a request would answer input_required, the task waits instead,
// and once every question is answered the handler runs again from the
// top, this time finding its answers (they are kept for the task's life,
// so a key is never asked twice).
//
// tasks/cancel asks the server to stop. It too is only acknowledged;
// this server stops the work through its context and marks the task
// cancelled at once.
//
// A task id is the only thing that names a task (there is no tasks/list,
// so nobody learns another caller's ids): it is 128 random bits, as
// unguessable as a bearer token.

// ExtensionTasks is the identifier of the tasks extension, the key under
// "extensions" in both sides' capabilities.
const ExtensionTasks = "io.modelcontextprotocol/tasks"

// The statuses of a task. The last three are terminal: a task in one of
// them never changes again.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// ResultTask is the resultType of a tools/call answered with a task.
const ResultTask = "task"

// Limits of the task store: tasks are kept in memory, so both their
// number and their age are bounded.
const (
	// TaskTTL is how long the server keeps a task, counted from its
	// creation (the ttlMs each task reports). Then the task is forgotten,
	// its id unknown, and work still running is stopped. Ten minutes is
	// long enough to answer a question and to read a result, short
	// enough that abandoned tasks go.
	TaskTTL = 10 * time.Minute
	// MaxTasks is the most tasks kept at once. A new task makes room by
	// forgetting the finished task that finished first; when all are
	// still running, the call is refused.
	MaxTasks = 1000
	// taskPollInterval is how often a client is asked to poll
	// (pollIntervalMs): the tools here finish in seconds.
	taskPollInterval = 500 * time.Millisecond
	// taskTimeFormat writes createdAt and lastUpdatedAt: ISO 8601 in UTC,
	// to the millisecond, always the same length.
	taskTimeFormat = "2006-01-02T15:04:05.000Z07:00"
)

// Task is a task's state as tasks/get and the creating tools/call report
// it: the task's metadata, plus what its status carries (the open
// questions while input_required, the result once completed, the error
// once failed).
type Task struct {
	TaskID         string                  `json:"taskId"`
	Status         string                  `json:"status"`
	StatusMessage  string                  `json:"statusMessage,omitempty"`
	CreatedAt      string                  `json:"createdAt"`
	LastUpdatedAt  string                  `json:"lastUpdatedAt"`
	TTLMs          int64                   `json:"ttlMs"` // never null (unlimited) here: see TaskTTL
	PollIntervalMs int64                   `json:"pollIntervalMs,omitempty"`
	InputRequests  map[string]InputRequest `json:"inputRequests,omitempty"`
	Result         json.RawMessage         `json:"result,omitempty"`
	Error          *jsonrpc.Error          `json:"error,omitempty"`
}

// TaskResult is the result of a tools/call that created a task
// (resultType "task", the Task's metadata only) and of tasks/get
// (resultType "complete": tasks/get's own result is complete, whatever
// the task's status). It spells out resultType and _meta rather than
// embed ResultFields: there ttlMs is how long a result may be cached,
// here how long the task is kept, and one JSON object cannot hold both.
type TaskResult struct {
	ResultType string `json:"resultType"`
	Task
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// TaskParams are the params of tasks/get, tasks/update and tasks/cancel;
// only tasks/update has InputResponses.
type TaskParams struct {
	TaskID         *string                    `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

// AckResult is the empty acknowledgement of tasks/update and
// tasks/cancel: only resultType and the server's name.
type AckResult struct {
	ResultFields
}

// taskCreated is the "later" of the modern era, as inputRequired is its
// "not yet": a tool's handler returns it, as an error, when its work has
// become a task, and dispatchModern answers with the task instead.
type taskCreated struct {
	result *TaskResult
}

func (e *taskCreated) Error() string { return "the call continues as task " + e.result.TaskID }

// taskSupport says whether a tool can run without a task.
type taskSupport int

const (
	// taskOptional: a task when the client declared the extension, the
	// ordinary result otherwise.
	taskOptional taskSupport = iota
	// taskRequired: only as a task; a client without the extension gets
	// -32021.
	taskRequired
)

// runsAsTask reports whether a tools/call of the course's catalogue
// becomes a task: deploy_service does, being slow and made of steps
// (each step shows in the task's statusMessage), and asking the user
// first when the deploy is to production.
func runsAsTask(params json.RawMessage) bool {
	var p struct{ Name string }
	json.Unmarshal(params, &p)
	return p.Name == "deploy_service"
}

// asTask runs work as a task if the client declared the extension, and
// in the request otherwise (a legacy session, which has no such
// extension, included). The work gets an exchange of its own, since a
// task has no stream to the client: progress is dropped, log messages
// become the task's statusMessage, and questions reach the client
// through tasks/get.
func (x *exchange) asTask(ctx context.Context, support taskSupport, work func(context.Context, *exchange) (*CallToolResult, error)) (*CallToolResult, error) {
	if x.modern == nil || x.modern.client.Extensions[ExtensionTasks] == nil {
		if support == taskRequired && x.modern != nil {
			return nil, missingTasksExtension("this tool runs only as a task")
		}
		return work(ctx, x)
	}
	result, err := x.ss.srv.tasks.start(x, work)
	if err != nil {
		return nil, err
	}
	return nil, &taskCreated{result: result}
}

// missingTasksExtension is -32021 for a client that did not declare the
// extension, with the capabilities it lacks in data, as the spec shows.
func missingTasksExtension(why string) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{ExtensionTasks: struct{}{}}}})
	return &jsonrpc.Error{Code: CodeMissingClientCapability, Data: data,
		Message: fmt.Sprintf(`missing required client capability: %s; declare "extensions": {%q: {}} in %s`, why, ExtensionTasks, MetaClientCapabilities)}
}

// handle answers tasks/get, tasks/update and tasks/cancel. A client that
// did not declare the extension on this request gets -32021 whatever it
// asks: "Servers MUST return this error for non-declaring clients issuing
// tasks/get, tasks/update, and tasks/cancel requests." A task id the
// server does not know, never made or already forgotten, is -32602.
//
// So is the id of another caller's task. The extension (SEP-2663,
// "Security Implications") asks for more than an unguessable id: "Auth
// binding. Servers MUST perform authentication and authorization checks
// on each task-related request to ensure that the client has permission
// to access a task." The HTTP handler has checked the token; the
// permission here is that the task is the caller's own, created by a
// tools/call with the same credentials (auth.go). Another caller's task
// is answered as if it did not exist, so that a leaked id does not even
// tell that the task is there.
func (st *taskStore) handle(x *exchange, req *jsonrpc.Request) (any, error) {
	if x.modern.client.Extensions[ExtensionTasks] == nil {
		return nil, missingTasksExtension(req.Method + " belongs to the tasks extension")
	}
	var p TaskParams
	if err := decodeParams(req.Method, req.Params, &p); err != nil {
		return nil, err
	}
	if p.TaskID == nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, `invalid params: %s needs {"taskId": string}, the id a tools/call result with resultType "task" gave`, req.Method)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.forgetExpired(time.Now())
	t, ok := st.tasks[*p.TaskID]
	if !ok || t.owner != x.who.id {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			"invalid params: %s: no task %q: its id is wrong, or it was forgotten (a task is kept %v from its creation)", req.Method, *p.TaskID, TaskTTL)
	}
	switch req.Method {
	case "tasks/get":
		return st.view(t), nil
	case "tasks/update":
		// Answers to questions that are not open (never asked, already
		// answered, or the task is not waiting at all) are ignored: "A
		// server SHOULD ignore any inputResponses responses mapped to a
		// key that is not currently outstanding for the task".
		for key, answer := range p.InputResponses {
			if _, open := t.asked[key]; open {
				delete(t.asked, key)
				t.answers[key] = answer
			}
		}
		switch {
		case t.status != TaskInputRequired:
		case len(t.asked) > 0:
			st.set(t, TaskInputRequired, waiting(len(t.asked)))
		default:
			st.set(t, TaskWorking, "the task is running again, with the client's answers")
			t.wake <- struct{}{} // never blocks: the task waited for this, once
		}
	case "tasks/cancel":
		// Cancelling a task that has ended changes nothing and is
		// acknowledged all the same: the client may not have seen it end.
		if !t.done() {
			st.set(t, TaskCancelled, "cancelled by the client")
		}
	}
	return &AckResult{}, nil
}
