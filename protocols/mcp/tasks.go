package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
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

// task is one task in the store. Its mutable fields are guarded by the
// store's mu.
type task struct {
	id      string
	created time.Time
	stop    context.CancelFunc // ends the work's context
	wake    chan struct{}      // buffered, 1: tasks/update answered the last open question

	status  string
	message string
	updated time.Time
	asked   map[string]InputRequest    // the open questions, by key
	answers map[string]json.RawMessage // every answer so far, by key
	result  json.RawMessage            // once completed
	err     *jsonrpc.Error             // once failed
}

func (t *task) done() bool {
	return t.status == TaskCompleted || t.status == TaskFailed || t.status == TaskCancelled
}

// taskStore keeps a server's tasks, in memory, and runs their work.
type taskStore struct {
	srv     *Server
	ctx     context.Context // the parent of every task's context; ends at close
	stop    context.CancelFunc
	running sync.WaitGroup // the goroutines running work

	mu     sync.Mutex // guards tasks, closed and every task's mutable fields
	tasks  map[string]*task
	closed bool
}

func newTaskStore(srv *Server) *taskStore {
	st := &taskStore{srv: srv, tasks: make(map[string]*task)}
	st.ctx, st.stop = context.WithCancel(context.Background())
	return st
}

// Close cancels every task still running and waits until their work has
// stopped. Close a server after its transports (ServeStdio has returned,
// HTTPHandler.Close), so that no task outlives it. It is idempotent.
func (s *Server) Close() {
	st := s.tasks
	st.mu.Lock()
	st.closed = true
	for _, t := range st.tasks {
		if !t.done() {
			st.set(t, TaskCancelled, "cancelled: the server shut down")
		}
	}
	st.mu.Unlock()
	st.stop()
	st.running.Wait()
}

// start creates a task for work, starts it, and returns what the
// creating tools/call answers. "A server MUST NOT return CreateTaskResult
// until the task is durably created": the task is in the store before
// this returns, so a tasks/get sent the moment the answer arrives finds
// it.
func (st *taskStore) start(x *exchange, work func(context.Context, *exchange) (*CallToolResult, error)) (*TaskResult, error) {
	now := time.Now()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error: the server is shutting down and starts no tasks")
	}
	st.forgetExpired(now)
	if len(st.tasks) >= MaxTasks && !st.forgetOldestDone() {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError,
			"internal error: this server already runs %d tasks, its limit; try again when some have finished", MaxTasks)
	}
	ctx, stop := context.WithDeadline(st.ctx, now.Add(TaskTTL))
	t := &task{id: rand.Text(), created: now, stop: stop, wake: make(chan struct{}, 1),
		status: TaskWorking, message: "the task is running", updated: now, answers: make(map[string]json.RawMessage)}
	st.tasks[t.id] = t
	// The work's own view of the client: the request's, with the answers
	// that tasks/update adds to it, and log messages at info and above,
	// which become the task's statusMessage (a deploy's steps): a task has
	// no stream to send notifications on.
	call := *x.modern
	call.answers = maps.Clone(call.answers)
	if call.answers == nil {
		call.answers = make(map[string]json.RawMessage)
	}
	call.logLevel = slices.Index(logLevels, "info")
	tx := &exchange{ss: x.ss, allow: x.allow, modern: &call, send: func(msg any) error {
		if n, ok := msg.(*jsonrpc.Request); ok && n.Method == "notifications/message" {
			var p struct{ Data string }
			json.Unmarshal(n.Params, &p)
			st.note(t, p.Data)
		}
		return nil
	}}
	st.running.Add(1)
	// This goroutine runs the task's work. It ends when the work returns,
	// which the work's context bounds: tasks/cancel, the task's TTL, or
	// Close end it.
	go func() {
		defer st.running.Done()
		defer stop()
		st.run(ctx, t, tx, work)
	}()
	view := st.view(t)
	view.ResultType = ResultTask
	return view, nil
}

// run runs the work until it has a result or an error: each time it
// needs answers, the task waits for them, and the work runs again.
func (st *taskStore) run(ctx context.Context, t *task, x *exchange, work func(context.Context, *exchange) (*CallToolResult, error)) {
	for {
		result, err := work(ctx, x)
		var more *inputRequired
		if !errors.As(err, &more) {
			st.finish(t, result, err)
			return
		}
		if !st.wait(ctx, t, x, more.requests) {
			st.finish(t, nil, ctx.Err())
			return
		}
	}
}

// wait puts the work's questions to the client and waits until tasks/update
// has answered every one; it reports false if the task ended first.
func (st *taskStore) wait(ctx context.Context, t *task, x *exchange, questions map[string]InputRequest) bool {
	st.mu.Lock()
	if !t.done() {
		t.asked = questions
		st.set(t, TaskInputRequired, waiting(len(t.asked)))
	}
	st.mu.Unlock()
	// tasks/update wakes the task once every question is answered.
	select {
	case <-ctx.Done():
		return false
	case <-t.wake:
	}
	st.mu.Lock()
	maps.Copy(x.modern.answers, t.answers)
	st.mu.Unlock()
	return true
}

// note makes message the statusMessage of a working task.
func (st *taskStore) note(t *task, message string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if t.status == TaskWorking && message != "" {
		st.set(t, TaskWorking, message)
	}
}

// waiting is the statusMessage of a task that waits for n answers.
func waiting(n int) string {
	return fmt.Sprintf("waiting for %d answer(s) from the client: see inputRequests, answer with tasks/update", n)
}

// finish records how the work ended, unless the task ended before (it was
// cancelled). A tool error is a completed task whose result says isError:
// "failed" is only for a JSON-RPC error, which it carries.
func (st *taskStore) finish(t *task, result *CallToolResult, err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if t.done() {
		return
	}
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		// The result the request would have returned, resultType and all.
		st.srv.complete("tools/call", result)
		b, err := json.Marshal(result)
		if err != nil {
			t.err = jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error: encoding the result: %v", err)
			st.set(t, TaskFailed, t.err.Message)
			return
		}
		t.result = b
		st.set(t, TaskCompleted, "done")
	case errors.As(err, &rpcErr):
		t.err = rpcErr
		st.set(t, TaskFailed, rpcErr.Message)
	default:
		t.err = jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error: %v", err)
		st.set(t, TaskFailed, t.err.Message)
	}
}

// set changes a task's status. The caller holds mu.
func (st *taskStore) set(t *task, status, message string) {
	t.status, t.message, t.updated = status, message, time.Now()
	if t.done() {
		t.asked = nil
		t.stop()
	}
}

// view is a task's state as the wire shows it. The caller holds mu.
func (st *taskStore) view(t *task) *TaskResult {
	v := &TaskResult{ResultType: ResultComplete, Meta: st.srv.infoMeta, Task: Task{
		TaskID: t.id, Status: t.status, StatusMessage: t.message,
		CreatedAt: t.created.UTC().Format(taskTimeFormat), LastUpdatedAt: t.updated.UTC().Format(taskTimeFormat),
		TTLMs: TaskTTL.Milliseconds(), PollIntervalMs: taskPollInterval.Milliseconds(),
		Result: t.result, Error: t.err,
	}}
	if t.status == TaskInputRequired {
		v.InputRequests = maps.Clone(t.asked)
	}
	return v
}

// forgetExpired forgets the tasks older than TaskTTL, stopping work that
// still runs. The caller holds mu.
func (st *taskStore) forgetExpired(now time.Time) {
	for id, t := range st.tasks {
		if now.Sub(t.created) >= TaskTTL {
			t.stop()
			delete(st.tasks, id)
		}
	}
}

// forgetOldestDone forgets the task that finished first, and reports
// whether there was one. The caller holds mu.
func (st *taskStore) forgetOldestDone() bool {
	var oldest *task
	for _, t := range st.tasks {
		if t.done() && (oldest == nil || t.updated.Before(oldest.updated)) {
			oldest = t
		}
	}
	if oldest != nil {
		delete(st.tasks, oldest.id)
	}
	return oldest != nil
}

// handle answers tasks/get, tasks/update and tasks/cancel. A client that
// did not declare the extension on this request gets -32021 whatever it
// asks: "Servers MUST return this error for non-declaring clients issuing
// tasks/get, tasks/update, and tasks/cancel requests." A task id the
// server does not know, never made or already forgotten, is -32602.
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
	if !ok {
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
