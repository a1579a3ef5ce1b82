package wire

import (
	"crypto/tls"
	"crypto/x509"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"

	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestTLS captures a call over TLS and still reads plaintext HTTP/2: the
// recorder sits above the TLS layer, where grpc-go writes frames.
func TestTLS(t *testing.T) {
	certs, err := grpctool.NewCerts()
	if err != nil {
		t.Fatal(err)
	}
	serverTLS, err := certs.ServerTLS(false)
	if err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, tools.New(nil), &grpctool.ServerOptions{Creds: credentials.NewTLS(serverTLS)})
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(certs.CA) {
		t.Fatal("the CA is not PEM")
	}
	creds := credentials.NewTLS(&tls.Config{RootCAs: roots})

	e, err := Capture(t.Context(), addr, "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"text":"read the wire"}`), &Options{Creds: creds})
	if err != nil {
		t.Fatal(err)
	}
	if e.Code != codes.OK {
		t.Fatalf("status %v: %s", e.Code, e.StatusMessage)
	}
	i := slices.IndexFunc(e.Frames, func(f Frame) bool { return f.Dir == ClientToServer })
	if i < 0 || string(e.Frames[i].Bytes) != "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" {
		t.Fatalf("the client's side does not start with the HTTP/2 preface: %v", summary(e.Frames))
	}
	if got := header(e.RequestHeaders, ":scheme"); got != "https" {
		t.Errorf(":scheme = %q, want https", got)
	}
	if len(e.Responses) != 1 || string(e.Responses[0].JSON) == "" {
		t.Errorf("responses %+v, want one decoded message", e.Responses)
	}
}
