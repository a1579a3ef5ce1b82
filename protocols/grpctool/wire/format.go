package wire

import (
	"bytes"
	"fmt"
	"io"

	"google.golang.org/grpc/codes"
)

// Format limits: enough to recognise a value, short enough to keep one
// field on one line. The Exchange itself keeps every byte.
const (
	formatHexBytes = 12  // bytes of a field shown in hex before "..."
	formatValueLen = 100 // characters of a value shown before "..."
	formatRawBytes = 32  // bytes shown in hex of a frame or message that could not be decoded
)

// Format writes the exchange as text to read top to bottom: a line with the
// call and its status, then every frame in the order it crossed, "->" from
// the client and "<-" from the server. HEADERS frames list their decoded
// headers; DATA frames of the call list each gRPC message that ends in
// them, its 5-byte prefix, its fields (wire bytes on the left, meaning on
// the right) and the message as JSON.
func (e *Exchange) Format(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "call %s on stream %d: %s", e.Method, e.StreamID, codeName(e.Code))
	if e.StatusMessage != "" {
		fmt.Fprintf(&b, ": %s", e.StatusMessage)
	}
	if e.TrailersOnly {
		b.WriteString(" (trailers-only)")
	}
	b.WriteString("\n")
	if e.EarlierCalls > 0 {
		fmt.Fprintf(&b, "reusing the connection opened at %s, which carried %d %s before this one: its preface and SETTINGS went with the first; these are the frames since the last call ended\n",
			e.Opened.UTC().Format(formatClock), e.EarlierCalls, plural(e.EarlierCalls, "call", "calls"))
	}
	b.WriteString("\n")

	ends := map[Direction]map[int][]int{
		ClientToServer: messageEnds(e.Frames, ClientToServer, e.StreamID, e.Requests),
		ServerToClient: messageEnds(e.Frames, ServerToClient, e.StreamID, e.Responses),
	}
	for i, f := range e.Frames {
		fmt.Fprintf(&b, "%s %s", f.Dir, f.Type)
		if f.Type != "PREFACE" {
			fmt.Fprintf(&b, " stream=%d", f.StreamID)
		}
		fmt.Fprintf(&b, " len=%d", f.Length)
		for _, flag := range f.Flags {
			b.WriteString(" " + flag)
		}
		if f.Detail != "" {
			b.WriteString(" " + f.Detail)
		}
		b.WriteString("\n")
		if f.Type == "UNREADABLE" {
			fmt.Fprintf(&b, "    bytes: %s\n", rawHex(f.Bytes))
		}
		for _, h := range f.Headers {
			if h.Value == "" {
				fmt.Fprintf(&b, "    %s:\n", h.Name) // no trailing space
			} else {
				fmt.Fprintf(&b, "    %s: %s\n", h.Name, h.Value)
			}
		}
		msgs := e.Requests
		if f.Dir == ServerToClient {
			msgs = e.Responses
		}
		for _, m := range ends[f.Dir][i] {
			formatMessage(&b, m+1, msgs[m])
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// messageEnds maps the index of each DATA frame of the stream to the
// messages (indexes into msgs) whose last byte it carries.
func messageEnds(frames []Frame, dir Direction, stream uint32, msgs []Message) map[int][]int {
	ends := map[int][]int{}
	seen, next, end := 0, 0, 0
	for i, f := range frames {
		if f.Dir != dir || f.StreamID != stream || f.Type != "DATA" {
			continue
		}
		seen += len(dataOf(f))
		for next < len(msgs) && end+prefixLen+len(msgs[next].Payload) <= seen {
			end += prefixLen + len(msgs[next].Payload)
			ends[i] = append(ends[i], next)
			next++
		}
	}
	return ends
}

func formatMessage(b *bytes.Buffer, n int, m Message) {
	compressed := "not compressed"
	if m.Compressed {
		compressed = "compressed"
	}
	fmt.Fprintf(b, "    message %d: %s = %s, %d bytes\n", n, hexBytes(m.Prefix), compressed, len(m.Payload))
	if len(m.Fields) == 0 && len(m.Payload) > 0 {
		// Compressed with an algorithm this package cannot inflate, or
		// not a gzip stream after all: the bytes are all there is.
		fmt.Fprintf(b, "      not decoded: %s\n", rawHex(m.Payload))
	}
	formatFields(b, "      ", m.Fields)
	if m.JSON != nil {
		fmt.Fprintf(b, "      as JSON: %s\n", shorten(string(m.JSON)))
	}
}

func formatFields(b *bytes.Buffer, indent string, fields []Field) {
	for _, f := range fields {
		raw := f.Bytes
		more := ""
		if len(raw) > formatHexBytes {
			raw, more = raw[:formatHexBytes], " ..."
		}
		what := fmt.Sprintf("field %d %s (%s)", f.Number, f.Name, f.WireType)
		switch {
		case f.WireType == "":
			what = "!" // bytes that are not a field; Value says why
		case f.Name == "":
			what = fmt.Sprintf("field %d (%s)", f.Number, f.WireType) // not in the descriptor
		}
		line := fmt.Sprintf("%s%-*s  %s", indent, formatHexBytes*3+3, hexBytes(raw)+more, what)
		if f.Value != "" {
			line += " = " + shorten(f.Value)
		}
		b.WriteString(line + "\n")
		formatFields(b, indent+"  ", f.Fields)
	}
}

// rawHex shows the first formatRawBytes of b in hex.
func rawHex(b []byte) string {
	if len(b) > formatRawBytes {
		return hexBytes(b[:formatRawBytes]) + fmt.Sprintf(" ... (%d bytes)", len(b))
	}
	return hexBytes(b)
}

// shorten cuts s to formatValueLen characters.
func shorten(s string) string {
	r := []rune(s)
	if len(r) <= formatValueLen {
		return s
	}
	return string(r[:formatValueLen]) + "..."
}

// formatClock writes when a connection opened: the time of day to the
// millisecond, enough to tell one connection from another.
const formatClock = "15:04:05.000 UTC"

// plural picks the word for n things.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// codeNames are the status codes as the gRPC spec writes them
// (doc/statuscodes.md), which grpc-go's String spells differently
// (NotFound, Canceled).
var codeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
	"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
	"FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
	"INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
}

// codeName names a status code, with its number.
func codeName(c codes.Code) string {
	if int(c) < len(codeNames) {
		return fmt.Sprintf("%s (%d)", codeNames[c], uint32(c))
	}
	return fmt.Sprintf("code %d", uint32(c))
}
