package wire

import (
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/tools"
)

// testToken is the one bearer token of a server started with tokens.
const testToken = "s3cret"

// testDeployStep makes deploy_service take milliseconds instead of a
// second, except where a test needs it slow.
const testDeployStep = time.Millisecond

// startServer runs the wirelab gRPC server on a loopback port and returns
// its address. The server stops when the test ends.
func startServer(t testing.TB, cat *tools.Catalogue, opts *grpctool.ServerOptions) string {
	t.Helper()
	return serve(t, grpctool.NewServer(cat, opts))
}

// serve runs s on a loopback port until the test ends.
func serve(t testing.TB, s *grpc.Server) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Serve returns when Stop closes the listener.
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	return lis.Addr().String()
}

// withTokens starts the server so that ToolServer wants testToken.
func withTokens(t testing.TB) *grpctool.ServerOptions {
	t.Helper()
	ts, err := tools.ParseTokens([]string{testToken})
	if err != nil {
		t.Fatal(err)
	}
	return &grpctool.ServerOptions{Tokens: ts}
}

// bearer is the metadata that carries testToken.
func bearer() metadata.MD {
	return metadata.Pairs("authorization", "Bearer "+testToken)
}

// executeJSON writes an ExecuteToolRequest as the ProtoJSON a learner
// would type. arguments is a bytes field, so ProtoJSON carries it as
// base64.
func executeJSON(t testing.TB, tool, args string) []byte {
	t.Helper()
	b, err := protojson.Marshal(&toolsv1.ExecuteToolRequest{ToolName: tool, Arguments: []byte(args)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
