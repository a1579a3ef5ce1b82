package stdio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// DefaultTimeout bounds one call when the caller's context has no deadline.
// deploy_service takes about a second; anything past half a minute is a
// server that will not answer.
const DefaultTimeout = 30 * time.Second

// DefaultShutdownGrace is how long Close waits at each step of stopping
// the server: after closing its stdin, then after SIGTERM, before SIGKILL.
// A server that exits at EOF, as it should, never makes anyone wait.
const DefaultShutdownGrace = 2 * time.Second

// ClientOptions configures a [Client]. A nil *ClientOptions means defaults.
type ClientOptions struct {
	// Timeout bounds each call whose context has no deadline.
	// Zero means DefaultTimeout.
	Timeout time.Duration

	// Stderr receives the server's stderr (its logs). Nil discards them.
	Stderr io.Writer

	// MaxLine is the longest response line accepted. Zero means
	// DefaultMaxLine, the same limit the server applies to requests.
	MaxLine int

	// ShutdownGrace is each wait of Close. Zero means DefaultShutdownGrace.
	ShutdownGrace time.Duration
}

// Client calls tools on one stdio server and keeps it running between
// calls.
//
// Simple examples start a new server process for every call: spawn, write
// one line, read one line, wait for exit. That pays for process start-up
// (for `go run`, a compile check too) on every call, tens of milliseconds
// at best, and loses any state the server keeps. This client starts the
// process once. Because calls may then overlap, each request carries an id
// and the reader matches answers to callers by it; a call that times out
// stops waiting, and its late answer, when it comes, is dropped.
type Client struct {
	w       io.WriteCloser
	r       io.ReadCloser
	timeout time.Duration

	writeMu sync.Mutex // guards w: one whole line at a time

	mu      sync.Mutex // guards the fields below
	nextID  int64
	pending map[int64]chan Response
	readErr error  // why the reader stopped; set once
	noise   []byte // the last stdout line that was not a response

	readerDone chan struct{}
	proc       *Process // nil for a client over plain streams
	closeOnce  sync.Once
	closeErr   error
}

// Start runs argv as a stdio server and returns a client connected to its
// stdin and stdout. Close the client to stop the process.
func Start(argv []string, opts *ClientOptions) (*Client, error) {
	if opts == nil {
		opts = &ClientOptions{}
	}
	proc, err := StartProcess(argv, opts.Stderr, opts.ShutdownGrace)
	if err != nil {
		return nil, err
	}
	c := NewClient(proc.Stdout, proc.Stdin, opts)
	c.proc = proc
	return c, nil
}

// NewClient returns a client speaking to a server over r (its stdout) and
// w (its stdin), for servers that are not child processes. Close closes both.
func NewClient(r io.ReadCloser, w io.WriteCloser, opts *ClientOptions) *Client {
	c := &Client{
		w:          w,
		r:          r,
		timeout:    DefaultTimeout,
		pending:    make(map[int64]chan Response),
		readerDone: make(chan struct{}),
	}
	max := 0
	if opts != nil {
		if opts.Timeout > 0 {
			c.timeout = opts.Timeout
		}
		max = opts.MaxLine
	}
	// The reader owns r. It ends when r reaches EOF or fails, which Close
	// forces by closing r.
	go c.read(NewLineReader(r, max))
	return c
}

// Call runs a tool and returns its result. An error is a *[Error] when the
// server answered with one (check [Error.ToolError]), and a plain error
// when there was no answer: the server exited, the pipe broke, or ctx (or
// the client's timeout) ended first.
func (c *Client) Call(ctx context.Context, name string, args json.RawMessage, version string) (json.RawMessage, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	c.mu.Lock()
	if c.readErr != nil {
		err := c.deadErr()
		c.mu.Unlock()
		return nil, err
	}
	c.nextID++
	id := c.nextID
	answer := make(chan Response, 1)
	c.pending[id] = answer
	c.mu.Unlock()
	defer c.forget(id)

	line, err := json.Marshal(Request{ID: json.RawMessage(strconv.FormatInt(id, 10)), Name: name, Args: args, Version: version})
	if err != nil {
		return nil, fmt.Errorf("encoding request: %w", err)
	}
	c.writeMu.Lock()
	_, err = c.w.Write(append(line, '\n'))
	c.writeMu.Unlock()
	if err != nil {
		// The usual cause: the server exited, closing its end of the pipe.
		return nil, fmt.Errorf("writing request: %w (did the server exit?)", err)
	}

	select {
	case resp, ok := <-answer:
		if !ok {
			c.mu.Lock()
			defer c.mu.Unlock()
			return nil, c.deadErr()
		}
		if resp.Error != nil {
			return nil, resp.Error
		}
		return resp.Result, nil
	case <-ctx.Done():
		c.mu.Lock()
		defer c.mu.Unlock()
		return nil, c.withNoise(fmt.Errorf("no answer to %s (id %d): %w", name, id, ctx.Err()))
	}
}

func (c *Client) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// deadErr explains why no more answers will come. c.mu must be held.
func (c *Client) deadErr() error {
	return c.withNoise(fmt.Errorf("server stopped answering: %w", c.readErr))
}

// withNoise adds to err the last stdout line that was not a response, if
// any: a server printing logs on stdout is the usual reason answers never
// arrive. c.mu must be held.
func (c *Client) withNoise(err error) error {
	if c.noise == nil {
		return err
	}
	return fmt.Errorf("%w; the server wrote a line to stdout that is not a response, %q: logs belong on stderr", err, c.noise)
}

// read delivers each response line to the call waiting for its id.
func (c *Client) read(lr *LineReader) {
	defer close(c.readerDone)
	for {
		line, err := lr.Next()
		if errors.Is(err, ErrLineTooLong) {
			c.mu.Lock()
			c.noise = []byte("(a line over the size limit)")
			c.mu.Unlock()
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("its stdout closed (did the server exit?)")
			}
			c.mu.Lock()
			c.readErr = err
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
		var resp Response
		if json.Unmarshal(line, &resp) != nil || resp.Result == nil && resp.Error == nil {
			c.mu.Lock()
			c.noise = append([]byte(nil), line...)
			c.mu.Unlock()
			continue
		}
		c.deliver(resp, line)
	}
}

// deliver hands a response to the call waiting for it. An answer without
// an id (the server could not read the request's id, for example because
// the line was too long) belongs to the oldest waiting call: the server
// answers requests in the order they were sent.
func (c *Client) deliver(resp Response, line []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var id int64
	if len(resp.ID) == 0 {
		for pid := range c.pending {
			if id == 0 || pid < id {
				id = pid
			}
		}
	} else if n, err := strconv.ParseInt(string(resp.ID), 10, 64); err == nil {
		id = n
	} else {
		c.noise = append([]byte(nil), line...)
		return
	}
	if ch, ok := c.pending[id]; ok {
		ch <- resp // buffered; each id is answered once
		delete(c.pending, id)
	}
}

// Close stops the client. For a server started by [Start] it closes the
// server's stdin, which a well-behaved server takes as the signal to exit;
// if it has not exited after the shutdown grace it gets SIGTERM, and after
// another grace SIGKILL. Close always waits for the process, so no
// child is left behind. It is safe to call more than once.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.w.Close()
		if c.proc != nil {
			c.closeErr = c.proc.Stop()
		}
		c.r.Close() // unblocks the reader if anything still holds the pipe
		<-c.readerDone
	})
	return c.closeErr
}
