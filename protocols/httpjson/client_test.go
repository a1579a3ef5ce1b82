package httpjson

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// newTestServer starts a real HTTP server for the test's catalogue.
func newTestServer(t testing.TB, opts *ServerOptions) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(NewServer(testCatalogue(), opts))
	t.Cleanup(srv.Close)
	return srv
}

func mustTokens(t testing.TB, specs ...string) *tools.Tokens {
	t.Helper()
	ts, err := tools.ParseTokens(specs)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestClientCall(t *testing.T) {
	srv := newTestServer(t, &ServerOptions{Tokens: mustTokens(t, "reader", "ops:deploy:production"), Loopback: true})
	tests := []struct {
		name       string
		token      string
		req        stdio.Request
		want       string // the result, when the call succeeds
		wantCode   string // the error code, when it fails
		toolError  bool   // what the error's ToolError says
		wantStatus int    // the status that code travels with
	}{
		{name: "result", token: "reader",
			req:  stdio.Request{Name: "word_count", Args: json.RawMessage(`{"text":"read the wire"}`)},
			want: `{"words":3,"chars":13}`},
		{name: "id does not change the result", token: "reader",
			req:  stdio.Request{ID: json.RawMessage(`"call-1"`), Name: "word_count", Args: json.RawMessage(`{"text":"hi"}`)},
			want: `{"words":1,"chars":2}`},
		{name: "scoped token deploys to production", token: "ops",
			req:  stdio.Request{Name: "deploy_service", Args: json.RawMessage(`{"service":"api","env":"production"}`)},
			want: `{"service":"api","env":"production","status":"deployed","url":"https://api.example.test","steps":4}`},
		{name: "tool failed", token: "reader",
			req:      stdio.Request{Name: "weather", Args: json.RawMessage(`{"city":"Lisbon"}`)},
			wantCode: string(tools.CodeToolFailed), toolError: true, wantStatus: http.StatusOK},
		{name: "invalid arguments", token: "reader",
			req:      stdio.Request{Name: "word_count", Args: json.RawMessage(`{"text":5}`)},
			wantCode: string(tools.CodeInvalidArguments), toolError: true, wantStatus: http.StatusUnprocessableEntity},
		{name: "unknown tool", token: "reader",
			req:      stdio.Request{Name: "nope"},
			wantCode: string(tools.CodeUnknownTool), wantStatus: http.StatusNotFound},
		{name: "no token", token: "",
			req:      stdio.Request{Name: "word_count", Args: json.RawMessage(`{"text":"hi"}`)},
			wantCode: CodeUnauthorized, wantStatus: http.StatusUnauthorized},
		{name: "missing scope", token: "reader",
			req:      stdio.Request{Name: "deploy_service", Args: json.RawMessage(`{"service":"api","env":"production"}`)},
			wantCode: string(tools.CodeForbidden), wantStatus: http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewClient(srv.URL+"/", &ClientOptions{Token: tt.token}) // a trailing slash is fine
			got, err := c.Call(context.Background(), tt.req)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("Call: %v", err)
				}
				if diff := cmp.Diff(tt.want, string(got)); diff != "" {
					t.Errorf("result mismatch (-want +got):\n%s", diff)
				}
				return
			}
			var se *stdio.Error
			if !errors.As(err, &se) {
				t.Fatalf("Call error = %v (%T), want a *stdio.Error", err, err)
			}
			if se.Code != tt.wantCode || se.ToolError() != tt.toolError {
				t.Errorf("error %q with ToolError() = %v, want %q with %v", se.Code, se.ToolError(), tt.wantCode, tt.toolError)
			}
			if s := StatusFor(se.Code); s != tt.wantStatus {
				t.Errorf("StatusFor(%q) = %d, want %d", se.Code, s, tt.wantStatus)
			}
		})
	}
}

func TestClientTools(t *testing.T) {
	srv := newTestServer(t, nil)
	got, err := NewClient(srv.URL, nil).Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := testCatalogue().List()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", diff)
	}

	_, err = NewClient(newTestServer(t, &ServerOptions{Tokens: mustTokens(t, "reader")}).URL, nil).Tools(context.Background())
	var se *stdio.Error
	if !errors.As(err, &se) || se.Code != CodeUnauthorized {
		t.Errorf("Tools without a token: error %v, want code %q", err, CodeUnauthorized)
	}
}

// TestClientNotThisProtocol checks answers that did not come from a
// wirelab server, such as a proxy's error page: the error must name the
// status, and must not pass for a tool or protocol error.
func TestClientNotThisProtocol(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		wantIn      []string
	}{
		{"proxy error page", http.StatusBadGateway, "text/html", "<html><body>502 Bad Gateway</body></html>",
			[]string{"HTTP 502 Bad Gateway", `Content-Type "text/html"`}},
		{"no content type", http.StatusOK, "", `{"result":{}}`,
			[]string{"HTTP 200 OK", `Content-Type ""`}},
		{"JSON from some other API", http.StatusNotFound, "application/json", `{"message":"no route"}`,
			[]string{"HTTP 404 Not Found", "neither a result nor an error"}},
		{"broken JSON", http.StatusOK, "application/json", `{"result":`,
			[]string{"HTTP 200 OK", "not the JSON expected"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Content-Type"] = []string{tt.contentType}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer fake.Close()
			_, err := NewClient(fake.URL, nil).Call(context.Background(), stdio.Request{Name: "word_count"})
			if err == nil {
				t.Fatal("Call succeeded, want an error")
			}
			var se *stdio.Error
			if errors.As(err, &se) {
				t.Errorf("Call error is a *stdio.Error (%v); want a transport error", se)
			}
			for _, s := range tt.wantIn {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

// TestClientKeepAlive checks that calls share one connection, error
// answers included: the client reads each body to the end.
func TestClientKeepAlive(t *testing.T) {
	srv := httptest.NewUnstartedServer(NewServer(testCatalogue(), nil))
	var mu sync.Mutex // guards conns
	conns := 0
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			mu.Lock()
			conns++
			mu.Unlock()
		}
	}
	srv.Start()
	defer srv.Close()

	c := NewClient(srv.URL, &ClientOptions{HTTPClient: &http.Client{Transport: &http.Transport{}}})
	for _, req := range []stdio.Request{
		{Name: "word_count", Args: json.RawMessage(`{"text":"one"}`)},
		{Name: "weather", Args: json.RawMessage(`{"city":"Lisbon"}`)},
		{Name: "nope"},
		{Name: "word_count", Args: json.RawMessage(`{"text":"four"}`)},
	} {
		c.Call(context.Background(), req)
	}
	mu.Lock()
	defer mu.Unlock()
	if conns != 1 {
		t.Errorf("4 calls opened %d connections, want 1", conns)
	}
}

func BenchmarkRoundTrip(b *testing.B) {
	srv := newTestServer(b, nil)
	c := NewClient(srv.URL, nil)
	req := stdio.Request{Name: "word_count", Args: json.RawMessage(`{"text":"read the wire"}`)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestClientTimeout checks that the client's own timeout applies only when
// the caller set no deadline: a caller that allows longer must get longer.
func TestClientTimeout(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"result":{"words":1,"chars":1}}`))
	}))
	defer slow.Close()
	c := NewClient(slow.URL, &ClientOptions{Timeout: 50 * time.Millisecond})
	req := stdio.Request{Name: "word_count", Args: json.RawMessage(`{"text":"x"}`)}

	if _, err := c.Call(context.Background(), req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("no deadline: err = %v, want the client's timeout", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Call(ctx, req); err != nil {
		t.Errorf("caller's deadline longer than the client's timeout: %v", err)
	}
}
