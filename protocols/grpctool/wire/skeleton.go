package wire

import (
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Skeleton writes a request of message type md as ProtoJSON with every
// field at its zero value, one field a line: a form to fill in, as
// grpcurl's `describe -msg-template` gives. It shows the names ProtoJSON
// uses (the lowerCamelCase JSON name, not the .proto's snake_case), and
// how each type is written: 64-bit integers as strings (JSON numbers lose
// precision past 2^53), bytes as base64, an enum by its value's name, a
// Timestamp or a Duration as text.
//
// Of a oneof only the first field is written: a message may set one at
// most. A message type inside itself is written {} the second time, so
// that a recursive type ends.
func Skeleton(md protoreflect.MessageDescriptor) string {
	var b strings.Builder
	writeMessage(&b, md, "", map[protoreflect.FullName]bool{})
	return b.String()
}

// writeMessage writes md's fields at indent.
func writeMessage(b *strings.Builder, md protoreflect.MessageDescriptor, indent string, open map[protoreflect.FullName]bool) {
	if wkt, ok := wellKnownZero(md); ok {
		b.WriteString(wkt)
		return
	}
	fields := md.Fields()
	if open[md.FullName()] || fields.Len() == 0 {
		b.WriteString("{}")
		return
	}
	open[md.FullName()] = true
	defer delete(open, md.FullName())
	b.WriteString("{")
	first := true
	for i := range fields.Len() {
		fd := fields.Get(i)
		if oneof := fd.ContainingOneof(); oneof != nil && !oneof.IsSynthetic() && oneof.Fields().Get(0) != fd {
			continue
		}
		if !first {
			b.WriteString(",")
		}
		first = false
		b.WriteString("\n" + indent + "  " + strconv.Quote(fd.JSONName()) + ": ")
		switch {
		case fd.IsMap():
			b.WriteString("{}")
		case fd.IsList():
			b.WriteString("[]")
		default:
			writeValue(b, fd, indent+"  ", open)
		}
	}
	b.WriteString("\n" + indent + "}")
}

// writeValue writes the zero value of one singular field.
func writeValue(b *strings.Builder, fd protoreflect.FieldDescriptor, indent string, open map[protoreflect.FullName]bool) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		b.WriteString("false")
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		b.WriteString(`"0"`)
	case protoreflect.StringKind, protoreflect.BytesKind:
		b.WriteString(`""`)
	case protoreflect.EnumKind:
		if fd.Enum().FullName() == "google.protobuf.NullValue" {
			b.WriteString("null")
			return
		}
		b.WriteString(strconv.Quote(string(fd.Enum().Values().Get(0).Name())))
	case protoreflect.MessageKind, protoreflect.GroupKind:
		writeMessage(b, fd.Message(), indent, open)
	default: // the 32-bit integers, float and double
		b.WriteString("0")
	}
}

// wellKnownZero is the zero value of a well-known type that ProtoJSON
// writes in a form of its own rather than as an object of its fields.
func wellKnownZero(md protoreflect.MessageDescriptor) (string, bool) {
	switch md.FullName() {
	case "google.protobuf.Timestamp":
		return `"1970-01-01T00:00:00Z"`, true
	case "google.protobuf.Duration":
		return `"0s"`, true
	case "google.protobuf.FieldMask", "google.protobuf.StringValue", "google.protobuf.BytesValue":
		return `""`, true
	case "google.protobuf.Int64Value", "google.protobuf.UInt64Value":
		return `"0"`, true
	case "google.protobuf.Int32Value", "google.protobuf.UInt32Value", "google.protobuf.FloatValue", "google.protobuf.DoubleValue":
		return "0", true
	case "google.protobuf.BoolValue":
		return "false", true
	case "google.protobuf.Value":
		return "null", true
	case "google.protobuf.ListValue":
		return "[]", true
	case "google.protobuf.Struct", "google.protobuf.Empty":
		return "{}", true
	case "google.protobuf.Any":
		// An Any names the type of what it holds; an empty one holds
		// nothing, and ProtoJSON reads {} as that.
		return "{}", true
	}
	return "", false
}
