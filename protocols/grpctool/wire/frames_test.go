package wire

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/codes"
)

// These tests build both sides of a connection by hand, frame by frame,
// and check that parsing finds exactly what was built. No server runs.

// side writes the frames of one direction, with one HPACK encoder, as
// each direction of a real connection has.
type side struct {
	t     testing.TB
	buf   bytes.Buffer // frames written since the last chunk
	fr    *http2.Framer
	hbuf  bytes.Buffer
	hpack *hpack.Encoder
}

func newSide(t testing.TB) *side {
	s := &side{t: t}
	s.fr = http2.NewFramer(&s.buf, nil)
	s.hpack = hpack.NewEncoder(&s.hbuf)
	return s
}

// block encodes a header block; pairs are name, value, name, value...
func (s *side) block(pairs ...string) []byte {
	s.hbuf.Reset()
	for i := 0; i < len(pairs); i += 2 {
		if err := s.hpack.WriteField(hpack.HeaderField{Name: pairs[i], Value: pairs[i+1]}); err != nil {
			s.t.Fatal(err)
		}
	}
	return bytes.Clone(s.hbuf.Bytes())
}

// chunk takes what was written so far as one Write or Read.
func (s *side) chunk(seq int) chunk {
	c := chunk{seq: seq, data: bytes.Clone(s.buf.Bytes())}
	s.buf.Reset()
	return c
}

func (s *side) check(err error) {
	if err != nil {
		s.t.Fatal(err)
	}
}

// grpcMessage is a 5-byte prefix and payload.
func grpcMessage(payload string) []byte {
	n := len(payload)
	return append([]byte{0, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, payload...)
}

// summary is one line per frame, for comparing sequences.
func summary(frames []Frame) []string {
	var s []string
	for _, f := range frames {
		s = append(s, fmt.Sprintf("%s %s %d %v %s", f.Dir, f.Type, f.StreamID, f.Flags, f.Detail))
	}
	return s
}

// handBuiltUnary builds both sides of a unary call by hand and parses
// them. The request message is 0a 03 "abc"; the answers are 08 01 and
// 08 02.
func handBuiltUnary(t testing.TB) *Exchange {
	t.Helper()
	client, server := newSide(t), newSide(t)

	// Chunk 1, client: the preface and an empty SETTINGS.
	client.buf.WriteString(http2.ClientPreface)
	client.check(client.fr.WriteSettings())
	c1 := client.chunk(1)
	// Chunk 2, server: its SETTINGS, and an ACK of the client's.
	server.check(server.fr.WriteSettings(http2.Setting{ID: http2.SettingMaxFrameSize, Val: 16384}))
	server.check(server.fr.WriteSettingsAck())
	s2 := server.chunk(2)
	// Chunk 3, client: the request. Its header block is split over
	// HEADERS and CONTINUATION; its message over two DATA frames, the
	// second padded.
	block := client.block(":method", "POST", ":scheme", "http", ":path", "/pkg.S/M", "content-type", "application/grpc", "te", "trailers")
	client.check(client.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block[:4]}))
	client.check(client.fr.WriteContinuation(1, true, block[4:]))
	req := grpcMessage("\x0a\x03abc")
	client.check(client.fr.WriteData(1, false, req[:3]))
	client.check(client.fr.WriteDataPadded(1, true, req[3:], make([]byte, 4)))
	c3 := client.chunk(3)
	// Chunk 4, server: headers, two messages in one DATA frame, trailers.
	// x-lesson is in both blocks: the second time HPACK sends it as an
	// index into its dynamic table, one byte, which only a decoder that
	// read the first block can resolve.
	first := server.block(":status", "200", "content-type", "application/grpc", "x-lesson", "hpack")
	server.check(server.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: first, EndHeaders: true}))
	server.check(server.fr.WriteData(1, false, append(grpcMessage("\x08\x01"), grpcMessage("\x08\x02")...)))
	trailers := server.block("grpc-status", "5", "grpc-message", "no %E2%9C%93 here", "x-lesson", "hpack")
	if last := trailers[len(trailers)-1]; last&0x80 == 0 {
		t.Fatalf("the encoder did not send x-lesson as an index (last byte %#x): the test proves nothing", last)
	}
	server.check(server.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: trailers, EndHeaders: true, EndStream: true}))
	s4 := server.chunk(4)

	e := exchangeFrom([]connBytes{{sent: []chunk{c1, c3}, recv: []chunk{s2, s4}}}, "/pkg.S/M")
	if e == nil {
		t.Fatal("the call's HEADERS were not found")
	}
	e.readCall(nil)
	return e
}

func TestHandBuiltUnary(t *testing.T) {
	e := handBuiltUnary(t)
	req := grpcMessage("\x0a\x03abc")
	wantFrames := []string{
		`-> PREFACE 0 [] "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"`,
		"-> SETTINGS 0 [] ",
		"<- SETTINGS 0 [] MAX_FRAME_SIZE=16384",
		"<- SETTINGS 0 [ACK] ",
		"-> HEADERS 1 [] ",
		"-> CONTINUATION 1 [END_HEADERS] ",
		"-> DATA 1 [] ",
		"-> DATA 1 [END_STREAM PADDED] ",
		"<- HEADERS 1 [END_HEADERS] ",
		"<- DATA 1 [] ",
		"<- HEADERS 1 [END_STREAM END_HEADERS] ",
	}
	if diff := cmp.Diff(wantFrames, summary(e.Frames)); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
	wantReqHeaders := []HeaderField{{":method", "POST"}, {":scheme", "http"}, {":path", "/pkg.S/M"}, {"content-type", "application/grpc"}, {"te", "trailers"}}
	if diff := cmp.Diff(wantReqHeaders, e.RequestHeaders); diff != "" {
		t.Errorf("request headers, from HEADERS + CONTINUATION (-want +got):\n%s", diff)
	}
	wantTrailers := []HeaderField{{"grpc-status", "5"}, {"grpc-message", "no %E2%9C%93 here"}, {"x-lesson", "hpack"}}
	if diff := cmp.Diff(wantTrailers, e.Trailers); diff != "" {
		t.Errorf("trailers (-want +got):\n%s", diff)
	}
	if e.ResponseHeaders == nil || e.TrailersOnly {
		t.Errorf("ResponseHeaders = %v, TrailersOnly = %v; want headers and false", e.ResponseHeaders, e.TrailersOnly)
	}
	if e.Code != codes.NotFound || e.StatusMessage != "no ✓ here" {
		t.Errorf("status %v %q, want NotFound %q", e.Code, e.StatusMessage, "no ✓ here")
	}
	wantReqs := []Message{{Prefix: req[:5], Payload: req[5:]}}
	if diff := cmp.Diff(wantReqs, e.Requests); diff != "" {
		t.Errorf("request, joined from two DATA frames (-want +got):\n%s", diff)
	}
	wantResps := []Message{
		{Prefix: []byte{0, 0, 0, 0, 2}, Payload: []byte{0x08, 0x01}},
		{Prefix: []byte{0, 0, 0, 0, 2}, Payload: []byte{0x08, 0x02}},
	}
	if diff := cmp.Diff(wantResps, e.Responses); diff != "" {
		t.Errorf("responses, cut from one DATA frame (-want +got):\n%s", diff)
	}
}

func TestHandBuiltTrailersOnly(t *testing.T) {
	client, server := newSide(t), newSide(t)
	client.buf.WriteString(http2.ClientPreface)
	block := client.block(":method", "POST", ":path", "/pkg.S/M")
	client.check(client.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block, EndHeaders: true}))
	client.check(client.fr.WriteData(1, true, grpcMessage("")))
	only := server.block(":status", "200", "content-type", "application/grpc", "grpc-status", "16", "grpc-message", "no token")
	server.check(server.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: only, EndHeaders: true, EndStream: true}))

	e := exchangeFrom([]connBytes{{sent: []chunk{client.chunk(1)}, recv: []chunk{server.chunk(2)}}}, "/pkg.S/M")
	if e == nil {
		t.Fatal("the call's HEADERS were not found")
	}
	e.readCall(nil)
	if !e.TrailersOnly || e.ResponseHeaders != nil || len(e.Trailers) != 4 {
		t.Errorf("TrailersOnly=%v ResponseHeaders=%v Trailers=%v; want true, nil, all four fields", e.TrailersOnly, e.ResponseHeaders, e.Trailers)
	}
	if e.Code != codes.Unauthenticated || e.StatusMessage != "no token" {
		t.Errorf("status %v %q", e.Code, e.StatusMessage)
	}
	// An empty message is still a message: five bytes of prefix, no payload.
	if diff := cmp.Diff([]Message{{Prefix: []byte{0, 0, 0, 0, 0}, Payload: []byte{}}}, e.Requests); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestFrameAcrossChunks checks that a frame split over two reads is read
// whole, and is ordered by the read in which it started.
func TestFrameAcrossChunks(t *testing.T) {
	client, server := newSide(t), newSide(t)
	client.buf.WriteString(http2.ClientPreface)
	c1 := client.chunk(1)
	server.check(server.fr.WritePing(false, [8]byte{1, 2, 3, 4, 5, 6, 7, 8}))
	ping := server.chunk(0).data
	s2 := chunk{seq: 2, data: ping[:5]}
	client.check(client.fr.WriteSettings())
	c3 := client.chunk(3)
	s4 := chunk{seq: 4, data: ping[5:]}

	got := summary(mergeFrames(readFrames(ClientToServer, []chunk{c1, c3}, nil), readFrames(ServerToClient, []chunk{s2, s4}, nil)))
	want := []string{
		`-> PREFACE 0 [] "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"`,
		"<- PING 0 [] data=0102030405060708",
		"-> SETTINGS 0 [] ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
}

// TestCutShort checks that bytes that do not make a whole frame are shown,
// not dropped or mistaken for a frame.
func TestCutShort(t *testing.T) {
	server := newSide(t)
	server.check(server.fr.WriteWindowUpdate(0, 1000))
	server.check(server.fr.WriteRSTStream(1, http2.ErrCodeCancel))
	server.check(server.fr.WriteGoAway(1, http2.ErrCodeNo, []byte("bye")))
	data := server.chunk(0).data
	whole := []string{
		"<- WINDOW_UPDATE 0 [] increment=1000",
		"<- RST_STREAM 1 [] error=CANCEL",
	}
	for _, tt := range []struct {
		name string
		cut  int // bytes cut from the end
		want string
	}{
		{"in the payload", 2, "<- UNREADABLE 0 [] cut short: the frame header announces 11 bytes of payload, but only 9 were recorded"},
		{"in the header", 15, "<- UNREADABLE 0 [] cut short: 5 bytes, less than a 9-byte frame header"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := summary(mergeFrames(nil, readFrames(ServerToClient, []chunk{{seq: 1, data: data[:len(data)-tt.cut]}}, nil)))
			if diff := cmp.Diff(append(whole, tt.want), got); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPercentDecode(t *testing.T) {
	for in, want := range map[string]string{
		"plain":          "plain",
		"100%25 sure":    "100% sure",
		"caf%C3%A9":      "café",
		"broken %zz end": "broken %zz end",
		"trailing %4":    "trailing %4",
		"%":              "%",
	} {
		if got := percentDecode(in); got != want {
			t.Errorf("percentDecode(%q) = %q, want %q", in, got, want)
		}
	}
}
