package grpctool_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/tools"
)

// start serves cat on a real loopback listener until the test ends, and
// returns its address.
func start(t testing.TB, cat *tools.Catalogue, opts *grpctool.ServerOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpctool.NewServer(cat, opts)
	done := make(chan struct{})
	// This goroutine ends when Serve returns, which Stop below causes.
	go func() { s.Serve(ln); close(done) }()
	t.Cleanup(func() { s.Stop(); <-done })
	return ln.Addr().String()
}

func client(t testing.TB, addr string, opts *grpctool.ClientOptions) *grpctool.Client {
	t.Helper()
	c, err := grpctool.NewClient(addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func tokens(t testing.TB, specs ...string) *tools.Tokens {
	t.Helper()
	ts, err := tools.ParseTokens(specs)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestStatuses calls one server with every kind of mistake, then checks it
// still answers: each failure is a status, never a broken server.
func TestStatuses(t *testing.T) {
	addr := start(t, tools.New(nil), &grpctool.ServerOptions{Tokens: tokens(t, "reader", "ops:deploy:production")})
	reader := client(t, addr, &grpctool.ClientOptions{Token: "reader"})
	for _, tt := range []struct {
		name    string
		token   string // "" uses reader
		tool    string
		args    string
		version string
		code    codes.Code
		msg     string // a part of the status message
	}{
		{"unknown tool", "", "nope", `{}`, "", codes.NotFound, `unknown tool "nope"`},
		{"missing field", "", "word_count", `{}`, "", codes.InvalidArgument, "text: is required"},
		{"wrong type", "", "search", `{"q":"wire","limit":"2"}`, "", codes.InvalidArgument, "limit"},
		{"malformed JSON", "", "word_count", `{"text":`, "", codes.InvalidArgument, "not valid JSON"},
		{"no tool name", "", "", `{}`, "", codes.InvalidArgument, "tool_name is required"},
		{"version not served", "", "word_count", `{"text":"x"}`, "9.0", codes.FailedPrecondition, "served versions: 1.1, 1.0"},
		{"no token", "-", "word_count", `{"text":"x"}`, "", codes.Unauthenticated, `send "authorization: Bearer <token>"`},
		{"unknown token", "guess", "word_count", `{"text":"x"}`, "", codes.Unauthenticated, "invalid token"},
		{"lacking scope", "", "deploy_service", `{"service":"api","env":"production"}`, "", codes.PermissionDenied, "deploy:production"},
		{"old version served", "", "word_count", `{"text":"x"}`, "1.0", codes.OK, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := reader
			switch tt.token {
			case "":
			case "-":
				c = client(t, addr, nil)
			default:
				c = client(t, addr, &grpctool.ClientOptions{Token: tt.token})
			}
			_, err := c.Call(context.Background(), tt.tool, json.RawMessage(tt.args), tt.version)
			st := status.Convert(err)
			if st.Code() != tt.code || !strings.Contains(st.Message(), tt.msg) {
				t.Errorf("got %v %q, want %v containing %q", st.Code(), st.Message(), tt.code, tt.msg)
			}
		})
	}
	got, err := reader.Call(context.Background(), "word_count", json.RawMessage(`{"text":"read the wire"}`), "")
	if err != nil || string(got) != `{"words":3,"chars":13}` {
		t.Errorf("after the errors: %s, %v", got, err)
	}
}

// TestStatusDetails checks what a program reads instead of the message.
func TestStatusDetails(t *testing.T) {
	c := client(t, start(t, tools.New(nil), nil), nil)
	_, err := c.Call(context.Background(), "search", json.RawMessage(`{"q":"wire","limit":"2"}`), "")
	var fields []string
	for _, d := range status.Convert(err).Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				fields = append(fields, v.GetField())
			}
		}
	}
	if diff := cmp.Diff([]string{"arguments.limit"}, fields); diff != "" {
		t.Errorf("BadRequest field violations (-want +got):\n%s", diff)
	}

	_, err = c.Call(context.Background(), "deploy_service", json.RawMessage(`{"service":"api","env":"staging"}`), "1.0")
	var info *errdetails.ErrorInfo
	for _, d := range status.Convert(err).Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			info = ei
		}
	}
	if info.GetReason() != "INCOMPATIBLE_VERSION" || info.GetMetadata()["served_versions"] != "2.0" {
		t.Errorf("ErrorInfo = %v, want INCOMPATIBLE_VERSION serving 2.0", info)
	}
}

func TestToolFailureIsAResponse(t *testing.T) {
	c := client(t, start(t, tools.New(nil), nil), nil)
	_, err := c.Call(context.Background(), "weather", json.RawMessage(`{"city":"Oslo"}`), "")
	var te *grpctool.ToolError
	if !errors.As(err, &te) || te.Code != "tool_failed" {
		t.Fatalf("got %v, want a *ToolError with code tool_failed", err)
	}
	if _, isStatus := status.FromError(err); isStatus {
		t.Errorf("a tool failure must not be a gRPC status: %v", err)
	}
}

func TestPrivilegedDeploy(t *testing.T) {
	addr := start(t, tools.New(&tools.Options{DeployStep: time.Millisecond}), &grpctool.ServerOptions{Tokens: tokens(t, "ops:deploy:production")})
	c := client(t, addr, &grpctool.ClientOptions{Token: "ops"})
	if _, err := c.Call(context.Background(), "deploy_service", json.RawMessage(`{"service":"api","env":"production"}`), ""); err != nil {
		t.Fatal(err)
	}
}

func TestStream(t *testing.T) {
	c := client(t, start(t, tools.New(&tools.Options{DeployStep: time.Millisecond}), nil), nil)
	var steps []int32
	got, err := c.Stream(context.Background(), "deploy_service", json.RawMessage(`{"service":"api","env":"staging"}`), "",
		func(p *toolsv1.Progress) { steps = append(steps, p.GetDone()) })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int32{1, 2, 3, 4}, steps); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(got), `"service":"api"`) {
		t.Errorf("result %s", got)
	}
	// A failure in the stream is the same status as in the unary call.
	_, err = c.Stream(context.Background(), "nope", nil, "", nil)
	if status.Code(err) != codes.NotFound {
		t.Errorf("unknown tool over the stream: %v", err)
	}
}

func TestListTools(t *testing.T) {
	c := client(t, start(t, tools.New(nil), nil), nil)
	for _, tt := range []struct {
		version string
		want    []string
	}{
		{"", []string{"word_count", "search", "deploy_service", "weather"}},
		{"1.0", []string{"word_count", "search", "weather"}},
		{"2.0", []string{"deploy_service"}},
	} {
		defs, err := c.List(context.Background(), tt.version)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, d := range defs {
			names = append(names, d.GetName())
			if !json.Valid([]byte(d.GetSchema())) {
				t.Errorf("%s: schema is not JSON: %q", d.GetName(), d.GetSchema())
			}
		}
		if diff := cmp.Diff(tt.want, names); diff != "" {
			t.Errorf("version %q (-want +got):\n%s", tt.version, diff)
		}
	}
}

// stop is how the blocking tool ended: why, and whether the server had
// given its context the caller's deadline.
type stop struct {
	err         error
	hadDeadline bool
}

// blocking is a catalogue with one tool that runs until its context ends
// and reports how on stopped: proof that the server stopped the tool.
func blocking(t *testing.T) (*tools.Catalogue, <-chan stop) {
	stopped := make(chan stop, 1)
	cat, err := tools.NewFrom(&tools.Tool{
		Definition: tools.Definition{Name: "block", Version: "1.0", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Run: func(ctx context.Context, _ json.RawMessage, progress func(tools.Progress)) (any, error) {
			progress(tools.Progress{Done: 0, Total: 1, Message: "blocking"})
			<-ctx.Done()
			_, hadDeadline := ctx.Deadline()
			stopped <- stop{ctx.Err(), hadDeadline}
			return nil, ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return cat, stopped
}

func TestDeadlineStopsTheTool(t *testing.T) {
	cat, stopped := blocking(t)
	c := client(t, start(t, cat, nil), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.Call(ctx, "block", nil, "")
	if status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("got %v, want DEADLINE_EXCEEDED", err)
	}
	// The client resets the stream when its deadline passes, and the
	// server's own timer (from grpc-timeout) fires at about the same
	// moment; either may stop the tool first. What matters is that the
	// deadline reached the server and the tool stopped.
	if s := <-stopped; s.err == nil || !s.hadDeadline {
		t.Errorf("the tool stopped with %v, deadline propagated: %v", s.err, s.hadDeadline)
	}
}

func TestCancelStopsTheTool(t *testing.T) {
	cat, stopped := blocking(t)
	c := client(t, start(t, cat, nil), nil)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := c.Stream(ctx, "block", nil, "", func(*toolsv1.Progress) { cancel() })
	if status.Code(err) != codes.Canceled {
		t.Errorf("got %v, want CANCELED", err)
	}
	if s := <-stopped; !errors.Is(s.err, context.Canceled) || s.hadDeadline {
		t.Errorf("the tool stopped with %v (deadline %v), want cancellation without a deadline", s.err, s.hadDeadline)
	}
}

func TestOversizedMessage(t *testing.T) {
	c := client(t, start(t, tools.New(nil), &grpctool.ServerOptions{MaxMessageSize: 1024}), nil)
	big, _ := json.Marshal(map[string]string{"text": strings.Repeat("word ", 300)})
	_, err := c.Call(context.Background(), "word_count", big, "")
	if st := status.Convert(err); st.Code() != codes.ResourceExhausted || !strings.Contains(st.Message(), "1024") {
		t.Errorf("got %v, want RESOURCE_EXHAUSTED naming the limit", err)
	}
	if _, err := c.Call(context.Background(), "word_count", json.RawMessage(`{"text":"small"}`), ""); err != nil {
		t.Errorf("a small call after a big one: %v", err)
	}
}

func TestUnknownMethod(t *testing.T) {
	conn, err := grpc.NewClient(start(t, tools.New(nil), nil), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, method := range []string{"/tools.v1.ToolServer/Nope", "/nope.v1.Nothing/Call"} {
		err := conn.Invoke(context.Background(), method, &toolsv1.ListToolsRequest{}, &toolsv1.ListToolsResponse{})
		if status.Code(err) != codes.Unimplemented {
			t.Errorf("%s: got %v, want UNIMPLEMENTED", method, err)
		}
	}
}

func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nobody listens here now
	_, err = client(t, addr, nil).Call(context.Background(), "word_count", nil, "")
	if status.Code(err) != codes.Unavailable {
		t.Errorf("got %v, want UNAVAILABLE", err)
	}
}

// TestHealthAndReflectionAreOpen: with tokens required for tools, a load
// balancer and grpcurl still see the server without one.
func TestHealthAndReflectionAreOpen(t *testing.T) {
	addr := start(t, tools.New(nil), &grpctool.ServerOptions{Tokens: tokens(t, "s3cret")})
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, svc := range []string{"", "tools.v1.ToolServer"} {
		resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{Service: svc})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("health of %q: %v, %v", svc, resp, err)
		}
	}
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer stream.CloseSend()
	err = stream.Send(&reflectionpb.ServerReflectionRequest{
		MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{},
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	var services []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		services = append(services, s.GetName())
	}
	want := []string{"grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection", "tools.v1.ToolServer"}
	if diff := cmp.Diff(want, services); diff != "" {
		t.Errorf("services (-want +got):\n%s", diff)
	}
}
