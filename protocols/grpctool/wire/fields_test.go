package wire

import (
	"bytes"
	"compress/gzip"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// kindsDescriptor describes, without a .proto file, a message with one
// field of each kind whose wire form differs:
//
//	enum Color { RED = 0; GREEN = 1; }
//	message Kinds {
//	  int32 small = 1;  sint32 zigzag = 2;  bool flag = 3;  Color color = 4;
//	  double ratio = 5; fixed32 fixed = 6;  string name = 7; bytes raw = 8;
//	  repeated int32 packed = 9;  Kinds child = 10;
//	}
func kindsDescriptor(t testing.TB) protoreflect.MessageDescriptor {
	t.Helper()
	fd, err := protodesc.NewFile(kindsFile(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return fd.Messages().ByName("Kinds")
}

// kindsFile is the file that declares Kinds.
func kindsFile() *descriptorpb.FileDescriptorProto {
	field := func(name string, n int32, typ descriptorpb.FieldDescriptorProto_Type) *descriptorpb.FieldDescriptorProto {
		return &descriptorpb.FieldDescriptorProto{
			Name: proto.String(name), Number: proto.Int32(n), Type: typ.Enum(),
			Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
		}
	}
	color := field("color", 4, descriptorpb.FieldDescriptorProto_TYPE_ENUM)
	color.TypeName = proto.String(".lab.Color")
	packed := field("packed", 9, descriptorpb.FieldDescriptorProto_TYPE_INT32)
	packed.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	child := field("child", 10, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE)
	child.TypeName = proto.String(".lab.Kinds")
	return &descriptorpb.FileDescriptorProto{
		Name: proto.String("lab/kinds.proto"), Package: proto.String("lab"), Syntax: proto.String("proto3"),
		EnumType: []*descriptorpb.EnumDescriptorProto{{
			Name: proto.String("Color"),
			Value: []*descriptorpb.EnumValueDescriptorProto{
				{Name: proto.String("RED"), Number: proto.Int32(0)},
				{Name: proto.String("GREEN"), Number: proto.Int32(1)},
			},
		}},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("Kinds"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("small", 1, descriptorpb.FieldDescriptorProto_TYPE_INT32),
				field("zigzag", 2, descriptorpb.FieldDescriptorProto_TYPE_SINT32),
				field("flag", 3, descriptorpb.FieldDescriptorProto_TYPE_BOOL),
				color,
				field("ratio", 5, descriptorpb.FieldDescriptorProto_TYPE_DOUBLE),
				field("fixed", 6, descriptorpb.FieldDescriptorProto_TYPE_FIXED32),
				field("name", 7, descriptorpb.FieldDescriptorProto_TYPE_STRING),
				field("raw", 8, descriptorpb.FieldDescriptorProto_TYPE_BYTES),
				packed,
				child,
			},
		}},
	}
}

func TestDecodeFields(t *testing.T) {
	md := kindsDescriptor(t)
	tests := []struct {
		name  string
		bytes []byte // one field, built by hand
		want  Field
	}{
		// Tag 0x08: field 1 << 3 | 0 (VARINT). 150 is 0x96 0x01: seven bits
		// per byte, low bits first, the top bit saying "more follows".
		{"varint", []byte{0x08, 0x96, 0x01}, Field{Number: 1, Name: "small", WireType: "varint", Value: "150"}},
		// An int32 of -1 is sign-extended to 64 bits: ten bytes.
		{"negative int32", []byte{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, Field{Number: 1, Name: "small", WireType: "varint", Value: "-1"}},
		// sint32 uses ZigZag: -1 is 1, one byte.
		{"zigzag", []byte{0x10, 0x01}, Field{Number: 2, Name: "zigzag", WireType: "varint", Value: "-1"}},
		{"bool", []byte{0x18, 0x01}, Field{Number: 3, Name: "flag", WireType: "varint", Value: "true"}},
		{"enum", []byte{0x20, 0x01}, Field{Number: 4, Name: "color", WireType: "varint", Value: "GREEN"}},
		{"unknown enum value", []byte{0x20, 0x07}, Field{Number: 4, Name: "color", WireType: "varint", Value: "7"}},
		// Tag 0x29: field 5, wire type 1 (I64); 8 bytes little-endian.
		{"double", protowire.AppendFixed64([]byte{0x29}, math.Float64bits(0.5)), Field{Number: 5, Name: "ratio", WireType: "i64", Value: "0.5"}},
		{"fixed32", []byte{0x35, 0x2a, 0, 0, 0}, Field{Number: 6, Name: "fixed", WireType: "i32", Value: "42"}},
		{"string", []byte{0x3a, 0x02, 'h', 'i'}, Field{Number: 7, Name: "name", WireType: "len", Value: `"hi"`}},
		{"bytes as JSON", []byte{0x42, 0x02, '{', '}'}, Field{Number: 8, Name: "raw", WireType: "len", Value: "{}"}},
		{"bytes as text", []byte{0x42, 0x02, 'o', 'k'}, Field{Number: 8, Name: "raw", WireType: "len", Value: `"ok"`}},
		{"bytes as hex", []byte{0x42, 0x02, 0x00, 0xff}, Field{Number: 8, Name: "raw", WireType: "len", Value: "00 ff"}},
		// proto3 packs repeated numbers into one LEN field.
		{"packed", []byte{0x4a, 0x03, 0x01, 0x02, 0x03}, Field{Number: 9, Name: "packed", WireType: "len", Value: "[1, 2, 3]"}},
		{"nested", []byte{0x52, 0x02, 0x08, 0x07}, Field{Number: 10, Name: "child", WireType: "len", Fields: []Field{
			{Number: 1, Name: "small", WireType: "varint", Bytes: []byte{0x08, 0x07}, Value: "7"},
		}}},
		// A field the descriptor does not know is still read: the wire
		// type alone says where it ends.
		{"unknown field", []byte{0xa0, 0x01, 0x05}, Field{Number: 20, WireType: "varint", Value: "5"}},
		{"cut short", []byte{0x3a, 0x05, 'h', 'i'}, Field{Value: "not valid Protobuf: unexpected EOF"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Bytes = tt.bytes
			if diff := cmp.Diff([]Field{tt.want}, decodeFields(tt.bytes, md)); diff != "" {
				t.Errorf("decodeFields(% x) (-want +got):\n%s", tt.bytes, diff)
			}
		})
	}
}

// TestDecodeFieldsInOrder checks that fields come back in wire order,
// which need not be field-number order, and that a repeated field that
// appears twice is two fields.
func TestDecodeFieldsInOrder(t *testing.T) {
	b := []byte{0x3a, 0x01, 'a', 0x08, 0x01, 0x3a, 0x01, 'b'}
	var got []string
	for _, f := range decodeFields(b, kindsDescriptor(t)) {
		got = append(got, f.Name+"="+f.Value)
	}
	if diff := cmp.Diff([]string{`name="a"`, "small=1", `name="b"`}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDescribeCompressed checks that a message whose prefix says
// "compressed" keeps its compressed bytes as Payload, and is inflated only
// to read its fields, and only with the algorithm grpc-encoding names.
func TestDescribeCompressed(t *testing.T) {
	md := kindsDescriptor(t)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte{0x3a, 0x02, 'h', 'i'})
	zw.Close()
	payload := zipped.Bytes()

	tests := []struct {
		encoding string
		want     []Field
	}{
		{"gzip", []Field{{Number: 7, Name: "name", WireType: "len", Bytes: []byte{0x3a, 0x02, 'h', 'i'}, Value: `"hi"`}}},
		{"snappy", nil}, // not one this package can inflate
	}
	for _, tt := range tests {
		t.Run(tt.encoding, func(t *testing.T) {
			m := Message{Prefix: []byte{1, 0, 0, 0, byte(len(payload))}, Compressed: true, Payload: payload}
			describe(&m, md, dynamicpb.NewTypes(new(protoregistry.Files)), tt.encoding)
			if diff := cmp.Diff(tt.want, m.Fields); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			if !bytes.Equal(m.Payload, payload) {
				t.Errorf("Payload changed to % x", m.Payload)
			}
			if (m.JSON != nil) != (tt.want != nil) {
				t.Errorf("JSON = %s", m.JSON)
			}
		})
	}
}
