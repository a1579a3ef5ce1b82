package mcp

// The task store: where the tasks of tasks.go live, how their work runs
// and waits for answers, and how the store stays bounded (TaskTTL,
// MaxTasks) and ends with the server (Close).

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

// task is one task in the store. Its mutable fields are guarded by the
// store's mu.
type task struct {
	id      string
	owner   string // the id of the caller whose tools/call created it (auth.go)
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
	t := &task{id: rand.Text(), owner: x.who.id, created: now, stop: stop, wake: make(chan struct{}, 1),
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
	tx := &exchange{ss: x.ss, who: x.who, modern: &call, send: func(msg any) error {
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

// set changes a task's status, and tells the listen streams that hear
// about it (subscriptions.go). The caller holds mu.
func (st *taskStore) set(t *task, status, message string) {
	t.status, t.message, t.updated = status, message, time.Now()
	if t.done() {
		t.asked = nil
		t.stop()
	}
	st.srv.taskChanged(t.id, func() Task { return st.view(t).Task })
}

// owned returns those of ids that name tasks of owner's, each once: the
// tasks a listen stream of owner's may hear about.
func (st *taskStore) owned(owner string, ids []string) []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.forgetExpired(time.Now())
	var mine []string
	for _, id := range ids {
		if t, ok := st.tasks[id]; ok && t.owner == owner && !slices.Contains(mine, id) {
			mine = append(mine, id)
		}
	}
	return mine
}

// tellNow tells a listen stream the state of each of its tasks as it is
// now. Under mu, as set tells every change after it, so that the stream
// never gets a state older than one it has had.
func (st *taskStore) tellNow(l *listener) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, id := range l.tasks {
		if t, ok := st.tasks[id]; ok {
			l.tell(st.view(t).Task)
		}
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
