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
	"strings"
	"sync"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/stdio"
)

// maxHTTPAnswer is the largest application/json answer the client reads.
// The largest honest answer is a page of tools, a few kilobytes; an SSE
// stream is read event by event, each line at most stdio.DefaultMaxLine.
const maxHTTPAnswer = 4 << 20

// HTTPError is an HTTP status refusing a message before any JSON-RPC
// answer: the Streamable HTTP transport's own way of saying no. The
// common ones are 401 (a token is needed), 403 (the token may not do
// this), 404 (the session is gone, or there is no MCP endpoint here) and
// 400 (a missing or malformed header).
type HTTPError struct {
	Status          string // such as "401 Unauthorized"
	StatusCode      int
	WWWAuthenticate string // how to authenticate, on 401 and 403
	SessionID       string // the session the refused request belonged to, if any
	Body            string // the start of the body, for humans
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
	case e.StatusCode == http.StatusNotFound:
		msg += ": no MCP endpoint at this URL"
	}
	if e.WWWAuthenticate != "" {
		msg += "; WWW-Authenticate: " + e.WWWAuthenticate
	}
	if e.Body != "" {
		msg += fmt.Sprintf("; body: %q", e.Body)
	}
	return msg
}

// ConnectHTTP opens a session with the MCP server whose Streamable HTTP
// endpoint is url, such as "http://127.0.0.1:8021/mcp". ctx bounds the
// handshake.
func ConnectHTTP(ctx context.Context, url string, opts *ClientOptions) (*Client, error) {
	if opts == nil {
		opts = &ClientOptions{}
	}
	t := &httpTransport{url: url, token: opts.Token, hc: opts.HTTPClient}
	if t.hc == nil {
		t.hc = &http.Client{}
	}
	c := newClient(t, opts)
	t.receive = c.receive
	if err := c.handshake(ctx, opts); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
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

	mu        sync.Mutex // guards the fields below
	sessionID string     // from the MCP-Session-Id header of the initialize answer
	version   string     // the negotiated revision, for the MCP-Protocol-Version header
}

func (t *httpTransport) negotiated(version string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.version = version
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
	session := t.headers(req)

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
		return t.readEvents(resp.Body, call.ID)
	}
	return fmt.Errorf("POST %s: HTTP %s with Content-Type %q; an answer to a request is application/json or text/event-stream",
		t.url, resp.Status, resp.Header.Get("Content-Type"))
}

// headers adds what every request after initialize carries, and returns
// the session id sent.
func (t *httpTransport) headers(req *http.Request) string {
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
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

// refusal turns an unsuccessful status into an *HTTPError.
func refusal(resp *http.Response, session string) error {
	start, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	return &HTTPError{
		Status:          resp.Status,
		StatusCode:      resp.StatusCode,
		WWWAuthenticate: resp.Header.Get("WWW-Authenticate"),
		SessionID:       session,
		Body:            strings.TrimSpace(string(start)),
	}
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
// response.
func (t *httpTransport) readEvents(body io.Reader, want jsonrpc.ID) error {
	events := &sseReader{lines: stdio.NewLineReader(body, 0)}
	var noise string
	for {
		ev, err := events.next()
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("the event stream ended before the response to request %s", want)
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

// close ends the session: "Clients that no longer need a particular
// session ... SHOULD send an HTTP DELETE to the MCP endpoint with the
// MCP-Session-Id header, to explicitly terminate the session." "The
// server MAY respond to this request with HTTP 405 Method Not Allowed,
// indicating that the server does not allow clients to terminate
// sessions", which is fine too.
func (t *httpTransport) close() error {
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
	t.headers(req)
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
	id    string // where to resume from; this client does not resume
	event string // the event type; empty means "message"
	data  string // the data lines, joined by "\n"
}

// sseReader reads the text/event-stream format (the HTML Living
// Standard, "Server-sent events"): lines of "field: value", each event
// ended by a blank line. Lines starting with ":" are comments, often
// sent to keep a connection alive. Lines may end in "\r\n" or "\n";
// stdio.LineReader removes both.
type sseReader struct {
	lines *stdio.LineReader
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
			ev.id = value
		}
		// "retry" tells a reconnecting client how long to wait; this
		// client does not reconnect. Other fields are ignored.
	}
}
