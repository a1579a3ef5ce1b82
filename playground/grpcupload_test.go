package playground

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/tools"
)

// TestGRPCDescriptors: .proto files uploaded from this machine are
// compiled, held and described; a protoset that is not one, a file too
// big, an upload from another machine and another site's page are
// refused, each saying why; the playground's own server is described by
// reflection to any page, a learner's only to this machine's.
func TestGRPCDescriptors(t *testing.T) {
	t.Setenv(childEnv, "1")
	grpcAddr := liveServers(t).GRPCAddr
	pg := New(tools.New(nil), &Options{Executable: os.Args[0], GRPCAddr: grpcAddr})
	srv := httptest.NewServer(pg)
	defer func() {
		srv.Close()
		pg.Close()
	}()
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = "192.0.2.7:40000"
		pg.ServeHTTP(w, r)
	}))
	defer remote.Close()
	proto, err := os.ReadFile("../protocols/grpctool/tools/v1/tools.proto")
	if err != nil {
		t.Fatal(err)
	}
	form := func(kind string, files map[string][]byte) (string, []byte) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("kind", kind)
		for name, data := range files {
			part, _ := mw.CreateFormFile("file", name)
			part.Write(data)
		}
		mw.Close()
		return mw.FormDataContentType(), b.Bytes()
	}
	post := func(srv *httptest.Server, origin, contentType string, body []byte) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+"/console/grpc/descriptors", bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}

	ct, body := form("proto", map[string][]byte{"tools.proto": proto})
	code, got := post(srv, srv.URL, ct, body)
	var desc struct {
		Upload   string
		Source   string
		Services []struct {
			Name    string
			Methods []struct{ Method, Frame string }
		}
	}
	if err := json.Unmarshal([]byte(got), &desc); code != http.StatusOK || err != nil {
		t.Fatalf("uploading tools.proto: %d %s", code, got)
	}
	if !strings.HasPrefix(desc.Upload, "upload:") || desc.Source != "proto tools.proto" || len(desc.Services) != 1 || len(desc.Services[0].Methods) != 3 {
		t.Errorf("the upload's answer: %s", got)
	}

	ctSet, notSet := form("protoset", map[string][]byte{"x.protoset": []byte("not a protoset")})
	ctBig, big := form("proto", map[string][]byte{"big.proto": bytes.Repeat([]byte("/"), maxGRPCUpload+1)})
	for _, tc := range []struct {
		name       string
		srv        *httptest.Server
		origin, ct string
		body       []byte
		status     int
		want       string
	}{
		{"not a protoset", srv, srv.URL, ctSet, notSet, http.StatusUnprocessableEntity, "not a protoset"},
		{"too big", srv, srv.URL, ctBig, big, http.StatusRequestEntityTooLarge, "larger than 4 MiB"},
		{"from another machine", remote, remote.URL, ct, body, http.StatusForbidden, "from this machine only"},
		{"another site's page", srv, "http://evil.example", ct, body, http.StatusForbidden, ""},
		{"a learner's server from another machine", remote, remote.URL, "application/json", []byte(`{"target":"custom-grpc","to":"` + grpcAddr + `"}`), http.StatusForbidden, "from this machine only"},
		{"no such target", srv, srv.URL, "application/json", []byte(`{"target":"http"}`), http.StatusUnprocessableEntity, "no gRPC server to describe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, got := post(tc.srv, tc.origin, tc.ct, tc.body)
			if code != tc.status || !strings.Contains(got, tc.want) {
				t.Errorf("%d %s, want %d with %q", code, got, tc.status, tc.want)
			}
		})
	}

	for _, s := range []*httptest.Server{srv, remote} {
		code, got := post(s, s.URL, "application/json", []byte(`{"target":"grpc"}`))
		if code != http.StatusOK || !strings.Contains(got, `"method":"tools.v1.ToolServer/ExecuteTool"`) || !strings.Contains(got, `"arguments":{"kind":"bytes"}`) {
			t.Errorf("describing the playground's own server: %d %s", code, got)
		}
	}
	code, got = post(srv, srv.URL, "application/json", []byte(`{"target":"custom-grpc","to":"`+grpcAddr+`"}`))
	if code != http.StatusOK || !strings.Contains(got, `"source":"reflection"`) || !strings.Contains(got, `"security":"plaintext HTTP/2`) {
		t.Errorf("describing a learner's server by reflection: %d %s", code, got)
	}
}
