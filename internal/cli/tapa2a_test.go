package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/tapcheck"
)

// TestTapA2A: wirelab client a2a talks to wirelab server a2a through
// the HTTP tap, in both revisions: a task sent and read back, streams, a
// task that waits for input and is answered, a cancel and a refused
// second cancel. The card leads the client back through the tap, and the
// checker's A2A rules find nothing.
func TestTapA2A(t *testing.T) {
	upstream := startServer(t, "a2a", "server", "a2a", "--addr", "127.0.0.1:0")
	record := filepath.Join(t.TempDir(), "a2a.jsonl")
	addr, stop := startTap(t, "--listen", "127.0.0.1:0", "--upstream", upstream+"/", "--record", record)
	url := "http://" + addr
	run := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := exe(t, "", append([]string{"client", "a2a", "--url", url}, args...)...)
		if code != want {
			t.Fatalf("client a2a %v: exit %d, want %d\n%s\n%s", args, code, want, stdout, stderr)
		}
		if !strings.Contains(stderr, " at "+url+"/") {
			t.Errorf("the card should lead the client back to the tap at %s:\n%s", url, stderr)
		}
		return stdout
	}
	run(0, "count read the wire")
	run(0, "--stream", "count read the wire")
	run(0, "--a2a-version", "0.3", "--stream", "count a b")
	run(0, "--a2a-version", "0.3", "count a b")
	id := strings.Fields(run(0, "deploy api-gateway"))[1]
	run(0, "--stream", "--task", id, "staging")
	id = strings.Fields(run(0, "deploy web"))[1]
	run(exitToolError, "--cancel", id)
	run(exitProtocol, "--cancel", id)
	stop()

	r := tapcheck.Check(readEvents(t, record))
	eras := map[string]int{}
	for _, m := range r.Messages {
		eras[m.Era]++
	}
	if len(r.Findings) != 0 || eras["A2A 1.0"] < 10 || eras["A2A 0.3"] < 4 {
		t.Errorf("messages by era %v, findings %+v; want both revisions and no findings", eras, r.Findings)
	}
}

// TestTapA2ADefects: an agent whose stream stops at working and whose
// refusal has a code A2A does not define, behind the tap: tap check finds
// both, at the right events.
func TestTapA2ADefects(t *testing.T) {
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"name":"defective","description":"d","version":"1","supportedInterfaces":[{"url":"http://%s/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, r.Host)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &req)
		switch req.Method {
		case "SendStreamingMessage":
			w.Header().Set("Content-Type", "text/event-stream")
			for _, result := range []string{
				`{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_SUBMITTED"}}}`,
				`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`,
			} {
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", req.ID, result)
			}
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32050,"message":"busy"}}`, req.ID)
		}
	}))
	defer agent.Close()
	record := filepath.Join(t.TempDir(), "defects.jsonl")
	addr, stop := startTap(t, "--listen", "127.0.0.1:0", "--upstream", agent.URL+"/", "--record", record)
	exe(t, "", "client", "a2a", "--url", "http://"+addr, "--stream", "count read the wire")
	exe(t, "", "client", "a2a", "--url", "http://"+addr, "--cancel", "t1")
	stop()

	code, out, _ := exe(t, "", "tap", "check", record)
	for _, want := range []string{
		"error a2a-stream-unfinished: SendStreamingMessage's stream closed at working",
		"error a2a-error-code: error -32050 is not a code A2A 1.0 defines",
		"2 errors, 0 warnings, 0 notes",
	} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("tap check: exit %d, want 1 and %q in:\n%s", code, want, out)
		}
	}
}
