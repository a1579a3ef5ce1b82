package wire

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// toolsProto is the .proto of wirelab's own gRPC contract: a learner's
// server that implements it without reflection is called through it.
const toolsProto = "../../protocols/grpctool/tools/v1/tools.proto"

// echoTools is a ToolServer whose ExecuteTool answers with the arguments
// it was sent, as its result.
type echoTools struct {
	toolsv1.UnimplementedToolServerServer
}

func (echoTools) ExecuteTool(_ context.Context, req *toolsv1.ExecuteToolRequest) (*toolsv1.ExecuteToolResponse, error) {
	return &toolsv1.ExecuteToolResponse{Result: req.GetArguments()}, nil
}

// startBareGRPC serves echoTools with no reflection, over TLS when creds
// is not nil, until the test ends, and returns its port.
func startBareGRPC(t testing.TB, creds credentials.TransportCredentials) string {
	t.Helper()
	var opts []grpc.ServerOption
	if creds != nil {
		opts = append(opts, grpc.Creds(creds))
	}
	s := grpc.NewServer(opts...)
	toolsv1.RegisterToolServerServer(s, echoTools{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Serve returns when Stop closes the listener.
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// callCustom sends frame to custom-grpc at to and returns the call's
// dump, or the refusal's message.
func callCustom(t *testing.T, conn interface {
	WriteJSON(any) error
	ReadJSON(any) error
}, id int64, to, frame string) (notes []string, dump, refusal string) {
	t.Helper()
	if err := conn.WriteJSON(Command{Op: "send", ID: id, Target: "custom-grpc", To: to, Frame: frame}); err != nil {
		t.Fatal(err)
	}
	for {
		var ev Event
		if err := conn.ReadJSON(&ev); err != nil {
			t.Fatalf("waiting for call %d: %v", id, err)
		}
		switch {
		case ev.ID != id:
		case ev.Op == "error":
			return notes, "", ev.Message
		case ev.Kind == "security":
			notes = append(notes, ev.Text)
		case ev.Kind == "grpc":
			return notes, ev.Text, ""
		}
	}
}

const echoFrame = "tools.v1.ToolServer/ExecuteTool\n" + `{"toolName":"word_count","arguments":"eyJ0ZXh0IjoiaGVsbG8ifQ=="}`

// TestCustomGRPCWithoutReflection calls a server that has no reflection
// through its .proto, uploaded or read from disk, and through a protoset;
// without them the refusal says what to give.
func TestCustomGRPCWithoutReflection(t *testing.T) {
	h, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	readHello(t, conn)
	addr := "127.0.0.1:" + startBareGRPC(t, nil)

	src, err := os.ReadFile(toolsProto)
	if err != nil {
		t.Fatal(err)
	}
	proto1, err := h.UploadGRPC(t.Context(), "proto", map[string][]byte{"tools.proto": src})
	if err != nil {
		t.Fatal(err)
	}
	set := &descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{protodesc.ToFileDescriptorProto(toolsv1.File_tools_v1_tools_proto)}}
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	protoset, err := h.UploadGRPC(t.Context(), "protoset", map[string][]byte{"tools.protoset": b})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(proto1.Upload, "upload:") || len(proto1.Services) != 1 || len(proto1.Services[0].Methods) != 3 {
		t.Fatalf("the upload's description: %+v", proto1)
	}
	m := proto1.Services[0].Methods[1]
	if m.Method != "tools.v1.ToolServer/ExecuteTool" || m.Input.Fields["arguments"].Kind != "bytes" ||
		m.Frame != "tools.v1.ToolServer/ExecuteTool\n{\n  \"toolName\": \"\",\n  \"version\": \"\",\n  \"arguments\": \"\"\n}" {
		t.Errorf("ExecuteTool described as %+v", m)
	}

	for i, to := range []string{addr + " -proto " + proto1.Upload, addr + " -protoset " + protoset.Upload, addr + " -proto '" + toolsProto + "'"} {
		notes, dump, refusal := callCustom(t, conn, int64(i+1), to, echoFrame)
		if refusal != "" {
			t.Fatalf("%s: %s", to, refusal)
		}
		if !strings.Contains(dump, "OK (0)") || !strings.Contains(dump, `{"result":"eyJ0ZXh0IjoiaGVsbG8ifQ=="}`) {
			t.Errorf("%s: the dump:\n%s", to, dump)
		}
		if len(notes) != 1 || !strings.HasPrefix(notes[0], "plaintext HTTP/2 (h2c)") {
			t.Errorf("%s: the security notes %q", to, notes)
		}
	}
	for i, tc := range []struct{ to, want string }{
		{addr, "offers no reflection"},
		{addr + " -proto upload:0000000000000000", "no descriptors upload:0000000000000000 are held"},
		{addr + " -cacert", "-cacert needs a value"},
		{addr + " -insecure", `unknown option "-insecure"`},
	} {
		if _, _, refusal := callCustom(t, conn, int64(10+i), tc.to, echoFrame); !strings.Contains(refusal, tc.want) {
			t.Errorf("%s: refused with %q, want %q", tc.to, refusal, tc.want)
		}
	}
	// ProtoJSON refuses a JSON object in a bytes field; the refusal
	// says what a bytes field takes.
	_, _, refusal := callCustom(t, conn, 20, addr+" -proto "+proto1.Upload, "tools.v1.ToolServer/ExecuteTool\n"+`{"toolName":"word_count","arguments":{"text":"hello"}}`)
	if !strings.Contains(refusal, "bytes field") || !strings.Contains(refusal, "base64") {
		t.Errorf("a JSON object for bytes: %q", refusal)
	}

	desc, err := h.DescribeGRPC(t.Context(), "custom-grpc", addr)
	if err == nil || !strings.Contains(err.Error(), "offers no reflection") {
		t.Errorf("describing a server without reflection: %+v, %v", desc, err)
	}
	desc, err = h.DescribeGRPC(t.Context(), "custom-grpc", addr+" -proto "+proto1.Upload)
	if err != nil || len(desc.Services) != 1 {
		t.Errorf("describing through the upload: %+v, %v", desc, err)
	}
}

// TestCustomGRPCTLS reaches a TLS server through its CA, given as a file
// and pasted, and says what failed, and what to change, when the CA is
// not given, the name is wrong, or one side does not speak TLS.
func TestCustomGRPCTLS(t *testing.T) {
	h, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	readHello(t, conn)
	certs, err := grpctool.NewCerts()
	if err != nil {
		t.Fatal(err)
	}
	serverTLS, err := certs.ServerTLS(false)
	if err != nil {
		t.Fatal(err)
	}
	port := startBareGRPC(t, credentials.NewTLS(serverTLS))
	plainPort := startBareGRPC(t, nil)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, certs.CA, 0o600); err != nil {
		t.Fatal(err)
	}
	pasted, err := h.UploadGRPC(t.Context(), "ca", map[string][]byte{"pasted": certs.CA})
	if err != nil {
		t.Fatal(err)
	}
	up, err := h.UploadGRPC(t.Context(), "proto", map[string][]byte{"tools.proto": mustRead(t, toolsProto)})
	if err != nil {
		t.Fatal(err)
	}
	protos := " -proto " + up.Upload

	for i, tc := range []struct{ to, note string }{
		{"localhost:" + port + " -cacert " + caFile + protos, "verified against the CA in " + caFile},
		{"127.0.0.1:" + port + " -cacert " + pasted.Upload + protos, "verified against the CA pasted on the page"},
	} {
		notes, dump, refusal := callCustom(t, conn, int64(i+1), tc.to, echoFrame)
		if refusal != "" {
			t.Fatalf("%s: %s", tc.to, refusal)
		}
		if !strings.Contains(dump, "OK (0)") || len(notes) != 1 || !strings.HasPrefix(notes[0], "TLS 1.3") || !strings.Contains(notes[0], tc.note) {
			t.Errorf("%s: notes %q, dump:\n%s", tc.to, notes, dump)
		}
	}
	for i, tc := range []struct{ to, want string }{
		{"localhost:" + port + " -tls" + protos, "unknown authority"},
		{"127.0.0.1:" + port + " -cacert " + caFile + " -servername api.example.com" + protos, `not for "api.example.com" (wrong name)`},
		{"127.0.0.1:" + plainPort + " -cacert " + caFile + protos, "does not speak TLS"},
		{"127.0.0.1:" + port + " -cacert " + filepath.Join(t.TempDir(), "none.pem") + protos, "reading the CA file"},
	} {
		if _, _, refusal := callCustom(t, conn, int64(10+i), tc.to, echoFrame); !strings.Contains(refusal, tc.want) {
			t.Errorf("%s: refused with %q, want %q", tc.to, refusal, tc.want)
		}
	}
	// Plaintext to a TLS server: Go's TLS server hangs up without a word.
	_, _, refusal := callCustom(t, conn, 20, "127.0.0.1:"+port+protos, echoFrame)
	if !strings.Contains(refusal, "if it serves TLS, choose TLS") {
		t.Errorf("plaintext to a TLS server: %q", refusal)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
