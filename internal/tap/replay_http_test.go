package tap

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/a2a"
)

// TestReplayWhereTheTapSent: a host pointed at the tap's bare address
// reached the upstream's endpoint (the tap sends "/" there); its
// recording replays against the server's address with or without that
// path, each request going where the tap sent it.
func TestReplayWhereTheTapSent(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			http.Error(w, "no such path "+r.URL.Path, http.StatusNotFound)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer upstream.Close()
	rec := NewRecorder(nil)
	p, err := NewProxy(upstream.URL+"/mcp", rec, &ProxyOptions{Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	rec.Add(Event{Kind: KindStart, Format: Format, Upstream: p.Upstream()})
	front := httptest.NewServer(p)
	defer front.Close()
	for _, path := range []string{"/", "/mcp"} {
		resp, err := http.Post(front.URL+path, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("through the tap at %s: %d", path, resp.StatusCode)
		}
	}
	waitForEnds(t, rec, 2)
	for _, against := range []string{upstream.URL, upstream.URL + "/", upstream.URL + "/mcp"} {
		diffs, err := ReplayHTTP(context.Background(), rec.Events(), against, 0, "", nil)
		if err != nil || len(diffs) != 0 {
			t.Errorf("replay --against %s: %v, %d differences: %+v", against, err, len(diffs), diffs)
		}
	}
}

// TestDestination: where a recorded request is replayed.
func TestDestination(t *testing.T) {
	for _, tt := range []struct {
		against, upstreamPath, recorded, want string
	}{
		{"http://s:1", "/mcp", "/", "http://s:1/mcp"},
		{"http://s:1", "/mcp", "/mcp", "http://s:1/mcp"},
		{"http://s:1", "/mcp", "/.well-known/oauth-protected-resource", "http://s:1/.well-known/oauth-protected-resource"},
		{"http://s:1/v2/mcp", "/mcp", "/", "http://s:1/v2/mcp"},
		{"http://s:1/v2/mcp", "/mcp", "/mcp?x=1", "http://s:1/v2/mcp?x=1"},
		{"http://s:1/v2/mcp", "/mcp", "/mcpx", "http://s:1/mcpx"},
		{"http://s:1/a2a", "", "/", "http://s:1/a2a"},
		{"http://s:1", "", "/execute", "http://s:1/execute"},
	} {
		target, _ := url.Parse(tt.against)
		d := &destination{target: target, upstreamPath: tt.upstreamPath}
		got, err := d.url(tt.recorded)
		if err != nil || got.String() != tt.want {
			t.Errorf("against %s, upstream path %q, recorded %s: %v %v; want %s", tt.against, tt.upstreamPath, tt.recorded, got, err, tt.want)
		}
	}
}

// TestReplayA2A: an A2A host's session through the tap (the card, a
// task asked for and then read back by its id, a streamed task) replays
// against a fresh agent without a difference, though the agent makes up
// new task, context, message and artifact ids, writes its own address on
// its card, and answers a stream with many results of one id.
func TestReplayA2A(t *testing.T) {
	agent := func() *httptest.Server {
		a := a2a.NewServer(nil)
		srv := httptest.NewServer(a)
		t.Cleanup(srv.Close)
		t.Cleanup(a.Close)
		return srv
	}
	recorded := agent()
	rec := NewRecorder(nil)
	p, err := NewProxy(recorded.URL, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.Add(Event{Kind: KindStart, Format: Format, Upstream: p.Upstream()})
	front := httptest.NewServer(p)
	defer front.Close()
	call := func(body string) string {
		t.Helper()
		req, _ := http.NewRequest("POST", front.URL+"/", strings.NewReader(body))
		req.Header.Set("A2A-Version", "1.0")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	resp, err := http.Get(front.URL + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	sent := call(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"count read the wire"}]}}}`)
	var answer struct {
		Result struct {
			Task struct{ ID string } `json:"task"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(sent), &answer); err != nil || answer.Result.Task.ID == "" {
		t.Fatalf("SendMessage: %v %s", err, sent)
	}
	call(`{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":"` + answer.Result.Task.ID + `"}}`)
	if stream := call(`{"jsonrpc":"2.0","id":3,"method":"SendStreamingMessage","params":{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"count streamed words"}]}}}`); strings.Count(stream, `"id":3`) < 3 {
		t.Fatalf("the stream has fewer than 3 results:\n%s", stream)
	}
	waitForEnds(t, rec, 4)

	diffs, err := ReplayHTTP(context.Background(), rec.Events(), agent().URL, 0, "", nil)
	if err != nil || len(diffs) != 0 {
		t.Errorf("replay against a fresh agent: %v, %d differences:\n%v", err, len(diffs), diffs)
	}
	// What differs is still found: another agent's card and answers.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer other.Close()
	if diffs, err := ReplayHTTP(context.Background(), rec.Events(), other.URL, 0, "", nil); err != nil || len(diffs) == 0 {
		t.Errorf("replay against another server: %v, no difference", err)
	}
}

// waitForEnds waits until the tap has recorded the end of n exchanges:
// it records an end once the host has read the answer to its end, a
// moment after the host has it.
func waitForEnds(t *testing.T, rec *Recorder, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		ends := 0
		for _, e := range rec.Events() {
			if e.Kind == KindHTTPEnd {
				ends++
			}
		}
		if ends == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tap recorded the end of %d exchanges of %d", ends, n)
		}
	}
}
