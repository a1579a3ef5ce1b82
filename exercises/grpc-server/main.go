// Command grpc-server is your tool server for gRPC: the service
// tools.v1.ToolServer of tools.proto. README.md says what it must do;
// check your work with
//
//	wirelab grade grpc-server
//
// README.ru.md — то же, что README.md, по-русски.
//
// tools.pb.go and tools_grpc.pb.go are generated from tools.proto: the
// messages (ListToolsRequest, ExecuteToolRequest, ...) and the service's
// plumbing. Read them, but write your code here.
package main

import (
	"context"
	"flag"
	"log"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// The tokens this server knows. A client sends one in the metadata of
// every call, as "authorization: Bearer <token>".
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
	releases map[string]int // deploys completed, by service (step 5)
}

// ListTools describes the tools.
//
// Step 1: answer with a ListToolsResponse holding toolDefs.
//
// Step 3: first check the caller's token with authenticate, and return
// its error as it is.
func (s *server) ListTools(ctx context.Context, req *ListToolsRequest) (*ListToolsResponse, error) {
	return nil, status.Error(codes.Unimplemented, "ListTools is not written yet: see step 1 in main.go")
}

// ExecuteTool runs one tool. req.GetToolName() names it, and
// req.GetArguments() holds its arguments: bytes, which hold JSON such as
// {"text":"read the wire"}. The result goes back the same way, as JSON
// in ExecuteToolResponse.Result.
//
// Step 2: run word_count. Decode the arguments with json.Unmarshal, and
// answer {"words":3,"chars":13}: words as strings.Fields splits them,
// characters as utf8.RuneCountInString counts them. Any other tool name
// still gets the UNIMPLEMENTED status below, for now.
//
// Step 3: check the token first, as in ListTools.
//
// Step 4: a call the caller must fix ends with a status, made with
// status.Error(codes.X, "what is wrong"): NOT_FOUND for a tool that does
// not exist, INVALID_ARGUMENT for arguments that are not what the tool
// takes. A plain error (errors.New, fmt.Errorf) reaches the client as
// UNKNOWN.
//
// Step 5: run deploy_service, whose arguments are {"service": string,
// "env": "staging" or "production"}. Production needs the ops token:
// answer PERMISSION_DENIED to the dev token. Then run deploySteps, one
// deployStep each, and count the deploy in s.releases (lock s.mu
// around it); the result is {"service":"api","env":"staging","release":1}.
//
// Step 6: the caller's deadline ends ctx. Wait for each step with
//
//	select {
//	case <-ctx.Done():
//		return nil, status.FromContextError(ctx.Err()).Err()
//	case <-time.After(deployStep):
//	}
//
// so that a deploy whose caller has gone stops at once, and is not
// counted.
func (s *server) ExecuteTool(ctx context.Context, req *ExecuteToolRequest) (*ExecuteToolResponse, error) {
	return nil, status.Error(codes.Unimplemented, "ExecuteTool is not written yet: see step 2 in main.go")
}

// authenticate returns the caller's token, or an error to return from
// the handler.
//
// Step 3: read the metadata with metadata.FromIncomingContext(ctx) (from
// google.golang.org/grpc/metadata) and take md.Get("authorization"). A
// missing value, one that does not start with "Bearer ", or a token that
// is neither devToken nor opsToken gets
// status.Error(codes.Unauthenticated, "..."). For now, everyone is let in.
func authenticate(ctx context.Context) (string, error) {
	return devToken, nil
}
