package grpctool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// ClientOptions configures [NewClient]. A nil *ClientOptions means defaults.
type ClientOptions struct {
	// Token, if set, is sent as "authorization: Bearer TOKEN" metadata.
	Token string
	// Creds secure the connection, e.g. credentials.NewTLS(cfg). Nil:
	// plaintext, which a TLS server refuses in the handshake.
	Creds credentials.TransportCredentials
}

// Client calls a ToolServer. It is safe for concurrent use: gRPC
// multiplexes calls as streams of one HTTP/2 connection.
type Client struct {
	conn  *grpc.ClientConn
	tools toolsv1.ToolServerClient
	token string
}

// ToolError is a tool that ran and failed. The call itself succeeded, so
// this is not a gRPC status: other failures are, and status.FromError
// reads their code and details.
type ToolError struct {
	Tool    string
	Code    string
	Message string
}

func (e *ToolError) Error() string { return e.Message }

// NewClient prepares a client for the server at target ("host:port"). It
// does not connect yet: gRPC connects on the first call, so an unreachable
// server shows up as an UNAVAILABLE status from that call.
func NewClient(target string, opts *ClientOptions) (*Client, error) {
	if opts == nil {
		opts = &ClientOptions{}
	}
	creds := opts.Creds
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	return &Client{conn: conn, tools: toolsv1.NewToolServerClient(conn), token: opts.Token}, nil
}

// Close closes the connection. Calls in progress fail with CANCELED.
func (c *Client) Close() error { return c.conn.Close() }

// List returns the tools the server offers; version, if set, keeps only
// those that serve it.
func (c *Client) List(ctx context.Context, version string) ([]*toolsv1.ToolDefinition, error) {
	resp, err := c.tools.ListTools(c.outgoing(ctx), &toolsv1.ListToolsRequest{Version: version})
	if err != nil {
		return nil, err
	}
	return resp.GetTools(), nil
}

// Call runs a tool and returns its JSON result. The deadline of ctx
// travels to the server in the grpc-timeout header, so the server stops
// the tool when it passes. A tool failure is a [*ToolError]; anything
// else is a gRPC status error.
func (c *Client) Call(ctx context.Context, tool string, args json.RawMessage, version string) (json.RawMessage, error) {
	resp, err := c.tools.ExecuteTool(c.outgoing(ctx), &toolsv1.ExecuteToolRequest{
		ToolName: tool, Version: version, Arguments: args,
	})
	if err != nil {
		return nil, err
	}
	return result(tool, resp)
}

// Stream runs a tool like Call, over ExecuteToolStream: progress receives
// each report as the server sends it.
func (c *Client) Stream(ctx context.Context, tool string, args json.RawMessage, version string, progress func(*toolsv1.Progress)) (json.RawMessage, error) {
	// Cancelling on return tells the server to stop if we leave early.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.tools.ExecuteToolStream(c.outgoing(ctx), &toolsv1.ExecuteToolRequest{
		ToolName: tool, Version: version, Arguments: args,
	})
	if err != nil {
		return nil, err
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the stream ended without a result", tool)
		}
		if err != nil {
			return nil, err
		}
		if p := ev.GetProgress(); p != nil && progress != nil {
			progress(p)
		}
		if r := ev.GetResult(); r != nil {
			return result(tool, r)
		}
	}
}

func (c *Client) outgoing(ctx context.Context) context.Context {
	if c.token == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+c.token)
}

func result(tool string, resp *toolsv1.ExecuteToolResponse) (json.RawMessage, error) {
	if e := resp.GetError(); e != nil {
		return nil, &ToolError{Tool: tool, Code: e.GetCode(), Message: e.GetMessage()}
	}
	return json.RawMessage(resp.GetResult()), nil
}
