package playground

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/tools"
)

func TestHome(t *testing.T) {
	h := New(tools.New(nil), &Options{HTTPURL: "http://127.0.0.1:9999", GRPCAddr: "127.0.0.1:9998",
		MCPURL: "http://127.0.0.1:9997/mcp", A2AURL: "http://127.0.0.1:9996", Loopback: true})
	for _, tt := range []struct {
		path, host string
		status     int
		contains   string
	}{
		{"/", "127.0.0.1:8018", 200, `<code>word_count</code>`},
		{"/", "127.0.0.1:8018", 200, `curl -s http://127.0.0.1:9999/tools`},
		{"/", "127.0.0.1:8018", 200, `1.1 (also serves 1.0)`},
		{"/", "127.0.0.1:8018", 200, `wirelab client grpc --addr 127.0.0.1:9998 --wire word_count`},
		{"/", "127.0.0.1:8018", 200, `wirelab client mcp --url http://127.0.0.1:9997/mcp word_count`},
		{"/", "127.0.0.1:8018", 200, `curl -s http://127.0.0.1:9996/.well-known/agent-card.json`},
		{"/static/wirelab.css", "localhost:8018", 200, `--accent`},
		{"/nope", "127.0.0.1:8018", 404, ""},
		{"/", "attacker.example", http.StatusMisdirectedRequest, "loopback"},
	} {
		r := httptest.NewRequest("GET", tt.path, nil)
		r.Host = tt.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.contains) {
			t.Errorf("GET %s (Host %s) = %d, want %d containing %q; body:\n%.300s", tt.path, tt.host, w.Code, tt.status, tt.contains, w.Body.String())
		}
	}
}

func TestHomeWithoutHTTPServer(t *testing.T) {
	h := New(tools.New(nil), nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Code != 200 || strings.Contains(w.Body.String(), "Try it") || !strings.Contains(w.Body.String(), "not started") {
		t.Errorf("home without an HTTP server: %d\n%s", w.Code, w.Body.String())
	}
}
