package tap

import (
	"bytes"
	"context"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// frameBytes builds one HTTP/2 frame: a 9-byte header and the payload.
func frameBytes(typ http2.FrameType, flags http2.Flags, stream uint32, payload []byte) []byte {
	var b bytes.Buffer
	fr := http2.NewFramer(&b, nil)
	fr.AllowIllegalWrites = true
	fr.WriteRawFrame(typ, flags, stream, payload)
	return b.Bytes()
}

// TestFrames: however the bytes are cut into reads, each frame is
// recorded whole, in order, with its type and stream; a frame longer
// than the record's bound is kept cut, with its real size; a frame cut
// off by the end of the connection is recorded as far as it came.
func TestFrames(t *testing.T) {
	const maxData = 64
	big := frameBytes(http2.FrameData, 0, 1, bytes.Repeat([]byte("x"), 200))
	stream := [][]byte{
		[]byte(http2.ClientPreface),
		frameBytes(http2.FrameSettings, 0, 0, nil),
		frameBytes(http2.FrameHeaders, 0x4, 1, []byte{0x83, 0x86}),
		big,
		frameBytes(http2.FrameData, 0x1, 1, []byte("end")),
		frameBytes(http2.FrameGoAway, 0, 0, make([]byte, 8)),
		frameBytes(http2.FramePing, 0, 0, make([]byte, 8))[:12], // cut off
	}
	type got struct {
		Frame     string
		Stream    uint32
		Size      int
		Truncated bool
		NoEOL     bool
		Data      []byte
	}
	want := []got{
		{"PREFACE", 0, 24, false, false, stream[0]},
		{"SETTINGS", 0, 9, false, false, stream[1]},
		{"HEADERS", 1, 11, false, false, stream[2]},
		{"DATA", 1, 209, true, false, big[:maxData]},
		{"DATA", 1, 12, false, false, stream[4]},
		{"GOAWAY", 0, 17, false, false, stream[5]},
		{"", 0, 12, false, true, stream[6]},
	}
	all := bytes.Join(stream, nil)
	for _, size := range []int{1, 2, 7, 9, 10, 33, 64, 65, len(all)} {
		rec := NewRecorder(&RecorderOptions{MaxData: maxData})
		f := &frames{rec: rec, conn: 1, dir: Out, preface: true}
		for rest := all; len(rest) > 0; {
			n := min(size, len(rest))
			f.take(rest[:n])
			rest = rest[n:]
		}
		f.end("")
		var gots []got
		for _, e := range rec.Events() {
			gots = append(gots, got{e.Frame, e.Stream, e.Size, e.Truncated, e.NoEOL, e.Bytes()})
		}
		if diff := cmp.Diff(want, gots); diff != "" {
			t.Errorf("reads of %d bytes: (-want +got)\n%s", size, diff)
		}
		if !f.goaway {
			t.Errorf("reads of %d bytes: the GOAWAY went unnoticed", size)
		}
	}
}

// TestFramesNotHTTP2: a host that does not open with the preface gets
// its bytes passed on, and a note says why nothing more is recorded.
func TestFramesNotHTTP2(t *testing.T) {
	rec := NewRecorder(nil)
	f := &frames{rec: rec, conn: 1, dir: Out, preface: true}
	f.take([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\nmore bytes"))
	f.end("")
	events := rec.Events()
	if len(events) != 1 || events[0].Kind != KindNote || !strings.Contains(events[0].Data, "not HTTP/2") {
		t.Errorf("events %+v, want one note", events)
	}
}

// TestGRPCUpstreamDown: a connection to a tap whose upstream is down is
// closed, and the record says why.
func TestGRPCUpstreamDown(t *testing.T) {
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	upstream := dead.Addr().String()
	dead.Close()
	rec := NewRecorder(nil)
	g, err := NewGRPC(upstream, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	// Ends when cancel stops Serve.
	go func() { served <- g.Serve(ctx, ln) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Error("the tap kept a connection it cannot relay")
	}
	conn.Close()
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	events := rec.Events()
	if len(events) != 1 || events[0].Kind != KindNote || !strings.Contains(events[0].Data, "did not answer") {
		t.Errorf("events %+v, want a note that the upstream did not answer", events)
	}
}

// TestFramesWithholdUnreadBlocks: a header frame too long to keep whole
// holds a secret the masker cannot find, and the table is out of step
// after it; that frame and every later header block of the direction
// are left out of the record, once noted, and never recorded as they
// crossed. Frames that are not header blocks are recorded still.
func TestFramesWithholdUnreadBlocks(t *testing.T) {
	const maxData = 64
	block := hpackEncoder()
	secret := "Bearer " + strings.Repeat("s", 100) // the frame is longer than maxData
	auth := hpack.HeaderField{Name: "authorization", Value: secret}
	auth.Sensitive = true // a literal never indexed: the value itself crosses each time
	path := hpack.HeaderField{Name: ":path", Value: "/tools.v1.ToolServer/ExecuteTool"}
	stream := [][]byte{
		[]byte(http2.ClientPreface),
		frameBytes(http2.FrameHeaders, 0x4, 1, block(path, auth)),
		frameBytes(http2.FrameData, 0x1, 1, []byte("end")),
		frameBytes(http2.FrameHeaders, 0x4, 3, block(auth)), // short enough, but after the table was lost
		frameBytes(http2.FrameData, 0x1, 3, []byte("end")),
	}
	if len(stream[1]) <= maxData || len(stream[3]) > maxData+60 {
		t.Fatalf("the blocks are %d and %d bytes; the test needs the first over %d", len(stream[1]), len(stream[3]), maxData)
	}
	// HPACK writes the secret Huffman-coded: a run of "s" is a pattern
	// that repeats every 3 bytes.
	huffmanS := hpack.AppendHuffmanString(nil, strings.Repeat("s", 100))[30:36]
	rec := NewRecorder(&RecorderOptions{MaxData: maxData})
	f := &frames{rec: rec, conn: 1, dir: Out, preface: true, mask: newHeaderMasker()}
	f.take(bytes.Join(stream, nil))
	f.end("")
	var kinds []string
	for _, e := range rec.Events() {
		if e.Kind == KindNote {
			kinds = append(kinds, "note")
			if !strings.Contains(e.Data, "left out") || !strings.Contains(e.Data, "--keep-secrets") {
				t.Errorf("the note says %q", e.Data)
			}
		} else {
			kinds = append(kinds, e.Frame)
		}
		if bytes.Contains(e.Bytes(), []byte("ssss")) || bytes.Contains(e.Bytes(), huffmanS) || strings.Contains(e.Data, "ssss") {
			t.Errorf("the record holds the secret: %+v", e)
		}
	}
	if want := []string{"PREFACE", "note", "DATA", "DATA"}; !slices.Equal(kinds, want) {
		t.Errorf("recorded %q, want %q", kinds, want)
	}
}
