package grpctool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/tools"
)

// rawCall is what the server did with one stream of a rawPeer.
type rawCall struct {
	status  string        // grpc-status of the trailers, "" if none came
	message string        // grpc-message
	reset   http2.ErrCode // the RST_STREAM code, if the stream was reset
	done    chan struct{} // closed when the stream has ended
}

// rawPeer speaks HTTP/2 by hand, so that it can do what no gRPC client
// does: open a call, send the 5-byte prefix of a 10-byte message, and
// then nothing.
type rawPeer struct {
	t     *testing.T
	conn  net.Conn
	fr    *http2.Framer
	calls map[uint32]*rawCall // by stream id; the test goroutine alone uses it
	next  uint32
	henc  *hpack.Encoder
	hbuf  bytes.Buffer
}

func dialRaw(t *testing.T, addr string) *rawPeer {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	p := &rawPeer{t: t, conn: conn, fr: http2.NewFramer(conn, conn), calls: map[uint32]*rawCall{}, next: 1}
	p.henc = hpack.NewEncoder(&p.hbuf)
	// The framer decodes header blocks itself (one HPACK table for the
	// whole connection), handing back MetaHeadersFrames.
	p.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	conn.Write([]byte(http2.ClientPreface))
	p.fr.WriteSettings()
	return p
}

// stall opens a call to ExecuteTool and sends the prefix of a 10-byte
// message, never the message.
func (p *rawPeer) stall() *rawCall {
	id := p.next
	p.next += 2
	c := &rawCall{done: make(chan struct{})}
	p.calls[id] = c
	p.hbuf.Reset()
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", "/tools.v1.ToolServer/ExecuteTool"},
		{":authority", "127.0.0.1"}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		p.henc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: p.hbuf.Bytes(), EndHeaders: true}); err != nil {
		p.t.Fatal(err)
	}
	if err := p.fr.WriteData(id, false, []byte{0, 0, 0, 0, 10}); err != nil {
		p.t.Fatal(err)
	}
	return c
}

// read reads frames until every call opened so far has ended, answering
// SETTINGS and PING as a peer must. It runs on the test's goroutine.
func (p *rawPeer) read() {
	p.t.Helper()
	p.conn.SetReadDeadline(time.Now().Add(20 * time.Second)) // a guard against hanging, not a measurement
	for p.open() > 0 {
		f, err := p.fr.ReadFrame()
		if err != nil {
			p.t.Fatalf("reading frames with %d calls open: %v", p.open(), err)
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				p.fr.WriteSettingsAck()
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				p.fr.WritePing(true, f.Data)
			}
		case *http2.MetaHeadersFrame:
			c := p.calls[f.StreamID]
			for _, hf := range f.Fields {
				switch hf.Name {
				case "grpc-status":
					c.status = hf.Value
				case "grpc-message":
					c.message = hf.Value
				}
			}
			if f.StreamEnded() {
				close(c.done)
			}
		case *http2.RSTStreamFrame:
			c := p.calls[f.StreamID]
			c.reset = f.ErrCode
			select {
			case <-c.done:
			default:
				close(c.done)
			}
		}
	}
}

func (p *rawPeer) open() int {
	n := 0
	for _, c := range p.calls {
		select {
		case <-c.done:
		default:
			n++
		}
	}
	return n
}

// TestStalledRequestsEnd: calls that promise a request message and never
// send it end with CANCELLED once the request timeout passes, which frees
// their place: after 100 such calls on one connection (the most it may
// have open) the 101st is refused, and once they have ended a new call is
// taken again.
func TestStalledRequestsEnd(t *testing.T) {
	addr := start(t, tools.New(nil), &grpctool.ServerOptions{RequestTimeout: 100 * time.Millisecond})
	p := dialRaw(t, addr)
	var stalled []*rawCall
	for range 100 {
		stalled = append(stalled, p.stall())
	}
	extra := p.stall()
	p.read()
	for i, c := range stalled {
		if c.status != "1" || c.reset != 0 {
			t.Fatalf("stalled call %d ended with grpc-status %q %q, reset %v; want 1 (CANCELLED)", i, c.status, c.message, c.reset)
		}
	}
	if extra.reset != http2.ErrCodeRefusedStream {
		t.Errorf("call 101 ended with grpc-status %q, reset %v; want REFUSED_STREAM", extra.status, extra.reset)
	}
	again := p.stall()
	p.read()
	if again.status != "1" {
		t.Errorf("a call after the stalled ones ended with grpc-status %q %q, reset %v; want 1 (CANCELLED)", again.status, again.message, again.reset)
	}
}

// TestRequestTimeoutSparesSlowCalls: the request timeout covers only the
// arrival of the request; a deploy streaming progress for far longer
// runs to its end.
func TestRequestTimeoutSparesSlowCalls(t *testing.T) {
	addr := start(t, tools.New(&tools.Options{DeployStep: 50 * time.Millisecond}), &grpctool.ServerOptions{RequestTimeout: 10 * time.Millisecond})
	c := client(t, addr, nil)
	var steps int
	got, err := c.Stream(context.Background(), "deploy_service", json.RawMessage(`{"service":"api","env":"staging"}`), "",
		func(*toolsv1.Progress) { steps++ })
	if err != nil || steps != 4 || !strings.Contains(string(got), `"service":"api"`) {
		t.Errorf("deploy: %v after %d steps, result %s", err, steps, got)
	}
	if _, err := c.Call(context.Background(), "deploy_service", json.RawMessage(`{"service":"api","env":"staging"}`), ""); err != nil {
		t.Errorf("unary deploy: %v", err)
	}
}
