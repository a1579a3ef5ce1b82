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

// DefaultMaxMessage is the longest message line the stdio transport
// reads, 1 MiB, the same limit as the other wirelab servers. A longer line
// is answered with an error and skipped; the session goes on.
const DefaultMaxMessage = stdio.DefaultMaxLine

// line is one read from stdin, handed from the reading goroutine.
type line struct {
	data []byte
	err  error
}

// ServeStdio serves one client over a pair of streams, one JSON-RPC
// message per line: in is the client's stdin to us, out our stdout to it.
// Both eras share the pipe: initialize opens a legacy session, and a
// request whose _meta names a revision is served on its own (modern.go). It
// returns when in ends (the client is done) and every request has been
// answered, or when ctx ends.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	var wmu sync.Mutex // guards out: one message at a time, each on one line
	send := func(msg any) error {
		b, err := json.Marshal(msg)
		if err != nil {
			return err
		}
		wmu.Lock()
		defer wmu.Unlock()
		_, err = out.Write(append(b, '\n'))
		return err
	}
	ss := newSession(s, send)
	defer ss.close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var running sync.WaitGroup
	// At EOF, requests still running are answered before ServeStdio
	// returns; when ctx ends, they are cancelled, and the wait is short.
	defer running.Wait()
	// Once reading stops, no answer to a question the server asked can
	// arrive: endInput fails the questions still waiting (it runs before
	// the Wait above), or a request that asked one would wait forever.
	defer ss.endInput()

	lines := make(chan line)
	// This goroutine owns in. It ends at EOF or a read error, or when ctx
	// ends; a read blocked at that moment ends when the caller closes in
	// (for a real process, at exit).
	go func() {
		lr := stdio.NewLineReader(in, DefaultMaxMessage)
		for {
			data, err := lr.Next()
			select {
			case lines <- line{data, err}:
			case <-ctx.Done():
				return
			}
			if err != nil && !errors.Is(err, stdio.ErrLineTooLong) {
				return
			}
		}
	}()

	for {
		var l line
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l = <-lines:
		}
		switch {
		case errors.Is(l.err, io.EOF):
			return nil
		case errors.Is(l.err, stdio.ErrLineTooLong):
			// The id is somewhere in the skipped bytes, so the answer
			// carries null.
			send(jsonrpc.NewErrorResponse(jsonrpc.ID{}, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
				"invalid request: message longer than %d bytes; it was skipped", DefaultMaxMessage)))
			continue
		case l.err != nil:
			return fmt.Errorf("reading stdin: %w", l.err)
		case len(bytes.TrimSpace(l.data)) == 0:
			continue
		}
		msg, reject := jsonrpc.Decode(l.data)
		switch m := msg.(type) {
		case nil:
			send(reject)
		case *jsonrpc.Request:
			if m.IsNotification() {
				ss.handleNotification(m)
				break
			}
			if isModern(m) {
				// A request of the modern era stands alone: it is served
				// from what it carries, whatever the session did before,
				// and runs concurrently like any other.
				running.Add(1)
				go func() {
					defer running.Done()
					if resp := ss.handleModern(ctx, m, send, caller{}); resp != nil {
						send(resp)
					}
				}()
				break
			}
			if m.Method == "initialize" || !ss.ready() {
				// Answered before the next line is read: initialize, so
				// that the messages after it see an initialized session
				// even when a client writes them all at once; and every
				// request before it (refused, or a ping), so that a
				// request is judged by the session as it was when the
				// request arrived, not when a goroutine got to it.
				if resp := ss.handleRequest(ctx, m, send, caller{}); resp != nil {
					send(resp)
				}
				break
			}
			running.Add(1)
			// Each request runs on its own goroutine so that a slow tool
			// does not hold up pings, its own cancellation, or the answer
			// to a question it asked the client. It ends when the request
			// is answered or cancelled. On stdio the user is local, so
			// every scope is allowed, and the process has one client,
			// so there are no callers to tell apart: the zero caller.
			go func() {
				defer running.Done()
				if resp := ss.handleRequest(ctx, m, send, caller{}); resp != nil {
					send(resp)
				}
			}()
		case *jsonrpc.Response:
			// The client's answer to a request from the server.
			ss.handleResponse(m)
		}
	}
}
