package wire

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCustomHTTPS: an https:// target is reached over TLS, its
// certificate verified against the CA named with -cacert; a note says
// how the connection is secured, and the bytes shown are the plaintext
// HTTP inside it. A handshake that fails says why and what to change: a
// CA this machine does not trust, a plain HTTP server behind https://.
func TestCustomHTTPS(t *testing.T) {
	api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Mcp-Session-Id", "s-1")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}))
	defer api.Close()
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: api.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	_, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	readHello(t, conn)

	frame := "POST /mcp HTTP/1.1\nContent-Type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"
	to := api.URL + "/mcp -cacert " + ca
	send(t, conn, Command{Op: "send", ID: 1, Target: "custom-http", To: to, Frame: frame})
	note := next(t, conn, func(ev Event) bool { return ev.Kind == "tls" })
	if note.ID != 1 || note.To != to || !strings.Contains(note.Text, "TLS 1.3") || !strings.Contains(note.Text, "the CA in "+ca) {
		t.Errorf("the TLS note: %+v", note)
	}
	req := next(t, conn, func(ev Event) bool { return ev.Kind == "http-request" })
	if !strings.HasPrefix(req.Text, "POST /mcp HTTP/1.1\r\n") {
		t.Errorf("the request is not shown in plaintext: %q", req.Text)
	}
	head := next(t, conn, func(ev Event) bool { return ev.Kind == "http-head" })
	if !strings.Contains(head.Text, "Mcp-Session-Id: s-1") {
		t.Errorf("the answer's head: %q", head.Text)
	}

	for _, tt := range []struct {
		to, want string
	}{
		{api.URL + "/mcp", "which the system roots does not trust (unknown authority); name the CA that signed it after the URL: -cacert FILE"},
		{"https" + strings.TrimPrefix(plain.URL, "http") + "/mcp", "the server does not speak TLS"},
		{plain.URL + "/mcp -cacert " + ca, "-cacert is for an https:// URL"},
		{api.URL + "/mcp -k", "after the URL comes only -cacert FILE"},
		{api.URL + "/mcp -cacert " + filepath.Join(t.TempDir(), "none.pem"), "reading the CA file"},
		{"ftp://127.0.0.1:9/mcp", `custom-http needs your server's URL`},
	} {
		send(t, conn, Command{Op: "send", ID: 2, Target: "custom-http", To: tt.to, Frame: frame})
		ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" })
		if !strings.Contains(ev.Message, tt.want) {
			t.Errorf("to %q: got %q, want it to contain %q", tt.to, ev.Message, tt.want)
		}
	}
}
