// Command mcp-client calls one tool of an MCP server (revision
// 2025-11-25) over Streamable HTTP, written by hand with net/http and
// encoding/json, and prints what the tool said:
//
//	mcp-client --url http://127.0.0.1:8021/mcp word_count text="read the wire"
//
// Every message is a POST to the one endpoint. A whole session:
//
//	-> POST {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",...}}
//	<- 200, Mcp-Session-Id: 3f9c0a..., {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25",...}}
//	-> POST {"jsonrpc":"2.0","method":"notifications/initialized"}
//	<- 202, no body
//	-> POST {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}
//	<- 200, {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],...}}
//	-> DELETE: the session is over
//
// Every message after initialize carries two headers: Mcp-Session-Id, as
// the initialize answer gave it, and MCP-Protocol-Version. The answer to
// a request is one JSON body or an SSE stream, as the server chooses.
//
// The exit status tells three outcomes apart: 0, the tool worked and its
// text blocks are on stdout; 1, the tool failed (isError) and its text
// is on stderr; 2, anything else (a bad command line, HTTP, a JSON-RPC
// error), explained on stderr.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

const (
	protocolVersion = "2025-11-25" // the only revision this client speaks
	timeout         = 30 * time.Second
	maxMessage      = 1 << 20 // the longest answer, or SSE line, read
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8021/mcp", "the server's MCP endpoint")
	flag.Parse()
	args, err := toolArgs(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-client:", err)
		fmt.Fprintln(os.Stderr, "usage: mcp-client [--url URL] TOOL [KEY=VALUE | KEY:=JSON]...")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	code := run(ctx, &client{url: *url}, flag.Arg(0), args, os.Stdout, os.Stderr)
	cancel()
	os.Exit(code)
}

// toolArgs reads the tool's arguments from the words after its name:
// KEY=VALUE gives a string, KEY:=JSON any JSON value (limit:=3).
func toolArgs(words []string) (map[string]json.RawMessage, error) {
	if len(words) == 0 {
		return nil, fmt.Errorf("name the tool to call")
	}
	args := map[string]json.RawMessage{}
	for _, w := range words[1:] {
		key, value, ok := strings.Cut(w, "=")
		switch k, isJSON := strings.CutSuffix(key, ":"); {
		case !ok || k == "":
			return nil, fmt.Errorf("argument %q is not KEY=VALUE or KEY:=JSON", w)
		case isJSON && !json.Valid([]byte(value)):
			return nil, fmt.Errorf("argument %q: %s is not JSON", w, value)
		case isJSON:
			args[k] = json.RawMessage(value)
		default:
			args[key], _ = json.Marshal(value) // a string always encodes
		}
	}
	return args, nil
}

// run is the session; it returns the exit status.
func run(ctx context.Context, c *client, tool string, args map[string]json.RawMessage, stdout, stderr io.Writer) int {
	defer c.end()
	fail := func(step string, err error) int {
		fmt.Fprintf(stderr, "mcp-client: %s: %v\n", step, err)
		return 2
	}
	opened, err := c.request(ctx, "initialize", map[string]any{
		"protocolVersion": protocolVersion,
		"capabilities":    map[string]any{}, // this client answers no requests from the server
		"clientInfo":      map[string]string{"name": "mcp-client", "version": "1.0.0"},
	})
	if err != nil {
		return fail("initialize", err)
	}
	// The answer names the revision the server will speak. This client
	// speaks one, and "SHOULD disconnect" if that is not it.
	var agreed struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(opened, &agreed) // without one, the check below fails
	if agreed.ProtocolVersion != protocolVersion {
		return fail("initialize", fmt.Errorf("the server speaks revision %q, this client %s", agreed.ProtocolVersion, protocolVersion))
	}
	c.version = agreed.ProtocolVersion
	// The handshake ends with a notification; only then may requests go.
	if err := c.notify(ctx, "notifications/initialized"); err != nil {
		return fail("notifications/initialized", err)
	}
	raw, err := c.request(ctx, "tools/call", map[string]any{"name": tool, "arguments": args})
	if err != nil {
		return fail("tools/call", err)
	}
	// The tool's output is a list of content blocks. isError says that
	// the tool failed, though the request itself worked.
	var result struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(raw, &result); err != nil {
		return fail("tools/call", fmt.Errorf("reading the result: %w", err))
	}
	out, code := stdout, 0
	if result.IsError {
		out, code = stderr, 1
	}
	for _, block := range result.Content {
		if block.Type == "text" { // images, audio, resources are not text
			fmt.Fprintln(out, block.Text)
		}
	}
	return code
}

// client is one session with the server at url.
type client struct {
	url       string
	sessionID string // from the initialize answer's Mcp-Session-Id header
	version   string // the agreed revision, for MCP-Protocol-Version
	lastID    int    // the last request's id, counted from 1
}

// request is a JSON-RPC request; with a nil ID it is a notification,
// which has no id at all (omitempty). A pointer, because 0 is a valid
// id and so cannot mean "none".
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int   `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// response is a message from the server: the answer to a request (its
// id, then result or error), or a message of the server's own (method).
type response struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// rpcError is a JSON-RPC error: the request itself was wrong.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// send sends one HTTP request to the endpoint, carrying msg (nil for
// none), and checks that the status is want.
func (c *client) send(ctx context.Context, method string, msg *request, want int) (*http.Response, error) {
	var body io.Reader
	if msg != nil {
		b, _ := json.Marshal(msg) // a request always encodes
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.url, body)
	if err != nil {
		return nil, err
	}
	if msg != nil {
		req.Header.Set("Content-Type", "application/json")
		// "The client MUST include an Accept header, listing both
		// application/json and text/event-stream": the server picks.
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	if c.sessionID != "" {
		req.Header.Set("Mcp-Session-Id", c.sessionID)
	}
	if c.version != "" {
		req.Header.Set("MCP-Protocol-Version", c.version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err == nil && resp.StatusCode != want {
		// A refusal at the HTTP level; the body says why.
		start, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		resp.Body.Close()
		return nil, fmt.Errorf("HTTP %s: %s", resp.Status, bytes.TrimSpace(start))
	}
	return resp, err
}

// request sends a request and returns its result.
func (c *client) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.lastID++ // an id is never reused within a session
	resp, err := c.send(ctx, http.MethodPost, &request{JSONRPC: "2.0", ID: new(c.lastID), Method: method, Params: params}, http.StatusOK)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if method == "initialize" {
		c.sessionID = resp.Header.Get("Mcp-Session-Id")
	}
	answer := &response{}
	switch mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt {
	case "application/json":
		err = json.NewDecoder(io.LimitReader(resp.Body, maxMessage)).Decode(answer)
	case "text/event-stream":
		answer, err = readEvents(resp.Body, c.lastID)
	default:
		err = fmt.Errorf("an answer of type %q, not application/json or text/event-stream", mt)
	}
	switch {
	case err != nil:
		return nil, err
	case answer.Error != nil:
		return nil, answer.Error // a protocol error, not a tool's failure
	}
	return answer.Result, nil
}

// readEvents reads an SSE stream up to the answer to request id. An
// event is "field: value" lines ended by a blank line, and MCP puts one
// message in its data. Before the answer may come events without data,
// and messages of the server's own, such as notifications/message.
func readEvents(body io.Reader, id int) (*response, error) {
	lines := bufio.NewScanner(body) // it drops "\n" and "\r\n"
	lines.Buffer(make([]byte, 64<<10), maxMessage)
	var data []string
	for lines.Scan() {
		line := lines.Text()
		if value, ok := strings.CutPrefix(line, "data:"); ok {
			data = append(data, strings.TrimPrefix(value, " "))
			continue
		}
		if line != "" || data == nil {
			continue // event:, id:, retry:, ": comments", or no data yet
		}
		var msg response
		err := json.Unmarshal([]byte(strings.Join(data, "\n")), &msg)
		data = nil
		// A request from the server has an id too, from its own count.
		if err == nil && msg.Method == "" && string(msg.ID) == strconv.Itoa(id) {
			return &msg, nil
		}
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("reading the event stream: %w", err)
	}
	return nil, fmt.Errorf("the event stream ended before the answer to request %d", id)
}

// notify sends a notification: "the server MUST return HTTP status code
// 202 Accepted with no body."
func (c *client) notify(ctx context.Context, method string) error {
	resp, err := c.send(ctx, http.MethodPost, &request{JSONRPC: "2.0", Method: method}, http.StatusAccepted)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

// end ends the session with DELETE, as a client that is done SHOULD. A
// server may refuse (405); either way there is nothing left to do.
func (c *client) end() {
	if c.sessionID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if resp, err := c.send(ctx, http.MethodDelete, nil, http.StatusNoContent); err == nil {
		resp.Body.Close()
	}
}
