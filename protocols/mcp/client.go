package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// noticeTimeout bounds sending a message nobody waits for an answer to:
// notifications/cancelled after the caller gave up, and the client's
// answers to the server's requests. Over stdio such a write takes
// microseconds; over HTTP the server answers 202 at once, so a server
// that takes seconds is not listening.
const noticeTimeout = 5 * time.Second

// ClientOptions configures [Connect] and [ConnectHTTP]. A nil
// *ClientOptions means the defaults.
type ClientOptions struct {
	// Info is the clientInfo sent in initialize. Zero means
	// {"name":"wirelab","version":"dev"}.
	Info Implementation

	// Version is the protocol revision to ask for. Empty means
	// LegacyVersion. The server may answer with another; the client goes
	// on if it speaks that one too.
	Version string

	// OnNotification receives every notification from the server
	// (notifications/progress, notifications/message, ...), in the order
	// they arrive. It runs on the goroutine reading the server's messages
	// (over HTTP, one per call in progress, so perhaps several at once),
	// and must not block. Nil ignores them.
	OnNotification func(method string, params json.RawMessage)

	// Stderr receives a stdio server's stderr, its logs. Nil discards
	// them. Unused over HTTP.
	Stderr io.Writer

	// Token is sent as "Authorization: Bearer TOKEN" over HTTP. Stdio has
	// no tokens: the server runs as the user who started it.
	Token string

	// HTTPClient makes the HTTP requests. Nil means a client of its own.
	HTTPClient *http.Client
}

// Client is one MCP session, seen from the client side: the handshake is
// done, and the server's tools can be listed and called. Calls may
// overlap; each has its own request id, and answers are matched to
// callers by id.
//
// A call's ctx is its timeout. The specification says "implementations
// SHOULD establish timeouts for all sent requests", so give ctx a
// deadline: when it ends, the client tells the server with
// notifications/cancelled and returns ctx's error.
type Client struct {
	t        clientTransport
	onNotify func(method string, params json.RawMessage)
	init     InitializeResult // the server's answer to initialize; read-only after the handshake

	// lifetime ends when Close is called. The client's answers to the
	// server's requests are sent within it, since no caller is waiting
	// for them.
	lifetime context.Context
	stop     context.CancelFunc
	answers  sync.WaitGroup // answers to server requests still being sent

	mu      sync.Mutex // guards the fields below
	lastID  int64
	pending map[jsonrpc.ID]chan *jsonrpc.Response // requests waiting for their answer
	broken  error                                 // why no more messages will arrive; set once
	noise   string                                // the last thing the server sent that was not a message
	closing bool                                  // Close has begun: no new answers start

	closeOnce sync.Once
	closeErr  error
}

// clientTransport moves whole JSON-RPC messages to the server. Messages
// coming back are handed to [Client.receive]: by a reader goroutine over
// stdio, and, over HTTP, by send itself, which reads them from the
// answer to its POST.
type clientTransport interface {
	send(ctx context.Context, msg jsonrpc.Message) error
	// negotiated is told the revision agreed in initialize. HTTP sends it
	// in a header on every later request; stdio needs nothing.
	negotiated(version string)
	close() error
}

func newClient(t clientTransport, opts *ClientOptions) *Client {
	c := &Client{t: t, pending: make(map[jsonrpc.ID]chan *jsonrpc.Response)}
	if opts != nil {
		c.onNotify = opts.OnNotification
	}
	c.lifetime, c.stop = context.WithCancel(context.Background())
	return c
}

// InitializeResult returns the server's answer to initialize: the
// negotiated revision, the server's name and version, and its
// capabilities.
func (c *Client) InitializeResult() InitializeResult { return c.init }

// handshake opens the session: initialize, a check that the revision the
// server chose is one this client speaks, then notifications/initialized.
func (c *Client) handshake(ctx context.Context, opts *ClientOptions) error {
	if opts == nil {
		opts = &ClientOptions{}
	}
	p := InitializeParams{ProtocolVersion: opts.Version, ClientInfo: opts.Info}
	if p.ProtocolVersion == "" {
		p.ProtocolVersion = LegacyVersion
	}
	if p.ClientInfo == (Implementation{}) {
		p.ClientInfo = Implementation{Name: "wirelab", Version: "dev"}
	}
	// Capabilities stay empty ({}): this client answers no sampling,
	// roots or elicitation requests, so the server must not send them.
	var res InitializeResult
	if err := c.call(ctx, c.newID(), "initialize", p, &res); err != nil {
		return err
	}
	// "If the client does not support the version in the server's
	// response, it SHOULD disconnect."
	if !isLegacy(res.ProtocolVersion) {
		return fmt.Errorf("initialize: the server chose protocol revision %q, which this client does not speak (it asked for %s)",
			res.ProtocolVersion, p.ProtocolVersion)
	}
	c.init = res
	c.t.negotiated(res.ProtocolVersion)
	// "After successful initialization, the client MUST send an
	// initialized notification to indicate it is ready to begin normal
	// operations."
	if err := c.t.send(ctx, &jsonrpc.Request{Method: "notifications/initialized"}); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

// ListTools returns all the server's tools. The list comes in pages: a
// page with a nextCursor has more after it, asked for by sending that
// cursor back.
func (c *Client) ListTools(ctx context.Context) ([]Tool, error) {
	var all []Tool
	var p ListParams
	seen := make(map[string]bool)
	for {
		var page ListToolsResult
		if err := c.call(ctx, c.newID(), "tools/list", p, &page); err != nil {
			return nil, err
		}
		all = append(all, page.Tools...)
		if page.NextCursor == "" {
			return all, nil
		}
		if seen[page.NextCursor] {
			return nil, fmt.Errorf("tools/list: the server sent cursor %q twice; stopping rather than looping forever", page.NextCursor)
		}
		seen[page.NextCursor] = true
		p.Cursor = page.NextCursor
	}
}

// ToolError is a tool that ran and failed, or refused its arguments: a
// result with "isError": true. Its content says why, for a model to read
// and perhaps correct. It is not a protocol error: the request was fine.
type ToolError struct {
	Tool    string
	Content []Content
}

func (e *ToolError) Error() string {
	var texts []string
	for _, b := range e.Content {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	if len(texts) == 0 {
		return fmt.Sprintf("tool error (%s), with no text to say why", e.Tool)
	}
	return fmt.Sprintf("tool error (%s): %s", e.Tool, strings.Join(texts, "; "))
}

// CallTool runs a tool. With progress, it asks the server for
// notifications/progress, which arrive at OnNotification while the tool
// runs.
//
// The error says who failed. A [*ToolError]: the tool ran and failed. A
// [*jsonrpc.Error]: the server refused the request (-32602 for an unknown
// tool). ctx's error: the caller stopped waiting. Anything else: no
// answer arrived (the process exited, the connection broke, an HTTP
// status such as [*HTTPError]).
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage, progress bool) (*CallToolResult, error) {
	id := c.newID()
	p := CallToolParams{Name: name, Arguments: args}
	if progress {
		// "The progress token MUST be unique across all active requests."
		// The request's own id already is.
		p.Meta = &RequestMeta{ProgressToken: json.RawMessage(id.String())}
	}
	// The content lives inside the response's result:
	//   {"jsonrpc":"2.0","id":3,"result":{"content":[...],"isError":true}}
	// call decodes result, so res.Content is at the right depth. Reading
	// "content" from the top level of the response finds nothing.
	var res CallToolResult
	if err := c.call(ctx, id, "tools/call", p, &res); err != nil {
		return nil, err
	}
	if res.IsError {
		// Returned as an error so that no caller can mistake the failure
		// text for the tool's output.
		return nil, &ToolError{Tool: name, Content: res.Content}
	}
	return &res, nil
}

// newID returns the next request id. Ids are the client's choice; the
// specification only asks that one session never reuse an id.
func (c *Client) newID() jsonrpc.ID {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastID++
	return jsonrpc.IntID(c.lastID)
}

// call sends a request and waits for its answer, decoding the answer's
// result into result.
func (c *Client) call(ctx context.Context, id jsonrpc.ID, method string, params, result any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("%s: encoding params: %w", method, err)
	}
	answer := make(chan *jsonrpc.Response, 1) // receive never waits on a caller
	c.mu.Lock()
	if c.broken != nil {
		err := c.brokenErr(method)
		c.mu.Unlock()
		return err
	}
	c.pending[id] = answer
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()

	if err := c.t.send(ctx, &jsonrpc.Request{ID: id, Method: method, Params: raw}); err != nil {
		if ctx.Err() != nil {
			return c.abandon(id, method, ctx.Err())
		}
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case resp, ok := <-answer:
		if !ok {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.brokenErr(method)
		}
		if resp.Error != nil {
			return fmt.Errorf("%s: %w", method, resp.Error)
		}
		if err := json.Unmarshal(resp.Result, result); err != nil {
			return fmt.Errorf("%s: the result is not the JSON expected: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		return c.abandon(id, method, ctx.Err())
	}
}

// abandon stops waiting for a request and tells the server so.
func (c *Client) abandon(id jsonrpc.ID, method string, cause error) error {
	// "The client MUST NOT attempt to cancel its initialize request."
	if method != "initialize" {
		// "When a party wants to cancel an in-progress request, it sends
		// a notifications/cancelled notification." ctx has ended, so the
		// notice gets a short deadline of its own. If it fails, nothing
		// changes: the caller has stopped waiting either way, and a late
		// answer will be dropped.
		ctx, cancel := context.WithTimeout(c.lifetime, noticeTimeout)
		defer cancel()
		p, _ := json.Marshal(CancelledParams{RequestID: json.RawMessage(id.String()), Reason: "the client stopped waiting: " + cause.Error()})
		_ = c.t.send(ctx, &jsonrpc.Request{Method: "notifications/cancelled", Params: p})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.withNoise(fmt.Errorf("%s (id %s): no answer: %w", method, id, cause))
}

// receive handles one message from the server.
func (c *Client) receive(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		c.mu.Lock()
		answer, ok := c.pending[m.ID]
		delete(c.pending, m.ID)
		c.mu.Unlock()
		if ok {
			answer <- m // buffered, and each id is answered once
		}
		// Otherwise it answers a request the caller gave up on: "due to
		// communication latency, ... a response may arrive after" the
		// cancellation. It is dropped.
	case *jsonrpc.Request:
		if m.IsNotification() {
			if c.onNotify != nil {
				c.onNotify(m.Method, m.Params)
			}
			return
		}
		c.mu.Lock()
		if c.closing {
			c.mu.Unlock()
			return
		}
		c.answers.Add(1)
		c.mu.Unlock()
		// The answer is written on a goroutine of its own, so that the
		// stdio reader never waits on a write to the server (which may
		// itself be waiting for us to read). It ends when the answer is
		// sent or fails; Close waits for it.
		go func() {
			defer c.answers.Done()
			c.answer(m)
		}()
	}
}

// answer replies to a request from the server. This client declares no
// capabilities, so the only request it can expect is ping.
func (c *Client) answer(req *jsonrpc.Request) {
	var resp *jsonrpc.Response
	switch req.Method {
	case "ping":
		// "The receiver MUST respond promptly with an empty response."
		resp = &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}
	default:
		resp = jsonrpc.NewErrorResponse(req.ID, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound,
			"method %q not found: this client declared no capabilities and answers only ping", req.Method))
	}
	ctx, cancel := context.WithTimeout(c.lifetime, noticeTimeout)
	defer cancel()
	// A failure has no one to be reported to: the server is gone or not
	// listening, and the next call will find out.
	_ = c.t.send(ctx, resp)
}

// fail records that no more messages will arrive, and wakes every call
// still waiting.
func (c *Client) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken == nil {
		c.broken = err
	}
	for id, answer := range c.pending {
		close(answer)
		delete(c.pending, id)
	}
}

// brokenErr explains why a call got no answer. c.mu must be held.
func (c *Client) brokenErr(method string) error {
	return c.withNoise(fmt.Errorf("%s: no answer: %w", method, c.broken))
}

// withNoise adds the last thing the server sent that was not a message:
// a stdio server printing logs on stdout is the usual reason answers
// never arrive. c.mu must be held.
func (c *Client) withNoise(err error) error {
	if c.noise == "" {
		return err
	}
	return fmt.Errorf("%w; the server sent something that is not a JSON-RPC message, %q: is it an MCP server, and does it keep its logs on stderr?", err, c.noise)
}

// Close ends the session. Over stdio it closes the server's stdin and
// waits for the process to exit; over HTTP it asks the server to end the
// session. It is safe to call more than once.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		if c.broken == nil {
			c.broken = errors.New("the client is closed")
		}
		c.mu.Unlock()
		c.stop()
		c.closeErr = c.t.close()
		c.answers.Wait()
	})
	return c.closeErr
}
