package wire

import (
	"bytes"
	"context"
	"net"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"

	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/tools"
)

const executeTool = "tools.v1.ToolServer/ExecuteTool"

// TestClientReuse makes three calls on one Client: the first opens the
// connection, the others reuse it, each on the next odd stream, with
// headers that HPACK now sends as table indexes and that the capture
// still decodes.
func TestClientReuse(t *testing.T) {
	addr := startServer(t, tools.New(nil), nil)
	c := NewClient(addr, nil)
	defer c.Close()
	var headersLen []int
	for i, stream := range []uint32{1, 3, 5} {
		e, err := c.Capture(t.Context(), executeTool, executeJSON(t, "word_count", `{"text":"read the wire"}`), &Options{Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if e.Code != codes.OK || e.StreamID != stream || e.EarlierCalls != i {
			t.Errorf("call %d: %v on stream %d after %d calls, want OK on stream %d after %d", i+1, e.Code, e.StreamID, e.EarlierCalls, stream, i)
		}
		preface := slices.ContainsFunc(e.Frames, func(f Frame) bool { return f.Type == "PREFACE" })
		if preface != (i == 0) {
			t.Errorf("call %d: preface shown %v, want it with the first call only", i+1, preface)
		}
		// The call's own frames, in the order a unary call makes them.
		var call []string
		for _, f := range e.Frames {
			if f.StreamID == stream {
				call = append(call, string(f.Dir)+" "+f.Type)
			}
		}
		want := []string{"-> HEADERS", "-> DATA", "<- HEADERS", "<- DATA", "<- HEADERS"}
		if diff := cmp.Diff(want, call); diff != "" {
			t.Errorf("call %d: frames on stream %d (-want +got):\n%s", i+1, stream, diff)
		}
		for name, want := range map[string]string{":path": "/" + executeTool, "content-type": "application/grpc", "te": "trailers"} {
			if got := header(e.RequestHeaders, name); got != want {
				t.Errorf("call %d: request header %s = %q, want %q", i+1, name, got, want)
			}
		}
		if got := header(e.Trailers, "grpc-status"); got != "0" {
			t.Errorf("call %d: grpc-status %q, want 0 (trailers %v)", i+1, got, e.Trailers)
		}
		if len(e.Responses) != 1 || !bytes.Contains(e.Responses[0].Payload, []byte(`"words":3`)) {
			t.Errorf("call %d: responses %v, want the word count", i+1, e.Responses)
		}
		var text strings.Builder
		e.Format(&text)
		if reused := strings.Contains(text.String(), "\nreusing the connection opened at "); reused != (i > 0) {
			t.Errorf("call %d: the dump says the connection was reused: %v\n%s", i+1, reused, text.String())
		}
		for _, f := range e.Frames {
			if f.Dir == ClientToServer && f.Type == "HEADERS" && f.StreamID == stream {
				headersLen = append(headersLen, f.Length)
			}
		}
	}
	// The second call's headers are mostly indexes into the table the
	// first one filled.
	if len(headersLen) != 3 || headersLen[1] >= headersLen[0] {
		t.Errorf("the client's HEADERS were %v bytes long, want the later ones shorter than the first", headersLen)
	}
}

// TestClientStartsOver checks when a Client opens a new connection: after
// a call the client ended at its deadline, whose capture still shows the
// client's RST_STREAM, and after the server went away and came back.
func TestClientStartsOver(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	first := grpctool.NewServer(tools.New(&tools.Options{DeployStep: time.Second}), nil)
	go first.Serve(lis) // returns when Stop closes the listener
	defer first.Stop()

	c := NewClient(addr, nil)
	defer c.Close()
	capture := func(tool, args string, timeout time.Duration) *Exchange {
		t.Helper()
		e, err := c.Capture(t.Context(), executeTool, executeJSON(t, tool, args), &Options{Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	capture("word_count", `{"text":"a"}`, time.Minute)
	if e := capture("word_count", `{"text":"a"}`, time.Minute); e.EarlierCalls != 1 {
		t.Fatalf("the second call was on a new connection")
	}

	e := capture("deploy_service", `{"service":"api","env":"staging"}`, 20*time.Millisecond)
	if e.Code != codes.DeadlineExceeded {
		t.Fatalf("deploy_service with 20ms: %v, want DEADLINE_EXCEEDED", e.Code)
	}
	// The client resets the stream when its deadline passes; the server,
	// told the deadline in grpc-timeout, may end it first, with a reset
	// or with trailers saying DEADLINE_EXCEEDED, and then the client has
	// no need to. Either way the capture shows how the stream ended.
	ended := slices.ContainsFunc(e.Frames, func(f Frame) bool {
		trailers := f.Dir == ServerToClient && f.Type == "HEADERS" && slices.Contains(f.Flags, "END_STREAM")
		return f.StreamID == e.StreamID && (f.Type == "RST_STREAM" || trailers)
	})
	if !ended {
		t.Errorf("the capture of a call past its deadline has neither RST_STREAM nor the server's trailers on its stream: %v", summary(e.Frames))
	}
	if e := capture("word_count", `{"text":"a"}`, time.Minute); e.EarlierCalls != 0 || e.StreamID != 1 {
		t.Errorf("after the deadline: stream %d after %d calls, want a new connection", e.StreamID, e.EarlierCalls)
	}

	// The server goes, and another listens at the same address.
	first.Stop()
	lis, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen at %s again: %v", addr, err)
	}
	second := grpctool.NewServer(tools.New(nil), nil)
	go second.Serve(lis) // returns when Stop closes the listener
	defer second.Stop()
	// Wait until the client has noticed, as a learner would take a moment
	// to press Send again.
	c.mu.Lock()
	for cc := c.cc; cc != nil && cc.GetState() == connectivity.Ready; {
		if !cc.WaitForStateChange(t.Context(), connectivity.Ready) {
			t.Fatal("the client never noticed that the server went away")
		}
	}
	c.mu.Unlock()
	e = capture("word_count", `{"text":"a"}`, time.Minute)
	if e.Code != codes.OK || e.EarlierCalls != 0 || firstOut(e.Frames) != "PREFACE" {
		t.Errorf("after the server came back: %v after %d calls, first frame out %s; want OK on a new connection", e.Code, e.EarlierCalls, firstOut(e.Frames))
	}
}

// TestClientBusy checks that a call made while a stream is under way
// gets a connection of its own, and that neither capture holds the other
// call.
func TestClientBusy(t *testing.T) {
	addr := startServer(t, tools.New(&tools.Options{DeployStep: 50 * time.Millisecond}), nil)
	c := NewClient(addr, nil)
	defer c.Close()
	// The first call opens the connection, which the stream then holds.
	if _, err := c.Capture(t.Context(), executeTool, executeJSON(t, "word_count", `{"text":"a"}`), nil); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var stream *Exchange
	var streamErr error
	started := make(chan struct{})
	wg.Add(1)
	// Ends when the stream does, after four steps.
	go func() {
		defer wg.Done()
		c.mu.Lock() // as Capture does, so that the call below surely finds the Client busy
		close(started)
		stream, streamErr = c.capture(t.Context(), "tools.v1.ToolServer/ExecuteToolStream", executeJSON(t, "deploy_service", `{"service":"api","env":"staging"}`), &Options{}, false)
		c.mu.Unlock()
	}()
	<-started
	e, err := c.Capture(t.Context(), executeTool, executeJSON(t, "word_count", `{"text":"b"}`), nil)
	wg.Wait()
	if err != nil || streamErr != nil {
		t.Fatal(err, streamErr)
	}
	if e.EarlierCalls != 0 || firstOut(e.Frames) != "PREFACE" || e.StreamID != 1 {
		t.Errorf("the call made during the stream went on stream %d after %d calls, want a connection of its own", e.StreamID, e.EarlierCalls)
	}
	if stream.StreamID != 3 || len(stream.Responses) != 5 {
		t.Errorf("the stream went on stream %d with %d responses, want stream 3 with 5", stream.StreamID, len(stream.Responses))
	}
	for _, f := range stream.Frames {
		if f.StreamID != 0 && f.StreamID != stream.StreamID {
			t.Errorf("the stream's capture holds a frame of stream %d", f.StreamID)
		}
	}
}

// TestClientNothingLeft checks that Close stops every goroutine a Client
// started, whatever its calls did.
func TestClientNothingLeft(t *testing.T) {
	addr := startServer(t, tools.New(nil), withTokens(t))
	before := runtime.NumGoroutine()
	c := NewClient(addr, nil)
	for _, m := range []struct{ method, request string }{
		{executeTool, `{"toolName":"word_count"}`},   // UNAUTHENTICATED
		{executeTool, `{"toolName":"word_count"}`},   // again, on the same connection
		{"grpc.health.v1.Health/Check", `{}`},        // OK
		{"grpc.health.v1.Health/Nope", `{}`},         // an error: the Client starts over
		{"tools.v1.ToolServer/ListTools", `{"x":1}`}, // not the method's message
		{"grpc.health.v1.Health/Check", `{}`},        // OK, on a new connection, which stays open
	} {
		_, _ = c.Capture(t.Context(), m.method, []byte(m.request), nil) // only what stays behind matters here
	}
	c.Close()
	if _, err := c.Capture(t.Context(), "grpc.health.v1.Health/Check", []byte(`{}`), nil); err == nil {
		t.Error("a call after Close succeeded")
	}
	// The server's goroutines for the closed connections end on their
	// own time: wait for them, briefly, before looking.
	for i := 0; i < 100 && runtime.NumGoroutine() > before; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before the Client, %d after Close:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestHeaderTables decodes a header block that refers to a table entry
// an earlier capture's block added, in frames with padding and priority.
func TestHeaderTables(t *testing.T) {
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	var wire bytes.Buffer
	fr := http2.NewFramer(&wire, nil)
	writeHeaders := func(stream uint32, fields ...string) []chunk {
		t.Helper()
		block.Reset()
		for i := 0; i < len(fields); i += 2 {
			enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
		}
		wire.Reset()
		err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: block.Bytes(), EndHeaders: true, PadLength: 3,
			Priority: http2.PriorityParam{StreamDep: 0, Weight: 15}})
		if err != nil {
			t.Fatal(err)
		}
		return []chunk{{int(stream), slices.Clone(wire.Bytes())}}
	}
	hd := newHeaderDecoder() // the direction's, kept between captures
	first := readFrames(ClientToServer, writeHeaders(1, "x-lesson", "tables", "x-call", "1"), hd)
	later := readFrames(ClientToServer, writeHeaders(3, "x-lesson", "tables", "x-call", "2"), hd)
	want := []HeaderField{{"x-lesson", "tables"}, {"x-call", "2"}}
	if diff := cmp.Diff(want, later[0].Headers); diff != "" {
		t.Errorf("the later block (-want +got):\n%s", diff)
	}
	if d := later[0].Detail; d != "depends_on=0 weight=16" {
		t.Errorf("the later HEADERS' detail is %q, want its priority alone", d)
	}
	if later[0].Length >= first[0].Length {
		t.Errorf("the later block is %d bytes, the first %d: the table was not used", later[0].Length, first[0].Length)
	}
}

// TestClientClosedContext checks that a call whose context has ended does
// not leave the Client waiting.
func TestClientClosedContext(t *testing.T) {
	addr := startServer(t, tools.New(nil), nil)
	c := NewClient(addr, nil)
	defer c.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.Capture(ctx, executeTool, executeJSON(t, "word_count", `{"text":"a"}`), &Options{Files: nil}); err == nil {
		t.Error("a call with a cancelled context succeeded")
	}
	if e, err := c.Capture(t.Context(), executeTool, executeJSON(t, "word_count", `{"text":"a"}`), nil); err != nil || e.Code != codes.OK {
		t.Errorf("the next call: %v, %v", e, err)
	}
}

// firstOut is the type of the client's first frame: on a new connection,
// its preface. (The server may send its SETTINGS before the preface
// reaches it, so the first frame of all may be the server's.)
func firstOut(frames []Frame) string {
	for _, f := range frames {
		if f.Dir == ClientToServer {
			return f.Type
		}
	}
	return ""
}
