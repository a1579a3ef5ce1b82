package grade

import (
	"bytes"
	"io"
	"sync"
)

// output is a program's stdout: the bytes read and not yet consumed.
type output struct {
	mu      sync.Mutex // guards the fields below
	buf     []byte
	dropped int64 // bytes thrown away because buf was full
	eof     bool
	wake    chan struct{} // closed, and replaced, whenever the above change
}

func newOutput() *output { return &output{wake: make(chan struct{})} }

// fill reads r until EOF or an error (the pipe closed by the stage's
// cleanup).
func (o *output) fill(r io.Reader) {
	chunk := make([]byte, 64<<10)
	for {
		n, err := r.Read(chunk)
		o.mu.Lock()
		keep := min(n, maxStdout-len(o.buf))
		o.buf = append(o.buf, chunk[:keep]...)
		o.dropped += int64(n - keep)
		if err != nil {
			o.eof = true
		}
		close(o.wake)
		o.wake = make(chan struct{})
		o.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// next consumes and returns the next complete line, or reports what is
// pending and a channel closed when that changes.
func (o *output) next() (line, pending []byte, eof, full bool, wake <-chan struct{}) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i := bytes.IndexByte(o.buf, '\n'); i >= 0 {
		line = bytes.Clone(o.buf[:i])
		o.buf = o.buf[i+1:]
		return line, nil, false, false, nil
	}
	return nil, bytes.Clone(o.buf), o.eof, len(o.buf) >= maxStdout, o.wake
}

// peek is next without consuming anything.
func (o *output) peek() (line, pending []byte, eof, full bool, wake <-chan struct{}) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return nil, bytes.Clone(o.buf), o.eof, len(o.buf) >= maxStdout, o.wake
}

// tail keeps the last max bytes read into it.
type tail struct {
	mu   sync.Mutex // guards buf
	buf  []byte
	max  int
	done chan struct{} // closed when fill returns
}

func newTail(max int) *tail { return &tail{max: max, done: make(chan struct{})} }

func (t *tail) fill(r io.Reader) {
	defer close(t.done)
	chunk := make([]byte, 16<<10)
	for {
		n, err := r.Read(chunk)
		t.mu.Lock()
		t.buf = append(t.buf, chunk[:n]...)
		if len(t.buf) > t.max {
			t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		}
		t.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
