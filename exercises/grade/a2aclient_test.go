package grade

import (
	"bufio"
	"net/http"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/a2a"
)

// TestA2APeerClose stops a peer while a stream is still open: Close must
// return, which it does only once every handler and every agent the
// peer started has (httptest.Server.Close and a2a.Server.Close both wait
// for theirs), so that a stage leaves nothing running. The request is
// recorded with what was answered before the end.
func TestA2APeerClose(t *testing.T) {
	p := newA2APeer(nil)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	body := `{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"deploy api-gateway to staging"}]}}}`
	req, err := http.NewRequest(http.MethodPost, p.srv.URL+a2aEndpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(a2a.VersionHeader, a2a.Version10)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || !strings.HasPrefix(line, "data: ") {
		t.Fatalf("first line of the stream %q, %v", line, err)
	}
	p.Close()
	log := p.exchanges()
	if len(log) != 1 || log[0].rpc != "SendStreamingMessage" || log[0].taskID != "id-1" || log[0].state == "" {
		t.Errorf("log %+v, want the stream of task id-1 with its last state", log)
	}
}

// a2aClientCases are the a2a-client programs TestGolden grades.
func a2aClientCases() []gradeCase {
	return []gradeCase{
		{"a2a-client", "solution", "../../solutions/a2a-client", "", ""},
		{"a2a-client", "starter", "../a2a-client", "reads the agent card", hintA2ACard},
		{"a2a-client", "hard-coded-endpoint", "", "reads the agent card", hintA2ACardURL},
		{"a2a-client", "no-version-header", "", "speaks A2A 1.0", hintA2AVersion},
		{"a2a-client", "stops-at-working", "", "follows a task until it is done", hintA2AWorking},
		{"a2a-client", "prints-whole-task", "", "prints only the result", hintA2AResult},
		{"a2a-client", "new-task-on-answer", "", "answers input-required in the same task", hintA2ASameTask},
		{"a2a-client", "failed-as-success", "", "reports a failed task", hintA2AFailed},
		{"a2a-client", "keeps-polling-after-error", "", "reports protocol errors", hintA2ARPCError},
	}
}
