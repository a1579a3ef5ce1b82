package wire

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	rpbalpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/wirelab/wirelab/protocols/tools"
)

// healthServer is a gRPC server with nothing but the standard health
// service, and whichever reflection the test asks for.
func healthServer(t *testing.T, register func(*grpc.Server)) string {
	t.Helper()
	s := grpc.NewServer()
	healthpb.RegisterHealthServer(s, health.NewServer())
	register(s)
	return serve(t, s)
}

// TestHealthByReflection calls a service Capture knows nothing about in
// advance: the descriptors come from the server, the request is plain
// JSON, and the answer comes back as JSON.
func TestHealthByReflection(t *testing.T) {
	tests := []struct {
		name     string
		register func(*grpc.Server)
	}{
		{"wirelab server", nil},
		{"v1 only", func(s *grpc.Server) { reflection.RegisterV1(s) }},
		// An older server: Capture asks v1, gets UNIMPLEMENTED, asks v1alpha.
		{"v1alpha only", func(s *grpc.Server) {
			rpbalpha.RegisterServerReflectionServer(s, reflection.NewServer(reflection.ServerOptions{Services: s}))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var addr string
			if tt.register == nil {
				addr = startServer(t, tools.New(nil), withTokens(t)) // health and reflection need no token
			} else {
				addr = healthServer(t, tt.register)
			}
			e, err := Capture(t.Context(), addr, "grpc.health.v1.Health/Check", []byte(`{}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			if e.Code != codes.OK || len(e.Responses) != 1 {
				t.Fatalf("status %v (%s), %d responses; want OK and 1", e.Code, e.StatusMessage, len(e.Responses))
			}
			var got map[string]string
			if err := json.Unmarshal(e.Responses[0].JSON, &got); err != nil {
				t.Fatalf("response JSON %s: %v", e.Responses[0].JSON, err)
			}
			if diff := cmp.Diff(map[string]string{"status": "SERVING"}, got); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
			// HealthCheckResponse{status: SERVING}: field 1, varint 1,
			// which the descriptor names.
			want := []Field{{Number: 1, Name: "status", WireType: "varint", Bytes: []byte{0x08, 0x01}, Value: "SERVING"}}
			if diff := cmp.Diff(want, e.Responses[0].Fields); diff != "" {
				t.Errorf("response fields (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCaptureErrors checks the calls that cannot be made: each error must
// tell the learner what to change.
func TestCaptureErrors(t *testing.T) {
	addr := startServer(t, tools.New(nil), nil)
	noReflection := healthServer(t, func(*grpc.Server) {})
	// A port nobody listens on: listen, note the address, stop listening.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := lis.Addr().String()
	lis.Close()

	tests := []struct {
		name, target, method, request string
		opts                          *Options
		want                          []string // each must appear in the error
	}{
		{"malformed method", addr, "ExecuteTool", `{}`, nil,
			[]string{`"ExecuteTool"`, "package.Service/Method"}},
		{"unknown service", addr, "tools.v1.ToolService/ExecuteTool", `{}`, nil,
			[]string{"tools.v1.ToolService", "it lists:", "tools.v1.ToolServer", "grpc.health.v1.Health"}},
		{"unknown method", addr, "tools.v1.ToolServer/RunTool", `{}`, nil,
			[]string{"no method RunTool", "ExecuteTool", "ExecuteToolStream", "ListTools"}},
		{"unknown field", addr, "tools.v1.ToolServer/ExecuteTool", `{"tool":"word_count"}`, nil,
			[]string{"tools.v1.ExecuteToolRequest", `unknown field "tool"`}},
		{"not JSON", addr, "tools.v1.ToolServer/ExecuteTool", `{"toolName":`, nil,
			[]string{"not JSON"}},
		{"two requests to a unary method", addr, "tools.v1.ToolServer/ExecuteTool", `{} {}`, nil,
			[]string{"one request message, not 2"}},
		{"no reflection", noReflection, "grpc.health.v1.Health/Check", `{}`, nil,
			[]string{"no reflection", "Options.Files"}},
		{"no server", nobody, "grpc.health.v1.Health/Check", `{}`, nil,
			[]string{"cannot reach a gRPC server at " + nobody}},
		// With Files given there is no reflection call: the call itself
		// finds nobody there. (Importing toolsv1 put tools.proto in
		// GlobalFiles.)
		{"no server, files given", nobody, "tools.v1.ToolServer/ExecuteTool", `{}`, &Options{Files: protoregistry.GlobalFiles},
			[]string{"cannot reach a gRPC server at " + nobody}},
		{"files without the service", addr, "grpc.health.v1.Health/Check", `{}`, &Options{Files: new(protoregistry.Files)},
			[]string{"Options.Files", "grpc.health.v1.Health"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Capture(t.Context(), tt.target, tt.method, []byte(tt.request), tt.opts)
			if err == nil {
				t.Fatalf("no error; exchange: %+v", e)
			}
			if e != nil {
				t.Errorf("an Exchange came back with the error %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}
