package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/stdio"
)

const (
	// maxHTTPAnswer is the largest application/json answer the client
	// reads. The largest honest answer is a page of tools, a few
	// kilobytes; an SSE stream is read event by event, each line at most
	// stdio.DefaultMaxLine.
	maxHTTPAnswer = 4 << 20

	// maxResumes bounds how often one legacy response stream is resumed.
	// A server may close the connection after every event and let the
	// client poll ("the client SHOULD then poll the SSE stream by
	// attempting to reconnect"), but one that never gets to the response
	// must not hold the client forever.
	maxResumes = 5

	// defaultRetry is the wait before resuming a stream whose server sent
	// no retry field. The SSE standard leaves the default to the client
	// and suggests "a few seconds"; one is enough for a local server.
	defaultRetry = time.Second
)

// HTTPError is an HTTP status refusing a message before any JSON-RPC
// answer: the Streamable HTTP transport's own way of saying no. The
// common ones are 401 (a token is needed), 403 (the token may not do
// this), 404 (the session is gone, or there is no MCP endpoint here) and
// 400 (a missing or malformed header). A modern server also answers 400
// or 404 with a JSON-RPC error in the body (-32022 unsupported revision,
// -32020 a header that disagrees with the body, -32601 no such method):
// RPC holds it, and errors.As finds it as a *jsonrpc.Error.
type HTTPError struct {
	Status          string // such as "401 Unauthorized"
	StatusCode      int
	WWWAuthenticate string         // how to authenticate, on 401 and 403
	SessionID       string         // the legacy session the refused request belonged to, if any
	Body            string         // the start of the body, for humans
	RPC             *jsonrpc.Error // the JSON-RPC error in the body, if there is one
}

func (e *HTTPError) Error() string {
	msg := "HTTP " + e.Status
	switch {
	case e.StatusCode == http.StatusUnauthorized:
		msg += ": the server needs a token (--token, sent as Authorization: Bearer)"
	case e.StatusCode == http.StatusNotFound && e.SessionID != "":
		// "When a client receives HTTP 404 in response to a request
		// containing an MCP-Session-Id, it MUST start a new session by
		// sending a new InitializeRequest without a session ID attached."
		msg += fmt.Sprintf(": the server no longer knows session %q (it ended, or the server restarted); connect again to start a new one", e.SessionID)
	case e.StatusCode == http.StatusNotFound && e.RPC == nil:
		msg += ": no MCP endpoint at this URL"
	}
	if e.RPC != nil {
		msg += ": " + e.RPC.Error()
	}
	if e.WWWAuthenticate != "" {
		msg += "; WWW-Authenticate: " + e.WWWAuthenticate
	}
	if e.Body != "" && e.RPC == nil {
		msg += fmt.Sprintf("; body: %q", e.Body)
	}
	return msg
}

// Unwrap returns the JSON-RPC error in the body, if any.
func (e *HTTPError) Unwrap() error {
	if e.RPC == nil {
		return nil
	}
	return e.RPC
}

// ConnectHTTP connects to the MCP server whose Streamable HTTP endpoint
// is url, such as "http://127.0.0.1:8021/mcp". ctx bounds connecting.
//
// Unless opts pins a legacy revision, the first request is a modern
// server/discover. "On 400 Bad Request, the client SHOULD inspect the
// response body before falling back": a recognized modern JSON-RPC error
// means a modern server; any other refusal (4xx) means a legacy one, and
// the client opens a session with initialize instead.
func ConnectHTTP(ctx context.Context, url string, opts *ClientOptions) (*Client, error) {
	if opts == nil {
		opts = &ClientOptions{}
	}
	t := &httpTransport{url: url, token: opts.Token, hc: opts.HTTPClient,
		tools: make(map[string][]paramHeader), dropped: make(map[string]string)}
	if t.hc == nil {
		t.hc = &http.Client{}
	}
	t.streams, t.stopStreams = context.WithCancel(context.Background())
	c := newClient(t, opts)
	t.receive = c.receive
	err := c.connect(ctx, opts, func(ctx context.Context) (string, error) {
		return c.discover(ctx, 0, legacyRefusal)
	})
	if err != nil {
		c.Close()
		return nil, err
	}
	c.cancelByClosing = c.modern
	return c, nil
}

// legacyRefusal reports whether the answer to a modern request means a
// legacy server: "If the body is empty or is not a recognized modern
// JSON-RPC error, fall back to initialize". That is a JSON-RPC error, or
// a 4xx without one. 401 and 403 are about the token, not the era.
func legacyRefusal(err error) bool {
	var he *HTTPError
	if !errors.As(err, &he) {
		var rpcErr *jsonrpc.Error
		return errors.As(err, &rpcErr)
	}
	return he.StatusCode >= 400 && he.StatusCode < 500 &&
		he.StatusCode != http.StatusUnauthorized && he.StatusCode != http.StatusForbidden
}

// httpTransport is Streamable HTTP: "every JSON-RPC message sent from
// the client MUST be a new HTTP POST request to the MCP endpoint." What
// comes back on that POST is the answer, and whatever the server has to
// say before it.
type httpTransport struct {
	url     string
	token   string
	hc      *http.Client
	receive func(jsonrpc.Message)

	// streams is the lifetime of the legacy GET stream, which outlives
	// any call; close ends it and waits for its reader.
	streams     context.Context
	stopStreams context.CancelFunc
	listening   sync.WaitGroup

	mu        sync.Mutex               // guards the fields below
	sessionID string                   // legacy: from the MCP-Session-Id header of the initialize answer
	version   string                   // legacy: the negotiated revision, for the MCP-Protocol-Version header
	tools     map[string][]paramHeader // modern: each listed tool's x-mcp-header annotations
	dropped   map[string]string        // modern: tools left out of tools/list, and why
}

func (t *httpTransport) negotiated(version string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.version = version
}

// opened opens the stream on which the server sends what belongs to no
// request of ours, such as a question for the user while a tool runs.
func (t *httpTransport) opened() { t.listen() }

// carry keeps the tools whose x-mcp-header annotations are valid and
// remembers them, for the Mcp-Param-* headers of later calls.
func (t *httpTransport) carry(tools []ListedTool) ([]ListedTool, []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var kept []ListedTool
	var warnings []string
	for _, tool := range tools {
		headers, err := parseParamHeaders(tool.InputSchema)
		if err != nil {
			// "Clients SHOULD log a warning when rejecting a tool
			// definition, including the tool name and the reason."
			t.dropped[tool.Name] = err.Error()
			delete(t.tools, tool.Name)
			warnings = append(warnings, fmt.Sprintf("tool %q left out: %v", tool.Name, err))
			continue
		}
		t.tools[tool.Name] = headers
		delete(t.dropped, tool.Name)
		kept = append(kept, tool)
	}
	return kept, warnings
}

// toolKnown reports whether tools/list has shown name, and, if it was
// left out, why.
func (t *httpTransport) toolKnown(name string) (known bool, dropped string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if reason, ok := t.dropped[name]; ok {
		return true, reason
	}
	_, ok := t.tools[name]
	return ok, ""
}

// send POSTs one message. For a request, it reads the answer before
// returning, handing every message on the way to receive.
func (t *httpTransport) send(ctx context.Context, msg jsonrpc.Message) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encoding message: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	// "The client MUST include an Accept header, listing both
	// application/json and text/event-stream as supported content types."
	req.Header.Set("Accept", "application/json, text/event-stream")
	session, modern, err := t.headers(req, msg)
	if err != nil {
		return err
	}

	resp, err := t.hc.Do(req)
	if err != nil {
		return err // already names the method and URL
	}
	// The connection goes back to the pool for the next message only
	// once the body has been read to the end and closed.
	defer func() {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxHTTPAnswer))
		resp.Body.Close()
	}()

	call, isRequest := msg.(*jsonrpc.Request)
	isRequest = isRequest && !call.IsNotification()
	if isRequest && call.Method == "initialize" && resp.StatusCode == http.StatusOK {
		// "A server using the Streamable HTTP transport MAY assign a
		// session ID at initialization time, by including it in an
		// MCP-Session-Id header on the HTTP response containing the
		// InitializeResult."
		t.mu.Lock()
		t.sessionID = resp.Header.Get("MCP-Session-Id")
		t.mu.Unlock()
	}
	switch {
	case resp.StatusCode == http.StatusAccepted && !isRequest:
		// "If the input is a JSON-RPC response or notification: If the
		// server accepts the input, the server MUST return HTTP status
		// code 202 Accepted with no body."
		return nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return refusal(resp, session)
	case !isRequest:
		return nil
	}

	// "If the input is a JSON-RPC request, the server MUST either return
	// Content-Type: text/event-stream, to initiate an SSE stream, or
	// Content-Type: application/json, to return one JSON object."
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		return t.readJSON(resp.Body, call.ID)
	case "text/event-stream":
		events := &sseReader{lines: stdio.NewLineReader(resp.Body, 0)}
		err := t.readEvents(events, call.ID)
		if errors.Is(err, errStreamLost) && !modern && events.lastID != "" {
			// 2025-11-25: "If the client wishes to resume after a
			// disconnection (whether due to network failure or
			// server-initiated closure), it SHOULD issue an HTTP GET to
			// the MCP endpoint, and include the Last-Event-ID header."
			// The modern era removed this: the client sends the request
			// again instead (callModern).
			return t.resume(ctx, events, call.ID)
		}
		return err
	}
	return fmt.Errorf("POST %s: HTTP %s with Content-Type %q; an answer to a request is application/json or text/event-stream",
		t.url, resp.Status, resp.Header.Get("Content-Type"))
}

// headers adds what the message's era asks of every POST, and returns
// the session id sent and whether the message is modern: one that names
// its revision in params._meta.
//
// Legacy: MCP-Session-Id and MCP-Protocol-Version, from initialize.
// Modern: no session; MCP-Protocol-Version from the body's _meta ("The
// header value MUST match the io.modelcontextprotocol/protocolVersion
// field"), Mcp-Method, Mcp-Name and Mcp-Param-*.
func (t *httpTransport) headers(req *http.Request, msg jsonrpc.Message) (session string, modern bool, err error) {
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	if r, ok := msg.(*jsonrpc.Request); ok {
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		var version string
		if json.Unmarshal(r.Params, &p) == nil && json.Unmarshal(p.Meta[MetaProtocolVersion], &version) == nil && version != "" {
			req.Header.Set("MCP-Protocol-Version", version)
			tool, args := standardHeaders(req.Header, r.Method, r.Params)
			if tool != "" {
				t.mu.Lock()
				annotated := t.tools[tool]
				t.mu.Unlock()
				if err := setParamHeaders(req.Header, annotated, args); err != nil {
					return "", true, fmt.Errorf("tool %q: %w", tool, err)
				}
			}
			return "", true, nil
		}
	}
	return t.sessionHeaders(req), false, nil
}

// sessionHeaders adds what every legacy request after initialize
// carries, and returns the session id sent.
func (t *httpTransport) sessionHeaders(req *http.Request) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sessionID != "" {
		// "If an MCP-Session-Id is returned by the server during
		// initialization, clients using the Streamable HTTP transport
		// MUST include it in the MCP-Session-Id header on all of their
		// subsequent HTTP requests."
		req.Header.Set("MCP-Session-Id", t.sessionID)
	}
	if t.version != "" {
		// "the client MUST include the MCP-Protocol-Version:
		// <protocol-version> HTTP header on all subsequent requests."
		req.Header.Set("MCP-Protocol-Version", t.version)
	}
	return t.sessionID
}

// refusal turns an unsuccessful status into an *HTTPError, with the
// JSON-RPC error of the body if it carries one.
func refusal(resp *http.Response, session string) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxHTTPAnswer))
	he := &HTTPError{
		Status:          resp.Status,
		StatusCode:      resp.StatusCode,
		WWWAuthenticate: resp.Header.Get("WWW-Authenticate"),
		SessionID:       session,
		Body:            strings.TrimSpace(string(body[:min(len(body), 300)])),
	}
	if msg, _ := jsonrpc.Decode(body); msg != nil {
		if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
			he.RPC = r.Error
		}
	}
	return he
}

// readJSON reads an application/json answer: one message, the response.
func (t *httpTransport) readJSON(body io.Reader, want jsonrpc.ID) error {
	data, err := io.ReadAll(io.LimitReader(body, maxHTTPAnswer+1))
	if err != nil {
		return fmt.Errorf("reading the answer: %w", err)
	}
	if len(data) > maxHTTPAnswer {
		return fmt.Errorf("the answer is longer than %d bytes", maxHTTPAnswer)
	}
	msg, bad := jsonrpc.Decode(data)
	if msg == nil {
		return fmt.Errorf("the answer is not a JSON-RPC message (%s): %.200q", bad.Error.Message, data)
	}
	t.receive(msg)
	if r, ok := msg.(*jsonrpc.Response); !ok || r.ID != want {
		return fmt.Errorf("the answer is not the response to request %s: %.200q", want, data)
	}
	return nil
}

// readEvents reads an SSE stream until the response to want. "The SSE
// stream SHOULD eventually include a JSON-RPC response for the JSON-RPC
// request sent in the POST body"; before it may come notifications and
// requests from the server, which are handed to receive like the
// response. A stream that ends first returns errStreamLost.
func (t *httpTransport) readEvents(events *sseReader, want jsonrpc.ID) error {
	var noise string
	for {
		ev, err := events.next()
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("%w to request %s", errStreamLost, want)
			if noise != "" {
				err = fmt.Errorf("%w; it carried something that is not a JSON-RPC message: %.200q", err, noise)
			}
			return err
		}
		if err != nil {
			return fmt.Errorf("reading the event stream: %w", err)
		}
		// An event with no data primes the client for resuming the
		// stream later (its id is the place to resume from); events of
		// other types are not MCP messages.
		if strings.TrimSpace(ev.data) == "" || (ev.event != "" && ev.event != "message") {
			continue
		}
		msg, _ := jsonrpc.Decode([]byte(ev.data))
		if msg == nil {
			noise = ev.data
			continue
		}
		t.receive(msg)
		if r, ok := msg.(*jsonrpc.Response); ok && r.ID == want {
			// "After the JSON-RPC response has been sent, the server
			// SHOULD terminate the SSE stream." No need to wait for it.
			return nil
		}
	}
}

// resume picks up a legacy response stream that ended before the
// response: wait as long as the server's retry field said ("The client
// MUST respect the retry field, waiting the given number of milliseconds
// before attempting to reconnect"), then GET with Last-Event-ID, the id
// of the last event received, and read on.
func (t *httpTransport) resume(ctx context.Context, events *sseReader, want jsonrpc.ID) error {
	for attempt := 1; ; attempt++ {
		wait := events.retry
		if wait == 0 {
			wait = defaultRetry
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Last-Event-ID", events.lastID)
		if t.token != "" {
			req.Header.Set("Authorization", "Bearer "+t.token)
		}
		session := t.sessionHeaders(req)
		resp, err := t.hc.Do(req)
		if err != nil {
			return fmt.Errorf("resuming the event stream: %w", err)
		}
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if resp.StatusCode != http.StatusOK || mt != "text/event-stream" {
			err := refusal(resp, session)
			resp.Body.Close()
			return fmt.Errorf("resuming the event stream after event %q: %w", events.lastID, err)
		}
		// The new stream goes on where the old one stopped: the same
		// last event id and retry, until it sends its own.
		events = &sseReader{lines: stdio.NewLineReader(resp.Body, 0), lastID: events.lastID, retry: events.retry}
		err = t.readEvents(events, want)
		resp.Body.Close()
		if !errors.Is(err, errStreamLost) || events.lastID == "" {
			return err
		}
		if attempt == maxResumes {
			return fmt.Errorf("%w (resumed %d times)", err, attempt)
		}
	}
}

// listen opens the legacy GET stream: "The client MAY issue an HTTP GET
// to the MCP endpoint. This can be used to open an SSE stream, allowing
// the server to communicate to the client, without the client first
// sending data via HTTP POST." The server may send requests there (a
// question for the user while a tool runs), so without it such a call
// waits forever. It returns once the server has answered the GET, so
// that the stream is open before the first call; "HTTP 405 Method Not
// Allowed, indicating that the server does not offer an SSE stream", is
// fine. A stream that ends is not opened again.
func (t *httpTransport) listen() {
	ctx, cancel := context.WithCancel(t.streams)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.url, nil)
	if err != nil {
		cancel()
		return
	}
	req.Header.Set("Accept", "text/event-stream")
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	t.sessionHeaders(req)
	// The headers come at once from a server that offers the stream; one
	// that takes longer than noticeTimeout is not going to.
	giveUp := time.AfterFunc(noticeTimeout, cancel)
	resp, err := t.hc.Do(req)
	giveUp.Stop()
	if err != nil {
		cancel()
		return
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusOK || mt != "text/event-stream" {
		resp.Body.Close()
		cancel()
		return
	}
	t.listening.Add(1)
	// Ends when the server ends the stream, or when close cancels ctx,
	// which makes the body's Read fail.
	go func() {
		defer t.listening.Done()
		defer cancel()
		defer resp.Body.Close()
		events := &sseReader{lines: stdio.NewLineReader(resp.Body, 0)}
		for {
			ev, err := events.next()
			if err != nil {
				return
			}
			if strings.TrimSpace(ev.data) == "" || (ev.event != "" && ev.event != "message") {
				continue
			}
			if msg, _ := jsonrpc.Decode([]byte(ev.data)); msg != nil {
				t.receive(msg)
			}
		}
	}()
}

// close ends the GET stream, then the legacy session: "Clients that no
// longer need a particular session ... SHOULD send an HTTP DELETE to the
// MCP endpoint with the MCP-Session-Id header, to explicitly terminate
// the session." "The server MAY respond to this request with HTTP 405
// Method Not Allowed, indicating that the server does not allow clients
// to terminate sessions", which is fine too. The modern era has no
// session to end.
func (t *httpTransport) close() error {
	t.stopStreams()
	t.listening.Wait()
	t.mu.Lock()
	session := t.sessionID
	t.mu.Unlock()
	if session == "" {
		return nil // no session to end
	}
	ctx, cancel := context.WithTimeout(context.Background(), noticeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil)
	if err != nil {
		return err
	}
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	t.sessionHeaders(req)
	resp, err := t.hc.Do(req)
	if err != nil {
		return fmt.Errorf("ending the session: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299, resp.StatusCode == http.StatusMethodNotAllowed:
		return nil
	case resp.StatusCode == http.StatusNotFound:
		return nil // already gone: the goal of DELETE
	}
	return fmt.Errorf("ending the session: %w", refusal(resp, session))
}

// sseEvent is one Server-Sent Event: the fields MCP uses.
type sseEvent struct {
	id    string // the event's id, if it had one: where to resume from
	event string // the event type; empty means "message"
	data  string // the data lines, joined by "\n"
}

// sseReader reads the text/event-stream format (the HTML Living
// Standard, "Server-sent events"): lines of "field: value", each event
// ended by a blank line. Lines starting with ":" are comments, often
// sent to keep a connection alive. Lines may end in "\r\n" or "\n";
// stdio.LineReader removes both. Like a browser's EventSource, it
// remembers the last event id and the retry time across events, for
// resuming the stream.
type sseReader struct {
	lines  *stdio.LineReader
	lastID string        // the last id field seen, even on an event without data
	retry  time.Duration // the last retry field seen; zero if none
}

// next returns the next event with data. At the end of the stream it
// returns io.EOF; an event cut off by the end is dropped, as the
// standard says.
func (r *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	var data []string
	for {
		line, err := r.lines.Next()
		if err != nil {
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if data == nil {
				ev = sseEvent{} // "If the data buffer is an empty string", no event
				continue
			}
			ev.data = strings.Join(data, "\n")
			return ev, nil
		}
		if line[0] == ':' {
			continue
		}
		// "field: value": one space after the colon is not part of the
		// value. A line with no colon is a field with an empty value.
		field, value, _ := strings.Cut(string(line), ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			data = append(data, value)
		case "event":
			ev.event = value
		case "id":
			// "If the field value does not contain U+0000 NULL, then set
			// the last event ID buffer to the field value."
			if !strings.ContainsRune(value, 0) {
				ev.id = value
				r.lastID = value
			}
		case "retry":
			// "If the field value consists of only ASCII digits, then
			// interpret the field value as an integer in base ten, and
			// set the event stream's reconnection time to that integer."
			if ms, err := strconv.ParseUint(value, 10, 32); err == nil {
				r.retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
}
