package wire

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirelab/wirelab/internal/transcript"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// The fuzz targets start from the golden transcripts: each call is made
// again against a real server, and the bytes that crossed are the seeds.

// transcriptExchanges captures the call of every golden transcript.
func transcriptExchanges(t testing.TB) []*Exchange {
	t.Helper()
	var out []*Exchange
	for _, f := range transcript.Glob(t, "testdata/*.txtar") {
		out = append(out, captureTranscript(t, f))
	}
	return out
}

// directionBytes joins the bytes of the frames that went one way.
func directionBytes(e *Exchange, dir Direction) []byte {
	var b []byte
	for _, f := range e.Frames {
		if f.Dir == dir {
			b = append(b, f.Bytes...)
		}
	}
	return b
}

// FuzzFrames parses one direction of a connection, then reads a call out
// of it and formats it, as Capture does with what it recorded. Every byte
// must be in exactly one frame, in order: the parser neither invents nor
// drops bytes, whatever they are.
func FuzzFrames(f *testing.F) {
	// The hand-built call adds what grpc-go does not send: a header block
	// continued in a CONTINUATION frame, and padding.
	for _, e := range append(transcriptExchanges(f), handBuiltUnary(f)) {
		f.Add(directionBytes(e, ClientToServer), false)
		f.Add(directionBytes(e, ServerToClient), true)
	}
	types := dynamicpb.NewTypes(protoregistry.GlobalFiles)
	md := (&toolsv1.ExecuteToolResponse{}).ProtoReflect().Descriptor()

	f.Fuzz(func(t *testing.T, data []byte, fromServer bool) {
		dir := ClientToServer
		if fromServer {
			dir = ServerToClient
		}
		frames := readFrames(dir, []chunk{{seq: 1, data: data}}, nil)
		var joined []byte
		for _, fr := range frames {
			joined = append(joined, fr.Bytes...)
			size := 0
			for _, h := range fr.Headers {
				size += len(h.Name) + len(h.Value) + 32
			}
			if size > maxHeaderList {
				t.Fatalf("%s frame with %d bytes of headers, over maxHeaderList", fr.Type, size)
			}
		}
		if !bytes.Equal(joined, data) {
			t.Fatalf("the frames hold %d bytes of %d, or not in order", len(joined), len(data))
		}

		e := &Exchange{StreamID: 1, Frames: mergeFrames(frames, nil)}
		if i := slices.IndexFunc(e.Frames, func(fr Frame) bool { return fr.Type == "HEADERS" }); i >= 0 {
			e.StreamID = e.Frames[i].StreamID
		}
		e.readCall(nil)
		for _, msgs := range [][]Message{e.Requests, e.Responses} {
			for i := range msgs {
				describe(&msgs[i], md, types, "gzip")
			}
		}
		if err := e.Format(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzHeaderBlock decodes two HPACK header blocks one after the other, as
// on one connection, where the second may refer to what the first put in
// the table.
func FuzzHeaderBlock(f *testing.F) {
	for _, e := range transcriptExchanges(f) {
		for _, dir := range []Direction{ClientToServer, ServerToClient} {
			var blocks [][]byte
			for _, fr := range e.Frames {
				// grpc-go pads no HEADERS frame and sets no priority, so
				// the payload is the header block.
				if fr.Dir == dir && fr.Type == "HEADERS" && len(fr.Flags) > 0 && !slices.Contains(fr.Flags, "PADDED") && !slices.Contains(fr.Flags, "PRIORITY") {
					blocks = append(blocks, fr.Bytes[frameHeaderLen:])
				}
			}
			for i := range blocks {
				next := []byte{}
				if i+1 < len(blocks) {
					next = blocks[i+1]
				}
				f.Add(blocks[i], next)
			}
		}
	}

	f.Fuzz(func(t *testing.T, first, second []byte) {
		hd := newHeaderDecoder()
		for _, block := range [][]byte{first, second} {
			fields, _ := hd.decode(block)
			size := 0
			for _, h := range fields {
				size += len(h.Name) + len(h.Value) + 32
			}
			if size > maxHeaderList {
				t.Fatalf("%d bytes of headers kept, over maxHeaderList", size)
			}
		}
	})
}

// fuzzDescriptors are the messages FuzzFields reads every input as: none
// (no descriptor, as for an unknown method), the self-recursive Kinds, and
// the messages of the transcripts' methods.
func fuzzDescriptors(t testing.TB) []protoreflect.MessageDescriptor {
	return []protoreflect.MessageDescriptor{
		nil,
		kindsDescriptor(t),
		(&toolsv1.ExecuteToolRequest{}).ProtoReflect().Descriptor(),
		(&toolsv1.ExecuteToolResponse{}).ProtoReflect().Descriptor(),
		(&toolsv1.ExecuteToolEvent{}).ProtoReflect().Descriptor(),
		(&grpc_health_v1.HealthCheckResponse{}).ProtoReflect().Descriptor(),
	}
}

// FuzzFields splits a message into fields with each descriptor, then
// formats it. The fields must cover the bytes exactly, at every level,
// and stay within the limits.
func FuzzFields(f *testing.F) {
	for _, e := range transcriptExchanges(f) {
		for _, m := range append(slices.Clone(e.Requests), e.Responses...) {
			f.Add(m.Payload)
		}
	}
	f.Add(deepKinds(maxFieldDepth + 2))
	f.Add([]byte{0x4a, 0x03, 0x01, 0x02, 0x03}) // packed
	f.Add([]byte{0x0b, 0x08, 0x01, 0x0c})       // a group
	descriptors := fuzzDescriptors(f)
	types := dynamicpb.NewTypes(protoregistry.GlobalFiles)

	f.Fuzz(func(t *testing.T, payload []byte) {
		for _, md := range descriptors {
			fields := decodeFields(payload, md)
			count := checkCover(t, payload, fields, 1)
			// Each level may end with one entry for the bytes past the
			// limit.
			if count > maxFields+maxFieldDepth {
				t.Fatalf("%d fields, over maxFields", count)
			}
			if md == nil {
				continue
			}
			m := Message{Prefix: []byte{0, 0, 0, 0, 0}, Payload: payload}
			describe(&m, md, types, "")
			var out bytes.Buffer
			formatMessage(&out, 1, m)
		}
	})
}

// checkCover checks that fields, depth levels deep, hold exactly the bytes
// of b, and that nested fields hold exactly their value's bytes. It
// returns how many fields and packed values there are.
func checkCover(t *testing.T, b []byte, fields []Field, depth int) int {
	t.Helper()
	if depth > maxFieldDepth {
		t.Fatalf("fields %d levels deep", depth)
	}
	count := 0
	var joined []byte
	for _, f := range fields {
		joined = append(joined, f.Bytes...)
		count++
		if f.Value != "" && f.Value[0] == '[' && f.WireType == "len" {
			count += bytes.Count([]byte(f.Value), []byte(", "))
		}
		if len(f.Fields) > 0 {
			// A nested message is the value of a LEN field: the bytes
			// after its tag and length.
			_, _, n := protowire.ConsumeTag(f.Bytes)
			v, m := protowire.ConsumeBytes(f.Bytes[n:])
			if n < 0 || m < 0 {
				t.Fatalf("field % x holds fields but is not a LEN field", f.Bytes)
			}
			count += checkCover(t, v, f.Fields, depth+1)
		}
	}
	if !bytes.Equal(joined, b) {
		t.Fatalf("level %d: the fields hold % x, the message % x", depth, joined, b)
	}
	return count
}
