package wire

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/wirelab/wirelab/protocols/tools"
)

// TestWordCountBytes predicts, byte by byte, what one ExecuteTool call of
// word_count puts on the wire, and compares it with the capture.
func TestWordCountBytes(t *testing.T) {
	addr := startServer(t, tools.New(nil), nil)
	e, err := Capture(t.Context(), addr, "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"text":"read the wire"}`), nil)
	if err != nil {
		t.Fatal(err)
	}

	// ExecuteToolRequest{tool_name: "word_count", arguments: ...}: each
	// field is a tag byte (field number << 3 | wire type 2, LEN), a length
	// and the bytes. version (field 2) is empty, and proto3 does not send
	// empty fields at all.
	args := `{"text":"read the wire"}`
	payload := []byte{1<<3 | 2, byte(len("word_count"))}
	payload = append(payload, "word_count"...)
	payload = append(payload, 3<<3|2, byte(len(args)))
	payload = append(payload, args...)
	// The gRPC prefix: not compressed, then the length, big-endian.
	message := append([]byte{0, 0, 0, 0, byte(len(payload))}, payload...)
	// The DATA frame around it: a 3-byte length, type 0x0 (DATA), flags
	// 0x1 (END_STREAM: a unary request is the client's last word), and
	// stream 1, the first stream a client opens.
	frame := append([]byte{0, 0, byte(len(message)), 0x0, 0x1, 0, 0, 0, 1}, message...)

	if len(e.Requests) != 1 {
		t.Fatalf("captured %d request messages, want 1", len(e.Requests))
	}
	got := append(slices.Clone(e.Requests[0].Prefix), e.Requests[0].Payload...)
	if diff := cmp.Diff(message, got); diff != "" {
		t.Errorf("request message (-predicted +captured):\n%s", diff)
	}
	if diff := cmp.Diff(frame, requestData(t, e).Bytes); diff != "" {
		t.Errorf("request DATA frame (-predicted +captured):\n%s", diff)
	}
	wantFields := []Field{
		{Number: 1, Name: "tool_name", WireType: "len", Bytes: payload[:12], Value: `"word_count"`},
		{Number: 3, Name: "arguments", WireType: "len", Bytes: payload[12:], Value: args},
	}
	if diff := cmp.Diff(wantFields, e.Requests[0].Fields); diff != "" {
		t.Errorf("request fields (-want +got):\n%s", diff)
	}

	// ExecuteToolResponse{result: {"words":3,"chars":13}}: field 1, LEN.
	if len(e.Responses) != 1 {
		t.Fatalf("captured %d response messages, want 1", len(e.Responses))
	}
	resp := e.Responses[0]
	if n := binary.BigEndian.Uint32(resp.Prefix[1:]); resp.Prefix[0] != 0 || int(n) != len(resp.Payload) {
		t.Errorf("response prefix % x does not announce %d uncompressed bytes", resp.Prefix, len(resp.Payload))
	}
	num, typ, n := protowire.ConsumeTag(resp.Payload)
	if n != 1 || num != 1 || typ != protowire.BytesType {
		t.Fatalf("response starts with % x, want tag 0x0a (field 1, LEN)", resp.Payload[:2])
	}
	result, m := protowire.ConsumeBytes(resp.Payload[n:])
	if m != len(resp.Payload)-n {
		t.Errorf("response has %d bytes after its result field", len(resp.Payload)-n-m)
	}
	var counts map[string]int
	if err := json.Unmarshal(result, &counts); err != nil {
		t.Fatalf("result %q: %v", result, err)
	}
	if diff := cmp.Diff(map[string]int{"words": 3, "chars": 13}, counts); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}

	if got := header(e.Trailers, "grpc-status"); got != "0" {
		t.Errorf("trailer grpc-status = %q, want \"0\"", got)
	}
	if e.Code != codes.OK || e.TrailersOnly || e.ResponseHeaders == nil {
		t.Errorf("Code=%v TrailersOnly=%v ResponseHeaders=%v, want OK, false and some", e.Code, e.TrailersOnly, e.ResponseHeaders)
	}
}

// requestData returns the client's one DATA frame on the call's stream.
func requestData(t *testing.T, e *Exchange) Frame {
	t.Helper()
	var found []Frame
	for _, f := range e.Frames {
		if f.Dir == ClientToServer && f.Type == "DATA" && f.StreamID == e.StreamID {
			found = append(found, f)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the client sent %d DATA frames on stream %d, want 1", len(found), e.StreamID)
	}
	return found[0]
}

// TestRequestHeaders checks what gRPC says in the HEADERS that open a
// call, and that they come in the order HTTP/2 requires: pseudo-headers
// first.
func TestRequestHeaders(t *testing.T) {
	addr := startServer(t, tools.New(nil), withTokens(t))
	md := metadata.Pairs("authorization", "Bearer "+testToken, "x-lesson", "headers")
	e, err := Capture(t.Context(), addr, "/tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"text":"x"}`), &Options{Metadata: md, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if e.Code != codes.OK {
		t.Fatalf("status %v: %s", e.Code, e.StatusMessage)
	}
	got := map[string]string{}
	for _, h := range e.RequestHeaders {
		got[h.Name] = h.Value
	}
	for name, want := range map[string]string{
		":method":       "POST",
		":scheme":       "http",
		":path":         "/tools.v1.ToolServer/ExecuteTool",
		":authority":    addr,
		"content-type":  "application/grpc",
		"te":            "trailers",
		"authorization": "Bearer " + testToken,
		"x-lesson":      "headers",
	} {
		if got[name] != want {
			t.Errorf("header %s = %q, want %q", name, got[name], want)
		}
	}
	// grpc-timeout is the time left when the header was written, so its
	// value is below a minute and varies: check only its form.
	if timeout, err := parseTimeout(got["grpc-timeout"]); err != nil || timeout <= 0 || timeout > time.Minute {
		t.Errorf("grpc-timeout = %q (%v, %v), want a positive duration of at most a minute", got["grpc-timeout"], timeout, err)
	}
	regular := false // a regular header has been seen
	for _, h := range e.RequestHeaders {
		if strings.HasPrefix(h.Name, ":") && regular {
			t.Errorf("pseudo-header %s comes after a regular header: %v", h.Name, e.RequestHeaders)
		}
		regular = regular || !strings.HasPrefix(h.Name, ":")
	}
}

// parseTimeout reads a grpc-timeout value: at most 8 digits and a unit
// (PROTOCOL-HTTP2.md: H, M, S, m, u, n).
func parseTimeout(v string) (time.Duration, error) {
	units := map[string]time.Duration{"H": time.Hour, "M": time.Minute, "S": time.Second, "m": time.Millisecond, "u": time.Microsecond, "n": time.Nanosecond}
	if len(v) < 2 || len(v) > 9 || units[v[len(v)-1:]] == 0 {
		return 0, fmt.Errorf("%q is not a grpc-timeout value", v)
	}
	n, err := strconv.ParseUint(v[:len(v)-1], 10, 32)
	if err != nil {
		return 0, err
	}
	return time.Duration(n) * units[v[len(v)-1:]], nil
}

// TestOutcomes checks that every way a call can end once it has been sent
// comes back as an Exchange, not an error, with the status the server
// put on the wire.
func TestOutcomes(t *testing.T) {
	addr := startServer(t, tools.New(&tools.Options{DeployStep: time.Second}), withTokens(t))
	tests := []struct {
		name         string
		method       string
		request      []byte
		opts         *Options
		code         codes.Code
		trailersOnly bool
		responses    int
	}{
		{"ok", "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"text":"a b"}`), &Options{Metadata: bearer()}, codes.OK, false, 1},
		{"no token", "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"text":"a b"}`), nil, codes.Unauthenticated, true, 0},
		{"wrong token", "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"text":"a b"}`), &Options{Metadata: metadata.Pairs("authorization", "Bearer nope")}, codes.Unauthenticated, true, 0},
		{"unknown tool", "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "no_such_tool", `{}`), &Options{Metadata: bearer()}, codes.NotFound, true, 0},
		{"bad arguments", "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"words":1}`), &Options{Metadata: bearer()}, codes.InvalidArgument, true, 0},
		// deploy_service takes four one-second steps; the deadline ends it
		// long before. Whether the client gives up first or the server
		// does, the status is DEADLINE_EXCEEDED.
		{"deadline", "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "deploy_service", `{"service":"api","env":"staging"}`), &Options{Metadata: bearer(), Timeout: 50 * time.Millisecond}, codes.DeadlineExceeded, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Capture(t.Context(), addr, tt.method, tt.request, tt.opts)
			if err != nil {
				t.Fatalf("Capture returned an error for a call that was sent: %v", err)
			}
			if e.Code != tt.code {
				t.Errorf("Code = %v (%q), want %v", e.Code, e.StatusMessage, tt.code)
			}
			timeout := tt.opts != nil && tt.opts.Timeout > 0
			if sent := header(e.RequestHeaders, "grpc-timeout") != ""; sent != timeout {
				t.Errorf("grpc-timeout sent: %v, Options.Timeout set: %v", sent, timeout)
			}
			if tt.name == "deadline" {
				// The client may give up before the server says anything.
				return
			}
			if e.TrailersOnly != tt.trailersOnly {
				t.Errorf("TrailersOnly = %v, want %v", e.TrailersOnly, tt.trailersOnly)
			}
			if tt.trailersOnly && e.ResponseHeaders != nil {
				t.Errorf("a trailers-only answer has ResponseHeaders %v", e.ResponseHeaders)
			}
			if got := len(e.Responses); got != tt.responses {
				t.Errorf("%d response messages, want %d", got, tt.responses)
			}
			if got, want := header(e.Trailers, "grpc-status"), strconv.Itoa(int(tt.code)); got != want {
				t.Errorf("grpc-status trailer = %q, want %q", got, want)
			}
		})
	}
}

// TestServerStreaming captures ExecuteToolStream: several response
// messages on one stream, each in a DATA frame of its own, then trailers.
func TestServerStreaming(t *testing.T) {
	addr := startServer(t, tools.New(&tools.Options{DeployStep: testDeployStep}), nil)
	e, err := Capture(t.Context(), addr, "tools.v1.ToolServer/ExecuteToolStream", executeJSON(t, "deploy_service", `{"service":"api","env":"staging"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Code != codes.OK {
		t.Fatalf("status %v: %s", e.Code, e.StatusMessage)
	}
	var kinds []string
	for _, m := range e.Responses {
		var event map[string]json.RawMessage
		if err := json.Unmarshal(m.JSON, &event); err != nil {
			t.Fatalf("response %s: %v", m.JSON, err)
		}
		for k := range event {
			kinds = append(kinds, k)
		}
	}
	want := []string{"progress", "progress", "progress", "progress", "result"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestConnectionFrames checks the frames on stream 0, which belong to the
// connection rather than the call. Their interleaving with the call
// depends on timing, so only what is always true is checked.
func TestConnectionFrames(t *testing.T) {
	addr := startServer(t, tools.New(nil), nil)
	e, err := Capture(t.Context(), addr, "tools.v1.ToolServer/ExecuteTool", executeJSON(t, "word_count", `{"text":"a"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	first := func(dir Direction, typ string, ack bool) int {
		for i, f := range e.Frames {
			if f.Dir == dir && f.Type == typ && slices.Contains(f.Flags, "ACK") == ack {
				return i
			}
		}
		t.Fatalf("no %s %s (ack %v) in %v", dir, typ, ack, summary(e.Frames))
		return -1
	}
	var client, server []Frame
	for _, f := range e.Frames {
		if f.Dir == ClientToServer {
			client = append(client, f)
		} else {
			server = append(server, f)
		}
	}

	// RFC 9113 section 3.4: the client starts with the preface and then a
	// SETTINGS frame; the server's first frame is SETTINGS too.
	if string(client[0].Bytes) != "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" {
		t.Errorf("the client's first bytes are %q, want the preface", client[0].Bytes)
	}
	if client[1].Type != "SETTINGS" || client[1].Flags != nil {
		t.Errorf("the client's first frame is %s %v, want SETTINGS", client[1].Type, client[1].Flags)
	}
	if server[0].Type != "SETTINGS" || server[0].Flags != nil {
		t.Errorf("the server's first frame is %s %v, want SETTINGS", server[0].Type, server[0].Flags)
	}
	// Each side acknowledges the other's SETTINGS (section 6.5.3).
	first(ClientToServer, "SETTINGS", true)
	first(ServerToClient, "SETTINGS", true)
	// grpc-go opens no stream until the server's SETTINGS have arrived.
	if headers := first(ClientToServer, "HEADERS", false); headers < first(ServerToClient, "SETTINGS", false) {
		t.Errorf("the call's HEADERS went out before the server's SETTINGS arrived: %v", summary(e.Frames))
	}
	// Every PING ACK echoes the 8 bytes of a PING the other side sent
	// before it (section 6.7).
	for i, f := range e.Frames {
		if f.Type != "PING" || !slices.Contains(f.Flags, "ACK") {
			continue
		}
		answered := slices.ContainsFunc(e.Frames[:i], func(p Frame) bool {
			return p.Type == "PING" && p.Dir != f.Dir && p.Flags == nil && p.Detail == f.Detail
		})
		if !answered {
			t.Errorf("frame %d, %s PING ACK %s, answers no PING", i, f.Dir, f.Detail)
		}
	}
	// Closing the connection, the client says goodbye with GOAWAY.
	if last := client[len(client)-1]; last.Type != "GOAWAY" || !strings.Contains(last.Detail, "error=NO_ERROR") {
		t.Errorf("the client's last frame is %s %s, want GOAWAY NO_ERROR", last.Type, last.Detail)
	}
}

// TestNothingLeft checks that Capture leaves no client goroutine running,
// whatever the outcome: grpc-go's Close waits for the goroutines of a
// connection to end, and Capture closes every connection it opens before
// it returns.
func TestNothingLeft(t *testing.T) {
	addr := startServer(t, tools.New(nil), withTokens(t))
	calls := []struct{ method, request string }{
		{"tools.v1.ToolServer/ExecuteTool", `{"toolName":"word_count"}`},    // UNAUTHENTICATED
		{"tools.v1.ToolServer/ExecuteToolStream", `{"toolName":"nothing"}`}, // UNAUTHENTICATED, streaming
		{"grpc.health.v1.Health/Check", `{}`},                               // OK
		{"grpc.health.v1.Health/Nope", `{}`},                                // an error from reflection
	}
	for _, c := range calls {
		_, _ = Capture(t.Context(), addr, c.method, []byte(c.request), nil) // only what stays behind matters here
	}
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	for _, g := range strings.Split(stacks, "\n\n") {
		for _, clientSide := range []string{"(*http2Client)", "(*ClientConn)", "(*addrConn)", "(*CallbackSerializer)", "(*dnsResolver)"} {
			if strings.Contains(g, clientSide) {
				t.Errorf("a client goroutine is still running:\n%s", g)
				break
			}
		}
	}
}

// TestBidiStreaming uses the one bidirectional method every server here
// has, reflection itself: several JSON requests one after another become
// several messages on one stream, and each gets its answer.
func TestBidiStreaming(t *testing.T) {
	addr := startServer(t, tools.New(nil), nil)
	const method = "grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
	tests := []struct {
		name    string
		request string
		want    []string // the field set in each response
	}{
		{"two requests", `{"listServices":"*"} {"fileContainingSymbol":"grpc.health.v1.Health"}`, []string{"listServicesResponse", "fileDescriptorResponse"}},
		{"none", ``, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Capture(t.Context(), addr, method, []byte(tt.request), nil)
			if err != nil {
				t.Fatal(err)
			}
			if e.Code != codes.OK {
				t.Fatalf("status %v: %s", e.Code, e.StatusMessage)
			}
			if len(e.Requests) != len(tt.want) {
				t.Errorf("sent %d messages, want %d", len(e.Requests), len(tt.want))
			}
			var got []string
			for _, m := range e.Responses {
				var fields map[string]json.RawMessage
				if err := json.Unmarshal(m.JSON, &fields); err != nil {
					t.Fatalf("response %s: %v", m.JSON, err)
				}
				for k := range fields {
					if k != "validHost" && k != "originalRequest" {
						got = append(got, k)
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}
