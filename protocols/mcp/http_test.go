package mcp

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/tools"
)

// httpPeer is a hand-written Streamable HTTP client for tests: it sends
// the bytes a learner would type with curl and hands back the raw answer.
type httpPeer struct {
	t       *testing.T
	url     string
	session string
	headers map[string]string
}

func newHTTPServer(t *testing.T, opts *HTTPOptions) string {
	t.Helper()
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"})
	h := srv.HTTPHandler(opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); ts.Close() })
	return ts.URL + Endpoint
}

// post sends one message and returns the response; the caller closes it.
func (p *httpPeer) post(body string, header ...string) *http.Response {
	p.t.Helper()
	req, err := http.NewRequest("POST", p.url, strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if p.session != "" {
		req.Header.Set("Mcp-Session-Id", p.session)
	}
	for k, v := range p.headers {
		req.Header.Set(k, v)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	return resp
}

// initialize opens a session.
func (p *httpPeer) initialize(capabilities string) {
	p.t.Helper()
	resp := p.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + capabilities + `,"clientInfo":{"name":"t","version":"1"}}}`)
	body := readAll(p.t, resp)
	p.session = resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || p.session == "" {
		p.t.Fatalf("initialize: %s, Mcp-Session-Id %q: %s", resp.Status, p.session, body)
	}
	if resp := p.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusAccepted {
		p.t.Fatalf("initialized: %s, want 202", resp.Status)
	}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// events reads an SSE body and sends the data of each event on a channel,
// closed at the end of the body.
func events(resp *http.Response) <-chan string {
	ch := make(chan string)
	// This goroutine ends at the end of the body.
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			// An event with an empty data field primes a resumable
			// stream (resume.go); it carries no message.
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && data != "" {
				ch <- data
			}
		}
	}()
	return ch
}

// TestHTTPHandshake is the course's four-frame session over Streamable
// HTTP: the same JSON-RPC messages as on stdio, one POST each.
func TestHTTPHandshake(t *testing.T) {
	p := &httpPeer{t: t, url: newHTTPServer(t, &HTTPOptions{Loopback: true})}
	p.initialize(`{}`)
	if len(p.session) < 32 {
		t.Errorf("Mcp-Session-Id %q: want at least 128 random bits", p.session)
	}
	resp := p.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`)
	body := readAll(t, resp)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q: a call with nothing to report before its answer should get plain JSON", ct)
	}
	var got struct {
		ID     int
		Result CallToolResult
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if got.ID != 2 || string(got.Result.StructuredContent) != `{"words":3,"chars":13}` {
		t.Errorf("got %s", body)
	}
}

// TestHTTPRefusals sends each kind of bad request and checks the status,
// and that the session still works afterwards.
func TestHTTPRefusals(t *testing.T) {
	url := newHTTPServer(t, &HTTPOptions{Loopback: true})
	p := &httpPeer{t: t, url: url}
	p.initialize(`{}`)
	ping := `{"jsonrpc":"2.0","id":9,"method":"ping"}`
	for _, tt := range []struct {
		name   string
		body   string
		header []string
		want   int
	}{
		{"no session id", ping, []string{"Mcp-Session-Id", ""}, http.StatusBadRequest},
		{"unknown session", ping, []string{"Mcp-Session-Id", "00112233445566778899aabbccddeeff"}, http.StatusNotFound},
		{"unsupported MCP-Protocol-Version", ping, []string{"MCP-Protocol-Version", "2024-11-05"}, http.StatusBadRequest},
		{"older supported MCP-Protocol-Version", ping, []string{"MCP-Protocol-Version", "2025-03-26"}, http.StatusOK},
		{"Accept without SSE", ping, []string{"Accept", "application/json"}, http.StatusNotAcceptable},
		{"Accept */*", ping, []string{"Accept", "*/*"}, http.StatusOK},
		{"form body", ping, []string{"Content-Type", "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
		{"invalid JSON", `{"jsonrpc":"2.0",`, nil, http.StatusBadRequest},
		{"batch", `[` + ping + `]`, nil, http.StatusBadRequest},
		{"too big", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxBody) + `"}}`, nil, http.StatusRequestEntityTooLarge},
		{"DNS rebinding", ping, []string{"Host", "evil.example.com"}, http.StatusMisdirectedRequest},
		{"another site's page", ping, []string{"Origin", "https://evil.example.com"}, http.StatusForbidden},
		{"a page on this machine", ping, []string{"Origin", "http://localhost:3000"}, http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := *p
			p.t = t
			req, err := http.NewRequest("POST", url, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Session-Id", p.session)
			for i := 0; i+1 < len(tt.header); i += 2 {
				if tt.header[i] == "Host" {
					req.Host = tt.header[i+1]
				}
				req.Header.Set(tt.header[i], tt.header[i+1])
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body := readAll(t, resp)
			if resp.StatusCode != tt.want {
				t.Fatalf("status %s, want %d: %s", resp.Status, tt.want, body)
			}
			if resp.StatusCode != http.StatusOK && !strings.Contains(body, `"error"`) {
				t.Errorf("a refusal should say why in a JSON-RPC error; body: %s", body)
			}
		})
	}
	// The session survived all of that.
	if resp := p.post(ping); resp.StatusCode != http.StatusOK {
		t.Errorf("ping after the refusals: %s", resp.Status)
	}
}

func TestHTTPDelete(t *testing.T) {
	p := &httpPeer{t: t, url: newHTTPServer(t, nil)}
	p.initialize(`{}`)
	req, _ := http.NewRequest("DELETE", p.url, nil)
	req.Header.Set("Mcp-Session-Id", p.session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %s", resp.Status)
	}
	if resp := p.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a request on a deleted session: %s, want 404", resp.Status)
	}
}

// TestHTTPTokens checks the 401 challenge that leads a client to the
// metadata document, and the 403 for a call beyond the token's scope.
func TestHTTPTokens(t *testing.T) {
	ts, err := tools.ParseTokens([]string{"reader", "admin:deploy:production"})
	if err != nil {
		t.Fatal(err)
	}
	url := newHTTPServer(t, &HTTPOptions{Tokens: ts, Loopback: true})
	p := &httpPeer{t: t, url: url}
	resp := p.post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	readAll(t, resp)
	challenge := resp.Header.Get("WWW-Authenticate")
	meta := strings.TrimPrefix(url, "http://")
	meta = "http://" + strings.TrimSuffix(meta, Endpoint) + metadataPath + Endpoint
	if resp.StatusCode != http.StatusUnauthorized || challenge != `Bearer resource_metadata="`+meta+`"` {
		t.Fatalf("no token: %s, WWW-Authenticate %q", resp.Status, challenge)
	}
	doc, err := http.Get(meta)
	if err != nil {
		t.Fatal(err)
	}
	var prm struct {
		Resource        string   `json:"resource"`
		ScopesSupported []string `json:"scopes_supported"`
	}
	if err := json.Unmarshal([]byte(readAll(t, doc)), &prm); err != nil || prm.Resource != url || len(prm.ScopesSupported) == 0 {
		t.Errorf("metadata document: %+v, %v", prm, err)
	}

	p.headers = map[string]string{"Authorization": "Bearer reader"}
	p.initialize(`{}`)
	resp = p.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy_service","arguments":{"service":"api","env":"production"}}}`)
	body := readAll(t, resp)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="insufficient_scope", scope="deploy:production"`) {
		t.Errorf("production deploy with a reader token: %s, WWW-Authenticate %q: %s", resp.Status, resp.Header.Get("WWW-Authenticate"), body)
	}
	// Another token is another caller, with a session of its own (the
	// reader's is not the admin's: see TestHTTPSessionBoundToCaller).
	p = &httpPeer{t: t, url: url, headers: map[string]string{"Authorization": "Bearer admin"}}
	p.initialize(`{}`)
	resp = p.post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy_service","arguments":{"service":"api","env":"production"}}}`)
	if body := readAll(t, resp); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"status":"deployed"`) {
		t.Errorf("production deploy with an admin token: %s: %s", resp.Status, body)
	}
}

// TestHTTPElicitation is a server-to-client request over HTTP: the
// question arrives on the call's SSE stream, the answer goes back in a
// POST of its own (202), and the call's result follows on the stream.
func TestHTTPElicitation(t *testing.T) {
	p := &httpPeer{t: t, url: newHTTPServer(t, nil)}
	p.initialize(`{"elicitation":{}}`)
	resp := p.post(`{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"deploy_service","arguments":{"service":"api","env":"production"}}}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want an SSE stream", ct)
	}
	stream := events(resp)
	var ask struct {
		ID     json.RawMessage
		Method string
		Params ElicitParams
	}
	if err := json.Unmarshal([]byte(<-stream), &ask); err != nil || ask.Method != "elicitation/create" || !strings.Contains(ask.Params.Message, "deploy:production") {
		t.Fatalf("first event: %+v, %v", ask, err)
	}
	answer := p.post(`{"jsonrpc":"2.0","id":` + string(ask.ID) + `,"result":{"action":"accept","content":{"confirm":true}}}`)
	if readAll(t, answer); answer.StatusCode != http.StatusAccepted {
		t.Errorf("the answer: %s, want 202", answer.Status)
	}
	if last := <-stream; !strings.Contains(last, `"id":"d"`) || !strings.Contains(last, `"status":"deployed"`) {
		t.Errorf("after the answer: %s", last)
	}
	if extra, ok := <-stream; ok {
		t.Errorf("an event after the result: %s", extra)
	}
}

// TestHTTPGetStream: a session that subscribed to the deploy log hears,
// on its GET stream, about a deploy that another session made.
func TestHTTPGetStream(t *testing.T) {
	url := newHTTPServer(t, nil)
	watcher := &httpPeer{t: t, url: url}
	watcher.initialize(`{}`)
	if body := readAll(t, watcher.post(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"wirelab://deploys"}}`)); !strings.Contains(body, `"result":{}`) {
		t.Fatalf("subscribe: %s", body)
	}
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", watcher.session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %v %v", resp, err)
	}
	stream := events(resp)

	deployer := &httpPeer{t: t, url: url}
	deployer.initialize(`{}`)
	readAll(t, deployer.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy_service","arguments":{"service":"api","env":"staging"}}}`))
	if got := <-stream; got != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"wirelab://deploys"}}` {
		t.Errorf("on the GET stream: %s", got)
	}
}
