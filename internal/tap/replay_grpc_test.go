package tap

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/grpctool/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// serveGRPC serves s on a loopback port until the test ends.
func serveGRPC(t *testing.T, s *grpc.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	// Ends when Stop, at the test's end, stops Serve.
	go func() { s.Serve(ln); close(done) }()
	t.Cleanup(func() { s.Stop(); <-done })
	return ln.Addr().String()
}

// recordToolCalls records, through the relay, a host calling the
// reference server at upstream: word_count, then a tool that does not
// exist. With describe, the recording holds the server's descriptors.
func recordToolCalls(t *testing.T, upstream string, describe bool) []Event {
	t.Helper()
	rec := NewRecorder(nil)
	rec.Add(Event{Kind: KindStart, Format: Format, Upstream: "grpc://" + upstream})
	g, err := NewGRPC(upstream, rec, &GRPCOptions{NoDescriptors: !describe})
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
	// The relay asks for the descriptors as it starts; the host waits
	// for them here, so that the test does not depend on who is first.
	for deadline := time.Now().Add(10 * time.Second); describe && Descriptors(rec.Events()) == nil; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the relay recorded no descriptors")
		}
	}
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	client := toolsv1.NewToolServerClient(conn)
	if _, err := client.ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: "word_count", Arguments: []byte(`{"text":"read the wire"}`)}); err != nil {
		t.Fatalf("word_count through the tap: %v", err)
	}
	if _, err := client.ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: "no_such_tool"}); status.Code(err) != codes.NotFound {
		t.Fatalf("a tool that does not exist: %v, want NOT_FOUND", err)
	}
	conn.Close()
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	events := rec.Events()
	if got := Descriptors(events) != nil; got != describe {
		t.Fatalf("the recording holds descriptors: %v, want %v", got, describe)
	}
	return events
}

// plantedServer is a tool server with one defect: word_count counts
// one word too many, or every call is refused.
type plantedServer struct {
	toolsv1.UnimplementedToolServerServer
	refuse bool
}

func (p *plantedServer) ExecuteTool(ctx context.Context, req *toolsv1.ExecuteToolRequest) (*toolsv1.ExecuteToolResponse, error) {
	if p.refuse {
		return nil, status.Error(codes.PermissionDenied, "no")
	}
	if req.ToolName != "word_count" {
		return nil, status.Errorf(codes.NotFound, "unknown tool %q; this server has: word_count, search, deploy_service, weather", req.ToolName)
	}
	return &toolsv1.ExecuteToolResponse{Result: []byte(`{"words":4,"chars":13}`)}, nil
}

func planted(t *testing.T, refuse bool) string {
	s := grpc.NewServer()
	// No reflection: the replay names fields only from the recording's
	// descriptors, and by number without them.
	toolsv1.RegisterToolServerServer(s, &plantedServer{refuse: refuse})
	return serveGRPC(t, s)
}

// TestReplayGRPC: a recording of the reference gRPC server replays
// clean against it, with the recorded descriptors or without; against a
// server that counts another number of words, the diff names the call
// and shows the field; against one that refuses every call, it names
// each call whose status differs.
func TestReplayGRPC(t *testing.T) {
	reference := serveGRPC(t, grpctool.NewServer(tools.New(nil), nil))
	for _, describe := range []bool{true, false} {
		events := recordToolCalls(t, reference, describe)
		diffs, err := ReplayGRPC(context.Background(), events, reference, nil)
		if err != nil || len(diffs) > 0 {
			t.Errorf("describe %v: against the reference server: %v, %v; want no differences", describe, diffs, err)
		}

		diffs, err = ReplayGRPC(context.Background(), events, planted(t, false), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(diffs) != 1 {
			t.Fatalf("describe %v: against a server counting 4 words: %d differences, want 1:\n%v", describe, len(diffs), diffs)
		}
		name := "field 1"
		if describe {
			name = "field 1 result"
		}
		got := diffs[0].String()
		for _, want := range []string{"call /tools.v1.ToolServer/ExecuteTool (connection 1, stream 1): response 1: differs", "-   \"words\": 3", "+   \"words\": 4", name + " = {"} {
			if !strings.Contains(got, want) {
				t.Errorf("describe %v: the difference\n%s\nlacks %q", describe, got, want)
			}
		}

		diffs, err = ReplayGRPC(context.Background(), events, planted(t, true), nil)
		if err != nil {
			t.Fatal(err)
		}
		var whats []string
		for _, d := range diffs {
			whats = append(whats, d.What)
		}
		for _, want := range []string{
			"call /tools.v1.ToolServer/ExecuteTool (connection 1, stream 1): status differs",
			"call /tools.v1.ToolServer/ExecuteTool (connection 1, stream 1): response 1: missing from the replay",
			"call /tools.v1.ToolServer/ExecuteTool (connection 1, stream 3): status differs",
		} {
			if !strings.Contains(strings.Join(whats, "\n"), want) {
				t.Errorf("describe %v: against a server that refuses: differences %q, want %q", describe, whats, want)
			}
		}
	}
}

// TestCallMetadata: the metadata replayed is the host's, without what
// HTTP/2 and gRPC set themselves; a masked token is left out, or
// replaced by the one given; binary metadata is sent as its bytes.
func TestCallMetadata(t *testing.T) {
	headers := []struct{ name, value string }{
		{":path", "/a.B/C"}, {"content-type", "application/grpc"}, {"te", "trailers"}, {"grpc-timeout", "5S"},
		{"user-agent", "grpc-go/1"}, {"authorization", "Bearer ******"}, {"x-trace", "abc"}, {"x-id-bin", "AQI"},
	}
	var fields []wire.HeaderField
	for _, h := range headers {
		fields = append(fields, wire.HeaderField{Name: h.name, Value: h.value})
	}
	md := callMetadata(fields, "")
	if len(md) != 2 || md.Get("x-trace")[0] != "abc" || md.Get("x-id-bin")[0] != "\x01\x02" {
		t.Errorf("without a token: %v, want x-trace and x-id-bin only", md)
	}
	md = callMetadata(fields, "reader")
	if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer reader" {
		t.Errorf("with a token: authorization %q, want Bearer reader", got)
	}
}

// TestGRPCMasksSecrets: a host's bearer token passes through the relay
// to the server, which takes it, but the record holds it masked, in
// every call on the connection (the second refers to HPACK's table);
// the recording replays clean with the token given again, and without
// it the server's refusal is the difference.
func TestGRPCMasksSecrets(t *testing.T) {
	const secret = "s3cret-token-for-the-test"
	tokens, err := tools.ParseTokens([]string{secret})
	if err != nil {
		t.Fatal(err)
	}
	server := serveGRPC(t, grpctool.NewServer(tools.New(nil), &grpctool.ServerOptions{Tokens: tokens}))
	rec := NewRecorder(nil)
	rec.Add(Event{Kind: KindStart, Format: Format, Upstream: "grpc://" + server})
	g, err := NewGRPC(server, rec, &GRPCOptions{NoDescriptors: true})
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
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	client := toolsv1.NewToolServerClient(conn)
	callCtx := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+secret, "x-api-key", "key-"+secret)
	for range 2 {
		if _, err := client.ExecuteTool(callCtx, &toolsv1.ExecuteToolRequest{ToolName: "word_count", Arguments: []byte(`{"text":"a b"}`)}); err != nil {
			t.Fatalf("word_count with the token, through the tap: %v", err)
		}
	}
	conn.Close()
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	events := rec.Events()
	calls := recordedCalls(events)
	if len(calls) != 2 {
		t.Fatalf("%d calls recorded, want 2", len(calls))
	}
	for i, c := range calls {
		var got []string
		for _, h := range c.RequestHeaders {
			if h.Name == "authorization" || h.Name == "x-api-key" {
				got = append(got, h.Name+": "+h.Value)
			}
		}
		want := []string{"authorization: Bearer " + strings.Repeat("*", len(secret)), "x-api-key: " + strings.Repeat("*", len(secret)+4)}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("call %d's secrets as recorded: %q, want %q", i+1, got, want)
		}
		if c.Code != codes.OK {
			t.Errorf("call %d: %v, want OK: the record reads back wrong", i+1, c.Code)
		}
	}
	for _, e := range events {
		if strings.Contains(string(e.Bytes()), "s3cret") {
			t.Errorf("event %d holds the secret: %q", e.Seq, e.Bytes())
		}
	}

	diffs, err := ReplayGRPC(context.Background(), events, server, &GRPCReplayOptions{Token: secret})
	if err != nil || len(diffs) > 0 {
		t.Errorf("replayed with the token: %v, %v; want no differences", diffs, err)
	}
	diffs, err = ReplayGRPC(context.Background(), events, server, nil)
	if err != nil || len(diffs) == 0 || !strings.Contains(diffs[0].Diff, "Unauthenticated") {
		t.Errorf("replayed without the token: %v, %v; want the refusal as a difference", diffs, err)
	}
}
