package a2a_test

// The 0.3 SDK's client (github.com/a2aproject/a2a-go v0.3.x) against our
// server, which it reaches without an A2A-Version header. Shared helpers
// are in interop_test.go.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	v03 "github.com/a2aproject/a2a-go/a2a"
	v03client "github.com/a2aproject/a2a-go/a2aclient"
	v03card "github.com/a2aproject/a2a-go/a2aclient/agentcard"
	"github.com/google/go-cmp/cmp"
)

// dialV03 does what a user of the 0.3 SDK does: resolve the card, then
// make a client from it.
func dialV03(t *testing.T, ctx context.Context, ag *interopAgent, cfg v03client.Config) (*v03client.Client, *v03.AgentCard) {
	t.Helper()
	card, err := v03card.NewResolver(ag.HTTP).Resolve(ctx, ag.URL)
	if err != nil {
		t.Fatalf("the 0.3 SDK cannot read our card: %v", err)
	}
	client, err := v03client.NewFromCard(ctx, card, v03client.WithJSONRPCTransport(ag.HTTP), v03client.WithConfig(cfg))
	if err != nil {
		t.Fatalf("the 0.3 SDK finds no interface it can use on our card: %v", err)
	}
	t.Cleanup(func() { client.Destroy() })
	return client, card
}

func userSaysV03(text string) *v03.MessageSendParams {
	return &v03.MessageSendParams{Message: v03.NewMessage(v03.MessageRoleUser, v03.TextPart{Text: text})}
}

func sendV03(t *testing.T, ctx context.Context, c *v03client.Client, req *v03.MessageSendParams) *v03.Task {
	t.Helper()
	res, err := c.SendMessage(ctx, req)
	if err != nil {
		t.Fatalf("message/send: %v", err)
	}
	task, ok := res.(*v03.Task)
	if !ok {
		t.Fatalf("message/send returned %T, want a task", res)
	}
	return task
}

func textV03(parts v03.ContentParts) string {
	var b strings.Builder
	for _, p := range parts {
		if tp, ok := p.(v03.TextPart); ok {
			b.WriteString(tp.Text)
		}
	}
	return b.String()
}

func dataV03(t *testing.T, a *v03.Artifact) map[string]any {
	t.Helper()
	if len(a.Parts) != 1 {
		t.Fatalf("artifact %q has %d parts, want one data part", a.Name, len(a.Parts))
	}
	dp, ok := a.Parts[0].(v03.DataPart)
	if !ok {
		t.Fatalf("artifact %q holds %T, want a data part", a.Name, a.Parts[0])
	}
	return dp.Data
}

// checkDeployV03 checks the artifact events of a deploy, as
// checkDeployV2 does for 1.0.
func checkDeployV03(t *testing.T, events []v03.Event) {
	t.Helper()
	var log strings.Builder
	var chunks, lastChunks int
	var deployment map[string]any
	for _, ev := range events {
		au, ok := ev.(*v03.TaskArtifactUpdateEvent)
		if !ok {
			continue
		}
		switch au.Artifact.Name {
		case "deploy log":
			if au.Append != (chunks > 0) {
				t.Errorf("deploy log chunk %d has append %v; only the first chunk should not append", chunks+1, au.Append)
			}
			chunks++
			if au.LastChunk {
				lastChunks++
			}
			log.WriteString(textV03(au.Artifact.Parts))
		case "deployment":
			deployment = dataV03(t, au.Artifact)
		default:
			t.Errorf("unexpected artifact %q", au.Artifact.Name)
		}
	}
	if log.String() != interopDeployLog {
		t.Errorf("deploy log streamed in %d chunks reads %q, want %q", chunks, log.String(), interopDeployLog)
	}
	if lastChunks != 1 {
		t.Errorf("%d deploy log chunks say lastChunk, want 1", lastChunks)
	}
	if diff := cmp.Diff(interopDeployment, deployment); diff != "" {
		t.Errorf("deployment artifact (-want +got):\n%s", diff)
	}
}

// lastStatusV03 returns the state the stream ended at, and checks that
// 0.3's "final" is set on that status event and on no other.
func lastStatusV03(t *testing.T, events []v03.Event) v03.TaskState {
	t.Helper()
	if len(events) == 0 {
		t.Fatal("the stream had no events")
	}
	for i, ev := range events[:len(events)-1] {
		if su, ok := ev.(*v03.TaskStatusUpdateEvent); ok && su.Final {
			t.Errorf("event %d (%s) says final, but the stream went on", i+1, su.Status.State)
		}
	}
	su, ok := events[len(events)-1].(*v03.TaskStatusUpdateEvent)
	if !ok {
		t.Fatalf("the stream ended with %T, want a status update", events[len(events)-1])
	}
	if !su.Final {
		t.Errorf("the last status update (%s) does not say final", su.Status.State)
	}
	return su.Status.State
}

// TestV03SDKReadsOurCard: the 0.3 SDK reads the 0.3 fields of our one
// card, and so speaks 0.3: no A2A-Version header.
func TestV03SDKReadsOurCard(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	client, card := dialV03(t, ctx, ag, v03client.Config{})
	if card.URL != ag.URL+"/" || card.PreferredTransport != v03.TransportProtocolJSONRPC ||
		!strings.HasPrefix(card.ProtocolVersion, "0.3") || !card.Capabilities.Streaming {
		t.Errorf("card as the 0.3 SDK read it: url %q, transport %q, version %q, streaming %v; want %s/, JSONRPC, 0.3.x, true",
			card.URL, card.PreferredTransport, card.ProtocolVersion, card.Capabilities.Streaming, ag.URL)
	}
	if len(card.Skills) != 4 {
		t.Errorf("%d skills, want 4", len(card.Skills))
	}

	task := sendV03(t, ctx, client, userSaysV03("count read the wire"))
	if task.Status.State != v03.TaskStateCompleted || len(task.Artifacts) != 1 {
		t.Fatalf("count: state %s with %d artifacts; want completed with one", task.Status.State, len(task.Artifacts))
	}
	if diff := cmp.Diff(interopCount, dataV03(t, task.Artifacts[0])); diff != "" {
		t.Errorf("count artifact data (-want +got):\n%s", diff)
	}
	got, err := client.GetTask(ctx, &v03.TaskQueryParams{ID: task.ID})
	if err != nil || got.Status.State != v03.TaskStateCompleted || len(got.Artifacts) != 1 {
		t.Errorf("tasks/get: %+v, %v; want the completed count task", got, err)
	}
	ag.checkVersions(t, "")
}

// TestV03SDKDeployConversation is the deploy conversation in 0.3:
// message/send for the question, message/stream for the answer.
func TestV03SDKDeployConversation(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	client, _ := dialV03(t, ctx, ag, v03client.Config{})

	task := sendV03(t, ctx, client, userSaysV03("deploy api-gateway"))
	if task.Status.State != v03.TaskStateInputRequired {
		t.Fatalf("after \"deploy api-gateway\": state %s, want input-required", task.Status.State)
	}
	if m := task.Status.Message; m == nil || m.Role != v03.MessageRoleAgent || !strings.Contains(textV03(m.Parts), "staging or production?") {
		t.Errorf("the question is %+v; want the agent asking \"staging or production?\"", m)
	}

	answer := &v03.MessageSendParams{Message: v03.NewMessageForTask(v03.MessageRoleUser, task, v03.TextPart{Text: "staging"})}
	events, err := interopCollect(client.SendStreamingMessage(ctx, answer))
	if err != nil {
		t.Fatalf("message/stream: %v (after %d events)", err, len(events))
	}
	if first, ok := events[0].(*v03.Task); !ok || first.ID != task.ID || first.Status.State != v03.TaskStateWorking {
		t.Errorf("first event %#v; want the task, working", events[0])
	}
	for i, ev := range events {
		if id := ev.TaskInfo().TaskID; id != task.ID {
			t.Errorf("event %d is about task %q, want %q", i+1, id, task.ID)
		}
	}
	if s := lastStatusV03(t, events); s != v03.TaskStateCompleted {
		t.Errorf("the stream ended at %s, want completed", s)
	}
	checkDeployV03(t, events)

	got, err := client.GetTask(ctx, &v03.TaskQueryParams{ID: task.ID})
	if err != nil {
		t.Fatalf("tasks/get: %v", err)
	}
	if got.Status.State != v03.TaskStateCompleted || len(got.Artifacts) != 2 || textV03(got.Artifacts[0].Parts) != interopDeployLog {
		t.Errorf("tasks/get: state %s with %d artifacts; want completed with the whole deploy log and the deployment", got.Status.State, len(got.Artifacts))
	}
}

// TestV03SDKCancel starts a deploy without waiting for it (blocking:
// false, the SDK's polling mode) and cancels it.
func TestV03SDKCancel(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Hour)
	client, _ := dialV03(t, ctx, ag, v03client.Config{Polling: true})

	task := sendV03(t, ctx, client, userSaysV03("deploy api-gateway to staging"))
	if task.Status.State.Terminal() {
		t.Fatalf("with blocking false the deploy is already %s", task.Status.State)
	}
	canceled, err := client.CancelTask(ctx, &v03.TaskIDParams{ID: task.ID})
	if err != nil {
		t.Fatalf("tasks/cancel: %v", err)
	}
	if canceled.Status.State != v03.TaskStateCanceled {
		t.Errorf("tasks/cancel answered %s, want canceled", canceled.Status.State)
	}
	got, err := client.GetTask(ctx, &v03.TaskQueryParams{ID: task.ID})
	if err != nil || got.Status.State != v03.TaskStateCanceled {
		t.Errorf("tasks/get after cancel: %v, %v; want canceled", got, err)
	}
	_, err = client.CancelTask(ctx, &v03.TaskIDParams{ID: task.ID})
	if !errors.Is(err, v03.ErrTaskNotCancelable) {
		t.Errorf("canceling twice: %v; want ErrTaskNotCancelable", err)
	}
}

// TestV03SDKResubscribe: tasks/resubscribe to a task that waits for an
// answer opens with the task, and follows it to the end.
func TestV03SDKResubscribe(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	client, _ := dialV03(t, ctx, ag, v03client.Config{})

	task := sendV03(t, ctx, client, userSaysV03("deploy api-gateway"))
	var events []v03.Event
	for ev, err := range client.ResubscribeToTask(ctx, &v03.TaskIDParams{ID: task.ID}) {
		if err != nil {
			t.Fatalf("tasks/resubscribe: %v (after %d events)", err, len(events))
		}
		events = append(events, ev)
		if len(events) > 1 {
			continue
		}
		if first, ok := ev.(*v03.Task); !ok || first.Status.State != v03.TaskStateInputRequired {
			t.Fatalf("first event %#v; want the task, input-required", ev)
		}
		noWait := false
		answer := &v03.MessageSendParams{
			Message: v03.NewMessageForTask(v03.MessageRoleUser, task, v03.TextPart{Text: "staging"}),
			Config:  &v03.MessageSendConfig{Blocking: &noWait},
		}
		if got := sendV03(t, ctx, client, answer); got.Status.State != v03.TaskStateWorking {
			t.Errorf("the answer, with blocking false: state %s, want working", got.Status.State)
		}
	}
	if s := lastStatusV03(t, events); s != v03.TaskStateCompleted {
		t.Errorf("the subscription ended at %s, want completed", s)
	}
	checkDeployV03(t, events)
}

// TestV03SDKErrors: our 0.3 error codes become the SDK's sentinel errors,
// and our error data (an object in 0.3) reaches the caller as details.
func TestV03SDKErrors(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	client, _ := dialV03(t, ctx, ag, v03client.Config{})
	done := sendV03(t, ctx, client, userSaysV03("count read the wire"))

	tests := []struct {
		name   string
		call   func() error
		want   error
		taskID v03.TaskID
	}{
		{"tasks/get unknown", func() error {
			_, err := client.GetTask(ctx, &v03.TaskQueryParams{ID: "no-such-task"})
			return err
		}, v03.ErrTaskNotFound, "no-such-task"},
		{"tasks/cancel completed", func() error {
			_, err := client.CancelTask(ctx, &v03.TaskIDParams{ID: done.ID})
			return err
		}, v03.ErrTaskNotCancelable, done.ID},
		{"tasks/resubscribe completed", func() error {
			_, err := interopCollect(client.ResubscribeToTask(ctx, &v03.TaskIDParams{ID: done.ID}))
			return err
		}, v03.ErrUnsupportedOperation, done.ID},
		{"message/send to completed task", func() error {
			_, err := client.SendMessage(ctx, &v03.MessageSendParams{Message: v03.NewMessageForTask(v03.MessageRoleUser, done, v03.TextPart{Text: "again"})})
			return err
		}, v03.ErrUnsupportedOperation, done.ID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v; want errors.Is %v", err, tt.want)
			}
			var e *v03.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *a2a.Error", err)
			}
			if e.Details["taskId"] != string(tt.taskID) {
				t.Errorf("error details %v; want taskId %q", e.Details, tt.taskID)
			}
		})
	}
}
