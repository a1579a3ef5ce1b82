package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeAgent is an A2A agent for the tests: its card sends clients to
// /rpc, where answer decides what each JSON-RPC request gets. It records
// the messages it was sent.
type fakeAgent struct {
	answer func(method string, m message) (result any, err *rpcError)

	mu   sync.Mutex // guards sent
	sent []message
}

func (a *fakeAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/.well-known/agent-card.json":
		// A 0.3 interface first, which a 1.0 client must pass over.
		base := "http://" + r.Host
		json.NewEncoder(w).Encode(map[string]any{"name": "fake", "supportedInterfaces": []map[string]string{
			{"url": base + "/v03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
			{"url": base + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
		}})
		return
	case r.URL.Path != "/rpc" || r.Header.Get("A2A-Version") != "1.0":
		http.Error(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"wrong path or version"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Message message `json:"message"`
		} `json:"params"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	if req.Method == "SendMessage" {
		a.mu.Lock()
		a.sent = append(a.sent, req.Params.Message)
		a.mu.Unlock()
	}
	result, rerr := a.answer(req.Method, req.Params.Message)
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result, "error": rerr})
}

// taskJSON is a task in state, with the agent saying say, and artifacts
// holding the parts given, as the agent writes them.
func taskJSON(state, say string, parts ...string) json.RawMessage {
	t := `{"id":"t1","contextId":"c1","status":{"state":"` + state + `","message":{"messageId":"a1","role":"ROLE_AGENT","parts":[{"text":"` + say + `"}]}}`
	if len(parts) > 0 {
		t += `,"artifacts":[{"artifactId":"r1","parts":[` + strings.Join(parts, ",") + `]}]`
	}
	return json.RawMessage(t + "}")
}

func TestRun(t *testing.T) {
	for _, c := range []struct {
		name     string
		answer   string // --answer
		agent    func(method string, m message) (any, *rpcError)
		code     int
		stdout   string
		messages int // SendMessage calls
	}{
		{
			name:   "polls to completed, answering input-required in the same task",
			answer: "staging",
			agent: func() func(string, message) (any, *rpcError) {
				polls := 0
				return func(method string, m message) (any, *rpcError) {
					switch {
					case method == "SendMessage" && m.TaskID == "":
						return map[string]any{"task": taskJSON("TASK_STATE_SUBMITTED", "")}, nil
					case method == "SendMessage" && (m.TaskID != "t1" || m.ContextID != "c1" || *m.Parts[0].Text != "staging"):
						return nil, &rpcError{-32602, "not an answer to t1"}
					case method == "SendMessage":
						return map[string]any{"task": taskJSON("TASK_STATE_WORKING", "")}, nil
					}
					polls++
					if polls == 1 {
						return taskJSON("TASK_STATE_INPUT_REQUIRED", "Which environment?"), nil
					}
					return taskJSON("TASK_STATE_COMPLETED", "Done.", `{"text":"deployed\n"}`, `{"data":{"ok":true}}`), nil
				}
			}(),
			code: 0, stdout: "deployed\n{\"ok\":true}\n", messages: 2,
		},
		{
			name: "a failed task is not a result",
			agent: func(string, message) (any, *rpcError) {
				return map[string]any{"task": taskJSON("TASK_STATE_FAILED", "upstream down")}, nil
			},
			code: 1, messages: 1,
		},
		{
			name: "input-required without an answer",
			agent: func(string, message) (any, *rpcError) {
				return map[string]any{"task": taskJSON("TASK_STATE_INPUT_REQUIRED", "Which environment?")}, nil
			},
			code: 1, messages: 1,
		},
		{
			name: "a JSON-RPC error",
			agent: func(string, message) (any, *rpcError) {
				return nil, &rpcError{-32603, "internal error: try again later"}
			},
			code: 2, messages: 1,
		},
		{
			name: "a message instead of a task",
			agent: func(string, message) (any, *rpcError) {
				return map[string]any{"message": json.RawMessage(`{"messageId":"a1","role":"ROLE_AGENT","parts":[{"text":"hello"}]}`)}, nil
			},
			code: 0, stdout: "hello\n", messages: 1,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			agent := &fakeAgent{answer: c.agent}
			srv := httptest.NewServer(agent)
			defer srv.Close()
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), srv.URL, "deploy api-gateway", c.answer, &stdout, &stderr)
			if code != c.code || stdout.String() != c.stdout {
				t.Errorf("exit %d, stdout %q; want %d, %q (stderr %q)", code, stdout.String(), c.code, c.stdout, stderr.String())
			}
			agent.mu.Lock()
			sent := agent.sent
			agent.mu.Unlock()
			if len(sent) != c.messages {
				t.Errorf("%d messages sent, want %d: %+v", len(sent), c.messages, sent)
			}
			for _, m := range sent {
				if m.MessageID == "" || m.Role != "ROLE_USER" {
					t.Errorf("message %+v: want a messageId and role ROLE_USER", m)
				}
			}
		})
	}
}
