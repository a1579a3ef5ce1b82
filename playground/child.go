package playground

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/wirelab/wirelab/protocols/stdio"
)

// childQueue is how many frames may wait for a child that is slow to
// read its stdin.
const childQueue = 16

// child is a stdio server the tab started: its stdin gets the learner's
// lines, and its stdout and stderr come back as events.
type child struct {
	proc  *stdio.Process
	lines chan event    // "out" events whose text goes to the child's stdin, written by one goroutine
	done  chan struct{} // closed when the stdout reader ends
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
		return nil, fmt.Errorf("this playground cannot start %s servers: it does not know where the wirelab binary is", k.target)
	case k.target == "mcp-stdio":
		return []string{s.hub.targets.Executable, "server", "mcp"}, nil
	default:
		return []string{s.hub.targets.Executable, "server", "stdio"}, nil
	}
}

// sendLine writes a frame to the target's child, starting the child on
// the first frame. Each line of the frame is one message.
func (s *session) sendLine(c command) {
	ch, err := s.childFor(childKey{target: c.Target, to: c.To})
	if err != nil {
		s.refuse(c.ID, err.Error())
		return
	}
	frame := strings.TrimRight(c.Frame, "\n") + "\n"
	select {
	case ch.lines <- event{ID: c.ID, Target: c.Target, To: c.To, Dir: "out", Kind: "line", Text: frame, Size: len(frame)}:
	default:
		s.refuse(c.ID, "the server is not reading its stdin; restart it")
	}
}

// childFor returns the running child for k, or starts one.
func (s *session) childFor(k childKey) (*child, error) {
	if !s.local {
		return nil, fmt.Errorf("stdio servers run only for pages opened on this machine")
	}
	argv, err := s.argv(k)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.children[k]; ch != nil {
		select {
		case <-ch.done: // exited: start another
		default:
			return ch, nil
		}
	}
	if s.ctx.Err() != nil {
		return nil, fmt.Errorf("the session is over")
	}
	if !s.hub.takeChild() {
		return nil, fmt.Errorf("too many server processes are running (at most %d); close a tab or restart one", maxChildren)
	}
	stderr := &lineEmitter{emit: func(line string) {
		s.emit(event{Target: k.target, To: k.to, Dir: "err", Kind: "stderr", Text: line, Size: len(line)})
	}}
	p, err := stdio.StartProcess(argv, stderr, 0)
	if err != nil {
		s.hub.releaseChild()
		if k.target == "custom-stdio" {
			return nil, startError(k.to, err)
		}
		return nil, err
	}
	ch := &child{proc: p, lines: make(chan event, childQueue), done: make(chan struct{})}
	s.children[k] = ch
	s.wg.Add(2)
	// Ends when the channel is closed (stopChild), or the child stops
	// reading and a write fails.
	go func() {
		defer s.wg.Done()
		for out := range ch.lines {
			// The event goes first: once the bytes are written, the
			// answer may come back at once, and the transcript must
			// show the question before it.
			s.emit(out)
			if _, err := p.Stdin.Write([]byte(out.Text)); err != nil {
				break
			}
		}
		p.Stdin.Close() // a stdio server exits at EOF
	}()
	// Ends at the child's EOF on stdout: when it exits.
	go func() {
		defer s.wg.Done()
		defer close(ch.done)
		sc := bufio.NewScanner(p.Stdout)
		sc.Buffer(make([]byte, 0, 64<<10), maxFrame+1)
		for sc.Scan() {
			line := sc.Text() + "\n"
			s.emit(event{Target: k.target, To: k.to, Dir: "in", Kind: "line", Text: line, Size: len(line)})
		}
		s.emit(event{Target: k.target, To: k.to, Dir: "note", Kind: "exit", Text: "the server's stdout closed: it exited"})
	}()
	return ch, nil
}

// restartChild stops the target's child; the next frame starts a fresh
// one, with no session state.
func (s *session) restartChild(k childKey) {
	s.mu.Lock()
	ch := s.children[k]
	delete(s.children, k)
	s.mu.Unlock()
	if ch != nil {
		s.stopChild(ch)
	}
}

// stopChildren stops every child of the session, at its end.
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
		// Ends when the child has exited, by itself or killed.
		go func() {
			defer wg.Done()
			s.stopChild(ch)
		}()
	}
	wg.Wait()
}

// stopChild closes the child's stdin and sees it out (stdio.Process.Stop:
// EOF, then SIGTERM, then SIGKILL).
func (s *session) stopChild(ch *child) {
	// Only the session's reader sends on lines (sendLine) and it is the
	// one that gets here, by restart or at the session's end: no send can
	// race this close.
	close(ch.lines)
	ch.proc.Stop()
	<-ch.done
	s.hub.releaseChild()
}

// lineEmitter turns what a child writes to stderr into one event per
// line. os/exec writes to it from one goroutine.
type lineEmitter struct {
	emit func(string)
	buf  []byte
}

func (l *lineEmitter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.emit(string(l.buf[:i+1]))
		l.buf = l.buf[i+1:]
	}
	if len(l.buf) > maxFrame { // a line with no end: send what there is
		l.emit(string(l.buf))
		l.buf = nil
	}
	return len(p), nil
}
