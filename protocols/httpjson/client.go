package httpjson

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// DefaultTimeout bounds one call unless configured otherwise: long enough
// for the slowest tool (deploy_service, about a second) with a wide
// margin, short enough that a server that never answers does not hang the
// caller forever.
const DefaultTimeout = 30 * time.Second

// MaxResponse is the largest answer body a client reads. The largest
// honest answer is the tool list, a few kilobytes; anything near this
// size is not this protocol talking.
const MaxResponse = 4 << 20

// ClientOptions configures a [Client]. A nil *ClientOptions means the
// defaults.
type ClientOptions struct {
	// Token is sent as "Authorization: Bearer TOKEN". Empty sends none.
	Token string

	// HTTPClient makes the requests. Nil means a client of its own over
	// http.DefaultTransport, which keeps connections alive between calls.
	HTTPClient *http.Client

	// Timeout bounds each call whose context has no deadline. Zero means
	// DefaultTimeout.
	Timeout time.Duration
}

// Client calls the tools of one server.
type Client struct {
	base    string // the server's URL, without a trailing slash
	token   string
	hc      *http.Client
	timeout time.Duration
}

// NewClient returns a client for the server at baseURL, such as
// "http://127.0.0.1:8080".
func NewClient(baseURL string, opts *ClientOptions) *Client {
	if opts == nil {
		opts = &ClientOptions{}
	}
	c := &Client{base: strings.TrimSuffix(baseURL, "/"), token: opts.Token, hc: opts.HTTPClient, timeout: opts.Timeout}
	if c.hc == nil {
		c.hc = &http.Client{}
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	return c
}

// Call runs one tool and returns its result. A server that answered with
// an error body gives a [*stdio.Error]: its ToolError method tells a tool
// that failed (or refused its arguments) from a request that was wrong.
// Any other error means no proper answer arrived at all.
//
// The request's ID is sent if set, but not needed: over HTTP each answer
// comes back on the exchange that asked for it.
func (c *Client) Call(ctx context.Context, req stdio.Request) (json.RawMessage, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding request: %w", err)
	}
	var resp stdio.Response
	where, err := c.do(ctx, http.MethodPost, "/execute", body, &resp)
	if err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error
	}
	if len(resp.Result) == 0 {
		return nil, fmt.Errorf("%s: the answer has neither a result nor an error", where)
	}
	return resp.Result, nil
}

// Tools lists the server's tools.
func (c *Client) Tools(ctx context.Context) ([]tools.Definition, error) {
	var list struct {
		ToolList
		Error *stdio.Error `json:"error"`
	}
	where, err := c.do(ctx, http.MethodGet, "/tools", nil, &list)
	if err != nil {
		return nil, err
	}
	if list.Error != nil {
		return nil, list.Error
	}
	if list.Tools == nil {
		return nil, fmt.Errorf("%s: the answer has neither tools nor an error", where)
	}
	return list.Tools, nil
}

// do makes one request and decodes the JSON answer into v, whatever the
// status: this protocol puts a JSON body on every answer, errors included.
// What it refuses is an answer that is not this protocol at all, such as
// a proxy's HTML error page. where names the exchange, for messages.
func (c *Client) do(ctx context.Context, method, path string, body []byte, v any) (where string, err error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", err // already names the method and URL
	}
	// The connection goes back to the pool for the next call only once
	// its body has been read to the end and closed.
	defer func() {
		io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponse))
		resp.Body.Close()
	}()

	where = fmt.Sprintf("%s %s: HTTP %s", method, path, resp.Status)
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return where, fmt.Errorf("%s with Content-Type %q: not an answer from a wirelab server", where, resp.Header.Get("Content-Type"))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponse+1))
	if err != nil {
		return where, fmt.Errorf("%s: reading the answer: %w", where, err)
	}
	if len(data) > MaxResponse {
		return where, fmt.Errorf("%s: the answer is longer than %d bytes", where, MaxResponse)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return where, fmt.Errorf("%s: the answer is not the JSON expected: %w", where, err)
	}
	return where, nil
}
