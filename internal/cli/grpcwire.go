package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// captureGRPC makes the call through package wire, which records the
// frames, and prints them on stderr with --wire. With --method it calls
// any method of any server with reflection, like grpcurl; otherwise it
// calls the tool and reports like the plain client.
func captureGRPC(ctx context.Context, g *grpcFlags, tool string, args json.RawMessage, version string, env Env) (int, error) {
	clientOpts, err := g.options()
	if err != nil {
		return exitUsage, err
	}
	opts := &wire.Options{Creds: clientOpts.Creds}
	if g.token != "" {
		opts.Metadata = metadata.Pairs("authorization", "Bearer "+g.token)
	}
	method, request := g.method, []byte(g.data)
	if method == "" {
		// Our own contract is compiled in: no reflection round trip, so
		// the connection holds only the call.
		opts.Files = new(protoregistry.Files)
		if err := opts.Files.RegisterFile(toolsv1.File_tools_v1_tools_proto); err != nil {
			return exitProtocol, err
		}
		method = "tools.v1.ToolServer/ExecuteTool"
		if g.stream {
			method = "tools.v1.ToolServer/ExecuteToolStream"
		}
		request, err = protojson.Marshal(&toolsv1.ExecuteToolRequest{ToolName: tool, Version: version, Arguments: args})
		if err != nil {
			return exitProtocol, err
		}
	}
	ex, err := wire.Capture(ctx, g.addr, method, request, opts)
	if err != nil {
		return exitProtocol, err
	}
	if g.wire {
		if err := ex.Format(env.Stderr); err != nil {
			return exitProtocol, err
		}
	}
	if g.method != "" {
		for _, m := range ex.Responses {
			fmt.Fprintf(env.Stdout, "%s\n", m.JSON)
		}
	}
	if ex.Code != codes.OK {
		return reportGRPC(nil, status.Error(ex.Code, ex.StatusMessage), env)
	}
	if g.method != "" {
		return exitOK, nil
	}
	resp, err := lastResult(ex, g.stream)
	if err != nil {
		return exitProtocol, err
	}
	if e := resp.GetError(); e != nil {
		return reportGRPC(nil, &grpctool.ToolError{Tool: tool, Code: e.GetCode(), Message: e.GetMessage()}, env)
	}
	return reportGRPC(resp.GetResult(), nil, env)
}

// lastResult decodes the tool's answer from the last message the server
// sent: an ExecuteToolResponse, or for the stream an event holding one.
func lastResult(ex *wire.Exchange, stream bool) (*toolsv1.ExecuteToolResponse, error) {
	if len(ex.Responses) == 0 {
		return nil, fmt.Errorf("%s ended OK without a response message", ex.Method)
	}
	payload := ex.Responses[len(ex.Responses)-1].Payload
	if !stream {
		resp := new(toolsv1.ExecuteToolResponse)
		return resp, proto.Unmarshal(payload, resp)
	}
	ev := new(toolsv1.ExecuteToolEvent)
	if err := proto.Unmarshal(payload, ev); err != nil {
		return nil, err
	}
	if ev.GetResult() == nil {
		return nil, fmt.Errorf("%s ended without a result event", ex.Method)
	}
	return ev.GetResult(), nil
}
