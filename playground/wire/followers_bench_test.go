package wire

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// benchFollowers is the classroom the load benchmark seats: a big
// lecture's worth of laptops, on this one machine.
const benchFollowers = 200

// BenchmarkFollowers measures the room under load: a presenter sends a
// ping to its mcp-stdio child, and benchFollowers tabs follow it at
// /ws?watch=presenter. Each op is one frame: its "out" and "in" events
// reach every follower before the next is sent. p50-ms and p99-ms are
// the delivery latency of those events, from the event's "at" (when the
// presenter's hub emitted it) to a follower reading it off its
// websocket; heap-MB is the heap in use with everyone connected (the
// followers' own websockets are in this process too). /local is one
// playground; /nats is two sharing an embedded NATS server, the
// presenter on one and the followers on the other, so that every event
// crosses NATS. Everything is on loopback.
func BenchmarkFollowers(b *testing.B) {
	b.Run("local", func(b *testing.B) {
		h, srv := startHub(b, Targets{})
		benchFollow(b, h, srv, h, srv)
	})
	b.Run("nats", func(b *testing.B) {
		url := startNATS(b, 0)
		h, presenter := startNATSHub(b, url)
		fh, followers := startNATSHub(b, url)
		benchFollow(b, h, presenter, fh, followers)
	})
}

// benchFollow runs the benchmark with the presenter on h, served by
// presenter, and the followers on fh, served by followers.
func benchFollow(b *testing.B, h *Hub, presenter *httptest.Server, fh *Hub, followers *httptest.Server) {
	b.ReportAllocs()
	h.frameRate, h.frameBurst = benchFrameRate, benchFrameRate
	tab := dial(b, presenter)
	readHello(b, tab)
	send(b, tab, Command{Op: "present"})
	readN(b, tab, 1)

	latencies := make(chan time.Duration, 2*benchFollowers)
	done := make(chan struct{})
	b.Cleanup(func() { close(done) })
	for range benchFollowers {
		conn := dialPath(b, followers, "?watch=presenter")
		readHello(b, conn)
		// Ends when the follower's connection closes, at the end of the
		// benchmark, or when it is done.
		go follow(conn, latencies, done)
	}

	var id int64
	var all []time.Duration
	frame := func() {
		id++
		send(b, tab, Command{Op: "send", ID: id, Target: "mcp-stdio", Frame: fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id)})
		timeout := time.After(patience) // a guard against hanging, not a measurement
		for range 2 * benchFollowers {
			select {
			case d := <-latencies:
				all = append(all, d)
			case <-timeout:
				b.Fatalf("frame %d: %d followers of %d left after %v", id, fh.audience.count(), benchFollowers, patience)
			}
		}
	}
	frame() // the child starts, off the clock
	all = all[:0]
	for b.Loop() {
		frame()
	}
	b.StopTimer()
	if n := fh.audience.count(); n != benchFollowers {
		b.Fatalf("%d followers left of %d", n, benchFollowers)
	}
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	slices.Sort(all)
	ms := func(q float64) float64 { return float64(all[int(q*float64(len(all)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(float64(mem.HeapInuse)/(1<<20), "heap-MB")
	b.ReportMetric(benchFollowers, "followers")
}

// follow reads a follower's websocket and sends, for each of the
// presenter's "out" and "in" events, how long after its "at" it came.
func follow(conn *websocket.Conn, latencies chan<- time.Duration, done <-chan struct{}) {
	conn.SetReadDeadline(time.Time{})
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		now := time.Now()
		if !bytes.Contains(msg, []byte(`"dir":"out"`)) && !bytes.Contains(msg, []byte(`"dir":"in"`)) {
			continue
		}
		// The event's own "at", found without decoding the whole event:
		// the readers share the machine with the hub they measure.
		_, after, ok := bytes.Cut(msg, []byte(`"at":"`))
		at, _, _ := bytes.Cut(after, []byte(`"`))
		t, err := time.Parse(time.RFC3339Nano, string(at))
		if !ok || err != nil {
			continue
		}
		select {
		case latencies <- now.Sub(t):
		case <-done:
			return
		}
	}
}
