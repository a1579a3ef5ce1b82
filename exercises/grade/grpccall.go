package grade

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// How the grpc-server grader calls the program and describes what
// happened: the calls, their outcomes, and the failures they make.

// grpcCall is one call the grader makes.
type grpcCall struct {
	method   string        // "ListTools" or "ExecuteTool"
	auth     string        // the "authorization" metadata; "" sends none
	tool     string        // ExecuteTool's tool_name
	args     string        // ExecuteTool's arguments, as sent
	deadline time.Duration // 0: the stage's limit
}

func grpcList(auth string) grpcCall { return grpcCall{method: "ListTools", auth: auth} }

func grpcExecute(auth, tool, args string) grpcCall {
	return grpcCall{method: "ExecuteTool", auth: auth, tool: tool, args: args}
}

// String shows the call on a report's Sent line: the method, the request
// as JSON with tools.proto's field names, the metadata and the deadline.
// The arguments are bytes on the wire, shown as the JSON they hold.
func (c grpcCall) String() string {
	s := c.method + " {}"
	if c.method == "ExecuteTool" {
		s = fmt.Sprintf(`%s {"tool_name":%s,"arguments":%s}`, c.method, jsonString(c.tool), bytesJSON([]byte(c.args)))
	}
	if c.auth == "" {
		s += ", no metadata"
	} else {
		s += ", metadata authorization: " + c.auth
	}
	if c.deadline > 0 {
		s += fmt.Sprintf(", deadline %v", c.deadline)
	}
	return shorten(s)
}

// grpcOutcome is how a call ended: a status, and the response if it is OK.
type grpcOutcome struct {
	code codes.Code
	msg  string
	list *toolsv1.ListToolsResponse
	resp *toolsv1.ExecuteToolResponse
}

// String shows the outcome on a report's Got line: the status code and
// message, or OK and the response.
func (o grpcOutcome) String() string {
	switch {
	case o.code != codes.OK:
		return codeName(o.code) + ": " + o.msg
	case o.list != nil:
		return "OK: tools " + strings.Join(o.names(), ", ")
	}
	return "OK " + o.respJSON()
}

// codeName is the name gRPC's specification gives a code: NOT_FOUND.
func codeName(c codes.Code) string {
	if name, ok := code.Code_name[int32(c)]; ok {
		return name
	}
	return fmt.Sprintf("code %d", c)
}

func (o grpcOutcome) names() []string {
	var names []string
	for _, d := range o.list.GetTools() {
		names = append(names, d.GetName())
	}
	return names
}

// respJSON is ExecuteTool's response as JSON, its result shown as the
// JSON it holds.
func (o grpcOutcome) respJSON() string {
	var parts []string
	if r := o.resp.GetResult(); len(r) > 0 {
		parts = append(parts, `"result":`+bytesJSON(r))
	}
	if e := o.resp.GetError(); e != nil {
		parts = append(parts, fmt.Sprintf(`"error":{"code":%s,"message":%s}`, jsonString(e.GetCode()), jsonString(e.GetMessage())))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// release is the "release" of a deploy_service result, or "".
func (o grpcOutcome) release() string {
	return string(Field([]byte(o.respJSON()), "result", "release"))
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// bytesJSON shows bytes that should hold JSON: compacted if they do, as
// a JSON string if they do not.
func bytesJSON(b []byte) string {
	if json.Valid(b) {
		return string(compact(b))
	}
	return jsonString(string(b))
}

// grpcConn is a stage's connection to the program.
type grpcConn struct {
	t      *T
	p      *Process
	addr   string
	client toolsv1.ToolServerClient
}

// grpcStage makes a stage of a check: it starts the program, connects,
// and runs the check.
func grpcStage(check func(c *grpcConn) error) func(t *T) error {
	return func(t *T) error {
		p, addr, err := t.StartServer()
		if err != nil {
			return err
		}
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return fmt.Errorf("preparing a connection to %s: %w", addr, err)
		}
		defer conn.Close()
		return check(&grpcConn{t: t, p: p, addr: addr, client: toolsv1.NewToolServerClient(conn)})
	}
}

// do makes a call. It fails only when the program did not answer: the
// stage ran out of time, or the program exited. Its port, which changes
// from run to run, is replaced by ADDR in what it reports.
func (c *grpcConn) do(call grpcCall) (grpcOutcome, error) {
	ctx := c.t.Context()
	if call.auth != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", call.auth)
	}
	if call.deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, call.deadline)
		defer cancel()
	}
	var o grpcOutcome
	var err error
	if call.method == "ListTools" {
		o.list, err = c.client.ListTools(ctx, &toolsv1.ListToolsRequest{})
	} else {
		o.resp, err = c.client.ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: call.tool, Arguments: []byte(call.args)})
	}
	if err := c.t.canceled(); err != nil {
		return o, err
	}
	st := status.Convert(err)
	var f *Failure
	switch {
	case c.t.Context().Err() != nil:
		f = Failf("no answer within %v", c.t.Limit())
	case st.Code() == codes.Unavailable:
		// The connection broke: most often the program died, as a panic
		// in any handler kills the whole server.
		if c.p.waitExit(exitGrace); c.p.exited() {
			f = Failf("the program exited (%s) before answering", c.p.exitStatus())
		}
	}
	if f != nil {
		f.Sent, f.Stderr = call.String(), strings.ReplaceAll(c.p.Stderr(), c.addr, "ADDR")
		// A long trace can push the panic's message out of the lines
		// shown, so the summary quotes it.
		if _, after, ok := strings.Cut("\n"+c.p.errs.String(), "\npanic: "); ok {
			msg, _, _ := strings.Cut(after, "\n")
			f.addf(": panic: %s", msg)
			f.Hint = hintGRPCPanic
		}
		return o, f
	}
	o.code, o.msg = st.Code(), strings.ReplaceAll(st.Message(), c.addr, "ADDR")
	return o, nil
}

// wrongCode is the failure of a call that should have ended with want.
func wrongCode(what string, call grpcCall, want codes.Code, o grpcOutcome) *Failure {
	f := Failf("%s: the call ended with %s, not %s", what, codeName(o.code), codeName(want))
	if o.code == codes.OK {
		f.restatef("%s: the call succeeded; it should have ended with %s", what, codeName(want))
	}
	f.Sent, f.Expected, f.Got = call.String(), codeName(want), shorten(o.String())
	switch {
	case o.code == codes.Unknown:
		f.Hint = hintGRPCPlainError
	case want == codes.PermissionDenied && o.code == codes.Unauthenticated,
		want == codes.Unauthenticated && o.code == codes.PermissionDenied:
		f.Hint = hintGRPCAuthCodes
	case o.code == codes.OK && o.resp.GetError() != nil:
		f.Hint = hintGRPCToolError
	case want == codes.NotFound && o.code == codes.InvalidArgument,
		want == codes.InvalidArgument && o.code == codes.NotFound:
		f.Hint = hintGRPCCodes
	}
	return f
}

// callFailed is the failure of a call that should have worked, and come
// back as want.
func (c *grpcConn) callFailed(what string, call grpcCall, want string, o grpcOutcome) *Failure {
	f := Failf("%s: the call failed with %s", what, codeName(o.code))
	f.Sent, f.Expected, f.Got = call.String(), want, shorten(o.String())
	switch o.code {
	case codes.Unauthenticated:
		// The program looks for the token under another key, or wants
		// it without its scheme, which a second call tells apart.
		f.Hint = hintGRPCMetadataKey
		if o, err := c.do(grpcList("dev-token")); err == nil && o.code == codes.OK {
			f.Hint = hintGRPCBearer
		}
	case codes.Unknown:
		f.Hint = hintGRPCPlainError
	}
	return f
}

// expectCode makes a call that must end with want, and a message.
// hintIfOK is the hint for a call that succeeded instead.
func (c *grpcConn) expectCode(what string, call grpcCall, want codes.Code, hintIfOK string) error {
	o, err := c.do(call)
	switch {
	case err != nil:
		return About(err, what, "")
	case o.code == want && o.msg == "":
		f := Failf("%s: the %s status has no message; say what is wrong, for the person who reads it", what, codeName(want))
		f.Sent, f.Got = call.String(), o.String()
		return f
	case o.code == want:
		return nil
	}
	f := wrongCode(what, call, want, o)
	if f.Hint == "" && o.code == codes.OK {
		f.Hint = hintIfOK
	}
	return f
}

// expectResult makes an ExecuteTool call that must succeed with the JSON
// result want, which may use CompareJSON's placeholders.
func (c *grpcConn) expectResult(what string, call grpcCall, want string) error {
	o, err := c.do(call)
	if err != nil {
		return About(err, what, "")
	}
	return c.checkResult(what, call, o, want)
}

func (c *grpcConn) checkResult(what string, call grpcCall, o grpcOutcome, want string) error {
	wantResp := `{"result":` + want + `}`
	if o.code != codes.OK {
		return c.callFailed(what, call, "OK "+wantResp, o)
	}
	f := CompareJSON([]byte(o.respJSON()), wantResp, Exact)
	if f == nil {
		return nil
	}
	if f.Hint != HintJSONTags {
		f.Hint = "" // the others are about JSON-RPC's messages
	}
	f.restatef("%s: the response is not the one expected", what)
	f.Sent, f.Expected, f.Got = call.String(), "OK "+f.Expected, "OK "+f.Got
	if f.Offset != nil {
		*f.Offset += len("OK ")
	}
	return f
}
