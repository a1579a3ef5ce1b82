package a2a_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/tools"
)

// benchServer is an agent on a real loopback listener, and an HTTP client
// that keeps its connections open, as a busy caller would.
func benchServer(b *testing.B) (url string, hc *http.Client) {
	b.Helper()
	srv := a2a.NewServer(&a2a.Options{Tools: tools.New(&tools.Options{DeployStep: time.Millisecond})})
	ts := httptest.NewServer(srv)
	b.Cleanup(ts.Close)
	b.Cleanup(srv.Close) // runs first: ends the tasks, then the server
	return ts.URL + a2a.Endpoint, ts.Client()
}

// benchPost sends one 1.0 request and returns the response, read whole.
func benchPost(b *testing.B, hc *http.Client, url string, body []byte) []byte {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(a2a.VersionHeader, a2a.Version10)
	resp, err := hc.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("HTTP %d: %s", resp.StatusCode, out)
	}
	return out
}

func benchSend(method string, i int) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"message":{"messageId":"m-%d","role":"ROLE_USER","parts":[{"text":"count read the wire"}]},"configuration":{"historyLength":0}}}`, i, method, i)
}

// BenchmarkSendRoundTrip is one 1.0 SendMessage ("count ...") over HTTP:
// the request is read, the task made, the agent run to completion, and
// the task sent back. The store keeps at most a2a.MaxTasks tasks, so past
// that each new task also evicts an old one.
func BenchmarkSendRoundTrip(b *testing.B) {
	url, hc := benchServer(b)
	want := []byte(`"state":"TASK_STATE_COMPLETED"`)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if out := benchPost(b, hc, url, benchSend("SendMessage", i)); !bytes.Contains(out, want) {
			b.Fatalf("not completed: %s", out)
		}
	}
}

// BenchmarkStreamRoundTrip is the same message sent with
// SendStreamingMessage, read as SSE to the end of the stream: the task,
// working, the artifact, completed.
func BenchmarkStreamRoundTrip(b *testing.B) {
	url, hc := benchServer(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		out := benchPost(b, hc, url, benchSend("SendStreamingMessage", i))
		events := 0
		for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
			if bytes.HasPrefix(sc.Bytes(), []byte("data: ")) {
				events++
			}
		}
		if events != 4 || !bytes.Contains(out, []byte(`"state":"TASK_STATE_COMPLETED"`)) {
			b.Fatalf("%d events, want 4 ending completed:\n%s", events, out)
		}
	}
}

// BenchmarkDeployStream streams a whole deploy conversation: the
// question, then the answer's progress and log chunks. Each step of the
// deploy takes a millisecond, so this measures mostly the waiting; the
// allocations are the interesting number.
func BenchmarkDeployStream(b *testing.B) {
	url, hc := benchServer(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		ask := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"SendMessage","params":{"message":{"messageId":"ask-%d","role":"ROLE_USER","parts":[{"text":"deploy api-gateway"}]}}}`, i, i)
		out := benchPost(b, hc, url, ask)
		var asked struct {
			Result struct{ Task struct{ ID string } }
		}
		if err := json.Unmarshal(out, &asked); err != nil || asked.Result.Task.ID == "" {
			b.Fatalf("no task: %s", out)
		}
		id := asked.Result.Task.ID
		answer := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"SendStreamingMessage","params":{"message":{"messageId":"answer-%d","taskId":%q,"role":"ROLE_USER","parts":[{"text":"staging"}]}}}`, i, i, id)
		if out := benchPost(b, hc, url, answer); !bytes.Contains(out, []byte(`"state":"TASK_STATE_COMPLETED"`)) {
			b.Fatalf("the deploy did not complete:\n%s", out)
		}
	}
}
