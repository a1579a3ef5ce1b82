// Command grpc-server serves two tools over gRPC, as the service
// tools.v1.ToolServer of tools.proto: ListTools describes them and
// ExecuteTool runs one. tools.pb.go and tools_grpc.pb.go are generated
// from tools.proto; this file is what a server adds to them.
//
//	grpc-server --addr 127.0.0.1:50051
//
// Every call carries a bearer token in its metadata, and every failure is
// a status with the code gRPC defines for it. deploy_service is slow on
// purpose: it stops as soon as the caller's deadline passes.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"net"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// The tokens this server knows, sent as "authorization: Bearer <token>".
// A real server reads its secrets from its configuration, and compares
// them with crypto/subtle, whose time does not depend on the guess.
const (
	devToken = "dev-token" // may list and call the tools, and deploy to staging
	opsToken = "ops-token" // may also deploy to production
)

// A deploy pretends to do these steps, deployStep each: two seconds in
// all, long enough for a client's deadline to cut it short.
var deploySteps = []string{"build image", "push image", "roll out", "health check"}

const deployStep = 500 * time.Millisecond

// toolDefs are what ListTools answers. A schema is JSON Schema, as text.
var toolDefs = []*ToolDefinition{
	{Name: "word_count", Description: "Count the words and the characters of a text.",
		Schema: `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`},
	{Name: "deploy_service", Description: "Deploy a service to staging or production (simulated: it takes two seconds). Production needs the ops token.",
		Schema: `{"type":"object","properties":{"service":{"type":"string"},"env":{"enum":["staging","production"]}},"required":["service","env"]}`},
}

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "address to listen on")
	flag.Parse()
	// Logs go to stderr, and say which program wrote them.
	log.SetFlags(0)
	log.SetPrefix("grpc-server: ")

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	s := grpc.NewServer()
	RegisterToolServerServer(s, &server{releases: map[string]int{}})
	// Reflection lets grpcurl and other clients ask for the contract.
	reflection.Register(s)
	log.Printf("listening on %s", ln.Addr())
	log.Fatal(s.Serve(ln))
}

// server implements tools.v1.ToolServer. gRPC runs each call in a
// goroutine of its own, so calls run at the same time.
type server struct {
	// Embedding makes the methods this server lacks (ExecuteToolStream)
	// answer UNIMPLEMENTED.
	UnimplementedToolServerServer

	mu       sync.Mutex     // guards releases
	releases map[string]int // deploys completed, by service
}

func (s *server) ListTools(ctx context.Context, req *ListToolsRequest) (*ListToolsResponse, error) {
	if _, err := authenticate(ctx); err != nil {
		return nil, err
	}
	return &ListToolsResponse{Tools: toolDefs}, nil
}

func (s *server) ExecuteTool(ctx context.Context, req *ExecuteToolRequest) (*ExecuteToolResponse, error) {
	token, err := authenticate(ctx)
	if err != nil {
		return nil, err
	}
	var result any
	switch req.GetToolName() {
	case "word_count":
		result, err = wordCount(req.GetArguments())
	case "deploy_service":
		result, err = s.deploy(ctx, token, req.GetArguments())
	default:
		return nil, status.Errorf(codes.NotFound, "unknown tool %q; this server has word_count and deploy_service", req.GetToolName())
	}
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(result)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encoding the result: %v", err)
	}
	return &ExecuteToolResponse{Result: b}, nil
}

// authenticate returns the caller's token, or an UNAUTHENTICATED status.
// Metadata are HTTP/2 headers, so their keys are lowercase; md.Get
// lowercases the key it is given, md["Authorization"] would find nothing.
func authenticate(ctx context.Context) (string, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	values := md.Get("authorization")
	if len(values) == 0 {
		return "", status.Error(codes.Unauthenticated, `no "authorization" metadata; send "authorization: Bearer <token>"`)
	}
	// CutPrefix, unlike TrimPrefix, says whether the prefix was there.
	token, ok := strings.CutPrefix(values[0], "Bearer ")
	if !ok {
		return "", status.Error(codes.Unauthenticated, `the "authorization" metadata must be "Bearer <token>"`)
	}
	if token != devToken && token != opsToken {
		return "", status.Error(codes.Unauthenticated, "unknown token")
	}
	return token, nil
}

// wordCountResult is word_count's result.
type wordCountResult struct {
	Words int `json:"words"`
	Chars int `json:"chars"`
}

func wordCount(args []byte) (wordCountResult, error) {
	// A pointer tells a missing "text" (nil) from an empty one.
	var in struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(args, &in); err != nil || in.Text == nil {
		return wordCountResult{}, status.Error(codes.InvalidArgument, `word_count needs the arguments {"text": string}`)
	}
	return wordCountResult{Words: len(strings.Fields(*in.Text)), Chars: utf8.RuneCountInString(*in.Text)}, nil
}

// deployResult is deploy_service's result. Release counts the deploys of
// the service this server has completed, this one included.
type deployResult struct {
	Service string `json:"service"`
	Env     string `json:"env"`
	Release int    `json:"release"`
}

// deploy checks the call, then runs the steps one by one. When ctx ends
// (the caller's deadline passed, or the caller went away) it stops at
// once, and the deploy does not count: its caller was told it failed.
func (s *server) deploy(ctx context.Context, token string, args []byte) (deployResult, error) {
	var in struct {
		Service string `json:"service"`
		Env     string `json:"env"`
	}
	if err := json.Unmarshal(args, &in); err != nil || in.Service == "" || (in.Env != "staging" && in.Env != "production") {
		return deployResult{}, status.Error(codes.InvalidArgument, `deploy_service needs the arguments {"service": string, "env": "staging" or "production"}`)
	}
	// The token is valid (authenticated), but may not be allowed this.
	if in.Env == "production" && token != opsToken {
		return deployResult{}, status.Error(codes.PermissionDenied, "deploying to production needs the ops token")
	}
	for _, step := range deploySteps {
		select {
		case <-ctx.Done():
			log.Printf("deploy of %s stopped during %q: %v", in.Service, step, ctx.Err())
			// DEADLINE_EXCEEDED or CANCELLED, whichever ended ctx.
			return deployResult{}, status.FromContextError(ctx.Err()).Err()
		case <-time.After(deployStep):
		}
	}
	s.mu.Lock()
	s.releases[in.Service]++
	release := s.releases[in.Service]
	s.mu.Unlock()
	log.Printf("deployed %s to %s: release %d", in.Service, in.Env, release)
	return deployResult{Service: in.Service, Env: in.Env, Release: release}, nil
}
