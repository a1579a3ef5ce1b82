// Command a2a-client hands one message to an A2A agent (protocol 1.0,
// JSON-RPC binding) and follows the task it starts to the end:
//
//	a2a-client --url http://127.0.0.1:8022 [--answer TEXT] MESSAGE...
//
// It reads the agent card, sends the message with SendMessage where the
// card says, and polls GetTask until the task's state is terminal,
// answering a question (input-required) once, with --answer, in the same
// task. The task's artifacts go to stdout, everything else to stderr.
//
// Exit status: 0 the task completed; 1 it failed, was canceled or
// rejected, or needs what this client cannot give; 2 a JSON-RPC error,
// a transport error, or a wrong command line.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

const (
	// pollEvery is the pause between two GetTask calls: too short for a
	// person to notice, long enough not to keep the agent busy.
	pollEvery = 200 * time.Millisecond
	// giveUpAfter bounds the whole exchange: a task that never ends must
	// not keep the client waiting forever.
	giveUpAfter = 2 * time.Minute
	// maxAnswer is the largest answer read, plenty for text results.
	maxAnswer = 1 << 20
)

// part is one piece of a message or an artifact. A 1.0 part holds one
// of text, raw, url and data; this client sends text, prints text and data.
type part struct {
	Text *string         `json:"text,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// message is one turn of the conversation. Its sender makes up the
// messageId; taskId and contextId say which task it continues.
type message struct {
	MessageID string `json:"messageId"`
	ContextID string `json:"contextId,omitempty"`
	TaskID    string `json:"taskId,omitempty"`
	Role      string `json:"role"`
	Parts     []part `json:"parts"`
}

// task is where the work stands, and what it has produced so far.
type task struct {
	ID        string `json:"id"`
	ContextID string `json:"contextId"`
	Status    struct {
		State   string   `json:"state"`
		Message *message `json:"message"` // the agent's words: a question, a reason
	} `json:"status"`
	Artifacts []struct {
		Parts []part `json:"parts"`
	} `json:"artifacts"`
}

// rpcError is a JSON-RPC error: the agent refusing the request itself.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("the agent answered error %d: %s", e.Code, e.Message)
}

func main() {
	base := flag.String("url", "http://127.0.0.1:8022", "the agent's base URL; its card is at URL/.well-known/agent-card.json")
	answer := flag.String("answer", "", "the answer to give when the agent asks for input")
	flag.Parse()
	text := strings.Join(flag.Args(), " ")
	if text == "" {
		fmt.Fprintln(os.Stderr, "usage: a2a-client --url URL [--answer TEXT] MESSAGE...")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), giveUpAfter)
	code := run(ctx, *base, text, *answer, os.Stdout, os.Stderr)
	cancel()
	os.Exit(code)
}

// run does the whole exchange and returns the exit status.
func run(ctx context.Context, base, text, answer string, stdout, stderr io.Writer) int {
	endpoint, err := readCard(ctx, base)
	if err != nil {
		fmt.Fprintln(stderr, "a2a-client: reading the agent card:", err)
		return 2
	}
	c := &client{endpoint: endpoint}
	t, err := c.send(ctx, message{Parts: []part{{Text: &text}}})
	answered := false
	for err == nil {
		switch t.Status.State {
		case "TASK_STATE_COMPLETED":
			printResult(stdout, t)
			return 0
		case "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED", "TASK_STATE_AUTH_REQUIRED":
			// No result (auth-required: none this client can reach);
			// the agent says why.
			fmt.Fprintf(stderr, "a2a-client: the task is %s: %s\n", t.Status.State, say(t))
			return 1
		case "TASK_STATE_INPUT_REQUIRED":
			if answer == "" || answered {
				fmt.Fprintf(stderr, "a2a-client: the agent asks: %s (answer with --answer)\n", say(t))
				return 1
			}
			answered = true
			// The answer continues the task that asked: a new message
			// with the same taskId and contextId.
			t, err = c.send(ctx, message{TaskID: t.ID, ContextID: t.ContextID, Parts: []part{{Text: &answer}}})
		default:
			// Submitted or working: not done yet. Ask again after a pause.
			select {
			case <-ctx.Done():
				err = fmt.Errorf("gave up: the task is still %s", t.Status.State)
			case <-time.After(pollEvery):
				t, err = c.getTask(ctx, t.ID)
			}
		}
	}
	fmt.Fprintln(stderr, "a2a-client:", err)
	return 2
}

// readCard reads the agent card under base and returns the URL of its
// JSON-RPC interface for A2A 1.0: where requests go, which need not be
// the base URL.
func readCard(ctx context.Context, base string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+"/.well-known/agent-card.json", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET %s: %s", req.URL.Path, resp.Status)
	}
	var card struct {
		SupportedInterfaces []struct {
			URL             string `json:"url"`
			ProtocolBinding string `json:"protocolBinding"`
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"supportedInterfaces"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&card); err != nil {
		return "", err
	}
	for _, i := range card.SupportedInterfaces {
		if i.ProtocolBinding == "JSONRPC" && (i.ProtocolVersion == "1.0" || strings.HasPrefix(i.ProtocolVersion, "1.0.")) {
			return i.URL, nil
		}
	}
	return "", fmt.Errorf("it lists no JSON-RPC interface for A2A 1.0")
}

// client makes JSON-RPC calls to one endpoint.
type client struct {
	endpoint string
	lastID   int // numbers the requests
}

// send is SendMessage. Without returnImmediately the agent "MUST wait
// until the task reaches a terminal or interrupted state before
// returning", holding the request open for as long as the work takes;
// with it, the answer is the task as it stands, and this client follows
// the task itself. An agent may also answer with just a message: then
// that is the result.
func (c *client) send(ctx context.Context, m message) (task, error) {
	m.MessageID, m.Role = newID(), "ROLE_USER"
	params := struct {
		Message       message         `json:"message"`
		Configuration map[string]bool `json:"configuration"`
	}{m, map[string]bool{"returnImmediately": true}}
	var r struct {
		Task    *task    `json:"task"`
		Message *message `json:"message"`
	}
	if err := c.call(ctx, "SendMessage", params, &r); err != nil {
		return task{}, err
	}
	if r.Task == nil {
		r.Task = &task{}
		r.Task.Status.State, r.Task.Status.Message = "TASK_STATE_COMPLETED", r.Message
	}
	return *r.Task, nil
}

// getTask is GetTask: the task as it stands now.
func (c *client) getTask(ctx context.Context, id string) (task, error) {
	var t task
	err := c.call(ctx, "GetTask", map[string]string{"id": id}, &t)
	return t, err
}

// call POSTs one request and decodes its result into result, or returns
// the agent's JSON-RPC error.
func (c *client) call(ctx context.Context, method string, params, result any) error {
	c.lastID++
	body, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", c.lastID, method, params})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0") // without it, the agent reads the request as 0.3
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	var answer struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&answer); err != nil {
		return fmt.Errorf("%s: %s, and no JSON-RPC answer: %w", method, resp.Status, err)
	}
	if answer.Error != nil {
		return answer.Error
	}
	return json.Unmarshal(answer.Result, result)
}

// printResult writes what the task produced, each part of its artifacts
// on a line: text as it is, data as its JSON. A task without artifacts
// has its result in the agent's status message.
func printResult(w io.Writer, t task) {
	var parts []part
	for _, a := range t.Artifacts {
		parts = append(parts, a.Parts...)
	}
	if len(parts) == 0 && t.Status.Message != nil {
		parts = t.Status.Message.Parts
	}
	for _, p := range parts {
		if p.Text != nil {
			fmt.Fprintln(w, strings.TrimSuffix(*p.Text, "\n"))
		} else if p.Data != nil {
			fmt.Fprintln(w, string(p.Data))
		}
	}
}

// say is the text of the agent's status message.
func say(t task) string {
	var b strings.Builder
	if m := t.Status.Message; m != nil {
		for _, p := range m.Parts {
			if p.Text != nil {
				b.WriteString(*p.Text)
			}
		}
	}
	return b.String()
}

// newID makes a messageId, which must be unique: 128 random bits.
func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
