package a2a

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func working(id string) Task {
	return Task{ID: id, ContextID: "ctx", Status: TaskStatus{State: StateWorking}}
}

// setState is a change that moves a task to a state and says so.
func setState(state TaskState) func(*Task) []StreamResponse {
	return func(t *Task) []StreamResponse {
		t.Status.State = state
		return []StreamResponse{{StatusUpdate: &TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status}}}
	}
}

// TestStreamOrder (TCK STREAM-ORDER): two streams on one task receive the
// same events in the same order, and both end after the terminal one.
func TestStreamOrder(t *testing.T) {
	s := newStore(nil)
	if err := s.create(working("t1")); err != nil {
		t.Fatal(err)
	}
	_, a, err := s.subscribe("t1")
	if err != nil {
		t.Fatal(err)
	}
	_, b, _ := s.subscribe("t1")
	for i := range 5 {
		s.update("t1", func(t *Task) []StreamResponse {
			return []StreamResponse{{ArtifactUpdate: &TaskArtifactUpdateEvent{TaskID: t.ID, Artifact: Artifact{ArtifactID: fmt.Sprint(i)}}}}
		})
	}
	s.update("t1", setState(StateCompleted))
	var got [2][]StreamResponse
	for i, st := range []*stream{a, b} {
		for ev := range st.events { // ends when the store closes the stream
			got[i] = append(got[i], ev)
		}
	}
	if len(got[0]) != 6 {
		t.Fatalf("stream a got %d events, want 6", len(got[0]))
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("the streams differ (-a +b):\n%s", diff)
	}
	if last := got[0][5]; last.StatusUpdate == nil || last.StatusUpdate.Status.State != StateCompleted {
		t.Errorf("last event %+v, want the completed status", last)
	}
}

// TestStreamEndsWhenInterrupted: a stream closes when its task waits for
// the caller (input-required), as the spec says streams do.
func TestStreamEndsWhenInterrupted(t *testing.T) {
	s := newStore(nil)
	s.create(working("t1"))
	_, st, _ := s.subscribe("t1")
	s.update("t1", setState(StateInputRequired))
	if ev := <-st.events; ev.StatusUpdate == nil || ev.StatusUpdate.Status.State != StateInputRequired {
		t.Errorf("got %+v", ev)
	}
	if _, open := <-st.events; open {
		t.Error("the stream is still open after input-required")
	}
}

// TestFinishedTask: a terminal task cannot change or be subscribed to;
// an unknown id is not found.
func TestFinishedTask(t *testing.T) {
	s := newStore(nil)
	s.create(working("t1"))
	s.update("t1", setState(StateCanceled))
	if err := s.update("t1", setState(StateWorking)); !errors.Is(err, errTaskFinished) {
		t.Errorf("update of a canceled task: %v", err)
	}
	if _, _, err := s.subscribe("t1"); !errors.Is(err, errTaskFinished) {
		t.Errorf("subscribe to a canceled task: %v", err)
	}
	if _, err := s.get("nope"); !errors.Is(err, errTaskNotFound) {
		t.Errorf("get of an unknown task: %v", err)
	}
}

// TestSlowStreamIsDropped: a stream that nobody reads is cut off when its
// buffer is full, and the task goes on.
func TestSlowStreamIsDropped(t *testing.T) {
	s := newStore(nil)
	s.create(working("t1"))
	_, st, _ := s.subscribe("t1")
	for range streamBuffer + 1 {
		if err := s.update("t1", setState(StateWorking)); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for range st.events {
		n++
	}
	if n != streamBuffer {
		t.Errorf("the slow stream got %d events before it was cut off, want %d", n, streamBuffer)
	}
}

// TestStoreBounds: when the store is full, the oldest finished task
// makes room; with none finished a new task is refused; finished tasks
// older than TaskTTL are forgotten.
func TestStoreBounds(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := newStore(func() time.Time { return now })
	for i := range MaxTasks {
		now = now.Add(time.Second)
		if err := s.create(working(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.create(working("extra")); !errors.Is(err, errStoreFull) {
		t.Fatalf("a new task in a store full of running ones: %v", err)
	}
	s.update("7", setState(StateCompleted))
	now = now.Add(time.Second)
	s.update("3", setState(StateCompleted))
	now = now.Add(time.Second)
	if err := s.create(working("extra")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.get("7"); !errors.Is(err, errTaskNotFound) {
		t.Error("the first task to finish should have made room")
	}
	if _, err := s.get("3"); err != nil {
		t.Error("only one task should have been evicted")
	}
	now = now.Add(TaskTTL + time.Second)
	s.create(working("later"))
	if _, err := s.get("3"); !errors.Is(err, errTaskNotFound) {
		t.Error("a task finished more than TaskTTL ago is still there")
	}
}

// interrupted is a task that waits for its caller's answer.
func interrupted(id string) Task {
	return Task{ID: id, ContextID: "ctx", Status: TaskStatus{State: StateInputRequired}}
}

// TestStoreEvictsWaitingTasks: a store full of tasks that wait for an
// answer makes room for a new one by canceling and forgetting the one
// that has waited longest, and whoever follows that task hears why.
func TestStoreEvictsWaitingTasks(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := newStore(func() time.Time { return now })
	for i := range MaxTasks {
		now = now.Add(time.Millisecond) // all within InterruptedTTL
		if err := s.create(interrupted(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	_, st, err := s.subscribe("0")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.create(working("new")); err != nil {
		t.Fatalf("a new task in a store full of waiting ones: %v", err)
	}
	if _, err := s.get("0"); !errors.Is(err, errTaskNotFound) {
		t.Errorf("the task that waited longest is still there: %v", err)
	}
	if _, err := s.get("1"); err != nil {
		t.Errorf("only one task should have made room: %v", err)
	}
	var states []TaskState
	for ev := range st.events {
		states = append(states, ev.StatusUpdate.Status.State)
	}
	if diff := cmp.Diff([]TaskState{StateCanceled}, states); diff != "" {
		t.Errorf("the evicted task's stream (-want +got):\n%s", diff)
	}
}

// TestStoreExpiresWaitingTasks: a task that waits for an answer longer
// than InterruptedTTL is canceled, whether a sweep or a read finds it
// first, and then it cannot be answered.
func TestStoreExpiresWaitingTasks(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := newStore(func() time.Time { return now })
	s.create(interrupted("old"))
	now = now.Add(time.Minute)
	s.create(interrupted("young"))
	now = now.Add(InterruptedTTL - time.Minute)

	got, _ := s.get("old")
	if got.Status.State != StateCanceled || got.Status.Message == nil {
		t.Fatalf("a task that waited InterruptedTTL is %s with message %v, want canceled with a reason", got.Status.State, got.Status.Message)
	}
	if want := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).Add(InterruptedTTL); !got.Status.Timestamp.Equal(want) {
		t.Errorf("canceled at %v, want %v, when its wait ran out", got.Status.Timestamp, want)
	}
	if err := s.update("old", setState(StateWorking)); !errors.Is(err, errTaskFinished) {
		t.Errorf("an answer to the expired task: %v, want errTaskFinished", err)
	}
	if young, _ := s.get("young"); young.Status.State != StateInputRequired {
		t.Errorf("a task that waited less than InterruptedTTL is %s", young.Status.State)
	}
}

// TestStreamOnWaitingTaskEnds: a stream that follows a task waiting for
// an answer ends when the wait runs out, with the canceled status, even
// if nothing else touches the store.
func TestStreamOnWaitingTaskEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newStore(nil)
		s.create(interrupted("t1"))
		_, st, err := s.subscribe("t1")
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		var states []TaskState
		for ev := range st.events {
			states = append(states, ev.StatusUpdate.Status.State)
		}
		if diff := cmp.Diff([]TaskState{StateCanceled}, states); diff != "" {
			t.Errorf("the stream (-want +got):\n%s", diff)
		}
		if waited := time.Since(start); waited != InterruptedTTL {
			t.Errorf("the stream ended after %v, want InterruptedTTL", waited)
		}
	})
}
