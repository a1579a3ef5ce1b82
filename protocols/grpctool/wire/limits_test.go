package wire

import (
	"bytes"
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/emptypb"
)

// hostileDepth is how deep the hostile message of the tests nests:
// 700,000 levels, about 3 MB, under gRPC's 4 MiB default limit on a
// message. Decoded one function call per level, it overflows the stack.
const hostileDepth = 700_000

// deepKinds returns a Kinds message nested depth levels deep: each level's
// field 10 (child) holds the next, and the innermost holds small = 7.
//
// Wrapping the message once per level would copy it each time, so the
// lengths are worked out from the inside first and the bytes written from
// the outside.
func deepKinds(depth int) []byte {
	inner := []byte{0x08, 0x07}
	sizes := make([]int, depth) // sizes[i]: the length of the message i levels in
	sizes[depth-1] = len(inner)
	for i := depth - 2; i >= 0; i-- {
		sizes[i] = 1 + protowire.SizeVarint(uint64(sizes[i+1])) + sizes[i+1]
	}
	b := make([]byte, 0, sizes[0])
	for i := 1; i < depth; i++ {
		b = protowire.AppendTag(b, 10, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(sizes[i]))
	}
	return append(b, inner...)
}

// innermost follows the first field of each level down and returns it and
// the level it is on (1 for the message itself).
func innermost(fields []Field) (Field, int) {
	level := 1
	for len(fields[0].Fields) > 0 {
		fields = fields[0].Fields
		level++
	}
	return fields[0], level
}

// TestDepthLimit checks that the dump follows nested messages
// maxFieldDepth levels deep and shows the next level as bytes, saying so;
// the JSON follows the same limit.
func TestDepthLimit(t *testing.T) {
	md := kindsDescriptor(t)
	types := dynamicpb.NewTypes(new(protoregistry.Files))
	for _, tt := range []struct {
		depth     int
		wantLevel int
		wantValue string
		wantJSON  bool
	}{
		{maxFieldDepth, maxFieldDepth, "7", true},
		{maxFieldDepth + 1, maxFieldDepth, "nested deeper than 100 levels; shown as bytes: 08 07", false},
	} {
		t.Run(fmt.Sprint(tt.depth), func(t *testing.T) {
			m := Message{Payload: deepKinds(tt.depth)}
			describe(&m, md, types, "")
			f, level := innermost(m.Fields)
			if level != tt.wantLevel || f.Value != tt.wantValue {
				t.Errorf("innermost field: level %d, value %q; want level %d, value %q", level, f.Value, tt.wantLevel, tt.wantValue)
			}
			if (m.JSON != nil) != tt.wantJSON {
				t.Errorf("JSON = %.40s..., want JSON: %v", m.JSON, tt.wantJSON)
			}
		})
	}
}

// TestHostileDepth decodes a message nested 700,000 levels deep, which
// crashed the process when every level was decoded: the dump stops at
// maxFieldDepth and says so, and Format shows that.
func TestHostileDepth(t *testing.T) {
	// A decoder that recursed once per level again would need hundreds of
	// megabytes of stack; with this much it crashes at once instead.
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20))

	b := deepKinds(hostileDepth)
	if len(b) < 2<<20 || len(b) > 4<<20 {
		t.Fatalf("the message is %d bytes, want about 3 MB", len(b))
	}
	m := Message{Prefix: []byte{0, 0, 0, 0, 0}, Payload: b}
	describe(&m, kindsDescriptor(t), dynamicpb.NewTypes(new(protoregistry.Files)), "")
	f, level := innermost(m.Fields)
	if level != maxFieldDepth || !strings.HasPrefix(f.Value, "nested deeper than 100 levels; shown as bytes: 52 ") {
		t.Errorf("innermost field: level %d, value %.80q", level, f.Value)
	}
	var out bytes.Buffer
	formatMessage(&out, 1, m)
	if !strings.Contains(out.String(), "field 10 child (len) = nested deeper than 100 levels; shown as bytes: 52 ") {
		t.Errorf("Format does not say the message is too deep:\n%s", out.String())
	}
}

// TestFieldCount checks that one message splits into at most maxFields
// fields and packed values, nested ones included, and that the bytes left
// are kept as one entry that says why.
func TestFieldCount(t *testing.T) {
	md := kindsDescriptor(t)
	small := []byte{0x08, 0x01} // small = 1
	packed := protowire.AppendTag(nil, 9, protowire.BytesType)
	packed = protowire.AppendBytes(packed, bytes.Repeat([]byte{0x01}, maxFields+5))

	t.Run("fields", func(t *testing.T) {
		b := bytes.Repeat(small, maxFields+3)
		fields := decodeFields(b, md)
		if len(fields) != maxFields+1 {
			t.Fatalf("%d fields, want %d and one for the rest", len(fields), maxFields)
		}
		last := fields[maxFields]
		want := Field{Bytes: b[2*maxFields:], Value: "more than 10000 fields; the other 6 bytes shown as bytes: 08 01 08 01 08 01"}
		if diff := cmp.Diff(want, last); diff != "" {
			t.Errorf("the rest (-want +got):\n%s", diff)
		}
	})
	t.Run("packed values", func(t *testing.T) {
		fields := decodeFields(packed, md)
		if len(fields) != 1 {
			t.Fatalf("%d fields, want 1", len(fields))
		}
		// The field itself counts, then maxFields-1 values.
		want := strings.Repeat("1, ", maxFields-1) + "... 6 more bytes]"
		if got := fields[0].Value; got != "["+want {
			t.Errorf("value ends %q", got[max(0, len(got)-40):])
		}
	})
	t.Run("nested", func(t *testing.T) {
		child := protowire.AppendTag(nil, 10, protowire.BytesType)
		child = protowire.AppendBytes(child, bytes.Repeat(small, maxFields))
		fields := decodeFields(child, md)
		// The child field counts, so its last field is the rest.
		nested := fields[0].Fields
		if len(nested) != maxFields || nested[maxFields-1].WireType != "" {
			t.Errorf("%d nested fields, the last %+v; want %d, the last the rest", len(nested), nested[len(nested)-1], maxFields)
		}
	})
}

// TestHeaderListLimit checks that a header block that decodes to more
// than maxHeaderList, by repeating a large entry of HPACK's table, keeps
// only the fields within the limit, and that the next block still
// decodes: the table stayed in step.
func TestHeaderListLimit(t *testing.T) {
	server := newSide(t)
	big := strings.Repeat("x", 4000)
	// The first copy enters the table; each further copy is one index.
	pairs := []string{}
	for range 300 {
		pairs = append(pairs, "x-big", big)
	}
	bomb := server.block(pairs...)
	if len(bomb) > 5000 {
		t.Fatalf("the block is %d bytes: the encoder did not index the field, so the test proves nothing", len(bomb))
	}
	server.check(server.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: bomb, EndHeaders: true}))
	next := server.block("grpc-status", "0", "x-big", big)
	server.check(server.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: next, EndHeaders: true, EndStream: true}))

	frames := readFrames(ServerToClient, []chunk{server.chunk(1)}, nil)
	field := hpack.HeaderField{Name: "x-big", Value: big}
	kept := maxHeaderList / int(field.Size())
	if got := len(frames[0].Headers); got != kept {
		t.Errorf("%d fields kept, want %d", got, kept)
	}
	wantDetail := fmt.Sprintf("HPACK: the header list passes 1048576 bytes (names and values, plus 32 bytes a field); only the first %d fields are kept", kept)
	if frames[0].Detail != wantDetail {
		t.Errorf("Detail = %q\nwant %q", frames[0].Detail, wantDetail)
	}
	if diff := cmp.Diff([]HeaderField{{"grpc-status", "0"}, {"x-big", big}}, frames[1].Headers); diff != "" || frames[1].Detail != "" {
		t.Errorf("the next block (-want +got):\n%s\nDetail: %q", diff, frames[1].Detail)
	}
}

// TestHeaderStringLimit checks that a header longer than maxHeaderList is
// an HPACK error, and that the blocks after it say they cannot be read.
func TestHeaderStringLimit(t *testing.T) {
	server := newSide(t)
	// Encode the value unindexed: the encoder's table cannot hold it.
	server.check(server.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: server.block("x-long", strings.Repeat("y", maxHeaderList+1)), EndHeaders: true}))
	server.check(server.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: server.block("grpc-status", "0"), EndHeaders: true, EndStream: true}))

	got := summary(mergeFrames(nil, readFrames(ServerToClient, []chunk{server.chunk(1)}, nil)))
	want := []string{
		"<- HEADERS 1 [END_HEADERS] HPACK: hpack: string too long",
		"<- HEADERS 1 [END_STREAM END_HEADERS] HPACK: not decoded: an earlier block failed (hpack: string too long), so the table it refers to is unknown",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
}

// TestHostileReply makes a real call to a server whose answer nests
// 700,000 levels deep, as `wirelab client grpc --wire` and the
// playground's custom-grpc target would: the capture shows the call and
// says where it stopped reading.
func TestHostileReply(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20))

	deep := deepKinds(hostileDepth)
	// The server answers any method with the deep message: an Empty whose
	// unknown fields are the bytes, which Protobuf sends as they are.
	addr := serve(t, grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		if err := stream.RecvMsg(new(emptypb.Empty)); err != nil {
			return err
		}
		answer := new(emptypb.Empty)
		answer.ProtoReflect().SetUnknown(deep)
		return stream.SendMsg(answer)
	})))

	file := proto.CloneOf(kindsFile())
	file.Service = []*descriptorpb.ServiceDescriptorProto{{
		Name: proto.String("Deep"),
		Method: []*descriptorpb.MethodDescriptorProto{{
			Name: proto.String("Get"), InputType: proto.String(".lab.Kinds"), OutputType: proto.String(".lab.Kinds"),
		}},
	}}
	fd, err := protodesc.NewFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	files := new(protoregistry.Files)
	if err := files.RegisterFile(fd); err != nil {
		t.Fatal(err)
	}

	e, err := Capture(context.Background(), addr, "lab.Deep/Get", []byte(`{"small":1}`), &Options{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Responses) != 1 || !bytes.Equal(e.Responses[0].Payload, deep) {
		t.Fatalf("%d responses; want the deep one", len(e.Responses))
	}
	var out bytes.Buffer
	if err := e.Format(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "nested deeper than 100 levels; shown as bytes: 52 ") {
		t.Errorf("Format does not say the answer is too deep:\n%s", out.String())
	}
	if out.Len() > 64<<10 {
		t.Errorf("Format wrote %d bytes for one message", out.Len())
	}
}

// endlessReflection answers every reflection request with a new file that
// imports yet another.
type endlessReflection struct {
	rpb.UnimplementedServerReflectionServer
}

func (endlessReflection) ServerReflectionInfo(stream rpb.ServerReflection_ServerReflectionInfoServer) error {
	for n := 0; ; n++ {
		req, err := stream.Recv()
		if err != nil {
			return nil // the client is done
		}
		file, err := proto.Marshal(&descriptorpb.FileDescriptorProto{
			Name:       proto.String(fmt.Sprintf("f%d.proto", n)),
			Dependency: []string{fmt.Sprintf("f%d.proto", n+1)},
		})
		if err != nil {
			return err
		}
		err = stream.Send(&rpb.ServerReflectionResponse{
			OriginalRequest: req,
			MessageResponse: &rpb.ServerReflectionResponse_FileDescriptorResponse{
				FileDescriptorResponse: &rpb.FileDescriptorResponse{FileDescriptorProto: [][]byte{file}},
			},
		})
		if err != nil {
			return err
		}
	}
}

// TestEndlessReflection checks that a server whose files import each
// other without end is asked maxReflectedFiles times, not forever.
func TestEndlessReflection(t *testing.T) {
	s := grpc.NewServer()
	rpb.RegisterServerReflectionServer(s, endlessReflection{})
	_, err := Capture(context.Background(), serve(t, s), "lab.Deep/Get", nil, nil)
	want := "the server sent more than 1000 files by reflection"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Capture: %v; want an error saying %q", err, want)
	}
}
