package a2a_test

// Interop with the official Go SDKs for A2A: github.com/a2aproject/a2a-go/v2
// (protocol 1.0) and github.com/a2aproject/a2a-go v0.3.x (protocol 0.3).
// Their clients talk to our server (interop_v2_test.go and
// interop_v03_test.go), and our client talks to their servers (this
// file). These tests prove what tests of our own JSON cannot: that a real
// client finds our interface on the card, reads every result and event we
// send, and turns our error codes into the errors its users test for; and
// that our client does the same with a real server.

import (
	"context"
	"errors"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	v03 "github.com/a2aproject/a2a-go/a2a"
	v03srv "github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	sdksrv "github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// interopTimeout bounds each test. It is far longer than any test needs,
// even under -race on a slow machine; it is there so that a stream that
// never ends fails its own test, with its name, rather than the whole run
// at go test's deadline.
const interopTimeout = 30 * time.Second

// What our agent produces, whichever revision or SDK asks. The deploy
// tool takes four steps; each adds a line to the log, and the agent adds
// "deployed" at the end.
const interopDeployLog = "build image: done\npush image: done\nroll out: done\nhealth check: done\ndeployed\n"

var (
	// interopCount is the word_count tool's result for "read the wire":
	// 3 words, 13 characters. JSON numbers decode as float64.
	interopCount = map[string]any{"words": 3.0, "chars": 13.0}
	// interopDeployment is the "deployment" artifact's data after
	// "deploy api-gateway", answered with "staging".
	interopDeployment = map[string]any{"service": "api-gateway", "env": "staging", "status": "deployed",
		"url": "https://api-gateway.staging.example.test", "steps": 4.0}
)

// interopContext is the test's context, cut off after interopTimeout.
func interopContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), interopTimeout)
	t.Cleanup(cancel)
	return ctx
}

// interopAgent is an agent (ours or an SDK's) behind an httptest
// server, with a record of the A2A-Version header of every JSON-RPC
// request it received.
type interopAgent struct {
	URL  string
	HTTP *http.Client // closed with the server, so no connection outlives the test

	mu       sync.Mutex // guards versions
	versions []string   // A2A-Version of each POST, "" when absent
}

// interopServe starts an httptest server for h, closed when the test ends.
func interopServe(t *testing.T, h http.Handler) *interopAgent {
	ag := &interopAgent{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			ag.mu.Lock()
			ag.versions = append(ag.versions, r.Header.Get(a2a.VersionHeader))
			ag.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	ag.URL, ag.HTTP = hs.URL, hs.Client()
	return ag
}

// interopStart starts our server. step is the duration of each deploy
// step: short for the conversations, and far longer than any test for
// the cancel tests, so that only the cancel, never the clock, can stop a
// deploy that is under way.
func interopStart(t *testing.T, step time.Duration) *interopAgent {
	srv := a2a.NewServer(&a2a.Options{Tools: tools.New(&tools.Options{DeployStep: step})})
	ag := interopServe(t, srv)
	// Cleanups run last first: srv.Close ends the running tasks and the
	// open streams, and then the httptest server's Close has no handler
	// left to wait for.
	t.Cleanup(srv.Close)
	return ag
}

// checkVersions fails unless every request named the revision want in
// A2A-Version ("" for none, as 0.3 clients send).
func (ag *interopAgent) checkVersions(t *testing.T, want string) {
	t.Helper()
	ag.mu.Lock()
	defer ag.mu.Unlock()
	if len(ag.versions) == 0 {
		t.Fatal("the server received no JSON-RPC request")
	}
	for i, v := range ag.versions {
		if v != want {
			t.Errorf("request %d had %s %q, want %q", i+1, a2a.VersionHeader, v, want)
		}
	}
}

// interopCollect reads a stream of events to its end, or to its first error.
func interopCollect[E any](seq iter.Seq2[E, error]) ([]E, error) {
	var out []E
	for ev, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
	return out, nil
}

// echoWait is what makes an echo agent work until it is canceled.
const echoWait = "wait"

// echoV2 is a trivial agent for the 1.0 SDK's server: working, one
// artifact that echoes the message, completed. Told "wait", it works
// until canceled instead.
type echoV2 struct{}

func (echoV2) Execute(ctx context.Context, ec *sdksrv.ExecutorContext) iter.Seq2[sdk.Event, error] {
	return func(yield func(sdk.Event, error) bool) {
		if ec.StoredTask == nil && !yield(sdk.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		if !yield(sdk.NewStatusUpdateEvent(ec, sdk.TaskStateWorking, nil), nil) {
			return
		}
		var said string
		for _, p := range ec.Message.Parts {
			said += p.Text()
		}
		if said == echoWait {
			<-ctx.Done() // the SDK ends ctx once Cancel's event is in
			return
		}
		art := sdk.NewArtifactEvent(ec, sdk.NewTextPart("you said: "+said))
		art.Artifact.Name = "echo"
		art.LastChunk = true
		if !yield(art, nil) {
			return
		}
		yield(sdk.NewStatusUpdateEvent(ec, sdk.TaskStateCompleted, nil), nil)
	}
}

func (echoV2) Cancel(_ context.Context, ec *sdksrv.ExecutorContext) iter.Seq2[sdk.Event, error] {
	return func(yield func(sdk.Event, error) bool) {
		yield(sdk.NewStatusUpdateEvent(ec, sdk.TaskStateCanceled, nil), nil)
	}
}

// startV2SDKServer serves echoV2 with the 1.0 SDK: JSON-RPC at /, and a
// card naming that URL, which is known only once the server listens.
func startV2SDKServer(t *testing.T) *interopAgent {
	mux := http.NewServeMux()
	ag := interopServe(t, mux)
	// The SDK logs the errors it answers with (such as "cannot cancel a
	// completed task", which this test provokes); the test reads them
	// from the answers.
	quiet := sdksrv.WithLogger(slog.New(slog.DiscardHandler))
	mux.Handle("/", sdksrv.NewJSONRPCHandler(sdksrv.NewHandler(echoV2{}, quiet)))
	mux.Handle(a2a.CardPath, sdksrv.NewStaticAgentCardHandler(&sdk.AgentCard{
		Name: "echo", Description: "echoes", Version: "1.0.0",
		SupportedInterfaces: []*sdk.AgentInterface{sdk.NewAgentInterface(ag.URL+"/", sdk.TransportProtocolJSONRPC)},
		Capabilities:        sdk.AgentCapabilities{Streaming: true},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
	}))
	return ag
}

func interopSend(text string) a2a.SendMessageRequest {
	return a2a.SendMessageRequest{Message: a2a.Message{MessageID: "m-" + text, Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}}}
}

// interopCheckEcho checks a task our client read from an SDK server running
// an echo agent, in either revision.
func interopCheckEcho(t *testing.T, task *a2a.Task, text string) {
	t.Helper()
	if task == nil {
		t.Fatal("no task")
	}
	if task.Status.State != a2a.StateCompleted || len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 1 {
		t.Fatalf("task %s with artifacts %+v; want completed with one one-part artifact", task.Status.State, task.Artifacts)
	}
	if p := task.Artifacts[0].Parts[0]; p.Text == nil || *p.Text != "you said: "+text {
		t.Errorf("artifact part %+v; want the text %q", p, "you said: "+text)
	}
}

// interopCheckEchoStream checks the events of an echo task: the task,
// then working, the artifact and completed, all about that task.
func interopCheckEchoStream(t *testing.T, events []a2a.StreamResponse, text string) {
	t.Helper()
	var kinds []string
	ids := map[string]bool{}
	for _, ev := range events {
		switch {
		case ev.Task != nil:
			kinds = append(kinds, "task "+string(ev.Task.Status.State))
			ids[ev.Task.ID] = true
		case ev.StatusUpdate != nil:
			kinds = append(kinds, "status "+string(ev.StatusUpdate.Status.State))
			ids[ev.StatusUpdate.TaskID] = true
		case ev.ArtifactUpdate != nil:
			kinds = append(kinds, "artifact")
			ids[ev.ArtifactUpdate.TaskID] = true
			if p := ev.ArtifactUpdate.Artifact.Parts; len(p) != 1 || p[0].Text == nil || *p[0].Text != "you said: "+text {
				t.Errorf("artifact parts %+v; want the text %q", p, "you said: "+text)
			}
		default:
			kinds = append(kinds, "message")
		}
	}
	want := []string{"task " + string(a2a.StateSubmitted), "status " + string(a2a.StateWorking), "artifact", "status " + string(a2a.StateCompleted)}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("stream events (-want +got):\n%s", diff)
	}
	if len(ids) != 1 {
		t.Errorf("the events are about %d tasks, want one", len(ids))
	}
}

// interopCheckCancel starts an echo task that waits, without waiting
// for it, and cancels it.
func interopCheckCancel(t *testing.T, ctx context.Context, c *a2a.Client) {
	t.Helper()
	req := interopSend(echoWait)
	req.Configuration = &a2a.SendMessageConfiguration{ReturnImmediately: true}
	res, err := c.Send(ctx, req)
	if err != nil || res.Task == nil {
		t.Fatalf("Send, returning immediately: %+v, %v; want a task", res, err)
	}
	if s := res.Task.Status.State; s.Terminal() {
		t.Fatalf("returning immediately, the task is already %s", s)
	}
	task, err := c.Cancel(ctx, res.Task.ID)
	if err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	if task.ID != res.Task.ID || task.Status.State != a2a.StateCanceled {
		t.Errorf("Cancel answered %s, %s; want %s, canceled", task.ID, task.Status.State, res.Task.ID)
	}
}

// interopCheckCode fails unless err is the agent's JSON-RPC error with code.
func interopCheckCode(t *testing.T, err error, code int64) {
	t.Helper()
	var e *jsonrpc.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("error %v; want a JSON-RPC error with code %d", err, code)
	}
}

// interopUseEchoAgent calls every method of our client on an SDK echo
// agent and checks each answer: send, stream, get, the two errors, and a
// cancel.
func interopUseEchoAgent(t *testing.T, ctx context.Context, c *a2a.Client) {
	t.Helper()
	res, err := c.Send(ctx, interopSend("hello"))
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	interopCheckEcho(t, res.Task, "hello")

	var events []a2a.StreamResponse
	err = c.Stream(ctx, interopSend("again"), func(ev a2a.StreamResponse) error {
		events = append(events, ev)
		return nil
	})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	interopCheckEchoStream(t, events, "again")

	got, err := c.GetTask(ctx, res.Task.ID)
	if err != nil {
		t.Fatalf("GetTask: %v", err)
	}
	interopCheckEcho(t, &got, "hello")

	_, err = c.GetTask(ctx, "no-such-task")
	interopCheckCode(t, err, a2a.CodeTaskNotFound)
	_, err = c.Cancel(ctx, res.Task.ID)
	interopCheckCode(t, err, a2a.CodeTaskNotCancelable)
	interopCheckCancel(t, ctx, c)
}

// TestOurClientV2SDKServer: our client, reading the 1.0 SDK server's
// card, speaks 1.0 to it; every method reads the SDK's answers.
func TestOurClientV2SDKServer(t *testing.T) {
	ctx := interopContext(t)
	ag := startV2SDKServer(t)

	c, card, err := a2a.Resolve(ctx, ag.HTTP, ag.URL, "", "")
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if c.Version != a2a.Version10 || c.URL != ag.URL+"/" || card.Name != "echo" {
		t.Fatalf("Resolve chose %s at %s on card %q; want 1.0 at %s/ on card \"echo\"", c.Version, c.URL, card.Name, ag.URL)
	}

	interopUseEchoAgent(t, ctx, c)
	// The SDK's server does not check the header, so only the record
	// shows that our client sent it.
	ag.checkVersions(t, "1.0")
}

// echoV03 is the 0.3 SDK's version of echoV2.
type echoV03 struct{}

func (echoV03) Execute(ctx context.Context, rc *v03srv.RequestContext, q eventqueue.Queue) error {
	if rc.StoredTask == nil {
		if err := q.Write(ctx, v03.NewSubmittedTask(rc, rc.Message)); err != nil {
			return err
		}
	}
	if err := q.Write(ctx, v03.NewStatusUpdateEvent(rc, v03.TaskStateWorking, nil)); err != nil {
		return err
	}
	if textV03(rc.Message.Parts) == echoWait {
		<-ctx.Done() // the SDK ends ctx once Cancel's event is in
		return nil
	}
	art := v03.NewArtifactEvent(rc, v03.TextPart{Text: "you said: " + textV03(rc.Message.Parts)})
	art.Artifact.Name = "echo"
	art.LastChunk = true
	if err := q.Write(ctx, art); err != nil {
		return err
	}
	done := v03.NewStatusUpdateEvent(rc, v03.TaskStateCompleted, nil)
	done.Final = true // 0.3 servers end a stream at the event marked final
	return q.Write(ctx, done)
}

func (echoV03) Cancel(ctx context.Context, rc *v03srv.RequestContext, q eventqueue.Queue) error {
	ev := v03.NewStatusUpdateEvent(rc, v03.TaskStateCanceled, nil)
	ev.Final = true
	return q.Write(ctx, ev)
}

// TestOurClientV03SDKServer: our client, reading a 0.3 card (no
// supportedInterfaces), speaks 0.3 to the 0.3 SDK's server.
func TestOurClientV03SDKServer(t *testing.T) {
	ctx := interopContext(t)
	mux := http.NewServeMux()
	ag := interopServe(t, mux)
	mux.Handle("/", v03srv.NewJSONRPCHandler(v03srv.NewHandler(echoV03{})))
	mux.Handle(a2a.CardPath, v03srv.NewStaticAgentCardHandler(&v03.AgentCard{
		Name: "echo", Description: "echoes", Version: "0.3.0",
		URL: ag.URL + "/", PreferredTransport: v03.TransportProtocolJSONRPC, ProtocolVersion: "0.3.0",
		Capabilities:      v03.AgentCapabilities{Streaming: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
	}))

	c, card, err := a2a.Resolve(ctx, ag.HTTP, ag.URL, "", "")
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if c.Version != a2a.Version03 || c.URL != ag.URL+"/" || card.Name != "echo" {
		t.Fatalf("Resolve chose %s at %s on card %q; want 0.3 at %s/ on card \"echo\"", c.Version, c.URL, card.Name, ag.URL)
	}

	interopUseEchoAgent(t, ctx, c)
	ag.checkVersions(t, "")
}
