package grade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// GRPCServer grades the grpc-server exercise: a server of the service
// tools.v1.ToolServer with the tools word_count and deploy_service,
// bearer tokens in the metadata, a status code for every failure, and a
// slow deploy that stops when the caller's deadline passes.
func GRPCServer() *Grader {
	return &Grader{
		Exercise: "grpc-server",
		Stages: []Stage{
			{Name: "lists its tools", Run: grpcStage(grpcListsTools)},
			{Name: "answers a call", Run: grpcStage(grpcAnswersCall)},
			{Name: "refuses calls without a valid token", Run: grpcStage(grpcRefusesTokens)},
			{Name: "reports bad calls with the right codes", Run: grpcStage(grpcBadCalls)},
			{Name: "deploys with the right scope", Run: grpcStage(grpcScopes)},
			{Name: "stops work when the deadline passes", Run: grpcStage(grpcDeadline)},
		},
	}
}

// The exercise's contract, as its README states it.
const (
	grpcDev = "Bearer dev-token" // may list, call, and deploy to staging
	grpcOps = "Bearer ops-token" // may also deploy to production
	// grpcShortDeadline stops a deploy (four steps of 500ms) during its
	// second step.
	grpcShortDeadline = 700 * time.Millisecond
	// grpcSettle is how long the grader waits after that deadline before
	// deploying the same service again. A deploy that went on regardless
	// completes 2s after it started; the next one starts 1.3s after it
	// and lasts 2s, so it completes second, and sees the first counted.
	grpcSettle = 600 * time.Millisecond
)

// Hints for the classic mistakes of a gRPC server.
const (
	hintGRPCPanic       = `A panic in any handler stops the whole server, every call with it: gRPC does not recover it. The panic's message says what went wrong (a nil map, a nil pointer?), and the first lines of its trace on stderr say where.`
	hintGRPCPlainError  = `A plain Go error (errors.New, fmt.Errorf) reaches the client as UNKNOWN, whatever it says. Return a status with the code that fits: status.Error(codes.NotFound, "unknown tool ...") or status.Errorf(codes.InvalidArgument, ...).`
	hintGRPCMetadataKey = `The token travels in the metadata key "authorization", lowercase: metadata keys are HTTP/2 header names, which are always lowercase, so md["Authorization"] finds nothing. Use md.Get("authorization") on metadata.FromIncomingContext(ctx); its value is "Bearer dev-token".`
	hintGRPCBearer      = `The value of "authorization" is "Bearer dev-token": the scheme, a space, then the token, as in an HTTP Authorization header. This server refuses it, and would let in a bare "dev-token": cut the scheme off with strings.CutPrefix before comparing the token.`
	hintGRPCTrimPrefix  = `A bare "dev-token", without the Bearer scheme, was let in: strings.TrimPrefix returns the value unchanged when the prefix is missing. Use strings.CutPrefix, and answer UNAUTHENTICATED when its ok is false.`
	hintGRPCNoToken     = `Check the token before running anything: read the "authorization" metadata (metadata.FromIncomingContext, then md.Get), and answer status.Error(codes.Unauthenticated, ...) when it is missing, lacks the Bearer scheme, or holds a token you do not know.`
	hintGRPCEveryMethod = `ListTools needs the token as ExecuteTool does: check it at the start of every method (or once for all of them, in an interceptor: grpc.UnaryInterceptor).`
	hintGRPCAuthCodes   = `UNAUTHENTICATED says "I do not know who you are": no token, or one the server does not know. PERMISSION_DENIED says "I know who you are, and you may not do this": a valid token without the right for this call.`
	hintGRPCScope       = `Deploying to production needs the ops token; the dev token may deploy to staging only. Look at which token called before the deploy starts, and answer PERMISSION_DENIED.`
	hintGRPCToolError   = `ExecuteToolResponse.error is for a tool that ran and failed, in a call that itself worked. A call the caller must fix ends with a status instead: NOT_FOUND for an unknown tool, INVALID_ARGUMENT for arguments the tool cannot take.`
	hintGRPCMustFail    = `This call is wrong, so it ends with a status, not a response: status.Error(codes.NotFound, ...) for a tool this server does not have, status.Error(codes.InvalidArgument, ...) for arguments the tool cannot take. Check them before the tool runs.`
	hintGRPCCodes       = `NOT_FOUND: no tool has that name. INVALID_ARGUMENT: the tool exists, but its arguments are wrong (not JSON, a field missing or of the wrong type, a value not allowed).`
	hintGRPCRelease     = `"release" counts the deploys of the service that this server has completed, this one included. Keep the counts in a map[string]int on the server, guarded by a sync.Mutex: gRPC runs calls at the same time.`
	hintGRPCDeployTime  = `deploy_service is slow on purpose: four steps of deployStep (500ms), two seconds in all, so that a short deadline can stop it. Wait for each step with select { case <-ctx.Done(): ... case <-time.After(deployStep): }.`
	hintGRPCDeadline    = `When the caller's deadline passes, gRPC cancels the handler's ctx, but it cannot stop your code: a loop of time.Sleep runs to its end. Wait for each step with select { case <-ctx.Done(): ... case <-time.After(deployStep): }, and when ctx is done return status.FromContextError(ctx.Err()).Err() without counting the deploy.`
)

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
			f.Summary += ": panic: " + msg
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
		f.Summary = fmt.Sprintf("%s: the call succeeded; it should have ended with %s", what, codeName(want))
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
	f.Summary = what + ": the response is not the one expected"
	f.Sent, f.Expected, f.Got = call.String(), "OK "+f.Expected, "OK "+f.Got
	if f.Offset != nil {
		*f.Offset += len("OK ")
	}
	return f
}

func grpcListsTools(c *grpcConn) error {
	const what, want = "ListTools with the dev token", "OK: tools word_count, deploy_service"
	call := grpcList(grpcDev)
	o, err := c.do(call)
	if err != nil {
		return About(err, what, "")
	}
	if o.code != codes.OK {
		return c.callFailed(what, call, want, o)
	}
	if !slices.Equal(slices.Sorted(slices.Values(o.names())), []string{"deploy_service", "word_count"}) {
		f := Failf("%s: the tools are not the ones expected", what)
		f.Sent, f.Expected, f.Got = call.String(), want, shorten(o.String())
		return f
	}
	for _, d := range o.list.GetTools() {
		if s := []byte(d.GetSchema()); d.GetDescription() == "" || !json.Valid(s) || compact(s)[0] != '{' {
			f := Failf("%s: the tool %s needs a description, and a schema: the JSON Schema of its arguments, a JSON object as text", what, d.GetName())
			f.Sent = call.String()
			f.Got = shorten(fmt.Sprintf(`{"name":%s,"description":%s,"schema":%s}`, jsonString(d.GetName()), jsonString(d.GetDescription()), jsonString(d.GetSchema())))
			return f
		}
	}
	return nil
}

func grpcAnswersCall(c *grpcConn) error {
	for _, w := range []struct{ what, text, result string }{
		{"word_count with the dev token", "read the wire", `{"words":3,"chars":13}`},
		{"word_count on Cyrillic text", "привет, мир", `{"words":2,"chars":11}`},
	} {
		err := c.expectResult(w.what, grpcExecute(grpcDev, "word_count", `{"text":`+jsonString(w.text)+`}`), w.result)
		var f *Failure
		if errors.As(err, &f) && strings.Contains(f.Got, `"chars":20`) {
			return WithHint(err, hintRunes)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func grpcRefusesTokens(c *grpcConn) error {
	const args = `{"text":"who is there"}`
	for _, r := range []struct {
		what     string
		call     grpcCall
		hintIfOK string
	}{
		{"ExecuteTool without metadata", grpcExecute("", "word_count", args), hintGRPCNoToken},
		{"ExecuteTool with a token the server does not know", grpcExecute("Bearer not-a-token", "word_count", args), hintGRPCNoToken},
		{"ExecuteTool with the dev token but not the Bearer scheme", grpcExecute("dev-token", "word_count", args), hintGRPCTrimPrefix},
		{"ListTools without metadata", grpcList(""), hintGRPCEveryMethod},
	} {
		if err := c.expectCode(r.what, r.call, codes.Unauthenticated, r.hintIfOK); err != nil {
			return err
		}
	}
	return nil
}

func grpcBadCalls(c *grpcConn) error {
	for _, b := range []struct {
		what, tool, args string
		want             codes.Code
	}{
		{"a call of a tool that does not exist", "word_cont", `{"text":"hi"}`, codes.NotFound},
		{"word_count with arguments that are not JSON", "word_count", `{"text":`, codes.InvalidArgument},
		{`word_count without "text"`, "word_count", `{}`, codes.InvalidArgument},
		{`word_count whose "text" is a number`, "word_count", `{"text":5}`, codes.InvalidArgument},
		{`deploy_service without "service"`, "deploy_service", `{"env":"staging"}`, codes.InvalidArgument},
		{`deploy_service to an env that does not exist`, "deploy_service", `{"service":"api","env":"prod"}`, codes.InvalidArgument},
	} {
		if err := c.expectCode(b.what, grpcExecute(grpcDev, b.tool, b.args), b.want, hintGRPCMustFail); err != nil {
			return err
		}
	}
	return nil
}

func grpcScopes(c *grpcConn) error {
	err := c.expectCode("deploy_service to production with the dev token",
		grpcExecute(grpcDev, "deploy_service", `{"service":"web","env":"production"}`), codes.PermissionDenied, hintGRPCScope)
	if err != nil {
		return err
	}
	// Three deploys at once, as gRPC allows on one connection: two of api,
	// whose releases are 1 and 2 in either order, and one of web.
	api := grpcExecute(grpcDev, "deploy_service", `{"service":"api","env":"staging"}`)
	deploys := []struct {
		what string
		call grpcCall
		want string
	}{
		{"deploy_service of api to staging (one of two at once)", api, `{"service":"api","env":"staging","release":"<number>"}`},
		{"deploy_service of api to staging (the other of two at once)", api, `{"service":"api","env":"staging","release":"<number>"}`},
		{"deploy_service of web to production with the ops token", grpcExecute(grpcOps, "deploy_service", `{"service":"web","env":"production"}`),
			`{"service":"web","env":"production","release":1}`},
	}
	outcomes := make([]grpcOutcome, len(deploys))
	errs := make([]error, len(deploys))
	var wg sync.WaitGroup
	for i, d := range deploys {
		wg.Go(func() { outcomes[i], errs[i] = c.do(d.call) }) // do returns by the stage's limit
	}
	wg.Wait()
	for i, d := range deploys {
		if errs[i] != nil {
			return About(errs[i], d.what, "")
		}
		if err := c.checkResult(d.what, d.call, outcomes[i], d.want); err != nil {
			return err
		}
	}
	if r := []string{outcomes[0].release(), outcomes[1].release()}; !slices.Equal(slices.Sorted(slices.Values(r)), []string{"1", "2"}) {
		f := Failf("two deploys of api at once answered releases %s and %s; they should be 1 and 2, in either order", r[0], r[1])
		f.Sent, f.Got, f.Hint = api.String(), outcomes[0].String()+" and "+outcomes[1].String(), hintGRPCRelease
		return f
	}
	return nil
}

func grpcDeadline(c *grpcConn) error {
	// A first call opens the connection, so that the deadline below is
	// all the deploy's.
	if err := c.expectResult("word_count before the deploys", grpcExecute(grpcDev, "word_count", `{"text":"warm up"}`), `{"words":2,"chars":7}`); err != nil {
		return err
	}
	billing := grpcExecute(grpcDev, "deploy_service", `{"service":"billing","env":"staging"}`)
	first := billing
	first.deadline = grpcShortDeadline
	what := fmt.Sprintf("deploy_service with a %v deadline", grpcShortDeadline)
	o, err := c.do(first)
	switch {
	case err != nil:
		return About(err, what, "")
	case o.code == codes.OK:
		f := wrongCode(what, first, codes.DeadlineExceeded, o)
		f.Summary = what + ": the deploy was done before its deadline; it should take two seconds"
		f.Hint = hintGRPCDeployTime
		return f
	case o.code != codes.DeadlineExceeded:
		return wrongCode(what, first, codes.DeadlineExceeded, o)
	}
	// Should the stage end while waiting, the next call says so.
	wait := time.NewTimer(grpcSettle)
	select {
	case <-wait.C:
	case <-c.t.Context().Done():
		wait.Stop()
	}
	const next = "the next deploy_service of billing"
	if o, err = c.do(billing); err != nil {
		return About(err, next, "")
	}
	err = c.checkResult(next, billing, o, `{"service":"billing","env":"staging","release":1}`)
	var f *Failure
	if errors.As(err, &f) && o.release() == "2" {
		f.Summary = fmt.Sprintf("after a deploy of billing stopped by its %v deadline, the next deploy of billing answered release 2: the stopped deploy went on after its caller had gone, and completed", grpcShortDeadline)
		f.Hint = hintGRPCDeadline
	}
	return err
}
