package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/tools"
)

// modernPost sends a 2026-07-28 request over HTTP, with the headers that
// repeat its method and name.
func modernPost(t *testing.T, ctx context.Context, url, method, name, params string) *http.Response {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":"` + method + `","method":"` + method + `","params":{` + params +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", ModernVersion)
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestHTTPListen: over HTTP a subscriptions/listen answer is an SSE
// stream that stays open: first the acknowledgment, then a message for
// each deploy another client makes, each tagged with the listen
// request's id. Closing the stream ends the subscription, and the server
// forgets it.
func TestHTTPListen(t *testing.T) {
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"})
	h := srv.HTTPHandler(nil)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); ts.Close() })
	url := ts.URL + Endpoint

	ctx, cancel := context.WithCancel(context.Background())
	resp := modernPost(t, ctx, url, "subscriptions/listen", "", `"notifications":{"resourceSubscriptions":["wirelab://deploys"]},`)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("listen: %s %q, want 200 and an SSE stream", resp.Status, ct)
	}
	stream := events(resp)
	tag := `"_meta":{"io.modelcontextprotocol/subscriptionId":"subscriptions/listen"}`
	if ack := <-stream; !strings.Contains(ack, `"notifications/subscriptions/acknowledged"`) || !strings.Contains(ack, tag) {
		t.Fatalf("first event %s, want the acknowledgment with %s", ack, tag)
	}
	deploy := modernPost(t, context.Background(), url, "tools/call", "deploy_service", `"name":"deploy_service","arguments":{"service":"api","env":"staging"},`)
	if body := readAll(t, deploy); !strings.Contains(body, `"status":"deployed"`) {
		t.Fatalf("deploy: %s", body)
	}
	if got := <-stream; !strings.Contains(got, `"notifications/resources/updated"`) || !strings.Contains(got, tag) || !strings.Contains(got, `"uri":"wirelab://deploys"`) {
		t.Errorf("after a deploy the stream said %s, want notifications/resources/updated for wirelab://deploys with %s", got, tag)
	}
	cancel()
	for range stream {
	}
	// The handler may still be on its way out; give it a moment to let
	// go of the listener.
	deadline := time.Now().Add(answerWait)
	for {
		srv.mu.Lock()
		n := len(srv.listeners)
		srv.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d listener(s) left %v after the client closed its stream", n, answerWait)
		}
		time.Sleep(time.Millisecond)
	}
}

// listenTasks opens a subscriptions/listen stream over HTTP for the
// caller with token, from a client that declared the tasks extension
// (or, with bare, one that did not), asking to hear about ids.
func listenTasks(t *testing.T, ctx context.Context, url, token string, bare bool, ids ...string) *http.Response {
	t.Helper()
	list, _ := json.Marshal(ids)
	meta := taskMeta
	if bare {
		meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	body := `{"jsonrpc":"2.0","id":"hear","method":"subscriptions/listen","params":{"notifications":{"taskIds":` + string(list) + `},` + meta + `}}`
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", ModernVersion)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestTaskNotifications: a listen stream that names a task hears each of
// its changes as notifications/tasks, the whole task as tasks/get would
// give it, starting with its state when the stream opened and ending
// with its result; steps come in order. Another caller's listen for the
// same id is acknowledged without it and hears nothing; a client without
// the extension is refused -32021; a task that finished before the
// stream opened is told once, finished.
func TestTaskNotifications(t *testing.T) {
	ts, err := tools.ParseTokens([]string{"alice", "bob"})
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(tools.New(&tools.Options{DeployStep: 20 * time.Millisecond}), &ServerOptions{Version: "test"})
	h := srv.HTTPHandler(&HTTPOptions{Tokens: ts})
	web := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); web.Close(); srv.Close() })
	url := web.URL + Endpoint

	deploy := func() string {
		t.Helper()
		w := postModernAs(h, "alice", "tools/call", "deploy_service", `"name":"deploy_service","arguments":{"service":"api","env":"staging"}`)
		var resp struct{ Result TaskResult }
		if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || resp.Result.ResultType != ResultTask {
			t.Fatalf("deploy: %d %s, want a task", w.Code, w.Body)
		}
		return resp.Result.TaskID
	}
	next := func(stream <-chan string) string {
		t.Helper()
		select {
		case ev, ok := <-stream:
			if !ok {
				t.Fatal("the stream ended")
			}
			return ev
		case <-time.After(answerWait):
			t.Fatalf("no event within %v", answerWait)
			return ""
		}
	}
	ack := func(stream <-chan string) string {
		t.Helper()
		a := next(stream)
		if !strings.Contains(a, `"notifications/subscriptions/acknowledged"`) || !strings.Contains(a, `"io.modelcontextprotocol/subscriptionId":"hear"`) {
			t.Fatalf("first event %s, want the acknowledgment", a)
		}
		return a
	}
	type note struct {
		Method string
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
			Task
		}
	}

	id := deploy()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bob := events(listenTasks(t, ctx, url, "bob", false, id))
	if a := ack(bob); !strings.Contains(a, `"notifications":{}`) {
		t.Errorf("bob's acknowledgment %s agrees to alice's task", a)
	}
	alice := events(listenTasks(t, ctx, url, "alice", false, id, id, "NO2SUCH3TASK4EVER5EXISTED6"))
	if a := ack(alice); !strings.Contains(a, `"notifications":{"taskIds":["`+id+`"]}`) {
		t.Errorf("alice's acknowledgment %s, want her task alone, once", a)
	}
	var steps []string
	for {
		ev := next(alice)
		var n note
		if err := json.Unmarshal([]byte(ev), &n); err != nil || n.Method != "notifications/tasks" || n.Params.TaskID != id || string(n.Params.Meta[MetaSubscriptionID]) != `"hear"` {
			t.Fatalf("an event %s, want notifications/tasks for %s tagged with the stream's id", ev, id)
		}
		if len(steps) == 0 || steps[len(steps)-1] != n.Params.StatusMessage {
			steps = append(steps, n.Params.StatusMessage)
		}
		if n.Params.Status == TaskCompleted {
			if !strings.Contains(string(n.Params.Result), `"status":"deployed"`) {
				t.Errorf("the completed task's notification carries no result: %s", ev)
			}
			break
		}
		if n.Params.Status != TaskWorking {
			t.Fatalf("status %q before completed: %s", n.Params.Status, ev)
		}
	}
	// The steps, in order: those seen must be a subsequence of these.
	order := []string{"the task is running", "deploy_service: build image (1/4)", "deploy_service: push image (2/4)", "deploy_service: roll out (3/4)", "deploy_service: health check (4/4)", "done"}
	from := 0
	for _, s := range steps {
		i := slices.Index(order[from:], s)
		if i < 0 {
			t.Fatalf("the steps came as %q: %q is out of order or unknown", steps, s)
		}
		from += i + 1
	}
	if steps[len(steps)-1] != "done" {
		t.Errorf("the steps %q do not end with the task done", steps)
	}
	select {
	case ev := <-bob:
		t.Errorf("bob heard about alice's task: %s", ev)
	default:
	}

	// A task that has finished is told once, as it ended.
	late := events(listenTasks(t, ctx, url, "alice", false, id))
	ack(late)
	var n note
	if err := json.Unmarshal([]byte(next(late)), &n); err != nil || n.Params.Status != TaskCompleted {
		t.Errorf("listening to a finished task: %+v %v, want it completed", n, err)
	}

	// Without the extension: -32021, as a plain answer.
	bare := readAll(t, listenTasks(t, context.Background(), url, "alice", true, id))
	if !strings.Contains(bare, `"code":-32021`) || !strings.Contains(bare, ExtensionTasks) {
		t.Errorf("a listen for tasks without the extension: %s, want -32021 naming it", bare)
	}
}
