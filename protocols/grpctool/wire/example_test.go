package wire_test

import (
	"context"
	"fmt"
	"log"
	"net"

	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/grpctool/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// Capture one call and read its bytes. The request is ProtoJSON, so the
// bytes field arguments is base64: eyJ0ZXh0IjoicmVhZCB0aGUgd2lyZSJ9 is
// {"text":"read the wire"}.
func ExampleCapture() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := grpctool.NewServer(tools.New(nil), nil)
	go srv.Serve(lis) // returns when Stop closes the listener
	defer srv.Stop()

	e, err := wire.Capture(context.Background(), lis.Addr().String(), "tools.v1.ToolServer/ExecuteTool",
		[]byte(`{"toolName":"word_count","arguments":"eyJ0ZXh0IjoicmVhZCB0aGUgd2lyZSJ9"}`), nil)
	if err != nil {
		log.Fatal(err)
	}
	req := e.Requests[0]
	fmt.Printf("prefix % x\n", req.Prefix)
	for _, f := range req.Fields {
		fmt.Printf("% x ... field %d %s = %s\n", f.Bytes[:2], f.Number, f.Name, f.Value)
	}
	fmt.Printf("answer %s\n", e.Responses[0].Fields[0].Value)
	fmt.Printf("status %v, trailers %v\n", e.Code, e.Trailers)
	// Output:
	// prefix 00 00 00 00 26
	// 0a 0a ... field 1 tool_name = "word_count"
	// 1a 18 ... field 3 arguments = {"text":"read the wire"}
	// answer {"words":3,"chars":13}
	// status OK, trailers [{grpc-status 0} {grpc-message }]
}
