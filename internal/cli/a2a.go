package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

const defaultA2AAddr = "127.0.0.1:8022"

// serverA2A is `wirelab server a2a`: the A2A agent, both revisions at
// http://ADDR/, its card at /.well-known/agent-card.json.
func serverA2A(ctx context.Context, args []string, env Env) error {
	fs := flags("server a2a")
	addr := fs.String("addr", defaultA2AAddr, "address to listen on; port 0 picks a free one")
	var tokens repeated
	fs.Var(&tokens, "token", "accepted bearer token, SECRET or SECRET:SCOPE,... (repeatable)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("server a2a takes no arguments, got %q", fs.Arg(0))
	}
	ts, err := tools.ParseTokens(tokens)
	if err != nil {
		return usageErrorf("%v", err)
	}
	ln, loopback, err := listen(*addr, "--addr", "a2a", "http://", env.Stderr)
	if err != nil {
		return err
	}
	s := a2a.NewServer(&a2a.Options{Tokens: ts, Loopback: loopback, Version: implVersion()})
	// Stop the running tasks first: their streams end with them, and
	// the graceful shutdown would otherwise wait for those streams.
	stop := context.AfterFunc(ctx, s.Close)
	defer stop()
	return serveHTTP(ctx, ln, s)
}

// clientA2A is `wirelab client a2a`: read the agent card, send one
// message, and follow the task it starts (or continues, with --task)
// until it is done or waits for an answer. stdout gets one line per
// event; stderr whom we talk to, hints and errors.
func clientA2A(ctx context.Context, args []string, env Env) (int, error) {
	fs := flags("client a2a")
	base := fs.String("url", "http://"+defaultA2AAddr, "base URL of the agent; its card is read from BASE"+a2a.CardPath)
	token := fs.String("token", "", "bearer token to send")
	stream := fs.Bool("stream", false, "follow the task by streaming (SendStreamingMessage) instead of polling GetTask")
	taskID := fs.String("task", "", "continue this task: the answer to an agent that asked for input")
	contextID := fs.String("context", "", "start the task in this conversation (contextId)")
	cancelID := fs.String("cancel", "", "cancel this task instead of sending a message")
	version := fs.String("a2a-version", "", `speak this revision, "1.0" or "0.3" (default: 1.0 if the card offers it)`)
	poll := fs.Duration("poll", 200*time.Millisecond, "how often to ask for the task when not streaming")
	timeout := fs.Duration("timeout", time.Minute, "how long the whole exchange may take")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	text := strings.Join(fs.Args(), " ")
	switch {
	case *version != "" && *version != a2a.Version10 && *version != a2a.Version03:
		return exitUsage, usageErrorf("--a2a-version is %q or %q, not %q", a2a.Version10, a2a.Version03, *version)
	case *cancelID != "" && text != "":
		return exitUsage, usageErrorf("--cancel sends no message, got %q", text)
	case *cancelID == "" && text == "":
		return exitUsage, usageErrorf(`client a2a needs the message to send, such as "deploy api-gateway"`)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	c, card, err := a2a.Resolve(ctx, &http.Client{}, *base, *version, *token)
	if err != nil {
		return exitProtocol, err
	}
	fmt.Fprintf(env.Stderr, "wirelab: %s, A2A %s at %s\n", card.Name, c.Version, c.URL)

	var last a2a.Task
	if *cancelID != "" {
		last, err = c.Cancel(ctx, *cancelID)
		if err == nil {
			printEvent(env.Stdout, a2a.StreamResponse{Task: &last})
		}
	} else {
		req := a2a.SendMessageRequest{Message: a2a.Message{
			MessageID: newMessageID(), TaskID: *taskID, ContextID: *contextID,
			Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)},
		}}
		if *stream {
			last, err = followStream(ctx, c, req, env.Stdout)
		} else {
			last, err = followPolling(ctx, c, req, *poll, env.Stdout)
		}
	}
	var rpcErr *jsonrpc.Error
	switch {
	case errors.As(err, &rpcErr):
		return exitProtocol, fmt.Errorf("the agent refused: %d %s", rpcErr.Code, rpcErr.Message)
	case err != nil:
		return exitProtocol, err
	}
	if last.Status.State.Interrupted() {
		fmt.Fprintf(env.Stderr, "wirelab: the task waits for you; answer in the same task with: wirelab client a2a --url %s --task %s \"...\"\n", *base, last.ID)
	}
	switch last.Status.State {
	case a2a.StateFailed, a2a.StateRejected, a2a.StateCanceled:
		return exitToolError, nil
	}
	return 0, nil
}

// followStream prints every event of the stream, and returns the task
// as the last event left it.
func followStream(ctx context.Context, c *a2a.Client, req a2a.SendMessageRequest, out io.Writer) (a2a.Task, error) {
	var last a2a.Task
	err := c.Stream(ctx, req, func(ev a2a.StreamResponse) error {
		printEvent(out, ev)
		switch {
		case ev.Task != nil:
			last = *ev.Task
		case ev.StatusUpdate != nil:
			last.ID, last.Status = ev.StatusUpdate.TaskID, ev.StatusUpdate.Status
		}
		return nil
	})
	return last, err
}

// followPolling sends with returnImmediately, then reads the task until
// it is done or waits for the caller, printing what changed each time.
func followPolling(ctx context.Context, c *a2a.Client, req a2a.SendMessageRequest, every time.Duration, out io.Writer) (a2a.Task, error) {
	req.Configuration = &a2a.SendMessageConfiguration{ReturnImmediately: true}
	resp, err := c.Send(ctx, req)
	if err != nil {
		return a2a.Task{}, err
	}
	if resp.Message != nil {
		printEvent(out, a2a.StreamResponse{Message: resp.Message})
		return a2a.Task{}, nil
	}
	t := *resp.Task
	printEvent(out, a2a.StreamResponse{Task: &t})
	seen := map[string]int{} // parts printed, per artifact
	for !t.Status.State.Terminal() && !t.Status.State.Interrupted() {
		select {
		case <-ctx.Done():
			return t, ctx.Err()
		case <-time.After(every):
		}
		next, err := c.GetTask(ctx, t.ID)
		if err != nil {
			return t, err
		}
		for _, art := range next.Artifacts {
			if n := seen[art.ArtifactID]; n < len(art.Parts) {
				chunk := art
				chunk.Parts = art.Parts[n:]
				printEvent(out, a2a.StreamResponse{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: t.ID, Artifact: chunk, Append: n > 0}})
				seen[art.ArtifactID] = len(art.Parts)
			}
		}
		if next.Status.State != t.Status.State || statusText(next.Status) != statusText(t.Status) {
			printEvent(out, a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: t.ID, Status: next.Status}})
		}
		t = next
	}
	return t, nil
}

// printEvent writes one event as one line:
//
//	task 5f3c... submitted (context 9a1e...)
//	working: Deploying api-gateway to staging.
//	artifact "deploy log" += "Build: done\n"
func printEvent(w io.Writer, ev a2a.StreamResponse) {
	switch {
	case ev.Task != nil:
		fmt.Fprintf(w, "task %s %s (context %s)", ev.Task.ID, stateName(ev.Task.Status.State), ev.Task.ContextID)
		if text := statusText(ev.Task.Status); text != "" {
			fmt.Fprintf(w, ": %s", text)
		}
		fmt.Fprintln(w)
	case ev.Message != nil:
		fmt.Fprintf(w, "message: %s\n", partsText(ev.Message.Parts))
	case ev.StatusUpdate != nil:
		fmt.Fprint(w, stateName(ev.StatusUpdate.Status.State))
		if text := statusText(ev.StatusUpdate.Status); text != "" {
			fmt.Fprintf(w, ": %s", text)
		}
		fmt.Fprintln(w)
	case ev.ArtifactUpdate != nil:
		op := "="
		if ev.ArtifactUpdate.Append {
			op = "+="
		}
		a := ev.ArtifactUpdate.Artifact
		fmt.Fprintf(w, "artifact %q %s %s\n", a.Name, op, partsText(a.Parts))
	}
}

// stateName writes TASK_STATE_INPUT_REQUIRED as input-required.
func stateName(s a2a.TaskState) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(string(s), "TASK_STATE_")), "_", "-")
}

func statusText(s a2a.TaskStatus) string {
	if s.Message == nil {
		return ""
	}
	return partsText(s.Message.Parts)
}

// partsText shows parts on one line: text quoted when it has line
// breaks, data as compact JSON.
func partsText(parts []a2a.Part) string {
	var out []string
	for _, p := range parts {
		switch {
		case p.Text != nil && strings.Contains(*p.Text, "\n"):
			out = append(out, fmt.Sprintf("%q", *p.Text))
		case p.Text != nil:
			out = append(out, *p.Text)
		case p.Data != nil:
			out = append(out, string(p.Data))
		case p.URL != nil:
			out = append(out, *p.URL)
		default:
			out = append(out, fmt.Sprintf("(%d bytes of %s)", len(p.Raw), p.MediaType))
		}
	}
	return strings.Join(out, " ")
}

// newMessageID makes the messageId a caller must choose.
func newMessageID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
