package a2a_test

// The agent card: TCK tck/requirements/agent_card.py, interop.py, and the
// capability requirements of core_operations.py (CORE-CAP-*).

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/a2a"
)

// TestTCK_CARD_DISC_001: "A2A Servers MUST make an Agent Card available
// describing the server's identity, capabilities, skills, and interaction
// requirements." (CARD-DISC-001, MUST, §8.1, agent_card.py.) The card is at
// the well-known path, and the same card at the path 0.2 used.
func TestTCK_CARD_DISC_001(t *testing.T) {
	ts := tckStart(t, nil)
	var bodies []string
	for _, path := range []string{a2a.CardPath, "/.well-known/agent.json"} {
		h := ts.card(t, path, nil)
		if h.status != http.StatusOK {
			t.Fatalf("GET %s: HTTP %d, want 200", path, h.status)
		}
		if ct := h.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("GET %s: Content-Type %q, want application/json", path, ct)
		}
		var card struct{ Name string }
		if err := json.Unmarshal(h.body, &card); err != nil || card.Name != "wirelab agent" {
			t.Errorf("GET %s: name %q (%v), want %q", path, card.Name, err, "wirelab agent")
		}
		bodies = append(bodies, string(h.body))
	}
	if bodies[0] != bodies[1] {
		t.Error("the legacy path serves a different card")
	}
}

// TestTCK_CARD_STRUCT_001: "An AgentCard MUST contain all required fields
// as defined in the Protocol Buffer definition including name,
// description, supportedInterfaces, capabilities, and skills."
// (CARD-STRUCT-001, MUST, §4.4.1, agent_card.py.) One card serves both
// revisions, so it must hold each one's required fields.
func TestTCK_CARD_STRUCT_001(t *testing.T) {
	ts := tckStart(t, nil)
	card := ts.cardJSON(t)
	required := map[string][]string{
		// The TCK's list (tests/compatibility/agent_card/test_agent_card.py).
		a2a.Version10: {"name", "description", "version", "capabilities", "skills", "supportedInterfaces", "defaultInputModes", "defaultOutputModes"},
		// The 0.3 schema's required members of AgentCard.
		a2a.Version03: {"name", "description", "url", "version", "protocolVersion", "capabilities", "defaultInputModes", "defaultOutputModes", "skills"},
	}
	for _, v := range tckRevisions {
		t.Run(v, func(t *testing.T) {
			for _, field := range required[v] {
				switch val := card[field].(type) {
				case nil:
					t.Errorf("no %q", field)
				case string:
					if val == "" {
						t.Errorf("%q is empty", field)
					}
				case []any:
					if len(val) == 0 {
						t.Errorf("%q is empty", field)
					}
				}
			}
		})
	}
	t.Run("skills", func(t *testing.T) {
		var c struct {
			Skills []struct {
				ID, Name, Description string
				Tags                  []string
			}
		}
		b, _ := json.Marshal(card)
		json.Unmarshal(b, &c)
		var ids []string
		for _, s := range c.Skills {
			if s.ID == "" || s.Name == "" || s.Description == "" || len(s.Tags) == 0 {
				t.Errorf("skill %+v lacks one of id, name, description, tags (all required)", s)
			}
			ids = append(ids, s.ID)
		}
		if want := []string{"count", "search", "deploy", "weather"}; !slices.Equal(ids, want) {
			t.Errorf("skills %v, want %v", ids, want)
		}
	})
}

// tckInterfaces reads the card's supportedInterfaces.
func tckInterfaces(t *testing.T, ts *tckServer) []a2a.AgentInterface {
	t.Helper()
	var card a2a.AgentCard
	b, _ := json.Marshal(ts.cardJSON(t))
	if err := json.Unmarshal(b, &card); err != nil {
		t.Fatal(err)
	}
	return card.SupportedInterfaces
}

// TestTCK_CARD_PROTO_001: "The AgentCard MUST properly declare supported
// protocols." (CARD-PROTO-001, MUST, §8.3, agent_card.py.) Both
// revisions are declared, 1.0 first, since "the first entry in
// supportedInterfaces represents the preferred interface".
func TestTCK_CARD_PROTO_001(t *testing.T) {
	ts := tckStart(t, nil)
	var got []string
	for _, iface := range tckInterfaces(t, ts) {
		got = append(got, iface.ProtocolBinding+" "+iface.ProtocolVersion)
	}
	if want := []string{"JSONRPC 1.0", "JSONRPC 0.3"}; !slices.Equal(got, want) {
		t.Errorf("supportedInterfaces %q, want %q", got, want)
	}
}

// TestTCK_CARD_PROTO_002: "Each interface in supportedInterfaces MUST
// accurately declare its transport protocol and URL." (CARD-PROTO-002,
// MUST, §8.3.1, agent_card.py.) Accurately: a request sent where an
// interface says, in the revision it says, is understood.
func TestTCK_CARD_PROTO_002(t *testing.T) {
	ts := tckStart(t, nil)
	for _, iface := range tckInterfaces(t, ts) {
		t.Run(iface.ProtocolVersion, func(t *testing.T) {
			if iface.URL != ts.URL+"/" {
				t.Errorf("url %q, want %q, where the server was reached", iface.URL, ts.URL+"/")
			}
			if iface.ProtocolBinding != "JSONRPC" {
				t.Errorf("protocolBinding %q, want JSONRPC", iface.ProtocolBinding)
			}
			c := ts.client(t, iface.ProtocolVersion)
			c.url = iface.URL
			c.header = iface.ProtocolVersion // "0.3" in the header speaks 0.3 too
			c.fail("GetTask", map[string]any{"id": "no-such-task"}, a2a.CodeTaskNotFound)
		})
	}
}

// TestTCK_BIND_FIELD_001: "Agents MUST declare all supported protocols in
// their AgentCard." (BIND-FIELD-001, MUST, §5.2, interop.py.) This agent
// speaks JSON-RPC only; a 0.3 client finds it in url, preferredTransport
// and additionalInterfaces.
func TestTCK_BIND_FIELD_001(t *testing.T) {
	ts := tckStart(t, nil)
	bindings := map[string]bool{}
	for _, iface := range tckInterfaces(t, ts) {
		bindings[iface.ProtocolBinding] = true
	}
	if len(bindings) != 1 || !bindings["JSONRPC"] {
		t.Errorf("bindings %v, want JSONRPC only", bindings)
	}
	var v03 struct {
		URL                  string
		PreferredTransport   string
		AdditionalInterfaces []struct{ URL, Transport string }
	}
	b, _ := json.Marshal(ts.cardJSON(t))
	json.Unmarshal(b, &v03)
	if v03.URL != ts.URL+"/" || v03.PreferredTransport != "JSONRPC" {
		t.Errorf("0.3 url %q, preferredTransport %q; want %q, JSONRPC", v03.URL, v03.PreferredTransport, ts.URL+"/")
	}
	if len(v03.AdditionalInterfaces) != 1 || v03.AdditionalInterfaces[0].Transport != "JSONRPC" || v03.AdditionalInterfaces[0].URL != v03.URL {
		t.Errorf("0.3 additionalInterfaces %+v, want the one JSONRPC url", v03.AdditionalInterfaces)
	}
}

var tckMaxAge = regexp.MustCompile(`(?:^|[ ,])max-age=(\d+)(?:$|[ ,])`)

// TestTCK_CARD_CACHE_001: "Agent Card HTTP endpoints SHOULD include a
// Cache-Control response header with a max-age directive appropriate for
// the agent's expected update frequency." (CARD-CACHE-001, SHOULD, §8.6.1,
// agent_card.py.)
func TestTCK_CARD_CACHE_001(t *testing.T) {
	ts := tckStart(t, nil)
	for _, path := range []string{a2a.CardPath, "/.well-known/agent.json"} {
		cc := ts.card(t, path, nil).header.Get("Cache-Control")
		m := tckMaxAge.FindStringSubmatch(cc)
		if m == nil {
			t.Errorf("GET %s: Cache-Control %q has no max-age", path, cc)
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n <= 0 {
			t.Errorf("GET %s: max-age=%d, want a positive number of seconds", path, n)
		}
	}
}

// TestTCK_CARD_CACHE_002: "Agent Card HTTP endpoints SHOULD include an
// ETag response header derived from the Agent Card's version field or a
// hash of the card content." (CARD-CACHE-002, SHOULD, §8.6.1,
// agent_card.py.) And the ETag works: If-None-Match with it gets 304 Not
// Modified (RFC 9110 section 13.1.2), with no body.
func TestTCK_CARD_CACHE_002(t *testing.T) {
	ts := tckStart(t, nil)
	first := ts.card(t, a2a.CardPath, nil)
	etag := first.header.Get("ETag")
	if !regexp.MustCompile(`^"[^"]+"$`).MatchString(etag) {
		t.Fatalf("ETag %q, want a strong entity tag (quoted)", etag)
	}
	if again := ts.card(t, a2a.CardPath, nil).header.Get("ETag"); again != etag {
		t.Errorf("the same card has ETag %q, then %q", etag, again)
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		h := ts.card(t, a2a.CardPath, func(r *http.Request) { r.Header.Set("If-None-Match", inm) })
		if h.status != http.StatusNotModified || len(h.body) != 0 {
			t.Errorf("If-None-Match: %s: HTTP %d with %d bytes, want 304 with none", inm, h.status, len(h.body))
		}
		if h.header.Get("ETag") != etag {
			t.Errorf("If-None-Match: %s: the 304 has ETag %q, want %q", inm, h.header.Get("ETag"), etag)
		}
	}
	if h := ts.card(t, a2a.CardPath, func(r *http.Request) { r.Header.Set("If-None-Match", `"stale"`) }); h.status != http.StatusOK || len(h.body) == 0 {
		t.Errorf("If-None-Match with another tag: HTTP %d, want 200 and the card", h.status)
	}
	// The card names the host it was reached at, so another host gets
	// another card, with another tag, and caches must keep them apart.
	other := ts.card(t, a2a.CardPath, func(r *http.Request) { r.Host = strings.Replace(r.Host, "127.0.0.1", "localhost", 1) })
	if other.header.Get("ETag") == etag || !strings.Contains(string(other.body), "http://localhost:") {
		t.Errorf("the card reached as localhost has ETag %s (the other %s)", other.header.Get("ETag"), etag)
	}
	if !strings.Contains(first.header.Get("Vary"), "Host") {
		t.Errorf("Vary %q, want Host", first.header.Get("Vary"))
	}
}

// TestTCK_CORE_CAP_001: "If AgentCard.capabilities.pushNotifications is
// false or not present, push notification operations MUST return
// PushNotificationNotSupportedError." (CORE-CAP-001, MUST, §3.3.4,
// core_operations.py.)
func TestTCK_CORE_CAP_001(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		var card struct{ Capabilities a2a.AgentCapabilities }
		b, _ := json.Marshal(c.srv.cardJSON(t))
		json.Unmarshal(b, &card)
		if p := card.Capabilities.PushNotifications; p == nil || *p {
			t.Fatalf("capabilities.pushNotifications %v, want false", p)
		}
		task := c.completed()
		for _, m := range []string{"CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig"} {
			params := map[string]any{"taskId": task.ID, "id": "cfg-1", "url": "https://example.com/hook"}
			if !c.v10() {
				params = map[string]any{"taskId": task.ID, "id": task.ID, "pushNotificationConfig": map[string]any{"url": "https://example.com/hook"}}
			}
			c.fail(m, params, a2a.CodePushNotSupported)
		}
	})
}

// TestTCK_CORE_CAP_002: "If AgentCard.capabilities.streaming is false or
// not present, SendStreamingMessage and SubscribeToTask MUST return
// UnsupportedOperationError." (CORE-CAP-002, MUST, §3.3.4,
// core_operations.py.) This card says streaming is true, so the check is
// the converse: both operations stream.
func TestTCK_CORE_CAP_002(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		var card struct{ Capabilities a2a.AgentCapabilities }
		b, _ := json.Marshal(c.srv.cardJSON(t))
		json.Unmarshal(b, &card)
		if s := card.Capabilities.Streaming; s == nil || !*s {
			t.Fatalf("capabilities.streaming %v, want true", s)
		}
		if evs := c.stream("SendStreamingMessage", map[string]any{"message": c.msg("count a b")}).all(); len(evs) < 2 || evs[0].Kind != "task" {
			t.Errorf("SendStreamingMessage: %d events, want the task and its updates", len(evs))
		}
		task := c.waiting()
		s := c.stream("SubscribeToTask", map[string]any{"id": task.ID})
		if ev, ok := s.next(); !ok || ev.Kind != "task" {
			t.Errorf("SubscribeToTask: first event %+v, want the task", ev)
		}
	})
}

// TestTCK_CORE_CAP_003: "If AgentCard.capabilities.extendedAgentCard is
// false or not present, GetExtendedAgentCard MUST return
// UnsupportedOperationError." (CORE-CAP-003, MUST, §3.3.4,
// core_operations.py.) 0.3 had no such capability; its
// agent/getAuthenticatedExtendedCard answered
// AuthenticatedExtendedCardNotConfiguredError (-32007), as the 0.3 Go SDK
// does.
func TestTCK_CORE_CAP_003(t *testing.T) {
	tckBoth(t, nil, func(t *testing.T, c *tckClient) {
		if c.v10() {
			c.fail("GetExtendedAgentCard", nil, a2a.CodeUnsupportedOperation)
			return
		}
		c.fail("GetExtendedAgentCard", nil, a2a.CodeExtendedCardNotAvailable)
	})
}
