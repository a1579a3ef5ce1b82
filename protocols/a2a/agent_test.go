package a2a

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/tools"
)

func testAgent() *agent {
	return &agent{cat: tools.New(&tools.Options{DeployStep: time.Millisecond}), now: time.Now}
}

func userSays(s *store, id, text string) {
	s.update(id, func(t *Task) []StreamResponse {
		t.History = append(t.History, Message{MessageID: "u-" + text, Role: RoleUser, Parts: []Part{TextPart(text)}})
		t.Status = TaskStatus{State: StateWorking}
		return nil
	})
}

func newTask(t *testing.T, s *store, text string) string {
	t.Helper()
	task := Task{ID: "t1", ContextID: "c1", Status: TaskStatus{State: StateSubmitted},
		History: []Message{{MessageID: "u0", Role: RoleUser, Parts: []Part{TextPart(text)}}}}
	if err := s.create(task); err != nil {
		t.Fatal(err)
	}
	return task.ID
}

// TestAgentStates: each skill ends in the state it is there to show.
func TestAgentStates(t *testing.T) {
	for _, tt := range []struct {
		say  string
		want TaskState
	}{
		{"count read the wire", StateCompleted},
		{"search grpc", StateCompleted},
		{"weather Oslo", StateFailed},
		{"deploy api-gateway", StateInputRequired},
		{"deploy api-gateway to staging", StateCompleted},
		{"make coffee", StateRejected},
	} {
		t.Run(tt.say, func(t *testing.T) {
			s := newStore(nil)
			id := newTask(t, s, tt.say)
			testAgent().run(context.Background(), s, id, nil)
			if got, _ := s.get(id); got.Status.State != tt.want {
				t.Errorf("state %s, want %s (%+v)", got.Status.State, tt.want, got.Status.Message)
			}
		})
	}
}

// TestAgentDeployConversation is the course's A2A story: "deploy
// api-gateway" asks for the environment; "staging", in the same task,
// streams progress and the log in chunks, then completes with artifacts.
func TestAgentDeployConversation(t *testing.T) {
	s := newStore(nil)
	a := testAgent()
	id := newTask(t, s, "deploy api-gateway")
	a.run(context.Background(), s, id, nil)
	task, _ := s.get(id)
	if task.Status.State != StateInputRequired || textOf(*task.Status.Message) != "Deploy api-gateway to which environment: staging or production?" {
		t.Fatalf("after the first message: %s %+v", task.Status.State, task.Status.Message)
	}
	userSays(s, id, "staging")
	_, st, err := s.subscribe(id)
	if err != nil {
		t.Fatal(err)
	}
	a.run(context.Background(), s, id, nil)
	var kinds []string
	for ev := range st.events {
		switch {
		case ev.StatusUpdate != nil:
			kinds = append(kinds, string(ev.StatusUpdate.Status.State))
		case ev.ArtifactUpdate != nil:
			kinds = append(kinds, ev.ArtifactUpdate.Artifact.Name)
		}
	}
	want := []string{"TASK_STATE_WORKING"}
	for range 4 {
		want = append(want, "TASK_STATE_WORKING", "deploy log")
	}
	want = append(want, "deploy log", "deployment", "TASK_STATE_COMPLETED")
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	task, _ = s.get(id)
	if len(task.Artifacts) != 2 || len(task.Artifacts[0].Parts) != 5 {
		t.Errorf("artifacts: %+v", task.Artifacts)
	}
}

// TestAgentAuthRequired: production without the scope waits for a caller
// who has it.
func TestAgentAuthRequired(t *testing.T) {
	s := newStore(nil)
	id := newTask(t, s, "deploy api production")
	testAgent().run(context.Background(), s, id, func(tools.Scope) bool { return false })
	if task, _ := s.get(id); task.Status.State != StateAuthRequired {
		t.Errorf("state %s, want auth-required", task.Status.State)
	}
}
