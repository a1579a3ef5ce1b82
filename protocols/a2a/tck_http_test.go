package a2a_test

// Who may call: TCK tck/requirements/auth.py (AUTH-*), and HTTP guards the
// TCK has no IDs for (TestHTTP_...): the body limit, the loopback checks,
// paths and methods.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/tools"
)

// tckWithTokens is a server that wants a token: "reader" may call, and
// "admin" may also deploy to production.
func tckWithTokens(t testing.TB) func() *a2a.Options {
	tokens, err := tools.ParseTokens([]string{"reader", "admin:deploy:production"})
	if err != nil {
		t.Fatal(err)
	}
	return func() *a2a.Options { return &a2a.Options{Tokens: tokens} }
}

// TestTCK_AUTH_SERVER_002: "The A2A Server MUST authenticate every incoming
// request based on the provided credentials and its declared
// authentication requirements." (AUTH-SERVER-002, MUST, §7.4, auth.py.)
// Without a valid bearer token: 401 and a challenge (RFC 6750 section 3).
// The card, which says how to authenticate, stays public.
func TestTCK_AUTH_SERVER_002(t *testing.T) {
	tckBoth(t, tckWithTokens(t), func(t *testing.T, c *tckClient) {
		body := c.request(c.method("GetTask"), map[string]any{"id": "none"})
		for _, tt := range []struct {
			authorization, challenge string
		}{
			{"", `Bearer realm="wirelab"`},
			{"Basic cmVhZGVyOg==", `Bearer realm="wirelab"`},
			{"Bearer", `Bearer realm="wirelab", error="invalid_token"`},
			{"Bearer nobody", `Bearer realm="wirelab", error="invalid_token"`},
			{"Bearer reader2", `Bearer realm="wirelab", error="invalid_token"`},
		} {
			h := c.post(body, func(r *http.Request) { r.Header.Set("Authorization", tt.authorization) })
			if h.status != http.StatusUnauthorized || h.header.Get("WWW-Authenticate") != tt.challenge {
				t.Errorf("Authorization %q: HTTP %d, WWW-Authenticate %q; want 401, %q", tt.authorization, h.status, h.header.Get("WWW-Authenticate"), tt.challenge)
				continue
			}
			r := tckDecodeReply(t, h.body)
			if r.Error == nil || r.Error.Code != -32600 || string(r.ID) != "null" {
				t.Errorf("Authorization %q: body %s, want an error with id null", tt.authorization, h.body)
			}
		}
		for _, auth := range []string{"Bearer reader", "bearer reader", "BEARER admin"} {
			h := c.post(body, func(r *http.Request) { r.Header.Set("Authorization", auth) })
			if r := tckDecodeReply(t, h.body); h.status != http.StatusOK || r.Error == nil || r.Error.Code != a2a.CodeTaskNotFound {
				t.Errorf("Authorization %q: HTTP %d %s, want 200 and task not found", auth, h.status, h.body)
			}
		}
		card := c.srv.card(t, a2a.CardPath, nil)
		if card.status != http.StatusOK {
			t.Fatalf("card without a token: HTTP %d, want 200", card.status)
		}
		var schemes struct {
			SecuritySchemes map[string]struct {
				HTTPAuthSecurityScheme *struct{ Scheme string } `json:"httpAuthSecurityScheme"` // 1.0
				Type, Scheme           string                   // 0.3
			}
		}
		json.Unmarshal(card.body, &schemes)
		bearer, ok := schemes.SecuritySchemes["bearer"]
		if !ok {
			t.Fatalf("the card has no bearer scheme: %s", card.body)
		}
		if c.v10() && (bearer.HTTPAuthSecurityScheme == nil || bearer.HTTPAuthSecurityScheme.Scheme != "Bearer") {
			t.Errorf("1.0 scheme %+v, want httpAuthSecurityScheme Bearer", bearer)
		}
		if !c.v10() && (bearer.Type != "http" || bearer.Scheme != "Bearer") {
			t.Errorf("0.3 scheme %+v, want type http, scheme Bearer", bearer)
		}
	})
	t.Run("no tokens", func(t *testing.T) {
		if body := tckStart(t, nil).card(t, a2a.CardPath, nil).body; bytes.Contains(body, []byte("securitySchemes")) {
			t.Error("a server without tokens declares security schemes")
		}
	})
}

// TestTCK_AUTH_SCOPE_001: "Servers MUST implement authorization checks on
// every A2A Protocol Operations request." (AUTH-SCOPE-001, MUST, §13.1,
// auth.py.) Every method, known or not, and the streaming ones before
// any stream begins.
func TestTCK_AUTH_SCOPE_001(t *testing.T) {
	tckBoth(t, tckWithTokens(t), func(t *testing.T, c *tckClient) {
		c.token = "reader"
		task := c.completed()
		c.token = ""
		methods := []string{"NoSuchMethod"}
		for name, old := range tckV03Methods {
			methods = append(methods, map[bool]string{true: name, false: old}[c.v10()])
		}
		if c.v10() {
			methods = append(methods, "ListTasks")
		}
		for _, m := range methods {
			h := c.post(c.request(m, map[string]any{"id": task.ID, "message": c.msg("staging", "taskId", task.ID)}), nil)
			if h.status != http.StatusUnauthorized || strings.Contains(string(h.body), task.ID) {
				t.Errorf("%s without a token: HTTP %d %s, want 401 that says nothing of the task", m, h.status, h.body)
			}
		}
	})
}

// tckProduction starts a deploy to production as reader, who may not.
func tckProduction(c *tckClient) tckTask {
	c.t.Helper()
	c.token = "reader"
	return c.say("deploy api-gateway to production")
}

// TestTCK_AUTH_INTASK_001: "To request that a client fulfills an
// authorization request, the agent MUST use a Task to track the operation
// it is performing." (AUTH-INTASK-001, MUST, §7.6.1, auth.py.)
func TestTCK_AUTH_INTASK_001(t *testing.T) {
	tckBoth(t, tckWithTokens(t), func(t *testing.T, c *tckClient) {
		task := tckProduction(c)
		if got := c.get(task.ID); got.ID != task.ID || got.Status.State != task.Status.State {
			t.Errorf("GetTask: %s %s, want %s %s", got.ID, got.Status.State, task.ID, task.Status.State)
		}
	})
}

// TestTCK_AUTH_INTASK_002: "To request that a client fulfills an
// authorization request, the agent MUST transition the TaskState to
// TASK_STATE_AUTH_REQUIRED." (AUTH-INTASK-002, MUST, §7.6.1, auth.py.) In a
// stream too, which ends there, as at any interrupted state.
func TestTCK_AUTH_INTASK_002(t *testing.T) {
	tckBoth(t, tckWithTokens(t), func(t *testing.T, c *tckClient) {
		c.expect(tckProduction(c), a2a.StateAuthRequired)
		evs := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("deploy api-gateway to production")}).all()
		tckCheckStream(c, evs)
		if last := evs[len(evs)-1].state(); last != c.state(a2a.StateAuthRequired) {
			t.Errorf("the stream ended at %s, want auth-required", last)
		}
	})
}

// TestTCK_AUTH_INTASK_003: "The agent MUST include a TaskStatus message
// explaining the required authorization." (AUTH-INTASK-003, MUST, §7.6.1,
// auth.py.)
func TestTCK_AUTH_INTASK_003(t *testing.T) {
	tckBoth(t, tckWithTokens(t), func(t *testing.T, c *tckClient) {
		task := tckProduction(c)
		m := task.Status.Message
		if m == nil || m.Role != c.role(a2a.RoleAgent) {
			t.Fatalf("status message %+v, want one from the agent", m)
		}
		if text := tckText(m.Parts); !strings.Contains(text, string(tools.ScopeDeployProduction)) {
			t.Errorf("status message %q does not name the scope %s", text, tools.ScopeDeployProduction)
		}
	})
}

// TestTCK_AUTH_INTASK_006: "Agents SHOULD support receiving messages
// directed to the Task while the Task remains in
// TASK_STATE_AUTH_REQUIRED, enabling clients to negotiate, correct, or
// reject an authorization request." (AUTH-INTASK-006, SHOULD, §7.6.1,
// auth.py.) The caller may settle for staging, or answer again with a
// token that may deploy to production.
func TestTCK_AUTH_INTASK_006(t *testing.T) {
	tckBoth(t, tckWithTokens(t), func(t *testing.T, c *tckClient) {
		for _, tt := range []struct{ token, answer, env string }{
			{"reader", "staging", "staging"},
			{"admin", "production", "production"},
		} {
			task := c.expect(tckProduction(c), a2a.StateAuthRequired)
			c.token = tt.token
			done := c.expect(c.answer(task, tt.answer), a2a.StateCompleted)
			if m := done.Status.Message; m == nil || tckText(m.Parts) != "Deployed api-gateway to "+tt.env+"." {
				t.Errorf("%s answering %q: status %+v, want deployed to %s", tt.token, tt.answer, m, tt.env)
			}
		}
	})
}

// TestHTTP_BodyLimit: a request longer than a2a.MaxBody is refused with
// 413 before it is read as JSON; one just within it is read.
func TestHTTP_BodyLimit(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		pad := func(n int) []byte {
			head := []byte(`{"jsonrpc":"2.0","id":1,"method":"` + c.method("GetTask") + `","params":{"id":"none"},"pad":"`)
			b := append(head, bytes.Repeat([]byte("x"), n-len(head)-2)...)
			return append(b, '"', '}')
		}
		h := c.post(pad(a2a.MaxBody+1), nil)
		if h.status != http.StatusRequestEntityTooLarge {
			t.Fatalf("%d bytes: HTTP %d, want 413", a2a.MaxBody+1, h.status)
		}
		if r := tckDecodeReply(t, h.body); r.Error == nil {
			t.Errorf("the 413 carries no error: %s", h.body)
		} else {
			tckCheckError(t, c.version, *r.Error, -32600)
		}
		if h := c.post(pad(a2a.MaxBody), nil); h.status != http.StatusOK {
			t.Errorf("%d bytes: HTTP %d, want 200", a2a.MaxBody, h.status)
		}
	})
}

// TestHTTP_LoopbackHost: with Options.Loopback, a request for another host
// (DNS rebinding) is refused with 421, the card and the endpoint alike.
func TestHTTP_LoopbackHost(t *testing.T) {
	loopback := func() *a2a.Options { return &a2a.Options{Loopback: true} }
	tckBoth(t, loopback, func(t *testing.T, c *tckClient) {
		body := c.request(c.method("GetTask"), map[string]any{"id": "none"})
		for host, want := range map[string]int{
			"attacker.example":      http.StatusMisdirectedRequest,
			"127.0.0.1.nip.io:8080": http.StatusMisdirectedRequest,
			"localhost":             http.StatusOK,
			"[::1]:8080":            http.StatusOK,
		} {
			h := c.post(body, func(r *http.Request) { r.Host = host })
			if h.status != want {
				t.Errorf("POST for Host %s: HTTP %d, want %d", host, h.status, want)
			}
			if want != http.StatusOK {
				if r := tckDecodeReply(t, h.body); r.Error == nil || r.Error.Code != -32600 {
					t.Errorf("Host %s: body %s, want a JSON-RPC error", host, h.body)
				}
			}
			if card := c.srv.card(t, a2a.CardPath, func(r *http.Request) { r.Host = host }); card.status != want {
				t.Errorf("card for Host %s: HTTP %d, want %d", host, card.status, want)
			}
		}
	})
	t.Run("off", func(t *testing.T) {
		c := tckStart(t, nil).client(t, a2a.Version10)
		if h := c.post(c.request("GetTask", map[string]any{"id": "none"}), func(r *http.Request) { r.Host = "attacker.example" }); h.status != http.StatusOK {
			t.Errorf("without Loopback: HTTP %d, want 200", h.status)
		}
	})
}

// TestHTTP_LoopbackOrigin: with Options.Loopback, a request from a web page
// of another site (its Origin) is refused with 403; pages on this machine
// and clients that send no Origin are served.
func TestHTTP_LoopbackOrigin(t *testing.T) {
	loopback := func() *a2a.Options { return &a2a.Options{Loopback: true} }
	tckBoth(t, loopback, func(t *testing.T, c *tckClient) {
		body := c.request(c.method("GetTask"), map[string]any{"id": "none"})
		for origin, want := range map[string]int{
			"https://attacker.example": http.StatusForbidden,
			"null":                     http.StatusForbidden,
			"http://localhost:3000":    http.StatusOK,
			c.srv.URL:                  http.StatusOK,
		} {
			h := c.post(body, func(r *http.Request) { r.Header.Set("Origin", origin) })
			if h.status != want {
				t.Errorf("Origin %s: HTTP %d, want %d", origin, h.status, want)
			}
			if want == http.StatusForbidden {
				if r := tckDecodeReply(t, h.body); r.Error == nil {
					t.Errorf("Origin %s: body %s, want a JSON-RPC error", origin, h.body)
				} else {
					tckCheckError(t, c.version, *r.Error, -32600)
				}
			}
		}
	})
}

// TestHTTP_PathsAndMethods: JSON-RPC is POSTed to the endpoint, the card
// is read with GET; anything else is refused with the status that says
// why, and a JSON-RPC error that says what to do.
func TestHTTP_PathsAndMethods(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		for _, tt := range []struct {
			method, path string
			status       int
			allow        string
		}{
			{http.MethodGet, "/", http.StatusMethodNotAllowed, "POST"},
			{http.MethodPut, "/", http.StatusMethodNotAllowed, "POST"},
			{http.MethodPost, a2a.CardPath, http.StatusMethodNotAllowed, "GET, HEAD"},
			{http.MethodPost, "/rpc", http.StatusNotFound, ""},
			{http.MethodGet, "/.well-known/agent-card", http.StatusNotFound, ""},
		} {
			req, _ := http.NewRequestWithContext(t.Context(), tt.method, c.srv.URL+tt.path, strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			if c.header != "" {
				req.Header.Set(a2a.VersionHeader, c.header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Error *struct{ Code int64 }
			}
			json.NewDecoder(resp.Body).Decode(&r)
			resp.Body.Close()
			if resp.StatusCode != tt.status || resp.Header.Get("Allow") != tt.allow {
				t.Errorf("%s %s: HTTP %d, Allow %q; want %d, %q", tt.method, tt.path, resp.StatusCode, resp.Header.Get("Allow"), tt.status, tt.allow)
			}
			if r.Error == nil || r.Error.Code != -32600 {
				t.Errorf("%s %s: no JSON-RPC error in the body", tt.method, tt.path)
			}
		}
	})
}
