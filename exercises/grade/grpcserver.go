package grade

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
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
		f.restatef("%s: the deploy was done before its deadline; it should take two seconds", what)
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
		f.restatef("after a deploy of billing stopped by its %v deadline, the next deploy of billing answered release 2: the stopped deploy went on after its caller had gone, and completed", grpcShortDeadline)
		f.Hint = hintGRPCDeadline
	}
	return err
}
