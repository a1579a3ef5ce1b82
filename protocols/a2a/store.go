package a2a

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

// The task store's bounds. Tasks live in memory only, so all three are
// about memory: a server that many callers use must forget old tasks, and
// callers that never come back must not fill it for good.
const (
	// MaxTasks is the most tasks the store keeps. When it is full, a new
	// task pushes out the least recently changed finished one, or failing
	// that the least recently changed one that waits for its caller; if
	// the agent is working on every task, the new one is refused.
	MaxTasks = 1000
	// TaskTTL is how long a finished task is kept after its last change.
	TaskTTL = time.Hour
	// InterruptedTTL is how long a task waits for its caller's answer
	// (input-required, auth-required) before the agent stops waiting and
	// cancels it. A person reads the question and answers within minutes;
	// a caller that never answers would otherwise hold its task, and its
	// room in the store, forever. Once canceled, the task is kept like
	// any finished one, so a late answer learns what became of it.
	InterruptedTTL = 15 * time.Minute
	// streamBuffer is how many events a stream may fall behind before it
	// is cut off: a slow reader is dropped, never waited on, so that it
	// cannot hold up the task or the other streams.
	streamBuffer = 64
)

// Store errors.
var (
	errTaskNotFound = errors.New("task not found")
	errTaskFinished = errors.New("the task is in a terminal state and cannot change")
	errStoreFull    = errors.New("the agent is working on as many tasks as it keeps")
)

// store keeps tasks and the streams that follow them. Every change goes
// through update, which publishes the change's events to the task's
// streams while it holds the lock: so every stream of a task sees the
// same events in the same order.
type store struct {
	now func() time.Time

	mu    sync.Mutex // guards tasks
	tasks map[string]*entry
}

type entry struct {
	task    Task
	changed time.Time
	streams map[*stream]struct{}
}

// stream is one caller following a task. Its channel is closed after the
// event that ends the task, when the caller stops, or when it falls
// behind.
type stream struct {
	events chan StreamResponse
	done   bool // the channel is closed; guarded by store.mu
}

func newStore(now func() time.Time) *store {
	if now == nil {
		now = time.Now
	}
	return &store{now: now, tasks: make(map[string]*entry)}
}

// create adds a new task, making room for it if the store is full.
func (s *store) create(t Task) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	if len(s.tasks) >= MaxTasks && !s.evictLocked() {
		return errStoreFull
	}
	s.tasks[t.ID] = &entry{task: t, changed: s.now(), streams: make(map[*stream]struct{})}
	return nil
}

// get returns a copy of a task.
func (s *store) get(id string) (Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.tasks[id]
	if !ok {
		return Task{}, errTaskNotFound
	}
	s.expireLocked(e)
	return clone(e.task), nil
}

// update changes a task and publishes the events the change produced. A
// task in a terminal state cannot change. change sees the task itself
// and must not keep it.
func (s *store) update(id string, change func(*Task) []StreamResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.tasks[id]
	if !ok {
		return errTaskNotFound
	}
	s.expireLocked(e)
	if e.task.Status.State.Terminal() {
		return errTaskFinished
	}
	events := change(&e.task)
	e.changed = s.now()
	s.publishLocked(e, events)
	return nil
}

// publishLocked sends a change's events to the task's streams, and ends
// the streams if the task is now finished or waits for the caller.
func (s *store) publishLocked(e *entry, events []StreamResponse) {
	final := e.task.Status.State.Terminal() || e.task.Status.State.Interrupted()
	for st := range e.streams {
		for _, ev := range events {
			select {
			case st.events <- ev:
			default:
				// Too slow: cut it off rather than wait.
				s.endLocked(e, st)
			}
			if st.done {
				break
			}
		}
		if final && !st.done {
			// "The stream closes" once the task is terminal or waits
			// for the caller.
			s.endLocked(e, st)
		}
	}
}

// subscribe starts a stream on a task: the task as it is now, then every
// event after it. A finished task has no events to come, so it cannot be
// subscribed to.
func (s *store) subscribe(id string) (Task, *stream, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.tasks[id]
	if !ok {
		return Task{}, nil, errTaskNotFound
	}
	s.expireLocked(e)
	if e.task.Status.State.Terminal() {
		return Task{}, nil, errTaskFinished
	}
	st := &stream{events: make(chan StreamResponse, streamBuffer)}
	e.streams[st] = struct{}{}
	if e.task.Status.State.Interrupted() {
		// Nothing else may look at the store when the wait runs out, and
		// this stream must not wait past it: look then. The function runs
		// once; if the task was answered meanwhile, it does nothing.
		time.AfterFunc(e.changed.Add(InterruptedTTL).Sub(s.now()), func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.expireLocked(e)
		})
	}
	return clone(e.task), st, nil
}

// unsubscribe ends a stream the caller no longer reads. It is safe to
// call after the stream has ended.
func (s *store) unsubscribe(id string, st *stream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.tasks[id]; ok {
		s.endLocked(e, st)
	}
}

func (s *store) endLocked(e *entry, st *stream) {
	if !st.done {
		st.done = true
		close(st.events)
	}
	delete(e.streams, st)
}

// list returns the tasks that pass keep, most recently changed first.
func (s *store) list(keep func(Task) bool) []Task {
	s.mu.Lock()
	defer s.mu.Unlock()
	var es []*entry
	for _, e := range s.tasks {
		s.expireLocked(e)
		if keep(e.task) {
			es = append(es, e)
		}
	}
	sort.Slice(es, func(i, j int) bool {
		if !es[i].changed.Equal(es[j].changed) {
			return es[i].changed.After(es[j].changed)
		}
		return es[i].task.ID < es[j].task.ID
	})
	out := make([]Task, len(es))
	for i, e := range es {
		out[i] = clone(e.task)
	}
	return out
}

// sweepLocked cancels the tasks that waited for their caller longer than
// InterruptedTTL, and forgets finished tasks older than TaskTTL.
func (s *store) sweepLocked() {
	cutoff := s.now().Add(-TaskTTL)
	for id, e := range s.tasks {
		s.expireLocked(e)
		if e.task.Status.State.Terminal() && e.changed.Before(cutoff) {
			delete(s.tasks, id)
		}
	}
}

// expireLocked cancels a task that has waited for its caller longer than
// InterruptedTTL. It runs whenever a task is looked at, so an expired
// task is never seen still waiting, even when no sweep has come by.
func (s *store) expireLocked(e *entry) {
	if !e.task.Status.State.Interrupted() {
		return
	}
	at := e.changed.Add(InterruptedTTL)
	if s.now().Before(at) {
		return
	}
	s.cancelLocked(e, at, fmt.Sprintf(
		"Canceled: no answer came within %v, so the agent stopped waiting. Send a new message to start again.", InterruptedTTL))
}

// evictLocked makes room for one task, and reports whether it could:
// it forgets the least recently changed finished task or, if none has
// finished, the least recently changed one that waits for its caller. A
// task the agent is working on is never evicted: its caller is waiting
// for the result.
func (s *store) evictLocked() bool {
	oldest := s.oldestLocked(TaskState.Terminal)
	if oldest == nil {
		oldest = s.oldestLocked(TaskState.Interrupted)
		if oldest == nil {
			return false
		}
		// Whoever follows it hears that it ended before it goes.
		s.cancelLocked(oldest, s.now(), "Canceled: the agent had too many tasks waiting for an answer, and this one had waited longest.")
	}
	delete(s.tasks, oldest.task.ID)
	return true
}

// oldestLocked is the least recently changed task whose state passes in,
// or nil.
func (s *store) oldestLocked(in func(TaskState) bool) *entry {
	var oldest *entry
	for _, e := range s.tasks {
		if in(e.task.Status.State) && (oldest == nil || e.changed.Before(oldest.changed)) {
			oldest = e
		}
	}
	return oldest
}

// cancelLocked moves a task that waits for its caller to canceled, as of
// at, with a message from the agent saying why, and tells its streams.
// There is no agent to stop: an interrupted task has none at work.
func (s *store) cancelLocked(e *entry, at time.Time, why string) {
	t := &e.task
	stamp := at.UTC()
	m := Message{MessageID: t.ID + "-canceled", ContextID: t.ContextID, TaskID: t.ID, Role: RoleAgent, Parts: []Part{TextPart(why)}}
	t.Status = TaskStatus{State: StateCanceled, Message: &m, Timestamp: &stamp}
	t.History = append(t.History, m)
	e.changed = at
	s.publishLocked(e, []StreamResponse{{StatusUpdate: &TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status}}})
}

// clone copies a task deeply enough that the caller may change the copy's
// lists without touching the store's.
func clone(t Task) Task {
	t.History = append([]Message(nil), t.History...)
	t.Artifacts = append([]Artifact(nil), t.Artifacts...)
	return t
}
