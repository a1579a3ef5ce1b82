package a2a_test

// The 1.0 SDK's client (github.com/a2aproject/a2a-go/v2) against our
// server. Shared helpers are in interop_test.go.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	sdkclient "github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/tools"
)

// dialV2 does what a user of the 1.0 SDK does: resolve the card, then
// make a client from it.
func dialV2(t *testing.T, ctx context.Context, ag *interopAgent, opts ...sdkclient.FactoryOption) *sdkclient.Client {
	t.Helper()
	card, err := agentcard.NewResolver(ag.HTTP).Resolve(ctx, ag.URL)
	if err != nil {
		t.Fatalf("the 1.0 SDK cannot read our card: %v", err)
	}
	client, err := sdkclient.NewFromCard(ctx, card, append(opts, sdkclient.WithJSONRPCTransport(ag.HTTP))...)
	if err != nil {
		t.Fatalf("the 1.0 SDK finds no interface it can use on our card: %v", err)
	}
	t.Cleanup(func() { client.Destroy() })
	return client
}

func userSaysV2(text string) *sdk.SendMessageRequest {
	return &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart(text))}
}

func sendV2(t *testing.T, ctx context.Context, c *sdkclient.Client, req *sdk.SendMessageRequest) *sdk.Task {
	t.Helper()
	res, err := c.SendMessage(ctx, req)
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	task, ok := res.(*sdk.Task)
	if !ok {
		t.Fatalf("SendMessage returned %T, want a task", res)
	}
	return task
}

func statusTextV2(s sdk.TaskStatus) string {
	if s.Message == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range s.Message.Parts {
		b.WriteString(p.Text())
	}
	return b.String()
}

// checkDeployV2 checks the artifact events of a deploy: the log streamed
// in chunks (the first new, the others appended, the last marked so),
// then the deployment itself.
func checkDeployV2(t *testing.T, events []sdk.Event) {
	t.Helper()
	var log strings.Builder
	var chunks, lastChunks int
	var deployment any
	for _, ev := range events {
		au, ok := ev.(*sdk.TaskArtifactUpdateEvent)
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
			for _, p := range au.Artifact.Parts {
				log.WriteString(p.Text())
			}
		case "deployment":
			if len(au.Artifact.Parts) != 1 {
				t.Fatalf("the deployment artifact has %d parts, want one data part", len(au.Artifact.Parts))
			}
			deployment = au.Artifact.Parts[0].Data()
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

func lastStateV2(t *testing.T, events []sdk.Event) sdk.TaskState {
	t.Helper()
	if len(events) == 0 {
		t.Fatal("the stream had no events")
	}
	su, ok := events[len(events)-1].(*sdk.TaskStatusUpdateEvent)
	if !ok {
		t.Fatalf("the stream ended with %T, want a status update", events[len(events)-1])
	}
	return su.Status.State
}

// TestV2SDKPicksOurInterface: the card lists one URL twice, for 1.0 and
// for 0.3; the SDK must choose 1.0, and so send A2A-Version: 1.0.
func TestV2SDKPicksOurInterface(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	card, err := agentcard.NewResolver(ag.HTTP).Resolve(ctx, ag.URL)
	if err != nil {
		t.Fatal(err)
	}
	want := []*sdk.AgentInterface{
		{URL: ag.URL + "/", ProtocolBinding: sdk.TransportProtocolJSONRPC, ProtocolVersion: "1.0"},
		{URL: ag.URL + "/", ProtocolBinding: sdk.TransportProtocolJSONRPC, ProtocolVersion: "0.3"},
	}
	if diff := cmp.Diff(want, card.SupportedInterfaces); diff != "" {
		t.Errorf("supportedInterfaces as the SDK read them (-want +got):\n%s", diff)
	}
	if !card.Capabilities.Streaming || len(card.Skills) != 4 {
		t.Errorf("capabilities %+v and %d skills; want streaming and 4 skills", card.Capabilities, len(card.Skills))
	}

	client := dialV2(t, ctx, ag)
	task := sendV2(t, ctx, client, userSaysV2("count read the wire"))
	if task.Status.State != sdk.TaskStateCompleted {
		t.Errorf("state %s, want completed", task.Status.State)
	}
	ag.checkVersions(t, "1.0")
}

// TestV2SDKDeployConversation is the whole conversation: the agent asks
// which environment, the caller answers in the same task over a stream,
// and the deploy streams its progress and log to completion.
func TestV2SDKDeployConversation(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	client := dialV2(t, ctx, ag)

	task := sendV2(t, ctx, client, userSaysV2("deploy api-gateway"))
	if task.Status.State != sdk.TaskStateInputRequired {
		t.Fatalf("after \"deploy api-gateway\": state %s, want input-required", task.Status.State)
	}
	if q := statusTextV2(task.Status); !strings.Contains(q, "staging or production?") {
		t.Errorf("the agent asks %q; want it to ask \"staging or production?\"", q)
	}
	if m := task.Status.Message; m == nil || m.Role != sdk.MessageRoleAgent {
		t.Errorf("the question is %+v; want a message with role agent", m)
	}

	answer := &sdk.SendMessageRequest{Message: sdk.NewMessageForTask(sdk.MessageRoleUser, task, sdk.NewTextPart("staging"))}
	events, err := interopCollect(client.SendStreamingMessage(ctx, answer))
	if err != nil {
		t.Fatalf("SendStreamingMessage: %v (after %d events)", err, len(events))
	}
	if first, ok := events[0].(*sdk.Task); !ok || first.ID != task.ID || first.Status.State != sdk.TaskStateWorking {
		t.Errorf("first event %#v; want the task, working", events[0])
	}
	for i, ev := range events {
		if id := ev.TaskInfo().TaskID; id != task.ID {
			t.Errorf("event %d is about task %q, want %q", i+1, id, task.ID)
		}
	}
	if s := lastStateV2(t, events); s != sdk.TaskStateCompleted {
		t.Errorf("the stream ended at %s, want completed", s)
	}
	checkDeployV2(t, events)

	got, err := client.GetTask(ctx, &sdk.GetTaskRequest{ID: task.ID})
	if err != nil {
		t.Fatalf("GetTask: %v", err)
	}
	if got.Status.State != sdk.TaskStateCompleted || len(got.Artifacts) != 2 {
		t.Fatalf("GetTask: state %s with %d artifacts; want completed with the log and the deployment", got.Status.State, len(got.Artifacts))
	}
	var log strings.Builder
	for _, p := range got.Artifacts[0].Parts {
		log.WriteString(p.Text())
	}
	if got.Artifacts[0].Name != "deploy log" || log.String() != interopDeployLog {
		t.Errorf("GetTask: first artifact %q reads %q; want the deploy log, its chunks joined", got.Artifacts[0].Name, log.String())
	}
	// History: the request, the question, the answer, then the agent's
	// progress messages; the first three are the conversation.
	if len(got.History) < 3 || got.History[0].Role != sdk.MessageRoleUser ||
		got.History[1].Role != sdk.MessageRoleAgent || got.History[2].Parts[0].Text() != "staging" {
		t.Errorf("GetTask: history does not start request, question, answer: %d messages", len(got.History))
	}
}

// TestV2SDKCountListGet: a task that completes at once, read back with
// GetTask and found with ListTasks.
func TestV2SDKCountListGet(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	client := dialV2(t, ctx, ag)

	count := sendV2(t, ctx, client, userSaysV2("count read the wire"))
	if count.Status.State != sdk.TaskStateCompleted || len(count.Artifacts) != 1 || len(count.Artifacts[0].Parts) != 1 {
		t.Fatalf("count: state %s with artifacts %+v; want completed with one one-part artifact", count.Status.State, count.Artifacts)
	}
	if diff := cmp.Diff(interopCount, count.Artifacts[0].Parts[0].Data()); diff != "" {
		t.Errorf("count artifact data (-want +got):\n%s", diff)
	}
	asking := sendV2(t, ctx, client, userSaysV2("deploy api-gateway"))

	got, err := client.GetTask(ctx, &sdk.GetTaskRequest{ID: count.ID})
	if err != nil {
		t.Fatalf("GetTask: %v", err)
	}
	if got.ID != count.ID || got.ContextID != count.ContextID || got.Status.State != sdk.TaskStateCompleted {
		t.Errorf("GetTask: %s in %s, %s; want %s in %s, completed", got.ID, got.ContextID, got.Status.State, count.ID, count.ContextID)
	}
	if diff := cmp.Diff(interopCount, got.Artifacts[0].Parts[0].Data()); diff != "" {
		t.Errorf("GetTask artifact data (-want +got):\n%s", diff)
	}

	all, err := client.ListTasks(ctx, &sdk.ListTasksRequest{})
	if err != nil {
		t.Fatalf("ListTasks: %v", err)
	}
	var ids []sdk.TaskID
	for _, task := range all.Tasks {
		ids = append(ids, task.ID)
		if len(task.Artifacts) != 0 {
			t.Errorf("ListTasks without includeArtifacts returned artifacts for %s", task.ID)
		}
	}
	// Most recently changed first.
	if diff := cmp.Diff([]sdk.TaskID{asking.ID, count.ID}, ids); diff != "" || all.TotalSize != 2 || all.NextPageToken != "" {
		t.Errorf("ListTasks: total %d, next page %q, ids (-want +got):\n%s", all.TotalSize, all.NextPageToken, diff)
	}

	// A page at a time: the token from the first page, passed back as
	// it came, gives the second.
	first, err := client.ListTasks(ctx, &sdk.ListTasksRequest{PageSize: 1})
	if err != nil {
		t.Fatalf("ListTasks page 1: %v", err)
	}
	second, err := client.ListTasks(ctx, &sdk.ListTasksRequest{PageSize: 1, PageToken: first.NextPageToken})
	if err != nil {
		t.Fatalf("ListTasks page 2: %v", err)
	}
	if len(first.Tasks) != 1 || first.Tasks[0].ID != asking.ID || first.NextPageToken == "" ||
		len(second.Tasks) != 1 || second.Tasks[0].ID != count.ID || second.NextPageToken != "" {
		t.Errorf("ListTasks by pages of 1: %d tasks then %d, tokens %q then %q; want the deploy, then the count, then no token",
			len(first.Tasks), len(second.Tasks), first.NextPageToken, second.NextPageToken)
	}

	done, err := client.ListTasks(ctx, &sdk.ListTasksRequest{Status: sdk.TaskStateCompleted, IncludeArtifacts: true})
	if err != nil {
		t.Fatalf("ListTasks completed: %v", err)
	}
	if len(done.Tasks) != 1 || done.Tasks[0].ID != count.ID || len(done.Tasks[0].Artifacts) != 1 {
		t.Errorf("ListTasks completed with artifacts: %d tasks; want the count task with its artifact", len(done.Tasks))
	}
}

// TestV2SDKCancelRunningDeploy cancels a deploy midway, from inside the
// stream that follows it: CancelTask answers canceled, and the stream
// ends with the canceled status.
func TestV2SDKCancelRunningDeploy(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Hour)
	client := dialV2(t, ctx, ag)

	var id sdk.TaskID
	var events []sdk.Event
	for ev, err := range client.SendStreamingMessage(ctx, userSaysV2("deploy api-gateway to staging")) {
		if err != nil {
			t.Fatalf("SendStreamingMessage: %v", err)
		}
		events = append(events, ev)
		su, ok := ev.(*sdk.TaskStatusUpdateEvent)
		if !ok || su.Status.State != sdk.TaskStateWorking || id != "" {
			continue
		}
		// The deploy is under way, and its first step takes an hour.
		id = su.TaskID
		canceled, err := client.CancelTask(ctx, &sdk.CancelTaskRequest{ID: id})
		if err != nil {
			t.Fatalf("CancelTask: %v", err)
		}
		if canceled.Status.State != sdk.TaskStateCanceled {
			t.Errorf("CancelTask answered %s, want canceled", canceled.Status.State)
		}
	}
	if id == "" {
		t.Fatal("the stream ended without the deploy working")
	}
	if s := lastStateV2(t, events); s != sdk.TaskStateCanceled {
		t.Errorf("the stream ended at %s, want canceled", s)
	}
	got, err := client.GetTask(ctx, &sdk.GetTaskRequest{ID: id})
	if err != nil || got.Status.State != sdk.TaskStateCanceled {
		t.Errorf("GetTask after cancel: %v, %v; want canceled", got, err)
	}
}

// TestV2SDKSubscribe subscribes to a task that waits for an answer: the
// stream opens with the task as it is, and carries what the answer sets
// off, to the end.
func TestV2SDKSubscribe(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	client := dialV2(t, ctx, ag)

	task := sendV2(t, ctx, client, userSaysV2("deploy api-gateway"))
	var events []sdk.Event
	for ev, err := range client.SubscribeToTask(ctx, &sdk.SubscribeToTaskRequest{ID: task.ID}) {
		if err != nil {
			t.Fatalf("SubscribeToTask: %v (after %d events)", err, len(events))
		}
		events = append(events, ev)
		if len(events) > 1 {
			continue
		}
		first, ok := ev.(*sdk.Task)
		if !ok || first.Status.State != sdk.TaskStateInputRequired {
			t.Fatalf("first event %#v; want the task, input-required", ev)
		}
		// Answer from outside the stream, without waiting for the deploy.
		answer := &sdk.SendMessageRequest{
			Message: sdk.NewMessageForTask(sdk.MessageRoleUser, task, sdk.NewTextPart("staging")),
			Config:  &sdk.SendMessageConfig{ReturnImmediately: true},
		}
		if got := sendV2(t, ctx, client, answer); got.Status.State != sdk.TaskStateWorking {
			t.Errorf("the answer, with returnImmediately: state %s, want working", got.Status.State)
		}
	}
	if s := lastStateV2(t, events); s != sdk.TaskStateCompleted {
		t.Errorf("the subscription ended at %s, want completed", s)
	}
	checkDeployV2(t, events)
}

// TestV2SDKErrors: our error codes become the SDK's sentinel errors, and
// the ErrorInfo metadata in our 1.0 error data reaches the caller.
func TestV2SDKErrors(t *testing.T) {
	ctx := interopContext(t)
	ag := interopStart(t, time.Millisecond)
	client := dialV2(t, ctx, ag)
	done := sendV2(t, ctx, client, userSaysV2("count read the wire"))

	tests := []struct {
		name   string
		call   func() error
		want   error
		taskID sdk.TaskID
	}{
		{"GetTask unknown", func() error {
			_, err := client.GetTask(ctx, &sdk.GetTaskRequest{ID: "no-such-task"})
			return err
		}, sdk.ErrTaskNotFound, "no-such-task"},
		{"CancelTask completed", func() error {
			_, err := client.CancelTask(ctx, &sdk.CancelTaskRequest{ID: done.ID})
			return err
		}, sdk.ErrTaskNotCancelable, done.ID},
		{"SubscribeToTask completed", func() error {
			_, err := interopCollect(client.SubscribeToTask(ctx, &sdk.SubscribeToTaskRequest{ID: done.ID}))
			return err
		}, sdk.ErrUnsupportedOperation, done.ID},
		{"SendMessage to completed task", func() error {
			_, err := client.SendMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessageForTask(sdk.MessageRoleUser, done, sdk.NewTextPart("again"))})
			return err
		}, sdk.ErrUnsupportedOperation, done.ID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v; want errors.Is %v", err, tt.want)
			}
			var e *sdk.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *a2a.Error", err)
			}
			meta, _ := e.ErrorInfo().Value["metadata"].(map[string]string)
			if meta["taskId"] != string(tt.taskID) {
				t.Errorf("ErrorInfo metadata %v; want taskId %q", e.ErrorInfo().Value["metadata"], tt.taskID)
			}
		})
	}
}

// bearerV2 sends a bearer token with every call, as an SDK user whose
// credentials come from elsewhere would. (The SDK's own AuthInterceptor
// sends only what the card's securityRequirements ask for, and our card
// leaves those out: see TestV2SDKRejectsSpecSecurityRequirements.)
type bearerV2 string

func (b bearerV2) Before(ctx context.Context, req *sdkclient.Request) (context.Context, any, error) {
	req.ServiceParams.Append("Authorization", "Bearer "+string(b))
	return ctx, nil, nil
}

func (bearerV2) After(context.Context, *sdkclient.Response) error { return nil }

// TestV2SDKAuthRequired: a caller whose token lacks deploy:production
// answers "production" and the task goes auth-required; the same answer
// with a token that has the scope, in the same task, deploys. A caller
// without a token is refused at the door, with HTTP 401.
func TestV2SDKAuthRequired(t *testing.T) {
	ctx := interopContext(t)
	tokens, err := tools.ParseTokens([]string{"dev", "ops:deploy:production"})
	if err != nil {
		t.Fatal(err)
	}
	srv := a2a.NewServer(&a2a.Options{Tools: tools.New(&tools.Options{DeployStep: time.Millisecond}), Tokens: tokens})
	ag := interopServe(t, srv)
	t.Cleanup(srv.Close)
	dev := dialV2(t, ctx, ag, sdkclient.WithCallInterceptors(bearerV2("dev")))
	ops := dialV2(t, ctx, ag, sdkclient.WithCallInterceptors(bearerV2("ops")))

	task := sendV2(t, ctx, dev, userSaysV2("deploy api-gateway"))
	if task.Status.State != sdk.TaskStateInputRequired {
		t.Fatalf("state %s, want input-required", task.Status.State)
	}
	answer := &sdk.SendMessageRequest{Message: sdk.NewMessageForTask(sdk.MessageRoleUser, task, sdk.NewTextPart("production"))}
	task = sendV2(t, ctx, dev, answer)
	if task.Status.State != sdk.TaskStateAuthRequired || !strings.Contains(statusTextV2(task.Status), "deploy:production") {
		t.Fatalf("production without the scope: %s, %q; want auth-required naming deploy:production", task.Status.State, statusTextV2(task.Status))
	}
	answer = &sdk.SendMessageRequest{Message: sdk.NewMessageForTask(sdk.MessageRoleUser, task, sdk.NewTextPart("production"))}
	task = sendV2(t, ctx, ops, answer)
	if task.Status.State != sdk.TaskStateCompleted || len(task.Artifacts) != 2 {
		t.Fatalf("production with the scope: %s with %d artifacts; want completed with 2", task.Status.State, len(task.Artifacts))
	}
	if env := task.Artifacts[1].Parts[0].Data().(map[string]any)["env"]; env != "production" {
		t.Errorf("deployed to %v, want production", env)
	}

	// The SDK's JSON-RPC transport reports any status but 200 as a plain
	// error, without reading the JSON-RPC error in the body.
	_, err = dialV2(t, ctx, ag).GetTask(ctx, &sdk.GetTaskRequest{ID: task.ID})
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("GetTask without a token: %v; want a 401", err)
	}
}
