package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/stdio"
)

// Connect starts argv as a child process that speaks MCP over stdio and
// opens a session with it. ctx bounds the start and the handshake; the
// process then lives until Close.
func Connect(ctx context.Context, argv []string, opts *ClientOptions) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("starting server: empty command")
	}
	if opts == nil {
		opts = &ClientOptions{}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = opts.Stderr // nil: discarded
	// The child's stdout is our own pipe rather than cmd.StdoutPipe,
	// which cmd.Wait would close under the reader's feet.
	out, childOut, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting server: %w", err)
	}
	cmd.Stdout = childOut
	cmd.WaitDelay = stdio.DefaultShutdownGrace // bounds copying stderr after the child exits
	in, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	childOut.Close() // the child has its own copy; ours would keep the pipe open forever
	if err != nil {
		out.Close()
		return nil, fmt.Errorf("starting server %q: %w", argv[0], err)
	}
	return connectStreams(ctx, out, in, opts, watchChild(cmd).stop)
}

// connectStreams opens a session over a server's stdout (r) and stdin
// (w), one message per line. Connect uses it once the process runs;
// tests use it over io.Pipe. stop, if not nil, is called by Close once w
// is closed, to see the process out.
func connectStreams(ctx context.Context, r io.ReadCloser, w io.WriteCloser, opts *ClientOptions, stop func() error) (*Client, error) {
	t := &stdioTransport{r: r, w: w, stop: stop, readerDone: make(chan struct{})}
	c := newClient(t, opts)
	// The reader owns r. It ends when r ends, which Close forces by
	// closing r.
	go t.read(c)
	if err := c.handshake(ctx, opts); err != nil {
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

// child is a started server process, watched so it can be stopped
// without leaks.
type child struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd.Wait returns
	err    error         // cmd.Wait's result; read after exited is closed
}

func watchChild(cmd *exec.Cmd) *child {
	ch := &child{cmd: cmd, exited: make(chan struct{})}
	// This goroutine ends when the process exits; stop makes sure it does.
	go func() {
		ch.err = cmd.Wait()
		close(ch.exited)
	}()
	return ch
}

// stop waits stdio.DefaultShutdownGrace for the process to exit after its
// stdin was closed, then sends SIGTERM, then SIGKILL. It returns nil if
// the process exited cleanly by itself or after SIGTERM.
func (ch *child) stop() error {
	grace := stdio.DefaultShutdownGrace
	if ch.waitFor(grace) {
		if ch.err != nil {
			return fmt.Errorf("server exited: %w", ch.err)
		}
		return nil
	}
	// Windows has no SIGTERM: Signal fails there, and Kill follows.
	if ch.cmd.Process.Signal(syscall.SIGTERM) == nil && ch.waitFor(grace) {
		return nil
	}
	ch.cmd.Process.Kill()
	<-ch.exited
	return fmt.Errorf("server did not exit within %v of closing its stdin and was killed", 2*grace)
}

func (ch *child) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch.exited:
		return true
	case <-t.C:
		return false
	}
}
