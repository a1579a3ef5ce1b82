package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// DefaultMaxMessage is the longest message line the stdio transport
// reads, 1 MiB, the same limit as the other wirelab servers. A longer line
// is answered with an error and skipped; the session goes on.
const DefaultMaxMessage = 1 << 20

// ServeStdio runs one session over a pair of streams, one JSON-RPC message
// per line: in is the client's stdin to us, out our stdout to it. It
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

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var running sync.WaitGroup
	defer running.Wait()

	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r, DefaultMaxMessage)
		if errors.Is(err, errTooLong) {
			send(jsonrpc.NewErrorResponse(jsonrpc.ID{}, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
				"invalid request: message longer than %d bytes", DefaultMaxMessage)))
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			msg, reject := jsonrpc.Decode(line)
			switch m := msg.(type) {
			case nil:
				send(reject)
			case *jsonrpc.Request:
				if m.IsNotification() {
					ss.handleNotification(m)
					break
				}
				if m.Method == "initialize" {
					// Answered before the next line is read, so that the
					// messages after it see an initialized session even
					// when a client writes them all at once.
					if resp := ss.handleRequest(ctx, m); resp != nil {
						send(resp)
					}
					break
				}
				running.Add(1)
				// Each request runs on its own goroutine so that a slow
				// tool does not hold up pings or its own cancellation. It
				// ends when the request is answered or cancelled.
				go func() {
					defer running.Done()
					if resp := ss.handleRequest(ctx, m); resp != nil {
						send(resp)
					}
				}()
			case *jsonrpc.Response:
				// Answers to requests from the server; none yet.
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

var errTooLong = errors.New("line too long")

// readLine reads up to and without the next newline. A line longer than
// max is read to its end and thrown away, so the next line starts clean.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			if err == nil {
				return nil, errTooLong
			}
			return nil, err
		}
		return bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), err
	}
}
