package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/wirelab/wirelab/protocols/tools"
)

// ServerOptions configures a [Server]. A nil *ServerOptions means defaults.
type ServerOptions struct {
	// MaxLine is the longest request line accepted, in bytes.
	// Zero means DefaultMaxLine.
	MaxLine int

	// Log receives one line per request. It must write to stderr (or
	// anywhere but the protocol's stdout). Nil means no logging.
	Log *slog.Logger
}

// Server answers requests read from one stream with responses written to
// another, one JSON object per line, one request at a time.
type Server struct {
	cat     *tools.Catalogue
	maxLine int
	log     *slog.Logger
}

// NewServer returns a server for the catalogue.
func NewServer(cat *tools.Catalogue, opts *ServerOptions) *Server {
	s := &Server{cat: cat, maxLine: DefaultMaxLine, log: slog.New(slog.DiscardHandler)}
	if opts != nil {
		if opts.MaxLine > 0 {
			s.maxLine = opts.MaxLine
		}
		if opts.Log != nil {
			s.log = opts.Log
		}
	}
	return s
}

// Serve reads requests from in and writes one response line to out for
// each, until in reaches EOF (a clean end: it returns nil) or ctx ends (it
// returns ctx's error after answering the call in progress).
//
// Requests are handled in order, one at a time, so responses come back in
// the order the requests were sent. Every line gets an answer, including
// lines that are not JSON: a client must never be left waiting for a
// reply to a request that the server silently dropped. Only blank lines
// are skipped; they carry no request.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	lines := make(chan lineOrErr)
	stop := make(chan struct{})
	defer close(stop)
	// This goroutine owns in. It ends at EOF or a read error, or when
	// Serve returns and stop is closed; a read blocked at that moment ends
	// when the caller closes in (for a real process, at exit).
	go func() {
		lr := NewLineReader(in, s.maxLine)
		for {
			line, err := lr.Next()
			select {
			case lines <- lineOrErr{line, err}:
			case <-stop:
				return
			}
			if err != nil && !errors.Is(err, ErrLineTooLong) {
				return
			}
		}
	}()

	for {
		var l lineOrErr
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l = <-lines:
		}
		var resp Response
		switch {
		case errors.Is(l.err, io.EOF):
			return nil
		case errors.Is(l.err, ErrLineTooLong):
			// The id is somewhere in the skipped bytes, so the answer
			// carries none.
			resp.Error = &Error{Code: CodeTooLarge, Message: fmt.Sprintf("line is longer than %d bytes; it was skipped", s.maxLine)}
			s.log.Warn("line too long", "limit", s.maxLine)
		case l.err != nil:
			return fmt.Errorf("reading requests: %w", l.err)
		case len(bytes.TrimSpace(l.line)) == 0:
			continue
		default:
			resp = s.handle(ctx, l.line)
		}
		b, err := json.Marshal(resp)
		if err != nil {
			return fmt.Errorf("encoding response: %w", err)
		}
		if _, err := out.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("writing response: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

type lineOrErr struct {
	line []byte
	err  error
}

// handle answers one request line.
func (s *Server) handle(ctx context.Context, line []byte) Response {
	start := time.Now()
	req, perr := ParseRequest(line)
	if perr != nil {
		s.log.Warn("bad request", "code", perr.Code, "error", perr.Message)
		return Response{ID: req.ID, Error: perr}
	}
	// stdio has no tokens: the server runs as the user who started it, so
	// CallOptions.Allow stays nil and every scope is allowed.
	result, err := s.cat.Call(ctx, tools.Request{Name: req.Name, Version: req.Version, Args: req.Args}, nil)
	if err != nil {
		werr := ErrorFrom(err)
		s.log.Info("call failed", "tool", req.Name, "code", werr.Code, "took", time.Since(start).Round(time.Microsecond))
		return Response{ID: req.ID, Error: werr}
	}
	s.log.Info("call", "tool", req.Name, "took", time.Since(start).Round(time.Microsecond))
	return Response{ID: req.ID, Result: result}
}
