package stdio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// DefaultMaxLine is the longest line read by default: 1 MiB. A client
// reading with bufio.Scanner's default buffer (64 KiB) would fail on
// answers that this server is happy to send, so the client here uses the
// same limit as the server.
const DefaultMaxLine = 1 << 20

// ErrLineTooLong reports a line longer than the limit. The reader has
// already skipped the rest of that line, so the next read starts cleanly.
var ErrLineTooLong = errors.New("line too long")

// LineReader reads newline-terminated lines of at most max bytes.
// Unlike bufio.Scanner, an over-long line is not the end of the stream:
// it is reported, skipped, and reading goes on. Every protocol that puts
// one message per line on a pipe (this one, and MCP over stdio) reads
// with it.
type LineReader struct {
	r   *bufio.Reader
	max int
}

// NewLineReader reads lines of at most max bytes from r; max <= 0 means
// DefaultMaxLine.
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line without its "\n" (and without a "\r" before
// it, for clients on Windows). A last line with no newline before EOF is
// still returned, so a client that forgets the final newline and closes
// the pipe is answered. At the end of the stream it returns io.EOF.
func (l *LineReader) Next() ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > l.max+1 { // +1: the newline itself
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return nil, ErrLineTooLong
			}
			return trimEOL(line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue // a long line: keep reading it
		case errors.Is(err, io.EOF):
			if tooLong {
				return nil, ErrLineTooLong
			}
			if len(line) > 0 {
				return trimEOL(line), nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}
