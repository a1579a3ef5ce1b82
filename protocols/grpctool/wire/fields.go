package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A Protobuf message on the wire is a list of fields, each a tag followed
// by a value (https://protobuf.dev/programming-guides/encoding/). The tag
// is one varint holding field_number << 3 | wire_type, and the wire type
// says only how to find the value's end:
//
//	0 VARINT  a varint: int32, int64, uint32, uint64, sint32, sint64, bool, enum
//	1 I64     8 bytes, little-endian: fixed64, sfixed64, double
//	2 LEN     a varint length, then that many bytes: string, bytes, messages, packed repeated
//	5 I32     4 bytes, little-endian: fixed32, sfixed32, float
//
// (3 SGROUP and 4 EGROUP are the deprecated groups.) Names and types are
// not on the wire at all: only the .proto, here a descriptor, turns field
// 1 into tool_name and a LEN into a string rather than a nested message.

// wireTypeNames are the encoding guide's names for the wire types.
var wireTypeNames = map[protowire.Type]string{
	protowire.VarintType:     "varint",
	protowire.Fixed64Type:    "i64",
	protowire.BytesType:      "len",
	protowire.StartGroupType: "sgroup",
	protowire.EndGroupType:   "egroup",
	protowire.Fixed32Type:    "i32",
}

// Limits on the dump of one message. A reply comes from a server nobody
// here wrote, and whatever bytes fit in a capture (maxRecorded) must give
// a dump, never a crash.
const (
	// maxFieldDepth is how many messages deep the dump follows nested
	// messages: 100, the default recursion limit of Protobuf's C++ and
	// Java parsers (protobuf-go allows 10,000). Each level is a function
	// call, so without a limit a self-recursive message nested 700,000
	// deep, 3 MB, overflows the stack and ends the whole process. A
	// message nested deeper is shown as bytes, with a note that says so.
	maxFieldDepth = 100

	// maxFields is how many fields, packed values included, the dump of
	// one message splits out, nested messages included. A 3 MB message of
	// two-byte fields would otherwise be 1.5 million Fields; ten thousand
	// lines are more than anyone reads. The rest is shown as bytes.
	maxFields = 10_000
)

// decodeFields splits b into fields. md, which may be nil, names them and
// says how to read their values. Bytes that do not parse end the list with
// a field whose Value says why.
func decodeFields(b []byte, md protoreflect.MessageDescriptor) []Field {
	d := fieldDecoder{left: maxFields}
	return d.fields(b, md, 1)
}

// fieldDecoder decodes one message within maxFields.
type fieldDecoder struct {
	left int // fields and packed values that may still be split out
}

// fields splits b, a message depth levels deep (1 for the message itself),
// into fields.
func (d *fieldDecoder) fields(b []byte, md protoreflect.MessageDescriptor, depth int) []Field {
	var fields []Field
	for len(b) > 0 {
		if d.left <= 0 {
			return append(fields, Field{Bytes: b, Value: fmt.Sprintf("more than %d fields; the other %d bytes shown as bytes: %s", maxFields, len(b), hexBytes(b))})
		}
		d.left--
		num, typ, tagLen := protowire.ConsumeTag(b)
		if tagLen < 0 {
			return append(fields, malformed(b, tagLen))
		}
		valLen := protowire.ConsumeFieldValue(num, typ, b[tagLen:])
		if valLen < 0 {
			return append(fields, malformed(b, valLen))
		}
		n := tagLen + valLen
		f := Field{Number: num, WireType: wireTypeNames[typ], Bytes: b[:n]}
		var fd protoreflect.FieldDescriptor
		if md != nil {
			fd = md.Fields().ByNumber(num)
		}
		if fd != nil {
			f.Name = string(fd.Name())
		}
		d.readValue(&f, typ, b[tagLen:n], fd, depth)
		fields = append(fields, f)
		b = b[n:]
	}
	return fields
}

// malformed is the last field of a list that stopped parsing: the bytes
// left, and protowire's reason (code is its negative error length).
func malformed(b []byte, code int) Field {
	return Field{Bytes: b, Value: "not valid Protobuf: " + protowire.ParseError(code).Error()}
}

// readValue sets f.Value (or f.Fields) from the value bytes v of a field
// of a message depth levels deep.
func (d *fieldDecoder) readValue(f *Field, typ protowire.Type, v []byte, fd protoreflect.FieldDescriptor, depth int) {
	switch typ {
	case protowire.VarintType:
		x, _ := protowire.ConsumeVarint(v)
		f.Value = varintValue(x, fd)
	case protowire.Fixed64Type:
		x, _ := protowire.ConsumeFixed64(v)
		f.Value = fixed64Value(x, fd)
	case protowire.Fixed32Type:
		x, _ := protowire.ConsumeFixed32(v)
		f.Value = fixed32Value(x, fd)
	case protowire.BytesType:
		b, _ := protowire.ConsumeBytes(v)
		d.lenValue(f, b, fd, depth)
	default:
		f.Value = hexBytes(v)
	}
}

// lenValue reads a LEN value: a string, bytes, a nested message, or a
// packed list of numbers, as the descriptor says.
func (d *fieldDecoder) lenValue(f *Field, b []byte, fd protoreflect.FieldDescriptor, depth int) {
	if fd == nil {
		f.Value = bytesValue(b)
		return
	}
	switch fd.Kind() {
	case protoreflect.StringKind:
		f.Value = strconv.Quote(string(b))
	case protoreflect.BytesKind:
		f.Value = bytesValue(b)
	case protoreflect.MessageKind, protoreflect.GroupKind:
		if depth >= maxFieldDepth {
			f.Value = fmt.Sprintf("nested deeper than %d levels; shown as bytes: %s", maxFieldDepth, hexBytes(b))
			return
		}
		f.Fields = d.fields(b, fd.Message(), depth+1)
	default:
		// A repeated number field is packed: its values follow one
		// another inside a single LEN value (the default in proto3).
		f.Value = d.packedValues(b, fd)
	}
}

// packedValues reads a packed list; each value counts as a field against
// maxFields.
func (d *fieldDecoder) packedValues(b []byte, fd protoreflect.FieldDescriptor) string {
	var vals []string
	for len(b) > 0 {
		if d.left <= 0 {
			vals = append(vals, fmt.Sprintf("... %d more bytes", len(b)))
			break
		}
		d.left--
		var s string
		var n int
		switch fd.Kind() {
		case protoreflect.DoubleKind, protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
			var x uint64
			x, n = protowire.ConsumeFixed64(b)
			s = fixed64Value(x, fd)
		case protoreflect.FloatKind, protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
			var x uint32
			x, n = protowire.ConsumeFixed32(b)
			s = fixed32Value(x, fd)
		default:
			var x uint64
			x, n = protowire.ConsumeVarint(b)
			s = varintValue(x, fd)
		}
		if n < 0 {
			return hexBytes(b)
		}
		vals = append(vals, s)
		b = b[n:]
	}
	return "[" + strings.Join(vals, ", ") + "]"
}

// varintValue reads a varint as the field's type.
func varintValue(x uint64, fd protoreflect.FieldDescriptor) string {
	if fd == nil {
		return strconv.FormatUint(x, 10)
	}
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return strconv.FormatBool(x != 0)
	case protoreflect.EnumKind:
		// An enum travels as its number; the name is only in the .proto.
		if ev := fd.Enum().Values().ByNumber(protoreflect.EnumNumber(int32(x))); ev != nil {
			return string(ev.Name())
		}
		return strconv.FormatInt(int64(int32(x)), 10)
	case protoreflect.Int32Kind:
		// int32 is sign-extended to 64 bits, so -1 takes ten bytes.
		return strconv.FormatInt(int64(int32(x)), 10)
	case protoreflect.Int64Kind:
		return strconv.FormatInt(int64(x), 10)
	case protoreflect.Sint32Kind, protoreflect.Sint64Kind:
		// sint uses ZigZag, so that small negative numbers stay short.
		return strconv.FormatInt(protowire.DecodeZigZag(x), 10)
	}
	return strconv.FormatUint(x, 10)
}

func fixed64Value(x uint64, fd protoreflect.FieldDescriptor) string {
	if fd != nil {
		switch fd.Kind() {
		case protoreflect.DoubleKind:
			return strconv.FormatFloat(math.Float64frombits(x), 'g', -1, 64)
		case protoreflect.Sfixed64Kind:
			return strconv.FormatInt(int64(x), 10)
		}
	}
	return strconv.FormatUint(x, 10)
}

func fixed32Value(x uint32, fd protoreflect.FieldDescriptor) string {
	if fd != nil {
		switch fd.Kind() {
		case protoreflect.FloatKind:
			return strconv.FormatFloat(float64(math.Float32frombits(x)), 'g', -1, 32)
		case protoreflect.Sfixed32Kind:
			return strconv.FormatInt(int64(int32(x)), 10)
		}
	}
	return strconv.FormatUint(uint64(x), 10)
}

// bytesValue shows bytes as JSON when they are JSON (tools carry their
// arguments and results that way), as a quoted string when they are
// printable text, and as hex otherwise.
func bytesValue(b []byte) string {
	if len(b) > 0 && json.Valid(b) {
		return string(b)
	}
	if utf8.Valid(b) && strings.IndexFunc(string(b), func(r rune) bool { return !unicode.IsPrint(r) && !unicode.IsSpace(r) }) < 0 {
		return strconv.Quote(string(b))
	}
	return hexBytes(b)
}

const hexDigits = "0123456789abcdef"

// hexBytes writes bytes as spaced hex pairs: "0a 0a 77". A value can be
// megabytes long, so it is built in one allocation.
func hexBytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	out := make([]byte, 0, 3*len(b)-1)
	for i, c := range b {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, hexDigits[c>>4], hexDigits[c&0x0f])
	}
	return string(out)
}
