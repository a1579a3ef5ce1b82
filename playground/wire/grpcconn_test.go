package wire

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestGRPCConnectionKept checks that a tab's gRPC calls share one
// connection, the first showing it open and the next saying it was
// reused, that a restart makes the next call open a new one, and that
// the connection closes with the tab: no client
// goroutine of grpc-go is left once the hub has closed.
func TestGRPCConnectionKept(t *testing.T) {
	h, srv := startHub(t, Targets{GRPCAddr: startGRPC(t)})
	conn := dial(t, srv)
	readHello(t, conn)
	const frame = "tools.v1.ToolServer/ExecuteTool\n" + `{"toolName":"word_count","arguments":"eyJ0ZXh0IjoicmVhZCB0aGUgd2lyZSJ9"}`
	var dumps []string
	for id := int64(1); id <= 3; id++ {
		if id == 3 {
			// "New connection": the next call dials again.
			send(t, conn, Command{Op: "restart", ID: 10, Target: "grpc"})
			if ev := next(t, conn, func(ev Event) bool { return ev.Kind == "restart" }); !strings.Contains(ev.Text, "the next call opens a new one") {
				t.Errorf("the restart's note: %q", ev.Text)
			}
		}
		send(t, conn, Command{Op: "send", ID: id, Target: "grpc", Frame: frame})
		ev := next(t, conn, func(ev Event) bool { return ev.ID == id && ev.Kind == "grpc" })
		dumps = append(dumps, ev.Text)
	}
	for i, want := range []struct {
		first   string
		preface bool
	}{
		{"call /tools.v1.ToolServer/ExecuteTool on stream 1: OK (0)\n", true},
		{"call /tools.v1.ToolServer/ExecuteTool on stream 3: OK (0)\nreusing the connection opened at ", false},
		{"call /tools.v1.ToolServer/ExecuteTool on stream 1: OK (0)\n", true},
	} {
		if !strings.HasPrefix(dumps[i], want.first) {
			t.Errorf("call %d's dump starts %q, want %q", i+1, dumps[i][:min(len(dumps[i]), 120)], want.first)
		}
		if got := strings.Contains(dumps[i], "\n-> PREFACE len=24 "); got != want.preface {
			t.Errorf("call %d's dump shows the preface: %v, want %v", i+1, got, want.preface)
		}
		if !strings.Contains(dumps[i], "\n    grpc-status: 0\n") {
			t.Errorf("call %d's dump has no trailers with grpc-status 0:\n%s", i+1, dumps[i])
		}
	}

	conn.Close()
	h.Close() // waits for every session, and so for its connections to close
	// grpc-go's Close waits for its transport's goroutines, but a few of
	// the channel's own end just after it returns: wait for those,
	// briefly, before looking.
	var left []string
	for i := 0; i < 100; i++ {
		left = clientGoroutines()
		if len(left) == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, g := range left {
		t.Errorf("a gRPC client goroutine outlived the tab:\n%s", g)
	}
}

// clientGoroutines returns the stacks of the running goroutines that
// belong to a gRPC client connection.
func clientGoroutines() []string {
	buf := make([]byte, 1<<20)
	var found []string
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		for _, clientSide := range []string{"(*http2Client)", "(*ClientConn)", "(*addrConn)", "(*CallbackSerializer)", "(*dnsResolver)"} {
			if strings.Contains(g, clientSide) {
				found = append(found, g)
				break
			}
		}
	}
	return found
}
