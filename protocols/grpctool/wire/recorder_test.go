package wire

import (
	"errors"
	"io"
	"net"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRecordingLimit checks that a connection stops carrying bytes, both
// ways, once the recording holds its limit.
func TestRecordingLimit(t *testing.T) {
	client, server := net.Pipe()
	defer server.Close()
	rec := &recording{limit: 10}
	conn := rec.wrap(client)

	// net.Pipe has no buffer: the other end reads as this end writes. Its
	// goroutines end when the pipe closes or the byte counts are met.
	go io.ReadFull(server, make([]byte, 6))
	if _, err := conn.Write([]byte("hello!")); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write([]byte("world")); !errors.Is(err, errRecordingFull) {
		t.Errorf("a write past the limit returned %v, want errRecordingFull", err)
	}
	go server.Write([]byte("abcdef"))
	buf := make([]byte, 100)
	n, err := conn.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(buf[:n]); got != "abcd" {
		t.Errorf("read %q, want the 4 bytes left of the limit, %q", got, "abcd")
	}
	if _, err := conn.Read(buf); !errors.Is(err, errRecordingFull) {
		t.Errorf("a read at the limit returned %v, want errRecordingFull", err)
	}

	// grpc-go closes a connection whose Read or Write failed; then the
	// recording keeps what it has, whole frames or not.
	conn.Close()
	got := rec.take()
	want := []connBytes{{conn: conn.(*recordedConn), sent: []chunk{{1, []byte("hello!")}}, recv: []chunk{{2, []byte("abcd")}}}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(connBytes{}, chunk{}), cmp.Comparer(func(a, b *recordedConn) bool { return a == b })); diff != "" {
		t.Errorf("recorded (-want +got):\n%s", diff)
	}
}
