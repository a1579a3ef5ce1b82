package grade

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A client exercise over stdio starts its server itself, as a child
// process; the grader must be that server. It gives the program a small
// relay to start, built once per grade into the grade's folder: the
// relay connects to the grader over loopback TCP and copies its stdin to
// the grader and the grader's answers to its stdout, so that the server's
// behaviour, and what the program did to it, stay in the grader. The
// relay tells the grader when its stdin reaches end of file, and exits
// when the grader closes the connection, which plays the server's exit.

// relaySource is the relay's program. Its first line to the grader is
// its process id; relayEOF, a line no JSON message can be, says that its
// stdin is closed.
const relaySource = `// Command relay is the grader's stdio server, relayed over TCP.
package main

import (
	"fmt"
	"io"
	"net"
	"os"
)

func main() {
	c, err := net.Dial("tcp", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		os.Exit(3)
	}
	fmt.Fprintf(c, "%d\n", os.Getpid())
	go func() {
		io.Copy(os.Stdout, c)
		os.Exit(0) // the grader closed: the server exits
	}()
	io.Copy(c, os.Stdin)
	fmt.Fprint(c, "\n` + relayEOF + `\n")
	select {}
}
`

// relayEOF is the relay's line for "my stdin is closed".
const relayEOF = "#eof"

// relayExitDelay is how long the grader's server takes to exit once its
// stdin is closed, as a real server finishing its work does. A program
// that does not wait for its child exits within it, leaving the server
// running.
const relayExitDelay = 300 * time.Millisecond

// relayBin builds the relay, once per grade, next to the program.
func (t *T) relayBin() (string, error) {
	folder := filepath.Dir(t.bin) // the grade's own folder (newFolder)
	bin := filepath.Join(folder, "stdio-peer")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	src := filepath.Join(folder, "stdio-peer-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module relay\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(relaySource), 0o644); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(t.ctx, "go", "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(goEnv(folder), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		if err := t.canceled(); err != nil {
			return "", err
		}
		return "", fmt.Errorf("building the grader's stdio server: %v\n%s", err, out)
	}
	return bin, nil
}

// stdioPeer is the grader's side of the relays: a listener, and every
// server process the program started, in the order they connected.
type stdioPeer struct {
	l     net.Listener
	serve func(s *peerSession) // what the server does with one process
	bin   string

	mu       sync.Mutex // guards sessions
	sessions []*peerSession
	wg       sync.WaitGroup // the accept loop and every session
}

// peerSession is one server process the program started.
type peerSession struct {
	conn  net.Conn
	in    *bufio.Reader
	lines chan string // request lines, closed at the relay's end of input

	mu       sync.Mutex // guards the fields below
	pid      int
	requests []string
	eof      bool      // the program closed the server's stdin
	gone     bool      // the connection ended without relayEOF: the server was killed
	exited   time.Time // when the grader ended the server
}

// newStdioPeer builds the relay if needed, and listens for it.
func newStdioPeer(t *T, serve func(s *peerSession)) (*stdioPeer, error) {
	bin, err := t.relayBin()
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &stdioPeer{l: l, serve: serve, bin: bin}
	p.wg.Add(1)
	go p.accept() // ends when the listener is closed
	return p, nil
}

// command is the server command line the program is given.
func (p *stdioPeer) command() []string { return []string{p.bin, p.l.Addr().String()} }

func (p *stdioPeer) accept() {
	defer p.wg.Done()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		s := &peerSession{conn: c, in: bufio.NewReaderSize(c, 1<<16), lines: make(chan string, 64)}
		p.mu.Lock()
		p.sessions = append(p.sessions, s)
		p.mu.Unlock()
		p.wg.Add(2)
		go func() { // ends at the relay's end of input or when the connection closes
			defer p.wg.Done()
			s.read()
		}()
		go func() { // ends when serve returns; shutdown closes the connection
			defer p.wg.Done()
			p.serve(s)
			s.exit()
		}()
	}
}

// read reads the relay's lines into s.lines.
func (s *peerSession) read() {
	defer close(s.lines)
	first, err := s.in.ReadString('\n')
	if err != nil {
		return
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	s.mu.Lock()
	s.pid = pid
	s.mu.Unlock()
	for {
		line, err := s.in.ReadString('\n')
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == relayEOF:
			s.mu.Lock()
			s.eof = true
			s.mu.Unlock()
			return
		case err != nil:
			s.mu.Lock()
			s.gone = true
			s.mu.Unlock()
			return
		case line != "":
			s.mu.Lock()
			s.requests = append(s.requests, line)
			s.mu.Unlock()
			s.lines <- line
		}
	}
}

// send writes one line to the program, as the server's stdout.
func (s *peerSession) send(line string) {
	s.conn.Write([]byte(line + "\n"))
}

// next returns the next request line, or false at the end of input, or
// when nothing comes within wait.
func (s *peerSession) next(wait time.Duration) (string, bool) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case line, ok := <-s.lines:
		return line, ok
	case <-timer.C:
		return "", false
	}
}

// drain waits for the end of input and then for relayExitDelay, as a
// server finishing up before it exits, or for at most wait.
func (s *peerSession) drain(wait time.Duration) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		select {
		case _, ok := <-s.lines:
			if ok {
				continue
			}
			pause := time.NewTimer(relayExitDelay)
			select {
			case <-pause.C:
			case <-deadline.C:
			}
			pause.Stop()
			return
		case <-deadline.C:
			return
		}
	}
}

// exit ends the server: the relay exits when its connection closes.
func (s *peerSession) exit() {
	s.mu.Lock()
	if s.exited.IsZero() {
		s.exited = time.Now()
	}
	s.mu.Unlock()
	s.conn.Close()
}

// shutdown ends every server and waits for the grader's goroutines.
func (p *stdioPeer) shutdown() {
	p.l.Close()
	p.mu.Lock()
	for _, s := range p.sessions {
		s.conn.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// started returns the server processes the program started.
func (p *stdioPeer) started() []*peerSession {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*peerSession(nil), p.sessions...)
}

// state returns what a session saw, safely.
func (s *peerSession) state() (requests []string, eof, gone bool, exited time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...), s.eof, s.gone, s.exited
}

// errNoRelay is for a program that never started its server.
var errNoRelay = errors.New("no server started")

// ctxWait is how long a peer's server waits for a program's next
// request: within any stage's limit.
func ctxWait(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return DefaultLimit
}
