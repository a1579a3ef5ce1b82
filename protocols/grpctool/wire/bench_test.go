package wire

import (
	"testing"

	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/wirelab/wirelab/protocols/tools"
)

// BenchmarkCapture measures one captured unary call: a new connection,
// the call, and parsing what was recorded. Descriptors come from Files,
// so reflection is not measured.
func BenchmarkCapture(b *testing.B) {
	addr := startServer(b, tools.New(nil), nil)
	req := executeJSON(b, "word_count", `{"text":"read the wire"}`)
	opts := &Options{Files: protoregistry.GlobalFiles}
	for b.Loop() {
		if _, err := Capture(b.Context(), addr, "tools.v1.ToolServer/ExecuteTool", req, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCaptureByReflection is the same call with its descriptors
// asked of the server first, as the playground does.
func BenchmarkCaptureByReflection(b *testing.B) {
	addr := startServer(b, tools.New(nil), nil)
	req := executeJSON(b, "word_count", `{"text":"read the wire"}`)
	for b.Loop() {
		if _, err := Capture(b.Context(), addr, "tools.v1.ToolServer/ExecuteTool", req, nil); err != nil {
			b.Fatal(err)
		}
	}
}
