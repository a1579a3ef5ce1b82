package main

import (
	"context"
	"encoding/json"
	"net"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// dial serves a fresh server on an in-memory listener and returns a
// client connected to it. Both stop when the test ends.
func dial(t *testing.T) ToolServerClient {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	s := grpc.NewServer()
	RegisterToolServerServer(s, &server{releases: map[string]int{}})
	// This goroutine ends when Stop, at the test's end, closes lis.
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return NewToolServerClient(conn)
}

// TestCalls makes one call per case over gRPC and checks its status code
// and, for a call that works, its result.
func TestCalls(t *testing.T) {
	client := dial(t)
	for _, c := range []struct {
		name       string
		auth       string // the "authorization" metadata; "" sends none
		tool, args string // "" tool: ListTools
		code       codes.Code
		result     string // the JSON result of ExecuteTool
	}{
		{"list", "Bearer dev-token", "", "", codes.OK, ""},
		{"word_count", "Bearer dev-token", "word_count", `{"text":"привет, мир"}`, codes.OK, `{"words":2,"chars":11}`},
		{"no metadata", "", "word_count", `{"text":"hi"}`, codes.Unauthenticated, ""},
		{"list without metadata", "", "", "", codes.Unauthenticated, ""},
		{"unknown token", "Bearer nope", "word_count", `{"text":"hi"}`, codes.Unauthenticated, ""},
		{"no Bearer", "dev-token", "word_count", `{"text":"hi"}`, codes.Unauthenticated, ""},
		{"unknown tool", "Bearer dev-token", "word_cont", `{"text":"hi"}`, codes.NotFound, ""},
		{"not JSON", "Bearer dev-token", "word_count", `{"text":`, codes.InvalidArgument, ""},
		{"text missing", "Bearer dev-token", "word_count", `{}`, codes.InvalidArgument, ""},
		{"bad env", "Bearer ops-token", "deploy_service", `{"service":"api","env":"prod"}`, codes.InvalidArgument, ""},
		{"production with dev", "Bearer dev-token", "deploy_service", `{"service":"api","env":"production"}`, codes.PermissionDenied, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			if c.auth != "" {
				ctx = metadata.AppendToOutgoingContext(ctx, "authorization", c.auth)
			}
			if c.tool == "" {
				resp, err := client.ListTools(ctx, &ListToolsRequest{})
				if status.Code(err) != c.code {
					t.Fatalf("status %v, want %v", err, c.code)
				}
				var names []string
				for _, d := range resp.GetTools() {
					names = append(names, d.GetName())
				}
				if c.code == codes.OK && !cmp.Equal(names, []string{"word_count", "deploy_service"}) {
					t.Errorf("tools %q", names)
				}
				return
			}
			resp, err := client.ExecuteTool(ctx, &ExecuteToolRequest{ToolName: c.tool, Arguments: []byte(c.args)})
			if status.Code(err) != c.code {
				t.Fatalf("status %v, want %v", err, c.code)
			}
			if c.code != codes.OK {
				return
			}
			if diff := cmp.Diff(decode(t, c.result), decode(t, string(resp.GetResult()))); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeployDeadline checks that a deploy stops when its context's
// deadline passes, and is then not counted. Time is synctest's: the
// deploy's waits pass at once, and no test depends on the clock.
func TestDeployDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{releases: map[string]int{}}
		args := []byte(`{"service":"billing","env":"staging"}`)

		ctx, cancel := context.WithTimeout(t.Context(), 700*time.Millisecond)
		defer cancel()
		if _, err := s.deploy(ctx, devToken, args); status.Code(err) != codes.DeadlineExceeded {
			t.Fatalf("deploy with a 700ms deadline: %v, want DEADLINE_EXCEEDED", err)
		}
		ctx, cancel = context.WithCancel(t.Context())
		cancel()
		if _, err := s.deploy(ctx, devToken, args); status.Code(err) != codes.Canceled {
			t.Fatalf("deploy with a canceled context: %v, want CANCELLED", err)
		}

		got, err := s.deploy(t.Context(), devToken, args)
		if err != nil {
			t.Fatal(err)
		}
		if want := (deployResult{Service: "billing", Env: "staging", Release: 1}); got != want {
			t.Errorf("deploy after the stopped ones: %+v, want %+v", got, want)
		}
	})
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
