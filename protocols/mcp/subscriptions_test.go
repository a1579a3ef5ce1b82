package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
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
