package a2a

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// Client calls one A2A agent over the JSON-RPC binding, in either
// revision. Its methods take and return the 1.0 types; for a 0.3 agent
// the client translates on the way out and on the way back.
//
// Errors keep their layers apart: a *jsonrpc.Error is the agent's answer
// (task not found, ...); any other error is the transport (no
// connection, an HTTP status, bytes that are not JSON-RPC).
type Client struct {
	URL     string // the JSON-RPC endpoint, from the card
	Version string // Version10 or Version03
	Token   string // bearer token; empty sends none
	HTTP    *http.Client

	lastID atomic.Int64 // numbers the requests
}

// Resolve reads the agent card under base (base + CardPath) and returns
// it with a client for its JSON-RPC interface. It prefers 1.0; with
// version set ("1.0" or "0.3") it takes only that revision.
func Resolve(ctx context.Context, hc *http.Client, base, version, token string) (*Client, AgentCard, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	url := strings.TrimSuffix(base, "/") + CardPath
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, AgentCard{}, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, AgentCard{}, fmt.Errorf("reading the agent card: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody))
	if err != nil {
		return nil, AgentCard{}, fmt.Errorf("reading the agent card: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, AgentCard{}, fmt.Errorf("reading the agent card: GET %s: %s", url, resp.Status)
	}
	var card struct {
		AgentCard
		v03CardFields // a 0.3 card has only these to say where it is
	}
	if err := json.Unmarshal(body, &card); err != nil {
		return nil, AgentCard{}, fmt.Errorf("reading the agent card: %w", err)
	}
	c := &Client{HTTP: hc, Token: token}
	for _, want := range []string{Version10, Version03} {
		if version != "" && version != want {
			continue
		}
		for _, iface := range card.SupportedInterfaces {
			if iface.ProtocolBinding == "JSONRPC" && sameRevision(iface.ProtocolVersion, want) && c.URL == "" {
				c.URL, c.Version = iface.URL, want
			}
		}
		if c.URL == "" && want == Version03 && sameRevision(card.ProtocolVersion, want) &&
			(card.PreferredTransport == "" || card.PreferredTransport == "JSONRPC") {
			c.URL, c.Version = card.URL, want
		}
	}
	if c.URL == "" {
		return nil, card.AgentCard, fmt.Errorf("the agent card at %s lists no JSON-RPC interface for A2A %s", url, orBoth(version))
	}
	return c, card.AgentCard, nil
}

func sameRevision(v, want string) bool { return v == want || strings.HasPrefix(v, want+".") }

func orBoth(version string) string {
	if version == "" {
		return Version10 + " or " + Version03
	}
	return version
}

// v03Names are the 0.3 names of the methods the client calls.
var v03Names = map[string]string{
	methodSend: "message/send", methodStream: "message/stream", methodGetTask: "tasks/get",
	methodCancelTask: "tasks/cancel", methodSubscribe: "tasks/resubscribe",
}

// Send is SendMessage: it returns the task (or a message) when the agent
// answers, which is at once with ReturnImmediately and otherwise when the
// task is done or waits for the caller.
func (c *Client) Send(ctx context.Context, req SendMessageRequest) (SendMessageResponse, error) {
	var out SendMessageResponse
	if c.Version == Version03 {
		raw, err := c.call(ctx, methodSend, toV03SendParams(req))
		if err != nil {
			return out, err
		}
		ev, _, err := fromV03Event(raw)
		return SendMessageResponse{Task: ev.Task, Message: ev.Message}, err
	}
	raw, err := c.call(ctx, methodSend, req)
	if err != nil {
		return out, err
	}
	return out, json.Unmarshal(raw, &out)
}

// GetTask reads a task.
func (c *Client) GetTask(ctx context.Context, id string) (Task, error) {
	return c.task(ctx, methodGetTask, GetTaskRequest{ID: id})
}

// Cancel is CancelTask.
func (c *Client) Cancel(ctx context.Context, id string) (Task, error) {
	return c.task(ctx, methodCancelTask, TaskIDRequest{ID: id})
}

// task calls a method whose result is a task. Its params are the same
// JSON in both revisions.
func (c *Client) task(ctx context.Context, method string, params any) (Task, error) {
	raw, err := c.call(ctx, method, params)
	if err != nil {
		return Task{}, err
	}
	if c.Version == Version03 {
		ev, _, err := fromV03Event(raw)
		if err == nil && ev.Task == nil {
			err = errors.New("the result is not a task")
		}
		if err != nil {
			return Task{}, err
		}
		return *ev.Task, nil
	}
	var t Task
	return t, json.Unmarshal(raw, &t)
}

// Stream is SendStreamingMessage: each event goes to yield as it
// arrives, until the stream ends (the task is done or waits for the
// caller) or yield returns an error.
func (c *Client) Stream(ctx context.Context, req SendMessageRequest, yield func(StreamResponse) error) error {
	var params any = req
	if c.Version == Version03 {
		params = toV03SendParams(req)
	}
	return c.stream(ctx, methodStream, params, yield)
}

// Subscribe is SubscribeToTask: the task as it is, then its events.
func (c *Client) Subscribe(ctx context.Context, id string, yield func(StreamResponse) error) error {
	return c.stream(ctx, methodSubscribe, TaskIDRequest{ID: id}, yield)
}

func (c *Client) stream(ctx context.Context, method string, params any, yield func(StreamResponse) error) error {
	resp, err := c.post(ctx, method, params)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if mt := resp.Header.Get("Content-Type"); !strings.HasPrefix(mt, "text/event-stream") {
		// Not a stream: an error the agent sent as plain JSON.
		_, err := readResponse(resp.Body)
		if err == nil {
			err = fmt.Errorf("expected an event stream, got Content-Type %q", mt)
		}
		return err
	}
	// Each event is "data: " plus one JSON-RPC response, then an empty
	// line. Lines that start otherwise (comments, event names) are
	// skipped, as SSE says.
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), MaxBody)
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Bytes()
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data.Write(bytes.TrimPrefix(rest, []byte(" ")))
			continue
		}
		if len(line) > 0 || data.Len() == 0 {
			continue
		}
		raw, err := readResponse(&data)
		data.Reset()
		if err != nil {
			return err
		}
		var ev StreamResponse
		if c.Version == Version03 {
			ev, _, err = fromV03Event(raw)
		} else {
			err = json.Unmarshal(raw, &ev)
		}
		if err != nil {
			return fmt.Errorf("reading a stream event: %w", err)
		}
		if err := yield(ev); err != nil {
			return err
		}
	}
	return sc.Err()
}

// call makes one request and returns its result.
func (c *Client) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	resp, err := c.post(ctx, method, params)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return readResponse(resp.Body)
}

// post sends one request: its method in the client's revision, with the
// A2A-Version header for 1.0. Only 200 carries an answer; any other
// status is the transport's refusal.
func (c *Client) post(ctx context.Context, method string, params any) (*http.Response, error) {
	if c.Version == Version03 {
		method = v03Names[method]
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(&jsonrpc.Request{ID: jsonrpc.IntID(c.lastID.Add(1)), Method: method, Params: p})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.Version == Version10 {
		req.Header.Set(VersionHeader, Version10)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		msg := resp.Status
		if _, err := readResponse(resp.Body); err != nil {
			msg += ": " + err.Error() // the agent said why
		}
		return nil, fmt.Errorf("POST %s: %s", c.URL, msg)
	}
	return resp, nil
}

// readResponse reads one JSON-RPC response and returns its result, or
// its error as a *jsonrpc.Error.
func readResponse(r io.Reader) (json.RawMessage, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxBody))
	if err != nil {
		return nil, err
	}
	msg, reject := jsonrpc.Decode(b)
	if reject != nil {
		return nil, fmt.Errorf("the agent's answer is not JSON-RPC: %s", reject.Error.Message)
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return nil, errors.New("the agent sent a request where a response was due")
	}
	if resp.Error != nil {
		return nil, resp.Error
	}
	return resp.Result, nil
}
