package playground

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestGRPCUploadClientCert: a client certificate and its key, pasted as
// one file, are held and answered with their upload:ID and whom the
// certificate names, never with the key; a certificate without its key
// is refused.
func TestGRPCUploadClientCert(t *testing.T) {
	pg := New(tools.New(nil), nil)
	srv := httptest.NewServer(pg)
	defer func() {
		srv.Close()
		pg.Close()
	}()
	certs, err := grpctool.NewCerts()
	if err != nil {
		t.Fatal(err)
	}
	post := func(pasted []byte) (int, string) {
		t.Helper()
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("kind", "cert")
		part, _ := mw.CreateFormFile("file", "pasted-cert.pem")
		part.Write(pasted)
		mw.Close()
		req, _ := http.NewRequest("POST", srv.URL+"/console/grpc/descriptors", &b)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Origin", srv.URL)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(got)
	}
	keyBody := string(certs.ClientKey[40:80]) // a piece of the key's base64

	code, got := post(append(append([]byte(nil), certs.ClientCert...), certs.ClientKey...))
	if code != http.StatusOK || !strings.Contains(got, `"upload":"upload:`) || !strings.Contains(got, `"source":"client certificate for`) {
		t.Errorf("uploading a client certificate and its key: %d %s", code, got)
	}
	if strings.Contains(got, keyBody) || strings.Contains(got, "PRIVATE") {
		t.Errorf("the answer holds the key: %s", got)
	}
	code, got = post(certs.ClientCert)
	if code != http.StatusUnprocessableEntity || !strings.Contains(got, "not a client certificate and its private key") {
		t.Errorf("a certificate without its key: %d %s", code, got)
	}
}
