package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
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
	// Info names the client: clientInfo in initialize, and
	// io.modelcontextprotocol/clientInfo in every modern request's _meta.
	// Zero means {"name":"wirelab","version":"dev"}.
	Info Implementation

	// ProtocolVersion pins the protocol revision. Empty means: speak
	// ModernVersion, and fall back to the legacy era (initialize with
	// LegacyVersion) when the server turns out not to speak it. A modern
	// revision pins the modern era; a legacy one skips the probe and opens
	// with initialize, where the server may answer with another revision
	// the client also speaks.
	ProtocolVersion string

	// Elicit answers elicitation/create: the server asks the user, through
	// the client, to fill in a form. With it the client declares the
	// elicitation capability (form mode); without it, it declares none and
	// a server must not ask. It runs while the call that needed the answer
	// waits, so it may take as long as the user does, within that call's
	// ctx.
	Elicit func(ctx context.Context, p ElicitParams) (ElicitResult, error)

	// OnNotification receives every notification from the server
	// (notifications/progress, notifications/message, ...), in the order
	// they arrive. It runs on the goroutine reading the server's messages
	// (over HTTP, one per call in progress, so perhaps several at once),
	// and must not block. Nil ignores them.
	OnNotification func(method string, params json.RawMessage)

	// OnWarning hears what the client chose to ignore: a tool dropped from
	// tools/list because the HTTP transport could not carry its calls.
	// Nil discards the warnings.
	OnWarning func(msg string)

	// Stderr receives a stdio server's stderr, its logs. Nil discards
	// them. Unused over HTTP.
	Stderr io.Writer

	// Token is sent as "Authorization: Bearer TOKEN" over HTTP. Stdio has
	// no tokens: the server runs as the user who started it.
	Token string

	// HTTPClient makes the HTTP requests. Nil means a client of its own.
	HTTPClient *http.Client
}

// Client is one connection to an MCP server, seen from the client side:
// the era is settled, and the server's tools, resources and prompts can
// be used. Calls may overlap; each has its own request id, and answers
// are matched to callers by id.
//
// The era is settled once, when the client connects, and kept for the
// client's lifetime, as the specification asks ("the era determination
// is a property of the server, not of an individual request"):
//
//   - modern (2026-07-28): no handshake; every request carries the
//     revision, the client's name and its capabilities in params._meta.
//   - legacy (2025-11-25 and before): initialize opens a session first.
//
// A call's ctx is its timeout. The specification says "implementations
// SHOULD establish timeouts for all sent requests", so give ctx a
// deadline: when it ends, the client tells the server (a
// notifications/cancelled, or, over modern HTTP, by closing the
// response stream) and returns ctx's error.
type Client struct {
	t         clientTransport
	onNotify  func(method string, params json.RawMessage)
	onWarning func(msg string)
	elicit    func(ctx context.Context, p ElicitParams) (ElicitResult, error)
	info      Implementation // who this client says it is

	// Set while connecting, read-only afterwards.
	modern bool             // the era: true for 2026-07-28
	init   InitializeResult // the server's answer to initialize, or its server/discover in InitializeResult's shape
	// cancelByClosing: over modern HTTP, "closing the SSE response stream
	// is itself the cancellation signal", so no notifications/cancelled.
	cancelByClosing bool

	// lifetime ends when Close is called. The client's answers to the
	// server's requests are sent within it, since no caller is waiting
	// for them.
	lifetime context.Context
	stop     context.CancelFunc
	answers  sync.WaitGroup // answers to server requests still being sent

	mu      sync.Mutex // guards the fields below
	lastID  int64
	version string                                // the revision in use; modern requests name it in _meta
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
	// opened is told that the legacy session is open. HTTP opens the
	// stream for the server's own messages; stdio needs nothing.
	opened()
	// carry filters a modern tools/list by what the transport can carry:
	// HTTP drops tools whose x-mcp-header annotations are invalid and
	// remembers the rest, to mirror arguments into headers.
	carry(tools []ListedTool) (kept []ListedTool, warnings []string)
	close() error
}

func newClient(t clientTransport, opts *ClientOptions) *Client {
	c := &Client{t: t, pending: make(map[jsonrpc.ID]chan *jsonrpc.Response)}
	c.onNotify = opts.OnNotification
	c.onWarning = opts.OnWarning
	c.elicit = opts.Elicit
	c.info = opts.Info
	if c.info == (Implementation{}) {
		c.info = Implementation{Name: "wirelab", Version: "dev"}
	}
	c.lifetime, c.stop = context.WithCancel(context.Background())
	return c
}

// InitializeResult describes the server: the revision in use, its name
// and version, and its capabilities. In the legacy era it is the
// server's answer to initialize; in the modern era it is assembled from
// server/discover, whose serverInfo travels in _meta.
func (c *Client) InitializeResult() InitializeResult { return c.init }

// Modern reports whether the client speaks the modern, stateless era.
func (c *Client) Modern() bool { return c.modern }

// connect settles the era. A pinned legacy revision goes straight to
// initialize; otherwise the client speaks modern first (probe, on the
// transport's terms) and falls back to initialize when the server
// proves to be legacy.
func (c *Client) connect(ctx context.Context, opts *ClientOptions, probe func(ctx context.Context) (legacyAt string, err error)) error {
	v := opts.ProtocolVersion
	switch {
	case isLegacy(v):
		return c.handshake(ctx, v)
	case v == "":
		v = ModernVersion
	case v != ModernVersion:
		return fmt.Errorf("protocol revision %q: this client speaks %v", v, SupportedVersions())
	}
	c.modern = true
	c.version = v
	legacyAt, err := probe(ctx)
	if err != nil {
		return err
	}
	if legacyAt == "" {
		return nil // modern it is
	}
	if opts.ProtocolVersion != "" {
		return fmt.Errorf("the server does not speak protocol revision %s (pinned), only the legacy %s", opts.ProtocolVersion, legacyAt)
	}
	c.modern = false
	return c.handshake(ctx, legacyAt)
}

// handshake opens a legacy session: initialize, a check that the revision
// the server chose is one this client speaks, then
// notifications/initialized.
func (c *Client) handshake(ctx context.Context, version string) error {
	p := InitializeParams{ProtocolVersion: version, ClientInfo: c.info, Capabilities: c.capabilities()}
	var res InitializeResult
	if err := c.callDecoded(ctx, c.newID(), "initialize", p, &res); err != nil {
		return err
	}
	// "If the client does not support the version in the server's
	// response, it SHOULD disconnect."
	if !isLegacy(res.ProtocolVersion) {
		return fmt.Errorf("initialize: the server chose protocol revision %q, which this client does not speak in a session (it asked for %s)",
			res.ProtocolVersion, version)
	}
	c.init = res
	c.version = res.ProtocolVersion
	c.t.negotiated(res.ProtocolVersion)
	// "After successful initialization, the client MUST send an
	// initialized notification to indicate it is ready to begin normal
	// operations."
	if err := c.t.send(ctx, &jsonrpc.Request{Method: "notifications/initialized"}); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	c.t.opened()
	return nil
}

// newID returns the next request id. Ids are the client's choice; the
// specification only asks that they never repeat.
func (c *Client) newID() jsonrpc.ID {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastID++
	return jsonrpc.IntID(c.lastID)
}

// call sends a request in the client's era and decodes its result into
// result. id is the first request's id (a modern request may be sent
// again under new ids).
func (c *Client) call(ctx context.Context, id jsonrpc.ID, method string, params, result any) error {
	if c.modern {
		return c.callModern(ctx, id, method, params, result)
	}
	return c.callDecoded(ctx, id, method, params, result)
}

// callDecoded is one exchange, with params encoded and the result
// decoded: the whole of a legacy call.
func (c *Client) callDecoded(ctx context.Context, id jsonrpc.ID, method string, params, result any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("%s: encoding params: %w", method, err)
	}
	res, err := c.exchange(ctx, id, method, raw)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(res, result); err != nil {
		return fmt.Errorf("%s: the result is not the JSON expected: %w", method, err)
	}
	return nil
}

// exchange sends one request and waits for its answer: the result, or
// the error the server answered with (a *jsonrpc.Error), or why no
// answer came.
func (c *Client) exchange(ctx context.Context, id jsonrpc.ID, method string, params json.RawMessage) (json.RawMessage, error) {
	answer := make(chan *jsonrpc.Response, 1) // receive never waits on a caller
	c.mu.Lock()
	if c.broken != nil {
		err := c.brokenErr(method)
		c.mu.Unlock()
		return nil, err
	}
	c.pending[id] = answer
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()

	if err := c.t.send(ctx, &jsonrpc.Request{ID: id, Method: method, Params: params}); err != nil {
		if ctx.Err() != nil {
			return nil, c.abandon(id, method, ctx.Err())
		}
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case resp, ok := <-answer:
		if !ok {
			c.mu.Lock()
			defer c.mu.Unlock()
			return nil, c.brokenErr(method)
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("%s: %w", method, resp.Error)
		}
		return resp.Result, nil
	case <-ctx.Done():
		return nil, c.abandon(id, method, ctx.Err())
	}
}

// abandon stops waiting for a request and tells the server so.
func (c *Client) abandon(id jsonrpc.ID, method string, cause error) error {
	// "The client MUST NOT attempt to cancel its initialize request." Nor
	// does it cancel its server/discover probe: a legacy server has no
	// session in which the notice would mean anything.
	if method != "initialize" && method != "server/discover" && !c.cancelByClosing {
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
		// The answer is worked out and written on a goroutine of its own,
		// so that the reader never waits on a user or on a write to the
		// server (which may itself be waiting for us to read). It ends
		// when the answer is sent or fails; Close waits for it.
		go func() {
			defer c.answers.Done()
			c.answer(m)
		}()
	}
}

// answer replies to a request from the server, sent as a request of its
// own in the legacy era (the modern era asks inside results instead; see
// callModern).
func (c *Client) answer(req *jsonrpc.Request) {
	var resp *jsonrpc.Response
	if req.Method == "ping" {
		// "The receiver MUST respond promptly with an empty response."
		resp = &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}
	} else {
		// The user may take a while; Close ends the wait.
		result, err := c.answerInput(c.lifetime, req.Method, req.Params)
		var rpcErr *jsonrpc.Error
		switch {
		case err == nil:
			resp = &jsonrpc.Response{ID: req.ID, Result: result}
		case errors.As(err, &rpcErr):
			resp = jsonrpc.NewErrorResponse(req.ID, rpcErr)
		default:
			resp = jsonrpc.NewErrorResponse(req.ID, jsonrpc.Errorf(jsonrpc.CodeInternalError, "%s: %v", req.Method, err))
		}
	}
	ctx, cancel := context.WithTimeout(c.lifetime, noticeTimeout)
	defer cancel()
	// A failure has no one to be reported to: the server is gone or not
	// listening, and the next call will find out.
	_ = c.t.send(ctx, resp)
}

// warn passes on something the client chose to ignore.
func (c *Client) warn(msg string) {
	if c.onWarning != nil {
		c.onWarning(msg)
	}
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

// Close ends the connection. Over stdio it closes the server's stdin and
// waits for the process to exit; over HTTP it asks the server to end the
// legacy session, if there is one. It is safe to call more than once.
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
