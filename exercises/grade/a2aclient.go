package grade

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// A2AClient grades the a2a-client exercise: a client of an A2A agent
// (protocol 1.0, JSON-RPC binding), started as
//
//	a2a-client --url BASE_URL [--answer TEXT] MESSAGE...
//
// against an agent the grader runs (a2apeer.go): the course's own, or a
// script. Each stage checks what the client asked the agent, what it
// printed and how it exited. A client may poll GetTask, stream with
// SendStreamingMessage, or let SendMessage wait: the stages judge what
// it learns and does, not how.
func A2AClient() *Grader {
	return &Grader{
		Exercise: "a2a-client",
		Stages: []Stage{
			{Name: "reads the agent card", Run: a2aReadsCard},
			{Name: "speaks A2A 1.0", Run: a2aSpeaks},
			{Name: "follows a task until it is done", Run: a2aFollows},
			{Name: "prints only the result", Run: a2aPrintsResult},
			{Name: "answers input-required in the same task", Run: a2aAnswers},
			{Name: "reports a failed task", Run: a2aReportsFailure},
			{Name: "reports protocol errors", Run: a2aReportsErrors},
		},
	}
}

const (
	hintA2ACard     = `Read the Agent Card first: GET BASE/.well-known/agent-card.json, BASE being the --url given. The card says where to send requests: the url of its supportedInterfaces entry with protocolBinding "JSONRPC" and protocolVersion "1.0".`
	hintA2ACardURL  = `POST to the url the Agent Card gives (the supportedInterfaces entry with protocolBinding "JSONRPC" and protocolVersion "1.0"), not to the base URL: an agent may serve its card in one place and take requests in another, and the card is how a client finds out where.`
	hintA2AVersion  = `Send the header A2A-Version: 1.0 with every request. Without it the agent reads the request as A2A 0.3, whose methods are message/send and tasks/get and whose JSON is spelled differently.`
	hintA2AMethods  = `A2A 1.0 names its methods like RPCs: SendMessage, GetTask, SendStreamingMessage. message/send, message/stream and tasks/get are the 0.3 names.`
	hintA2ASend     = `A SendMessage request is {"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"(made up, unique)","role":"ROLE_USER","parts":[{"text":"..."}]}}}, POSTed with Content-Type: application/json and A2A-Version: 1.0. The agent's error message says what it could not take.`
	hintA2AText     = `The message is the arguments after the flags, joined by single spaces: strings.Join(flag.Args(), " ").`
	hintA2AWorking  = `TASK_STATE_SUBMITTED and TASK_STATE_WORKING mean "not yet": a task is done only in a terminal state (COMPLETED, FAILED, CANCELED, REJECTED). Keep asking with GetTask and the task's id, pausing between calls, until it gets there (or read the stream to its end).`
	hintA2APoll     = `Follow the task SendMessage answered with: GetTask with {"id": the task's id}, the same id every time. Sending the message again asks for another task.`
	hintA2AResult   = `stdout is for the result only: each part of the task's artifacts on a line of its own, a text part as it is and a data part as its JSON. Not the JSON-RPC response, not the whole task; anything else goes to stderr.`
	hintA2AAnswer   = `TASK_STATE_INPUT_REQUIRED is the agent asking a question (in status.message). Answer it with the --answer text, in the same task, then keep following the task.`
	hintA2ASameTask = `The answer to input-required continues the task that asked: send it as a new message (with a new messageId) carrying that task's taskId and contextId. A message without a taskId starts a new task, which knows nothing of the question.`
	hintA2AFailed   = `Only TASK_STATE_COMPLETED is a success. A task that ends FAILED, CANCELED or REJECTED comes in a normal JSON-RPC result, but it is a failure: print the agent's reason (status.message) on stderr and exit with a non-zero status.`
	hintA2ARPCError = `A JSON-RPC error (an "error" member where "result" should be) is the agent refusing the request: there is no task to follow and nothing to print. Say so on stderr, with the error's code and message, and exit with a non-zero status; the same when it answers GetTask.`
)

// What the stages ask the real agent, and what it answers.
const (
	a2aCount       = "count read the wire"
	a2aCountResult = `{"words":3,"chars":13}`
	a2aDeployLine  = "health check: done" // a line of the deploy log
)

// a2aRun is one run of the client: how it was started, and what it did.
type a2aRun struct {
	cmd            string // the command line, as reports show it
	code           int
	stdout, stderr string
	log            []a2aExchange
	scripted       bool // against a script, whose logs come out the same every time
}

// a2aStart starts a peer (the real agent when script is nil), runs the
// client against it with --url and args until it exits, and stops the
// peer.
func a2aStart(t *T, script *a2aScript, args ...string) (*a2aRun, error) {
	p := newA2APeer(script)
	defer p.Close()
	r := &a2aRun{cmd: "command line: " + strings.Join(append([]string{"--url", a2aShownURL}, args...), " "), scripted: script != nil}
	proc, err := t.Start(append([]string{"--url", p.srv.URL}, args...)...)
	if err != nil {
		return nil, err
	}
	out, err := proc.Output()
	if err == nil {
		r.code, err = proc.Wait()
	}
	// The port changes from run to run; reports must not.
	hide := strings.NewReplacer(p.srv.URL, a2aShownURL, strings.TrimPrefix(p.srv.URL, "http://"), "127.0.0.1:PORT").Replace
	if f := (*Failure)(nil); errors.As(err, &f) {
		f.Sent, f.Got, f.Stderr = r.cmd, hide(f.Got), hide(f.Stderr)
		if log := p.exchanges(); len(log) > 0 {
			// A client that never stops makes a number of requests
			// that depends on the machine: repeats are not counted.
			f.addf("; its requests: %s", a2aDescribe(log, false))
		}
	}
	if err != nil {
		return nil, err
	}
	r.stdout, r.stderr, r.log = hide(string(out)), hide(proc.Stderr()), p.exchanges()
	return r, nil
}

// fail is a failure of this run, showing its command line.
func (r *a2aRun) fail(hint, format string, args ...any) *Failure {
	f := Failf(format, args...)
	f.Sent, f.Hint = r.cmd, hint
	return f
}

// failLog is fail, showing the client's requests and its stderr too.
func (r *a2aRun) failLog(hint, format string, args ...any) *Failure {
	f := r.fail(hint, format, args...)
	f.Got, f.Stderr = "requests: "+a2aDescribe(r.log, r.scripted), r.stderr
	return f
}

// posts are the JSON-RPC requests the client POSTed to the endpoint.
func (r *a2aRun) posts() []a2aExchange {
	var out []a2aExchange
	for _, e := range r.log {
		if e.method == http.MethodPost && e.path == a2aEndpoint {
			out = append(out, e)
		}
	}
	return out
}

// reached returns the first answer that put the task in state, if any.
func (r *a2aRun) reached(state a2a.TaskState) (a2aExchange, bool) {
	for _, e := range r.log {
		if e.state == state {
			return e, true
		}
	}
	return a2aExchange{}, false
}

// lastState is the last task state the client was told.
func (r *a2aRun) lastState() a2a.TaskState {
	var s a2a.TaskState
	for _, e := range r.log {
		if e.state != "" {
			s = e.state
		}
	}
	return s
}

// notDone fails a run that ended before the task reached state. A client
// that never got a task at all fails for one of the reasons the first
// stages check, and is told so rather than blamed for what this stage
// checks.
func (r *a2aRun) notDone(state a2a.TaskState) error {
	if _, ok := r.reached(state); ok {
		return nil
	}
	if r.lastState() == "" {
		return r.failLog(r.stuck(), "the agent never answered the client with a task (the client exited with status %d)", r.code)
	}
	return r.failLog(hintA2AWorking, "the client exited (status %d) before the task was %s: the last state it was told is %s", r.code, state, r.lastState())
}

// stuck is the hint for a client that did not get as far as a stage
// needs: the first thing the first stages check that it did not do.
func (r *a2aRun) stuck() string {
	switch {
	case len(r.log) == 0 || r.log[0].path != a2a.CardPath:
		return hintA2ACard
	case len(r.posts()) == 0:
		return hintA2ACardURL
	}
	return hintA2ASend
}

func a2aReadsCard(t *T) error {
	r, err := a2aStart(t, nil, strings.Fields(a2aCount)...)
	if err != nil {
		return err
	}
	if len(r.log) == 0 || r.log[0].method != http.MethodGet || r.log[0].path != a2a.CardPath {
		return r.failLog(hintA2ACard, "the client did not begin by reading the agent card (GET %s)", a2a.CardPath)
	}
	for _, e := range r.log[1:] {
		if e.path != a2a.CardPath && (e.method != http.MethodPost || e.path != a2aEndpoint) {
			what := phrasef("%s", e.rpc)
			if e.rpc == "" {
				what = phrasef("a %s request", e.method)
			}
			return r.failLog(hintA2ACardURL, "the client sent %s to %s, but the agent card says requests go to %s%s", what, e.path, a2aShownURL, a2aEndpoint)
		}
	}
	if len(r.posts()) == 0 {
		return r.failLog("", "after reading the agent card the client sent the agent nothing (exit status %d)", r.code)
	}
	return nil
}

func a2aSpeaks(t *T) error {
	r, err := a2aStart(t, nil, strings.Fields(a2aCount)...)
	if err != nil {
		return err
	}
	posts := r.posts()
	if len(posts) == 0 {
		return r.failLog(r.stuck(), "the client sent no request to the agent's endpoint, %s%s", a2aShownURL, a2aEndpoint)
	}
	e := posts[0]
	var refused phrase // nothing, unless the agent refused the request
	if e.err != nil {
		refused = phrasef(", and the agent answered error %d: %s", e.err.Code, e.err.Message)
	}
	switch {
	case e.version != a2a.Version10 && !strings.HasPrefix(e.version, a2a.Version10+"."): // 1.0.0 is 1.0 too
		f := r.fail(hintA2AVersion, "the client's first request (%s) was not sent with the header A2A-Version: 1.0%s", e.rpc, refused)
		f.Expected, f.Got = "A2A-Version: 1.0", "A2A-Version: "+e.version
		if e.version == "" {
			f.Got = "(no A2A-Version header)"
		}
		return f
	case e.rpc != "SendMessage" && e.rpc != "SendStreamingMessage":
		hint := ""
		if strings.Contains(e.rpc, "/") {
			hint = hintA2AMethods
		}
		f := r.fail(hint, "the client's first request to the agent calls %q, not SendMessage (or SendStreamingMessage)%s", e.rpc, refused)
		f.Got = "params: " + a2aMasked(e.params)
		return f
	case e.err != nil || e.status != http.StatusOK:
		f := r.fail(hintA2ASend, "the agent refused the client's %s (HTTP %d)%s", e.rpc, e.status, refused)
		f.Got = "params: " + a2aMasked(e.params)
		return f
	}
	if m := a2aSent(e); a2aText(&m) != a2aCount {
		f := r.fail(hintA2AText, "the message's text is not the words of the command line")
		f.Expected, f.Got = a2aCount, a2aText(&m)
		return f
	}
	return nil
}

func a2aFollows(t *T) error {
	r, err := a2aStart(t, &a2aScript{steps: []a2aStep{
		{state: a2a.StateSubmitted},
		{state: a2a.StateWorking, say: "Reading the release notes."},
		{state: a2a.StateWorking, say: "Counting the changes."},
		{state: a2a.StateWorking, say: "Writing the summary."},
		{state: a2a.StateCompleted, say: "Done.", artifact: "3 features, 2 fixes, 1 breaking change"},
	}}, "summarize", "the", "release")
	if err != nil {
		return err
	}
	for _, e := range r.posts() {
		switch {
		case e.rpc == "GetTask" && e.err != nil && e.err.Code == a2a.CodeTaskNotFound:
			return r.failLog(hintA2APoll, "the client called GetTask with the params %s, but the task SendMessage answered with is %q", a2aMasked(e.params), a2aScriptTask)
		case e.err != nil && e.err.Code == a2a.CodeUnsupportedOperation:
			return r.failLog(hintA2APoll, "the client sent %s again instead of following the task it had started", e.rpc)
		}
	}
	if err := r.notDone(a2a.StateCompleted); err != nil {
		return err
	}
	if r.code != 0 {
		return r.failLog("", "the task completed, but the client exited with status %d", r.code)
	}
	return nil
}

func a2aPrintsResult(t *T) error {
	r, err := a2aStart(t, nil, strings.Fields(a2aCount)...)
	if err != nil {
		return err
	}
	if err := r.notDone(a2a.StateCompleted); err != nil {
		return err
	}
	if r.code != 0 {
		f := r.fail("", "the task completed with the result %s, but the client exited with status %d", a2aCountResult, r.code)
		f.Stderr = r.stderr
		return f
	}
	out := strings.TrimRight(r.stdout, "\n")
	f := CompareJSON([]byte(out), a2aCountResult, Exact)
	if f == nil {
		return nil
	}
	if f.Offset == nil { // not JSON: no place to point at
		f.Expected, f.Got = a2aCountResult, shorten(r.stdout)
	}
	f.restatef("stdout is not just the task's result (the agent's artifact holds one data part, %s)", a2aCountResult)
	if out == "" {
		f.restatef("the task completed, and the client printed nothing on stdout")
	}
	f.Sent, f.Hint = r.cmd, hintA2AResult
	return f
}

func a2aAnswers(t *T) error {
	r, err := a2aStart(t, nil, "--answer", "staging", "deploy", "api-gateway")
	if err != nil {
		return err
	}
	if err := r.notDone(a2a.StateInputRequired); err != nil {
		return err
	}
	asked, _ := r.reached(a2a.StateInputRequired)
	var answer *a2aExchange
	seen := false
	for _, e := range r.log {
		if seen && (e.rpc == "SendMessage" || e.rpc == "SendStreamingMessage") {
			answer = &e
			break
		}
		seen = seen || e.state == a2a.StateInputRequired
	}
	if answer == nil {
		f := r.fail(hintA2AAnswer, "the agent asked %q (TASK_STATE_INPUT_REQUIRED), and the client never answered: it exited with status %d", asked.say, r.code)
		f.Stderr = r.stderr
		return f
	}
	m := a2aSent(*answer)
	switch {
	case m.TaskID != asked.taskID || m.ContextID != asked.contextID:
		f := r.fail(hintA2ASameTask, "the client's answer does not continue the task that asked (%s, in context %s)", asked.taskID, asked.contextID)
		if m.TaskID == "" {
			f.restatef("the client's answer carries no taskId, so it asks for a new task instead of continuing the one that asked")
		}
		want := fmt.Sprintf(`"taskId":%q,"contextId":%q`, asked.taskID, asked.contextID)
		got := fmt.Sprintf(`"taskId":%q,"contextId":%q`, m.TaskID, m.ContextID)
		f.setDiff([]byte(want), []byte(got), firstDiff([]byte(want), []byte(got)))
		return f
	case a2aText(&m) != "staging":
		f := r.fail("", "the client's answer is not the --answer text")
		f.Expected, f.Got = "staging", a2aText(&m)
		return f
	case answer.err != nil:
		f := r.fail(hintA2ASend, "the agent refused the client's answer: error %d: %s", answer.err.Code, answer.err.Message)
		f.Got = "params: " + a2aMasked(answer.params)
		return f
	}
	if err := r.notDone(a2a.StateCompleted); err != nil {
		return err
	}
	switch {
	case r.code != 0:
		f := r.fail("", "the deploy completed, but the client exited with status %d", r.code)
		f.Stderr = r.stderr
		return f
	case !strings.Contains(r.stdout, a2aDeployLine+"\n"):
		f := r.fail(hintA2AResult, "the deploy completed, but stdout does not hold its result: the deploy log (text, a line per step) and the deployment (data)")
		f.Expected, f.Got = "… "+a2aDeployLine+" …", shorten(r.stdout)
		return f
	}
	return nil
}

func a2aReportsFailure(t *T) error {
	for _, c := range []struct {
		message string
		state   a2a.TaskState
	}{
		{"weather Oslo", a2a.StateFailed},
		{"dance the tango", a2a.StateRejected},
	} {
		r, err := a2aStart(t, nil, strings.Fields(c.message)...)
		if err != nil {
			return err
		}
		if err := r.notDone(c.state); err != nil {
			return err
		}
		if e, _ := r.reached(c.state); r.code == 0 {
			f := r.fail(hintA2AFailed, "the task ended %s (%q), but the client exited with status 0", c.state, e.say)
			f.Got = shorten(r.stdout)
			return f
		}
	}
	return nil
}

func a2aReportsErrors(t *T) error {
	for _, c := range []struct {
		what  string
		steps []a2aStep
	}{
		{"SendMessage answered with error -32603", []a2aStep{
			{err: jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error: too many tasks are running; try again later")},
		}},
		{"GetTask answered with error -32001", []a2aStep{
			{state: a2a.StateSubmitted},
			{err: jsonrpc.Errorf(a2a.CodeTaskNotFound, "task not found: %s is gone (the agent restarted)", a2aScriptTask)},
		}},
	} {
		r, err := a2aStart(t, &a2aScript{steps: c.steps}, strings.Fields(a2aCount)...)
		if err != nil {
			return WithHint(About(err, c.what, ""), hintA2ARPCError)
		}
		code := c.steps[len(c.steps)-1].err.Code
		answered := false
		for _, e := range r.posts() {
			answered = answered || (e.err != nil && e.err.Code == code)
		}
		if !answered {
			return r.failLog(r.stuck(), "the client never made the request that the agent answers with error %d: it exited with status %d", code, r.code)
		}
		if r.code == 0 {
			f := r.fail(hintA2ARPCError, "%s, and the client exited with status 0 as if it had a result", c.what)
			f.Got = shorten(r.stdout)
			return f
		}
	}
	return nil
}
