// Command a2a-client is your A2A client (protocol 1.0, JSON-RPC binding):
// it hands one message to an agent and follows the task it starts to the
// end. README.md says what it must do; check your work with
//
//	wirelab grade a2a-client
//
// README.ru.md — то же, что README.md, по-русски.
//
// The grader runs an agent and starts this program as
//
//	a2a-client --url BASE_URL [--answer TEXT] MESSAGE...
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
	// pollEvery is the pause between two GetTask calls.
	pollEvery = 200 * time.Millisecond
	// giveUpAfter bounds the whole exchange: a task that never ends must
	// not keep the client waiting forever.
	giveUpAfter = 2 * time.Minute
)

// part is one piece of a message or an artifact: text, or data (any
// JSON value). Parts can also be files (raw, url), which this client
// does not need.
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

// task is where the work stands ("TASK_STATE_WORKING", ...), with the
// agent's words about it, and what it has produced so far.
type task struct {
	ID        string `json:"id"`
	ContextID string `json:"contextId"`
	Status    struct {
		State   string   `json:"state"`
		Message *message `json:"message"`
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
	// TODO step 1: read the agent card, GET base + "/.well-known/agent-card.json",
	// and POST to the url of its supportedInterfaces entry whose
	// protocolBinding is "JSONRPC" and protocolVersion "1.0". The base
	// URL is only where the card is: the grader's agent takes requests
	// elsewhere.
	c := &client{endpoint: base}

	// Step 2: send the message. returnImmediately asks for the task at
	// once, as it stands, rather than when it settles.
	m := message{MessageID: newID(), Role: "ROLE_USER", Parts: []part{{Text: &text}}}
	params := struct {
		Message       message         `json:"message"`
		Configuration map[string]bool `json:"configuration"`
	}{m, map[string]bool{"returnImmediately": true}}
	var result json.RawMessage
	if err := c.call(ctx, "SendMessage", params, &result); err != nil {
		fmt.Fprintln(stderr, "a2a-client:", err)
		return 2
	}

	// TODO step 3: the result is {"task": {...}}. Until the task's
	// state is terminal (TASK_STATE_COMPLETED, _FAILED, _CANCELED,
	// _REJECTED), wait pollEvery and ask again with GetTask, params
	// {"id": the task's id}: its result is the task itself. A JSON-RPC
	// error, from GetTask too, ends the run with status 2: the agent
	// will not answer better the next time.
	//
	// TODO step 4: on TASK_STATE_INPUT_REQUIRED, the agent asks a
	// question (in status.message). Answer it once with the --answer
	// text, as a new message (a new messageId) carrying the task's
	// taskId and contextId, and keep following the same task.
	//
	// TODO step 5: on TASK_STATE_COMPLETED print the result: each part of
	// the task's artifacts on a line, text as it is and data as its JSON.
	// On the other terminal states write the agent's reason on stderr
	// and return 1. Nothing but the result goes to stdout.
	fmt.Fprintf(stdout, "%s\n", result)
	return 0
}

// client makes JSON-RPC calls to one endpoint.
type client struct {
	endpoint string
	lastID   int // numbers the requests
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
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		return fmt.Errorf("%s: %s, and no JSON-RPC answer: %w", method, resp.Status, err)
	}
	if answer.Error != nil {
		return answer.Error
	}
	return json.Unmarshal(answer.Result, result)
}

// newID makes a messageId, which must be unique: 128 random bits.
func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
