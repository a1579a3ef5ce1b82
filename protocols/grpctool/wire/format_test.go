package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFormat checks the text layout on a hand-built call whose request
// message spans two DATA frames and whose two answers share one: each
// message is shown under the frame that carries its last byte, and a
// header block under the HEADERS frame that opens it.
func TestFormat(t *testing.T) {
	e := handBuiltUnary(t)
	e.Requests[0].Fields = decodeFields(e.Requests[0].Payload, nil)
	e.Requests[0].JSON = []byte(`{"name":"abc"}`)
	e.Responses[0].Fields = decodeFields(e.Responses[0].Payload, nil)
	// The second answer is left undecoded, as a message compressed with
	// an algorithm this package cannot inflate would be: its bytes show.

	var b strings.Builder
	if err := e.Format(&b); err != nil {
		t.Fatal(err)
	}
	want := `call /pkg.S/M on stream 1: NOT_FOUND (5): no ✓ here

-> PREFACE len=24 "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
-> SETTINGS stream=0 len=0
<- SETTINGS stream=0 len=6 MAX_FRAME_SIZE=16384
<- SETTINGS stream=0 len=0 ACK
-> HEADERS stream=1 len=4
    :method: POST
    :scheme: http
    :path: /pkg.S/M
    content-type: application/grpc
    te: trailers
-> CONTINUATION stream=1 len=31 END_HEADERS
-> DATA stream=1 len=3
-> DATA stream=1 len=12 END_STREAM PADDED
    message 1: 00 00 00 00 05 = not compressed, 5 bytes
      0a 03 61 62 63                           field 1 (len) = "abc"
      as JSON: {"name":"abc"}
<- HEADERS stream=1 len=27 END_HEADERS
    :status: 200
    content-type: application/grpc
    x-lesson: hpack
<- DATA stream=1 len=14
    message 1: 00 00 00 00 02 = not compressed, 2 bytes
      08 01                                    field 1 (varint) = 1
    message 2: 00 00 00 00 02 = not compressed, 2 bytes
      not decoded: 08 02
<- HEADERS stream=1 len=38 END_STREAM END_HEADERS
    grpc-status: 5
    grpc-message: no %E2%9C%93 here
    x-lesson: hpack
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("Format (-want +got):\n%s", diff)
	}
}
