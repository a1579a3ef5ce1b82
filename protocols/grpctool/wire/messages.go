package wire

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/emptypb"
)

// gRPC sends each message as a length-prefixed frame of its own, inside the
// DATA frames of the call's stream (PROTOCOL-HTTP2.md, "Length-Prefixed-
// Message"):
//
//	compressed flag (1 byte, 0 or 1) | length (4 bytes, big-endian) | message (length bytes)
//
// The two framings are independent: one DATA frame may carry several
// messages, and one message may be split over several DATA frames. So the
// DATA bytes of a stream are joined first and cut into messages second.

// prefixLen is the length of the prefix before every gRPC message.
const prefixLen = 5

// maxDecompressed bounds how far a compressed message is inflated for
// display, so that a tiny message cannot claim gigabytes of memory.
const maxDecompressed = 16 << 20

// dataOf returns the bytes a DATA frame carries for the application: its
// payload without padding (RFC 9113 section 6.1: a PADDED frame starts
// with the pad length and ends with that many zero bytes).
func dataOf(f Frame) []byte {
	if len(f.Bytes) < frameHeaderLen {
		return nil
	}
	p := f.Bytes[frameHeaderLen:]
	if slices.Contains(f.Flags, "PADDED") && len(p) > 0 {
		pad := int(p[0])
		p = p[1:]
		if pad > len(p) {
			return nil
		}
		p = p[:len(p)-pad]
	}
	return p
}

// streamData joins what the DATA frames of one stream carried one way.
func streamData(frames []Frame, dir Direction, stream uint32) []byte {
	var data []byte
	for _, f := range frames {
		if f.Dir == dir && f.StreamID == stream && f.Type == "DATA" {
			data = append(data, dataOf(f)...)
		}
	}
	return data
}

// splitMessages cuts a stream's DATA bytes into gRPC messages. A message
// cut short (the call ended before all of it arrived) is left out.
func splitMessages(data []byte) []Message {
	var msgs []Message
	for len(data) >= prefixLen {
		n := binary.BigEndian.Uint32(data[1:prefixLen])
		if uint64(len(data)-prefixLen) < uint64(n) {
			break
		}
		end := prefixLen + int(n)
		msgs = append(msgs, Message{
			Prefix:     data[:prefixLen],
			Compressed: data[0] == 1,
			Payload:    data[prefixLen:end],
		})
		data = data[end:]
	}
	return msgs
}

// describe fills in a message's Fields and JSON from its payload. encoding
// is the grpc-encoding header of the direction the message went; only
// gzip, the one compressor grpc-go ships, is inflated.
func describe(m *Message, md protoreflect.MessageDescriptor, types *dynamicpb.Types, encoding string) {
	payload := m.Payload
	if m.Compressed {
		if encoding != "gzip" {
			return
		}
		zr, err := gzip.NewReader(bytes.NewReader(payload))
		if err != nil {
			return
		}
		payload, err = io.ReadAll(io.LimitReader(zr, maxDecompressed))
		if err != nil {
			return
		}
	}
	m.Fields = decodeFields(payload, md)

	// The JSON follows the field dump's depth limit, so that the two agree
	// on which messages they can show.
	msg := dynamicpb.NewMessage(md)
	if err := (proto.UnmarshalOptions{Resolver: types, RecursionLimit: maxFieldDepth}).Unmarshal(payload, msg); err != nil {
		return
	}
	j, err := (protojson.MarshalOptions{Resolver: types}).Marshal(msg)
	if err != nil {
		return
	}
	// protojson varies its spacing on purpose, so that nobody depends on
	// it; compacting gives the same text every time.
	var buf bytes.Buffer
	if err := json.Compact(&buf, j); err != nil {
		return
	}
	m.JSON = buf.Bytes()
}

// parseRequests turns request JSON into the messages to send: one JSON
// value after another, as many as the caller wrote, each of type md.
func parseRequests(request []byte, md protoreflect.MessageDescriptor, types *dynamicpb.Types) ([]proto.Message, error) {
	dec := json.NewDecoder(bytes.NewReader(request))
	var msgs []proto.Message
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return msgs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("request %d is not JSON: %w", len(msgs)+1, err)
		}
		msg := dynamicpb.NewMessage(md)
		if err := (protojson.UnmarshalOptions{Resolver: types}).Unmarshal(raw, msg); err != nil {
			return nil, fmt.Errorf("request %d does not fit %s: %w", len(msgs)+1, md.FullName(), err)
		}
		encoded, err := encode(msg)
		if err != nil {
			return nil, fmt.Errorf("request %d: %w", len(msgs)+1, err)
		}
		msgs = append(msgs, encoded)
	}
}

// encode returns a message that grpc-go will marshal to msg's Protobuf
// bytes with its fields in field-number order.
//
// The encoding guide lets fields come in any order, and a dynamic message
// takes it at its word: left to itself, it writes its fields in a
// different order from one run to the next. Generated code writes them in
// field-number order, so encode does too (Deterministic), and then hides
// the bytes in an Empty as unknown fields: Protobuf writes unknown fields
// back exactly as it found them, so grpc-go sends these very bytes.
func encode(msg proto.Message) (proto.Message, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(msg)
	if err != nil {
		return nil, err
	}
	raw := new(emptypb.Empty)
	raw.ProtoReflect().SetUnknown(b)
	return raw, nil
}
