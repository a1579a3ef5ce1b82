package wire

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/reflect/protoregistry"

	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestReadConnection: the frames of a captured call, handed over as a
// relay records them (one chunk a frame, in the order they crossed),
// read back into the same call: method, stream, headers, messages
// decoded by the descriptor, status. Without descriptors the fields are
// there by number; a call cut before its trailers has no status.
func TestReadConnection(t *testing.T) {
	addr := startServer(t, tools.New(nil), nil)
	files := new(protoregistry.Files)
	if err := files.RegisterFile(toolsv1.File_tools_v1_tools_proto); err != nil {
		t.Fatal(err)
	}
	ex, err := Capture(context.Background(), addr, "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"text":"read the wire"}`), &Options{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	chunks := make([]Chunk, len(ex.Frames))
	for i, f := range ex.Frames {
		chunks[i] = Chunk{Dir: f.Dir, Data: f.Bytes}
	}

	conn := ReadConnection(chunks, files)
	if len(conn.Calls) != 1 || len(conn.Frames) != len(ex.Frames) {
		t.Fatalf("%d calls in %d frames; want 1 in %d", len(conn.Calls), len(conn.Frames), len(ex.Frames))
	}
	got := conn.Calls[0]
	type summary struct {
		Method          string
		Stream          uint32
		Code            codes.Code
		Headers         []HeaderField
		Trailers        []HeaderField
		Requests, Resps []string
	}
	sum := func(e *Exchange) summary {
		s := summary{Method: e.Method, Stream: e.StreamID, Code: e.Code, Headers: e.RequestHeaders, Trailers: e.Trailers}
		for _, m := range e.Requests {
			s.Requests = append(s.Requests, string(m.JSON))
		}
		for _, m := range e.Responses {
			s.Resps = append(s.Resps, string(m.JSON))
		}
		return s
	}
	if d := cmp.Diff(sum(ex), sum(got)); d != "" {
		t.Errorf("read back (-captured +read):\n%s", d)
	}

	bare := ReadConnection(chunks, nil).Calls[0]
	if f := bare.Requests[0].Fields; len(f) == 0 || f[0].Name != "" || f[0].Value != `"word_count"` || bare.Requests[0].JSON != nil {
		t.Errorf("without descriptors: fields %+v, JSON %s; want field 1 by number only", f, bare.Requests[0].JSON)
	}

	var cut []Chunk
	for _, c := range chunks {
		if c.Dir == ServerToClient && len(c.Data) > 9 && c.Data[3] == 0x1 && c.Data[4]&0x1 != 0 {
			break // the trailers: HEADERS with END_STREAM
		}
		cut = append(cut, c)
	}
	if call := ReadConnection(cut, files).Calls[0]; call.Code != codes.Unknown || call.Trailers != nil {
		t.Errorf("cut before the trailers: %v %v, want UNKNOWN and no trailers", call.Code, call.Trailers)
	}
}
