package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/stdio"
)

// Connect starts argv as a child process that speaks MCP over stdio and
// connects to it. ctx bounds the start and settling the era; the process
// then lives until Close.
//
// Unless opts pins a legacy revision, the client first probes with
// server/discover, as the specification asks of a client that speaks
// both eras: "The server returns any other error, or does not respond
// within a reasonable timeout: the server is legacy. Fall back to the
// initialize handshake." Legacy servers answer an unknown request before
// initialize with an error, so the fallback normally costs one round
// trip; only a server that stays silent costs probeTimeout.
func Connect(ctx context.Context, argv []string, opts *ClientOptions) (*Client, error) {
	if opts == nil {
		opts = &ClientOptions{}
	}
	proc, err := stdio.StartProcess(argv, opts.Stderr, 0)
	if err != nil {
		return nil, err
	}
	return connectStreams(ctx, proc.Stdout, proc.Stdin, opts, proc.Stop)
}

// connectStreams connects over a server's stdout (r) and stdin
// (w), one message per line. Connect uses it once the process runs;
// tests use it over io.Pipe. stop, if not nil, is called by Close once w
// is closed, to see the process out.
func connectStreams(ctx context.Context, r io.ReadCloser, w io.WriteCloser, opts *ClientOptions, stop func() error) (*Client, error) {
	if opts == nil {
		opts = &ClientOptions{}
	}
	t := &stdioTransport{r: r, w: w, stop: stop, readerDone: make(chan struct{})}
	c := newClient(t, opts)
	// The reader owns r. It ends when r ends, which Close forces by
	// closing r.
	go t.read(c)
	err := c.connect(ctx, opts, func(ctx context.Context) (string, error) {
		return c.discover(ctx, probeTimeout, isAnswer)
	})
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// stdioTransport carries messages as lines: "Messages are delimited by
// newlines, and MUST NOT contain embedded newlines." json.Marshal never
// writes a raw newline (it escapes those inside strings), so one Marshal
// is one line.
type stdioTransport struct {
	r          io.ReadCloser
	wmu        sync.Mutex // guards w: one whole line at a time
	w          io.WriteCloser
	stop       func() error  // sees the process out; nil for plain streams
	readerDone chan struct{} // closed when read returns
}

// send writes one message. A write to a pipe takes no deadline from
// ctx: it returns as soon as the pipe has room, which is at once while
// the server reads its stdin; it fails if the server has exited; and a
// server that stops reading holds it until Close closes the pipe.
func (t *stdioTransport) send(_ context.Context, msg jsonrpc.Message) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encoding message: %w", err)
	}
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if _, err := t.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing to the server's stdin: %w (did it exit?)", err)
	}
	return nil
}

func (t *stdioTransport) negotiated(string) {}

func (t *stdioTransport) opened() {}

// carry keeps every tool: "Clients using other transports (e.g., stdio)
// MAY ignore x-mcp-header annotations entirely", and there are no
// headers here to mirror them into.
func (t *stdioTransport) carry(tools []ListedTool) ([]ListedTool, []string) { return tools, nil }

// read hands each line from the server to the client until the server's
// stdout ends.
func (t *stdioTransport) read(c *Client) {
	defer close(t.readerDone)
	lines := stdio.NewLineReader(t.r, 0) // 0: stdio.DefaultMaxLine, as the servers read
	for {
		line, err := lines.Next()
		switch {
		case errors.Is(err, stdio.ErrLineTooLong):
			c.mu.Lock()
			c.noise = "(a line longer than the limit)"
			c.mu.Unlock()
			continue
		case errors.Is(err, io.EOF):
			c.fail(errors.New("the server's stdout closed (did it exit?)"))
			return
		case err != nil:
			c.fail(fmt.Errorf("reading the server's stdout: %w", err))
			return
		case len(bytes.TrimSpace(line)) == 0:
			continue
		}
		// A broken message gets no answer: a client has nothing to send
		// back about a response it cannot read, and a broken request has
		// no id to answer to. It is remembered for the error message.
		msg, _ := jsonrpc.Decode(line)
		if msg == nil {
			c.mu.Lock()
			c.noise = string(line)
			c.mu.Unlock()
			continue
		}
		c.receive(msg)
	}
}

// close ends the session the way the specification says: "the client
// SHOULD initiate shutdown by: First, closing the input stream to the
// child process (the server); Waiting for the server to exit, or sending
// SIGTERM if the server does not exit within a reasonable time; Sending
// SIGKILL if the server does not exit within a reasonable time after
// SIGTERM."
func (t *stdioTransport) close() error {
	t.w.Close()
	var err error
	if t.stop != nil {
		err = t.stop()
	}
	t.r.Close() // unblocks the reader if something still holds the pipe open
	<-t.readerDone
	return err
}
