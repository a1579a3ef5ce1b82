package wire

import (
	"bufio"
	"bytes"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/protocols/stdio"
)

// childQueue is how many frames may wait for a child that is slow to
// read its stdin: a whole burst the rate limit lets through (frameBurst),
// so that a tab sending as fast as it may is never told that a child
// that reads is not reading.
const childQueue = 2 * frameBurst

// A child's end: how long it has to go once stopped, and what of it the
// learner is shown.
const (
	// childGrace is each wait of stopping a child (stdio.Process.Stop):
	// EOF on its stdin, then SIGTERM, then SIGKILL. Two of them bound how
	// long a restart, a closed tab or Ctrl-C waits for a child that
	// ignores both EOF and SIGTERM.
	childGrace = time.Second
	// drainWait is how long the child's last stdout lines may take to
	// arrive once every process of its group has exited. Only a program
	// that left its own process group can hold the pipe open longer; we
	// stop listening to it.
	drainWait = time.Second
	// stderrTail is how many of a child's last stderr lines its exit note
	// repeats: usually where a crash says why.
	stderrTail = 5
)

// child is a stdio server the tab started: its stdin gets the learner's
// lines, and its stdout and stderr come back as events.
//
// Three goroutines serve it: a writer (lines to stdin), a reader (stdout
// to events) and a supervisor, the one owner of its end. However the
// child ends (it exits or crashes, writes a line too long, or is
// restarted, its tab closes, the playground shuts down), the supervisor
// alone stops the process, waits for the other two, releases the hub's
// slot, says how it ended, and closes done. Everyone else asks it to by
// calling stop.
type child struct {
	proc   *stdio.Process
	lines  chan Event    // "out" events whose text goes to the child's stdin; never closed
	quit   chan struct{} // closed (once, by stop) to ask the supervisor to end the child
	once   sync.Once     // guards closing quit
	done   chan struct{} // closed by the supervisor when the child is over and its slot released
	stderr *lineEmitter  // the child's stderr, line by line, with its last lines kept
	reason *notice       // why the reader stopped early, set before it returns; nil at EOF
}

// stop asks the supervisor to end the child, and waits until it has.
func (ch *child) stop() {
	ch.once.Do(func() { close(ch.quit) })
	<-ch.done
}

// childKey names a tab's child: its target, and for custom-stdio the
// command line, so that two custom servers run side by side.
type childKey struct {
	target string
	to     string // the command line of a custom-stdio child, else ""
}

// argv is the command line of the server behind a stdio target.
func (s *session) argv(k childKey) ([]string, error) {
	switch {
	case k.target == "custom-stdio":
		return splitCommandLine(k.to)
	case s.hub.targets.Executable == "":
		return nil, say(noteNoExecutable, k.target)
	case k.target == "mcp-stdio":
		return []string{s.hub.targets.Executable, "server", "mcp"}, nil
	case k.target == "mcp-hostile":
		// An MCP server that is hostile on purpose, for the lesson on
		// MCP security; it does no harm (protocols/mcp/hostile.go).
		return []string{s.hub.targets.Executable, "server", "mcp", "--fixtures", "hostile"}, nil
	default:
		return []string{s.hub.targets.Executable, "server", "stdio"}, nil
	}
}

// sendLine writes a frame to the target's child, starting the child on
// the first frame. Each line of the frame is one message.
func (s *session) sendLine(c Command) {
	ch, err := s.childFor(childKey{target: c.Target, to: c.To})
	if err != nil {
		s.refuse(c.ID, s.explain(err))
		return
	}
	frame := strings.TrimRight(c.Frame, "\n") + "\n"
	select {
	case ch.lines <- Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "out", Kind: "line", Text: frame, Size: len(frame)}:
	default:
		s.refuse(c.ID, s.say(noteNotReading))
	}
}

// childFor returns the running child for k, or starts one. A child that
// has ended, or is ending, is replaced: its supervisor sees it out.
func (s *session) childFor(k childKey) (*child, error) {
	if !s.local {
		return nil, say(noteLocalOnly)
	}
	argv, err := s.argv(k)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.children[k]; ch != nil {
		select {
		case <-ch.quit:
		case <-ch.done:
		case <-ch.proc.Done():
		default:
			return ch, nil
		}
	}
	if s.ctx.Err() != nil {
		return nil, say(noteSessionOver)
	}
	if !s.hub.takeChild() {
		return nil, say(noteTooManyChildren, maxChildren)
	}
	stderr := &lineEmitter{emit: func(line string) {
		s.emit(Event{Target: k.target, To: k.to, Dir: "err", Kind: "stderr", Text: line, Size: len(line)})
		s.awaitRoom(s.ctx) // a child that floods stderr waits on its pipe
	}}
	p, err := stdio.StartProcess(argv, stderr, childGrace)
	if err != nil {
		s.hub.releaseChild()
		if k.target == "custom-stdio" {
			return nil, startError(k.to, err)
		}
		return nil, err
	}
	ch := &child{proc: p, lines: make(chan Event, childQueue), quit: make(chan struct{}), done: make(chan struct{}), stderr: stderr}
	s.children[k] = ch
	read := make(chan struct{}) // closed when the reader returns
	s.wg.Add(3)
	// The writer ends when the child is stopped, or stops reading and a
	// write fails (the supervisor closes stdin, which unblocks a write).
	go func() {
		defer s.wg.Done()
		for {
			select {
			case <-ch.quit:
				return
			case out := <-ch.lines:
				// The event goes first: once the bytes are written, the
				// answer may come back at once, and the transcript must
				// show the question before it.
				s.emit(out)
				if _, err := p.Stdin.Write([]byte(out.Text)); err != nil {
					return
				}
			}
		}
	}()
	// The reader ends at EOF on the child's stdout (every process of its
	// group has exited, or the supervisor closed the pipe), or at a line
	// too long to be a message.
	go func() {
		defer s.wg.Done()
		defer close(read)
		sc := bufio.NewScanner(p.Stdout)
		sc.Buffer(make([]byte, 0, 64<<10), maxFrame+1)
		for sc.Scan() {
			line := sc.Text() + "\n"
			s.emit(Event{Target: k.target, To: k.to, Dir: "in", Kind: "line", Text: line, Size: len(line)})
			if s.awaitRoom(s.ctx) != nil {
				break
			}
		}
		if errors.Is(sc.Err(), bufio.ErrTooLong) {
			ch.reason = say(noteLineTooLong, maxFrame)
			p.Stdout.Close() // its next write fails at once, instead of filling the pipe
		}
	}()
	// The supervisor ends once the child is over: see child.
	go func() {
		defer s.wg.Done()
		s.superviseChild(k, ch, read)
	}()
	return ch, nil
}

// superviseChild waits for a reason to end the child (it exited, its
// stdout ended, or someone called stop), ends it, and tells the tab how
// it ended.
func (s *session) superviseChild(k childKey, ch *child, read <-chan struct{}) {
	p := ch.proc
	stopped := false // by stop: a restart, a closed tab, a shutdown
	select {
	case <-read:
	case <-p.Done():
	case <-ch.quit:
		stopped = true
	}
	ch.once.Do(func() { close(ch.quit) }) // the writer returns
	p.Stdin.Close()                       // a stdio server exits at EOF
	p.Stop()                              // then SIGTERM, then SIGKILL, and the rest of its group
	t := time.NewTimer(drainWait)
	select {
	case <-read:
	case <-t.C:
		p.Stdout.Close() // held open from outside the group: stop listening
		<-read
	}
	t.Stop()
	s.hub.releaseChild()
	s.mu.Lock()
	if s.children[k] == ch {
		delete(s.children, k)
	}
	s.mu.Unlock()
	s.emit(Event{Target: k.target, To: k.to, Dir: "note", Kind: "exit", Text: exitNote(ch, stopped, s.lang)})
	close(ch.done)
}

// exitNote says, in l, how a child ended: why, its exit status, and the
// last lines of its stderr, where a crash usually says why.
func exitNote(ch *child, stopped bool, l lang) string {
	var b strings.Builder
	// Go's words for the status, in either language: "exit status 2",
	// "signal: killed".
	state := ch.proc.ExitState().String()
	switch {
	case ch.reason != nil:
		b.WriteString(say(noteStoppedBecause, ch.reason, state).in(l))
	case stopped:
		b.WriteString(say(noteStopped, state).in(l))
	default:
		b.WriteString(say(noteExited, state).in(l))
	}
	if tail := ch.stderr.tail(); len(tail) > 0 && !stopped {
		b.WriteString(say(noteStderrTail).in(l))
		b.WriteString(strings.Join(tail, ""))
	}
	if !stopped {
		b.WriteString(say(noteStartsAgain).in(l))
	}
	return b.String()
}

// restartChild stops the target's child; the next frame starts a fresh
// one, with no session state.
func (s *session) restartChild(k childKey) {
	s.mu.Lock()
	ch := s.children[k]
	delete(s.children, k)
	s.mu.Unlock()
	if ch != nil {
		ch.stop()
	}
}

// stopChildren stops every child of the session, at its end, at once.
func (s *session) stopChildren() {
	s.mu.Lock()
	var all []*child
	for k, ch := range s.children {
		all = append(all, ch)
		delete(s.children, k)
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, ch := range all {
		wg.Add(1)
		// Ends when the child is over (child.stop).
		go func() {
			defer wg.Done()
			ch.stop()
		}()
	}
	wg.Wait()
}

// lineEmitter turns what a child writes to stderr into one event per
// line, and keeps the last stderrTail lines for the exit note. os/exec
// writes to it from one goroutine, which has returned by the time the
// child's exit is seen (cmd.Wait waits for it).
type lineEmitter struct {
	emit func(string)
	buf  []byte

	mu   sync.Mutex // guards last
	last []string
}

func (l *lineEmitter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.line(string(l.buf[:i+1]))
		l.buf = l.buf[i+1:]
	}
	if len(l.buf) > maxFrame { // a line with no end: send what there is
		l.line(string(l.buf))
		l.buf = nil
	}
	return len(p), nil
}

func (l *lineEmitter) line(text string) {
	l.emit(text)
	const maxKept = 512 // bytes of one kept line: a tail, not a copy
	if len(text) > maxKept {
		text = text[:maxKept] + "...\n"
	}
	l.mu.Lock()
	l.last = append(l.last, text)
	if len(l.last) > stderrTail {
		l.last = l.last[1:]
	}
	l.mu.Unlock()
}

// tail returns the last whole lines written.
func (l *lineEmitter) tail() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.last...)
}
