package tap

import (
	"bytes"
	"io"
)

// relayBuffer is how much one read may take from a stream. A read returns
// whatever has arrived, so a partial line is passed on at once and the
// peer's timing survives: the tap never waits for a newline to relay.
const relayBuffer = 32 << 10

// relay copies src to dst as the bytes come, unchanged, and hands the
// same bytes to lines, which records them line by line. It returns when
// src ends (nil) or fails, or when dst refuses a write (errWrite).
//
// Bytes are recorded before they are passed on, both ways: the peer may
// answer the moment it has them, and an answer recorded before the
// request it answers would be a recording that could not have happened
// (and tap check would call the answer's id unknown).
func relay(dst io.Writer, src io.Reader, lines *lineSplitter) error {
	buf := make([]byte, relayBuffer)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			lines.Write(buf[:n])
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return &writeError{werr}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// writeError is a failure on the receiving side of a relay: the peer
// that should have read the bytes is gone.
type writeError struct{ err error }

func (e *writeError) Error() string { return "writing: " + e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// lineSplitter cuts a byte stream into line events. A line's bytes are
// recorded up to the recorder's bound; its size is always the real one.
// It is used by one relay goroutine only.
type lineSplitter struct {
	rec  *Recorder
	dir  string
	line []byte // the current line so far, at most rec's MaxData bytes
	size int    // the current line's real length so far
}

func newLineSplitter(rec *Recorder, dir string) *lineSplitter {
	return &lineSplitter{rec: rec, dir: dir}
}

// Write records every line that p completes and keeps the rest for the
// next call.
func (l *lineSplitter) Write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		l.size += len(part)
		if room := l.rec.opts.MaxData - len(l.line); room > 0 {
			l.line = append(l.line, part[:min(room, len(part))]...)
		}
		if i < 0 {
			return
		}
		l.emit(false)
		p = p[i+1:]
	}
}

// End records a last line that had no newline: the stream closed in the
// middle of a message.
func (l *lineSplitter) End() {
	if l.size > 0 {
		l.emit(true)
	}
}

func (l *lineSplitter) emit(noEOL bool) {
	e := Event{Dir: l.dir, Kind: KindLine, NoEOL: noEOL}
	e.setData(l.line, l.rec.opts.MaxData)
	e.Size, e.Truncated = l.size, l.size > len(l.line)
	l.rec.Add(e)
	l.line, l.size = l.line[:0], 0
}
