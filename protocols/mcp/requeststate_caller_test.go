package mcp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/tools"
)

// TestRequestStateBoundToCaller: the requestState of an input_required
// result is good only with the credentials it was given to. Another
// caller who echoes it, with an answer, is refused with -32602; the
// caller it was given to gets the deploy done.
func TestRequestStateBoundToCaller(t *testing.T) {
	ts, err := tools.ParseTokens([]string{"alice:deploy:production", "bob:deploy:production"})
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"})
	defer srv.Close()
	h := srv.HTTPHandler(&HTTPOptions{Tokens: ts})
	defer h.Close()

	const deploy = `"name":"deploy_service","arguments":{"service":"api","env":"production"}`
	post := func(token, params string) string {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + params + `,"_meta":{"` + MetaProtocolVersion + `":"` + ModernVersion + `","` + MetaClientCapabilities + `":{"elicitation":{}}}}}`
		r := httptest.NewRequest(http.MethodPost, Endpoint, strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+token)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", ModernVersion)
		r.Header.Set("Mcp-Method", "tools/call")
		r.Header.Set("Mcp-Name", "deploy_service")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Body.String()
	}
	var first struct {
		Result struct {
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		} `json:"result"`
	}
	answer := post("alice", deploy)
	if err := json.Unmarshal([]byte(answer), &first); err != nil || first.Result.RequestState == "" || len(first.Result.InputRequests) != 1 {
		t.Fatalf("the deploy to production did not ask first: %s (%v)", answer, err)
	}
	var key string
	for k := range first.Result.InputRequests {
		key = k
	}
	retry := deploy + `,"inputResponses":{"` + key + `":{"action":"accept","content":{"confirm":true}}},"requestState":"` + first.Result.RequestState + `"`
	if got := post("bob", retry); !strings.Contains(got, `"code":-32602`) || !strings.Contains(got, "another caller") {
		t.Errorf("another caller's retry with alice's requestState: %s, want -32602 naming another caller", got)
	}
	if got := post("alice", retry); !strings.Contains(got, `"resultType":"complete"`) || strings.Contains(got, `"isError":true`) {
		t.Errorf("alice's own retry: %s, want the deploy done", got)
	}
}
