package a2a_test

// Streams: TCK tck/requirements/core_operations.py (CORE-STREAM) and
// streaming.py (STREAM-ORDER, STREAM-SUB).

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/tools"
)

// tckRank orders states as a task passes through them: it never goes
// back to an earlier rank.
func tckRank(c *tckClient, state string) int {
	switch st := tckState(c, state); {
	case st == a2a.StateSubmitted:
		return 0
	case st.Terminal():
		return 2
	}
	return 1 // working or interrupted: a task moves between these
}

// tckCheckStream checks what every stream of a task must be: the task
// first, then updates of that task, the states never going back, and the
// end right after the last status update, which is terminal or
// interrupted. In 0.3 every result names its kind, and exactly that last
// status update says final: true.
func tckCheckStream(c *tckClient, evs []tckEvent) {
	t := c.t
	t.Helper()
	if len(evs) == 0 || evs[0].Kind != "task" {
		t.Fatalf("the stream does not begin with the task: %d events", len(evs))
	}
	id := evs[0].Task.ID
	rank := 0
	lastStatus := -1
	for i, ev := range evs {
		if ev.reply.Error != nil {
			t.Fatalf("event %d is an error: %+v", i, ev.reply.Error)
		}
		switch {
		case ev.Status != nil:
			lastStatus = i
			if ev.Status.TaskID != id {
				t.Errorf("event %d is about task %s, want %s", i, ev.Status.TaskID, id)
			}
			if c.v10() {
				break
			}
			if ev.Kind != "status-update" || ev.Status.Final == nil {
				t.Errorf("0.3 event %d: kind %q, final %v; want status-update with final", i, ev.Kind, ev.Status.Final)
			} else if want := i == len(evs)-1; *ev.Status.Final != want {
				t.Errorf("0.3 event %d of %d: final %v, want %v", i, len(evs), *ev.Status.Final, want)
			}
		case ev.Artifact != nil:
			if ev.Artifact.TaskID != id {
				t.Errorf("event %d is about task %s, want %s", i, ev.Artifact.TaskID, id)
			}
		case i > 0:
			t.Errorf("event %d is a %s; after the task come only updates", i, ev.Kind)
		}
		if s := ev.state(); s != "" {
			if r := tckRank(c, s); r < rank {
				t.Errorf("event %d goes back to %s", i, s)
			} else {
				rank = r
			}
		}
	}
	if lastStatus != len(evs)-1 {
		t.Fatalf("the stream goes on after its last status update (event %d of %d)", lastStatus, len(evs))
	}
	if st := tckState(c, evs[lastStatus].state()); !st.Terminal() && !st.Interrupted() {
		t.Errorf("the stream ended at %s, which is neither terminal nor interrupted", st)
	}
}

// TestTCK_CORE_STREAM_001: "The SendStreamingMessage operation MUST
// establish a streaming connection for real-time updates."
// (CORE-STREAM-001, MUST, §3.1.2.) An SSE stream that no proxy should
// hold back.
func TestTCK_CORE_STREAM_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		s := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("count a b c")})
		if cc := s.resp.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("Cache-Control %q, want no-cache", cc)
		}
		evs := s.all()
		var kinds []string
		for _, ev := range evs {
			kinds = append(kinds, ev.Kind+" "+ev.state())
		}
		want := []string{"task " + c.state(a2a.StateSubmitted), "status-update " + c.state(a2a.StateWorking),
			"artifact-update ", "status-update " + c.state(a2a.StateCompleted)}
		if !cmp.Equal(kinds, want) {
			t.Errorf("events %q, want %q", kinds, want)
		}
	})
}

// TestTCK_CORE_STREAM_003: "If the agent returns a Task, the stream MUST
// begin with the Task object, followed by zero or more update events. The
// stream MUST close when the task reaches a terminal state."
// (CORE-STREAM-003, MUST, §3.1.2.) And when it waits for the caller (1.0
// §3.2.2 counts input-required as interrupted, where a stream ends too):
// the answer opens a new stream.
func TestTCK_CORE_STREAM_003(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		for _, text := range []string{"count a b", "search streaming", "weather Oslo", "dance", "deploy api-gateway to staging"} {
			tckCheckStream(c, c.stream("SendStreamingMessage", map[string]any{"message": c.msg(text)}).all())
		}
		asked := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway")}).all()
		tckCheckStream(c, asked)
		if last := asked[len(asked)-1].state(); last != c.state(a2a.StateInputRequired) {
			t.Fatalf("the stream ended at %s, want input-required", last)
		}
		task := asked[0].Task
		answered := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("staging", "taskId", task.ID)}).all()
		tckCheckStream(c, answered)
		if first := answered[0].Task; first.ID != task.ID || first.Status.State != c.state(a2a.StateWorking) {
			t.Errorf("the answer's stream begins with task %s %s, want %s working", first.ID, first.Status.State, task.ID)
		}
		if last := answered[len(answered)-1].state(); last != c.state(a2a.StateCompleted) {
			t.Errorf("the answer's stream ended at %s, want completed", last)
		}
	})
}

// tckDeployLog is what the deploy log artifact says once complete.
const tckDeployLog = "build image: done\npush image: done\nroll out: done\nhealth check: done\ndeployed\n"

// TestTCK_STREAM_ORDER_001: "All implementations MUST deliver events in
// the order they were generated. Events MUST NOT be reordered during
// transmission." (STREAM-ORDER-001, MUST, §3.5.2, streaming.py.) The
// deploy's steps are numbered and its log comes in chunks: in order, the
// first chunk makes the artifact, the others append, the last says so.
func TestTCK_STREAM_ORDER_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		evs := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway to staging")}).all()
		tckCheckStream(c, evs)
		var steps []string
		log, chunks := "", 0
		for _, ev := range evs {
			if ev.Status != nil && ev.Status.Status.Message != nil {
				steps = append(steps, tckText(ev.Status.Status.Message.Parts))
			}
			if a := ev.Artifact; a != nil && a.Artifact.Name == "deploy log" {
				if a.Append != (chunks > 0) || a.LastChunk != (tckText(a.Artifact.Parts) == "deployed\n") {
					t.Errorf("chunk %d %q: append %v, lastChunk %v", chunks, tckText(a.Artifact.Parts), a.Append, a.LastChunk)
				}
				log += tckText(a.Artifact.Parts)
				chunks++
			}
		}
		want := []string{"Deploying api-gateway to staging.", "build image (1/4)", "push image (2/4)", "roll out (3/4)", "health check (4/4)", "Deployed api-gateway to staging."}
		if !cmp.Equal(steps, want) {
			t.Errorf("status messages %q, want %q", steps, want)
		}
		if log != tckDeployLog || chunks != 5 {
			t.Errorf("the log in %d chunks: %q, want 5 making %q", chunks, log, tckDeployLog)
		}
		if kept := c.get(evs[0].Task.ID); tckText(kept.Artifacts[0].Parts) != log {
			t.Errorf("the task keeps the log %q; the stream said %q", tckText(kept.Artifacts[0].Parts), log)
		}
	})
}

// tckFollow subscribes n streams to a task that waits for an answer, and
// reads each one's first event (the task) so that all are in place
// before the answer.
func tckFollow(c *tckClient, id string, n int) []*tckStream {
	c.t.Helper()
	var ss []*tckStream
	for range n {
		s := c.stream("SubscribeToTask", map[string]any{"id": id})
		if ev, ok := s.next(); !ok || ev.Task == nil || ev.Task.ID != id {
			c.t.Fatalf("SubscribeToTask: first event %+v, want task %s", ev, id)
		}
		ss = append(ss, s)
	}
	return ss
}

// tckReadAll reads the rest of each stream, all at once, and returns
// each one's results as sent. The streams are read off the test's
// goroutine, so errors are reported once all are read.
func tckReadAll(t *testing.T, ss []*tckStream) [][]string {
	t.Helper()
	out := make([][]string, len(ss))
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Go(func() { out[i], errs[i] = s.results() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("stream %d: %v", i, err)
		}
	}
	return out
}

// TestTCK_STREAM_ORDER_002: "When multiple streams are active for a task,
// events MUST be broadcast to all active streams for that task."
// (STREAM-ORDER-002, MUST, §3.5.2, streaming.py.)
func TestTCK_STREAM_ORDER_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task := c.waiting()
		ss := tckFollow(c, task.ID, 3)
		c.expect(c.answer(task, "staging"), a2a.StateCompleted)
		for i, evs := range tckReadAll(t, ss) {
			// The answer's working status, "Deploying", 4 steps with a
			// chunk each, the last chunk, the deployment, completed.
			if len(evs) != 13 {
				t.Errorf("stream %d got %d events after the task, want 13", i, len(evs))
			}
		}
	})
}

// TestTCK_STREAM_ORDER_003: "Each stream MUST receive the same events in
// the same order." (STREAM-ORDER-003, MUST, §3.5.2, streaming.py.) The
// same down to the byte.
func TestTCK_STREAM_ORDER_003(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task := c.waiting()
		ss := tckFollow(c, task.ID, 3)
		c.expect(c.answer(task, "staging"), a2a.StateCompleted)
		got := tckReadAll(t, ss)
		for i := 1; i < len(got); i++ {
			if diff := cmp.Diff(got[0], got[i]); diff != "" {
				t.Errorf("streams 0 and %d differ (-0 +%d):\n%s", i, i, diff)
			}
		}
	})
}

// TestTCK_STREAM_ORDER_004: "Closing one stream MUST NOT affect other
// active streams for the same task." (STREAM-ORDER-004, MUST, §3.5.2,
// streaming.py.) Nor the task: "the task lifecycle is independent of any
// individual stream's lifecycle".
func TestTCK_STREAM_ORDER_004(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task := c.waiting()
		ss := tckFollow(c, task.ID, 2)
		ss[0].close()
		c.expect(c.answer(task, "staging"), a2a.StateCompleted)
		evs := tckReadAll(t, ss[1:])[0]
		if len(evs) != 13 {
			t.Errorf("the open stream got %d events after the task, want 13", len(evs))
		}
		// A streaming caller that goes away does not stop its task.
		streamed := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway to staging")})
		ev, _ := streamed.next()
		streamed.close()
		c.expect(tckAwaitEnd(c, ev.Task.ID), a2a.StateCompleted)
	})
}

// TestTCK_STREAM_SUB_001: "The SubscribeToTask operation MUST return a
// Task object as the first event in the stream, representing the current
// state of the task at the time of subscription." (STREAM-SUB-001, MUST,
// §3.1.6, streaming.py.)
func TestTCK_STREAM_SUB_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		task := c.waiting()
		ev, ok := c.stream("SubscribeToTask", map[string]any{"id": task.ID}).next()
		if !ok || ev.Task == nil {
			t.Fatalf("first event %+v, want the task", ev)
		}
		got := *ev.Task
		got.raw, task.raw = nil, nil
		if diff := cmp.Diff(task, got, cmp.AllowUnexported(tckTask{})); diff != "" {
			t.Errorf("the first event is not the task as it stands (-GetTask +event):\n%s", diff)
		}
	})
}

// TestTCK_STREAM_SUB_002: "The SubscribeToTask stream MUST terminate when
// the task reaches a terminal state (completed, failed, canceled, or
// rejected)." (STREAM-SUB-002, MUST, §3.1.6, streaming.py.) Completed by
// an answer, or canceled while deploying.
func TestTCK_STREAM_SUB_002(t *testing.T) {
	slow := func() *a2a.Options {
		return &a2a.Options{Tools: tools.New(&tools.Options{DeployStep: time.Hour})}
	}
	t.Run("completed", func(t *testing.T) {
		tckBoth(t, nil, func(t *testing.T, c *tckClient) {
			task := c.waiting()
			s := c.stream("SubscribeToTask", map[string]any{"id": task.ID})
			c.answer(task, "staging")
			evs := s.all()
			tckCheckStream(c, evs)
			if last := evs[len(evs)-1].state(); last != c.state(a2a.StateCompleted) {
				t.Errorf("the stream ended at %s, want completed", last)
			}
		})
	})
	t.Run("canceled", func(t *testing.T) {
		tckBoth(t, slow, func(t *testing.T, c *tckClient) {
			task := c.waiting()
			c.send(map[string]any{"message": c.msg("staging", "taskId", task.ID), "configuration": c.nonBlocking()})
			s := c.stream("SubscribeToTask", map[string]any{"id": task.ID})
			first, _ := s.next()
			c.result("CancelTask", map[string]any{"id": task.ID})
			evs := append([]tckEvent{first}, s.all()...)
			tckCheckStream(c, evs)
			if last := evs[len(evs)-1].state(); last != c.state(a2a.StateCanceled) {
				t.Errorf("the stream ended at %s, want canceled", last)
			}
		})
	})
}

// tckAwaitEnd waits until a task that needs nobody is terminal, by
// following it to the end of its stream (or learning that it is already
// terminal), and returns it.
func tckAwaitEnd(c *tckClient, id string) tckTask {
	c.t.Helper()
	evs := c.stream("SubscribeToTask", map[string]any{"id": id}).all()
	if len(evs) == 1 && evs[0].reply.Error != nil && evs[0].reply.Error.Code != a2a.CodeUnsupportedOperation {
		c.t.Fatalf("following task %s: %+v", id, evs[0].reply.Error)
	}
	return c.get(id)
}

// TestTCK_STREAM_SUB_003: "SubscribeToTask MUST return
// UnsupportedOperationError when attempted on a task that is in a
// terminal state." (STREAM-SUB-003, MUST, §3.1.6, streaming.py.) The
// error comes as the one event of the stream.
func TestTCK_STREAM_SUB_003(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		for _, task := range []tckTask{c.completed(), c.canceled()} {
			e := c.streamError("SubscribeToTask", map[string]any{"id": task.ID}, a2a.CodeUnsupportedOperation)
			if c.v10() {
				if info := tckFindErrorInfo(t, e); info.Metadata["taskId"] != task.ID {
					t.Errorf("ErrorInfo metadata %v, want taskId %s", info.Metadata, task.ID)
				}
			}
		}
	})
}

// TestTCK_STREAM_SUB_004: "SubscribeToTask MUST return TaskNotFoundError
// when the task ID does not exist or is not accessible."
// (STREAM-SUB-004, MUST, §3.1.6, streaming.py.)
func TestTCK_STREAM_SUB_004(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		c.streamError("SubscribeToTask", map[string]any{"id": "no-such-task"}, a2a.CodeTaskNotFound)
	})
}
