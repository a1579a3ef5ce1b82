package grpctool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/tools"
)

func TestTLS(t *testing.T) {
	certs, err := grpctool.NewCerts()
	if err != nil {
		t.Fatal(err)
	}
	files, err := certs.WriteFiles(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, mutual := range []bool{false, true} {
		cfg, err := certs.ServerTLS(mutual)
		if err != nil {
			t.Fatal(err)
		}
		addr := start(t, tools.New(nil), &grpctool.ServerOptions{Creds: credentials.NewTLS(cfg)})
		for _, tt := range []struct {
			name          string
			ca, cert, key string
			plaintext     bool
			code          codes.Code
			msg           string
		}{
			{name: "plaintext", plaintext: true, code: codes.Unavailable},
			{name: "unknown authority", code: codes.Unavailable, msg: "certificate signed by unknown authority"},
			{name: "trusting the CA", ca: files.CA, code: map[bool]codes.Code{false: codes.OK, true: codes.Unavailable}[mutual]},
			{name: "with a client certificate", ca: files.CA, cert: files.ClientCert, key: files.ClientKey, code: codes.OK},
		} {
			name := map[bool]string{false: "tls/", true: "mtls/"}[mutual] + tt.name
			t.Run(name, func(t *testing.T) {
				var opts grpctool.ClientOptions
				if !tt.plaintext {
					ccfg, err := grpctool.ClientTLS(tt.ca, tt.cert, tt.key)
					if err != nil {
						t.Fatal(err)
					}
					opts.Creds = credentials.NewTLS(ccfg)
				}
				got, err := client(t, addr, &opts).Call(context.Background(), "word_count", json.RawMessage(`{"text":"read the wire"}`), "")
				if st := status.Convert(err); st.Code() != tt.code || !strings.Contains(st.Message(), tt.msg) {
					t.Errorf("got %v %q, want %v containing %q", st.Code(), st.Message(), tt.code, tt.msg)
				}
				if tt.code == codes.OK && string(got) != `{"words":3,"chars":13}` {
					t.Errorf("result %s", got)
				}
			})
		}
	}
}

func TestClientTLSErrors(t *testing.T) {
	if _, err := grpctool.ClientTLS("", "client.pem", ""); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("a certificate without a key: %v", err)
	}
	if _, err := grpctool.ClientTLS("/nonexistent/ca.pem", "", ""); err == nil {
		t.Error("a missing CA file was accepted")
	}
}
