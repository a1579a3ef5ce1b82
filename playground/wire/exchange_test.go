package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/http2"

	grpcwire "github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// TestGRPCEventFrames checks that a gRPC call's event carries the HTTP/2
// bytes that crossed, frame by frame with their direction, and not only
// the annotated dump: the first call of a connection opens with the
// client's preface, each direction's bytes read back as the frames the
// event names, and the event's size is the server's bytes.
func TestGRPCEventFrames(t *testing.T) {
	_, srv := startHub(t, Targets{GRPCAddr: startGRPC(t)})
	conn := dial(t, srv)
	readHello(t, conn)
	const frame = "tools.v1.ToolServer/ExecuteTool\n" + `{"toolName":"word_count","arguments":"eyJ0ZXh0IjoicmVhZCB0aGUgd2lyZSJ9"}`

	for id := int64(1); id <= 2; id++ {
		send(t, conn, Command{Op: "send", ID: id, Target: "grpc", Frame: frame})
		out := next(t, conn, func(ev Event) bool { return ev.ID == id && ev.Kind == "grpc-call" })
		if out.Size != 0 || len(out.Frames) != 0 {
			t.Errorf("call %d: the frame as typed says size %d and %d frames; it is not what crossed", id, out.Size, len(out.Frames))
		}
		ev := next(t, conn, func(ev Event) bool { return ev.ID == id && ev.Kind == "grpc" })
		if len(ev.Frames) == 0 {
			t.Fatalf("call %d: the grpc event has no frames", id)
		}

		// Each direction's bytes, put together, are an HTTP/2 stream of
		// exactly the frames the event lists, in its order.
		var wire = map[string]*bytes.Buffer{"out": {}, "in": {}}
		var listed = map[string][]string{}
		serverBytes := 0
		for _, f := range ev.Frames {
			if f.Cut != 0 {
				t.Errorf("call %d: a %s frame was cut by %d bytes", id, f.Type, f.Cut)
			}
			wire[f.Dir].Write(f.Bytes)
			if f.Type != "PREFACE" {
				listed[f.Dir] = append(listed[f.Dir], f.Type)
			}
			if f.Dir == "in" {
				serverBytes += len(f.Bytes)
			}
		}
		out1 := wire["out"].Bytes()
		if id == 1 {
			// The first frame out is the client's preface. (The server
			// may send its SETTINGS before the preface reaches it, so a
			// frame in may come first.)
			var first HTTP2Frame
			for _, f := range ev.Frames {
				if f.Dir == "out" {
					first = f
					break
				}
			}
			if first.Type != "PREFACE" || string(first.Bytes) != http2.ClientPreface {
				t.Errorf("call 1's first frame out is %s %q, want the client's preface %q", first.Type, first.Bytes, http2.ClientPreface)
			}
			out1 = bytes.TrimPrefix(out1, []byte(http2.ClientPreface))
		} else if bytes.HasPrefix(out1, []byte("PRI ")) {
			t.Errorf("call 2, on a kept connection, sends the preface again")
		}
		for dir, b := range map[string][]byte{"out": out1, "in": wire["in"].Bytes()} {
			if got := readTypes(t, b); !cmp.Equal(got, listed[dir]) {
				t.Errorf("call %d, %s: the bytes read back as frames\n%v\nwant the event's\n%v", id, dir, got, listed[dir])
			}
		}
		for _, dir := range []string{"out", "in"} {
			if !containsType(listed[dir], "HEADERS") || !containsType(listed[dir], "DATA") {
				t.Errorf("call %d, %s: frames %v, want HEADERS and DATA", id, dir, listed[dir])
			}
		}
		if ev.Size != serverBytes {
			t.Errorf("call %d: the event's size is %d, want the server's %d bytes", id, ev.Size, serverBytes)
		}
		// The request's message is in the client's bytes as it was
		// encoded: field 1, toolName, "word_count".
		if !bytes.Contains(out1, append([]byte{0x0a, byte(len("word_count"))}, "word_count"...)) {
			t.Errorf("call %d: the client's bytes do not hold the request's toolName field", id)
		}
		if !strings.HasPrefix(ev.Text, "call /tools.v1.ToolServer/ExecuteTool on stream ") {
			t.Errorf("call %d: the annotated dump starts %q", id, ev.Text[:min(len(ev.Text), 80)])
		}
	}
}

// readTypes reads b as HTTP/2 frames and returns their types.
func readTypes(t *testing.T, b []byte) []string {
	t.Helper()
	fr := http2.NewFramer(io.Discard, bytes.NewReader(b))
	var types []string
	for {
		f, err := fr.ReadFrame()
		if err == io.EOF {
			return types
		}
		if err != nil {
			t.Errorf("reading frame %d: %v", len(types)+1, err)
			return types
		}
		types = append(types, f.Header().Type.String())
	}
}

func containsType(types []string, want string) bool {
	for _, ty := range types {
		if ty == want {
			return true
		}
	}
	return false
}

// TestHTTP2FramesCut: a call past maxGRPCBytes is sent to the page with
// the bytes up to the limit, and each frame says how many it left out;
// the size still counts them all.
func TestHTTP2FramesCut(t *testing.T) {
	big := bytes.Repeat([]byte{7}, maxGRPCBytes)
	frames := []grpcwire.Frame{
		{Dir: grpcwire.ClientToServer, Type: "HEADERS", StreamID: 1, Bytes: []byte("0123456789")},
		{Dir: grpcwire.ServerToClient, Type: "DATA", StreamID: 1, Bytes: big},
		{Dir: grpcwire.ServerToClient, Type: "HEADERS", StreamID: 1, Bytes: []byte("abc")},
	}
	got, in := http2Frames(frames)
	type frame struct {
		Dir, Type string
		Stream    uint32
		Len, Cut  int
	}
	var short []frame
	for _, f := range got {
		short = append(short, frame{f.Dir, f.Type, f.Stream, len(f.Bytes), f.Cut})
	}
	want := []frame{
		{"out", "HEADERS", 1, 10, 0},
		{"in", "DATA", 1, maxGRPCBytes - 10, 10},
		{"in", "HEADERS", 1, 0, 3},
	}
	if diff := cmp.Diff(want, short); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
	if in != maxGRPCBytes+3 {
		t.Errorf("the server's bytes: %d, want %d", in, maxGRPCBytes+3)
	}
	// On the websocket the bytes are base64, the connection's own
	// stream number left out.
	b, err := json.Marshal(HTTP2Frame{Dir: "out", Type: "PREFACE", Bytes: []byte("PRI ")})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"dir":"out","type":"PREFACE","bytes":"UFJJIA=="}`; string(b) != want {
		t.Errorf("a frame in JSON: %s, want %s", b, want)
	}
}

// TestHTTPHeadInWireOrder: the http-head event lists the headers as the
// server wrote them, in its order and with Transfer-Encoding, where
// Go's parsed Header would sort them and keep Transfer-Encoding apart.
func TestHTTPHeadInWireOrder(t *testing.T) {
	const answer = "HTTP/1.1 200 OK\r\nZ-First: 1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nA-Last: 2\r\n\r\n" +
		"2\r\n{}\r\n0\r\n\r\n"
	addr := serveRaw(t, func(c net.Conn) { c.Write([]byte(answer)) })
	_, srv := startHub(t, Targets{HTTPURL: "http://" + addr})
	conn := dial(t, srv)
	readHello(t, conn)
	send(t, conn, Command{Op: "send", ID: 1, Target: "http", Frame: "GET / HTTP/1.1\n\n"})
	head := next(t, conn, func(ev Event) bool { return ev.Kind == "http-head" })
	want := "HTTP/1.1 200 OK\nZ-First: 1\nContent-Type: application/json\nTransfer-Encoding: chunked\nA-Last: 2\n"
	if head.Text != want {
		t.Errorf("the head reads\n%q\nwant it as on the wire\n%q", head.Text, want)
	}
	if body := next(t, conn, func(ev Event) bool { return ev.Kind == "http-body" }); body.Text != "{}" {
		t.Errorf("the body: %q", body.Text)
	}
}

// TestWireHead: the head ends at the first empty line, whether lines end
// in CRLF or, as a recipient may accept, a bare LF.
func TestWireHead(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{"HTTP/1.1 204 No Content\r\nB: 1\r\nA: 2\r\n\r\n", "HTTP/1.1 204 No Content\nB: 1\nA: 2\n"},
		{"HTTP/1.1 200 OK\nB: 1\n\nbody\n\nmore", "HTTP/1.1 200 OK\nB: 1\n"},
		{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", "HTTP/1.1 200 OK\nContent-Length: 2\n"},
	} {
		if got := wireHead([]byte(tt.raw)); got != tt.want {
			t.Errorf("wireHead(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// TestGRPCFrameHeaders: every frame but the preface begins with an
// HTTP/2 frame header whose length is the rest of its bytes, and whose
// type and stream are the ones the record names.
func TestGRPCFrameHeaders(t *testing.T) {
	_, srv := startHub(t, Targets{GRPCAddr: startGRPC(t)})
	conn := dial(t, srv)
	readHello(t, conn)
	send(t, conn, Command{Op: "send", ID: 1, Target: "grpc", Frame: "tools.v1.ToolServer/ListTools\n{}"})
	ev := next(t, conn, func(ev Event) bool { return ev.ID == 1 && ev.Kind == "grpc" })
	for i, f := range ev.Frames {
		if f.Type == "PREFACE" {
			continue
		}
		if len(f.Bytes) < 9 {
			t.Errorf("frame %d (%s) is %d bytes, shorter than a frame header", i, f.Type, len(f.Bytes))
			continue
		}
		length := int(f.Bytes[0])<<16 | int(f.Bytes[1])<<8 | int(f.Bytes[2])
		stream := binary.BigEndian.Uint32(f.Bytes[5:9]) & 0x7fffffff
		if length != len(f.Bytes)-9 || stream != f.Stream || http2.FrameType(f.Bytes[3]).String() != f.Type {
			t.Errorf("frame %d: header says %s, length %d, stream %d; the record says %s, %d bytes, stream %d",
				i, http2.FrameType(f.Bytes[3]), length, stream, f.Type, len(f.Bytes)-9, f.Stream)
		}
	}
}
