package grade

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// Limits on a program's output. The grader keeps reading whatever the
// program writes, so that a flood never blocks it, but keeps only this
// much.
const (
	// maxStdout is the most unread stdout kept: several times the
	// largest answer any exercise expects (1 MiB lines).
	maxStdout = 4 << 20
	// maxStderr is how much of the end of stderr is kept, for reports.
	maxStderr = 16 << 10
	// stderrLines is how many of its last lines a report shows.
	stderrLines = 20
)

// Waits inside a stage, each shorter than any stage's limit.
const (
	// newlineGrace is how long a complete JSON value may sit on stdout
	// without its newline before the grader calls it a missing newline,
	// instead of waiting out the stage's whole limit. Writers that send
	// the newline in a separate write do so within microseconds.
	newlineGrace = 2 * time.Second
	// exitGrace is how long to wait for a program's exit status once its
	// stdout has closed, which usually means it is exiting.
	exitGrace = 2 * time.Second
	// killWait bounds the wait for a killed program to be reaped.
	killWait = 5 * time.Second
	// answerGrace is how long ExpectAnswered waits for an answer that
	// should already have come: a server answering out of order sends
	// it within milliseconds of the other.
	answerGrace = 2 * time.Second
	// dialEvery is how often StartServer tries to connect while waiting
	// for a server to listen.
	dialEvery = 50 * time.Millisecond
)

// Process is the learner's program, running for one stage. Its methods
// fail with a *Failure that describes what the program did, and they
// never wait past the stage's time limit.
type Process struct {
	t     *T
	cmd   *exec.Cmd
	stdin *os.File
	out   *output
	errs  *tail
	pipes []*os.File // our ends, closed when the stage ends

	done chan struct{} // closed when the program has exited; then cmd.ProcessState is set

	// stdinMu guards stdinClosed and lastSent. A Process belongs to its
	// stage's goroutine, but a stage that overruns its limit runs on
	// while the grader cleans up and reports.
	stdinMu     sync.Mutex
	stdinClosed bool
	lastSent    string
}

// Start runs the program with args, its stdin, stdout and stderr piped
// to the grader. It is stopped, with everything it started, when the
// stage ends.
func (t *T) Start(args ...string) (*Process, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return nil, errors.New("Start called after the stage ended")
	}
	if t.bin == "" {
		return nil, errors.New("Start called before the program was built")
	}
	p := &Process{t: t, out: newOutput(), errs: newTail(maxStderr), done: make(chan struct{})}
	cmd := exec.Command(t.bin, args...)
	cmd.Dir = t.dir
	// Pipes made here rather than by exec, so that the program's output
	// is read by goroutines the grader controls, and cmd.Wait never waits
	// for a grandchild that still holds a pipe open.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	setProcessGroup(cmd)
	err = cmd.Start()
	// The program has its copies; ours would keep the pipes open forever.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("starting the program: %w", err)
	}
	p.cmd, p.stdin, p.pipes = cmd, inW, []*os.File{inW, outR, errR}
	// These goroutines end at EOF, which comes when the program and
	// everything it started have exited, or when the stage's cleanup
	// closes the pipes.
	go p.out.fill(outR)
	go p.errs.fill(errR)
	// This one ends when the program exits; the stage's cleanup kills it.
	go func() {
		cmd.Wait() // the exit status is in cmd.ProcessState
		close(p.done)
	}()
	// A write blocked on a full pipe ends when the stage's time is up.
	stop := context.AfterFunc(t.ctx, func() { inW.SetWriteDeadline(time.Now()) })
	t.procs = append(t.procs, p)
	t.stops = append(t.stops, stop)
	return p, nil
}

// StartServer runs a server exercise: it picks a free loopback port,
// starts the program with --addr 127.0.0.1:PORT followed by args, and
// waits until the port accepts connections. It returns the address.
func (t *T) StartServer(args ...string) (*Process, string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("finding a free port: %w", err)
	}
	addr := l.Addr().String()
	l.Close()
	p, err := t.Start(append([]string{"--addr", addr}, args...)...)
	if err != nil {
		return nil, "", err
	}
	tick := time.NewTicker(dialEvery)
	defer tick.Stop()
	for {
		c, err := net.DialTimeout("tcp", addr, dialEvery)
		if err == nil {
			c.Close()
			return p, addr, nil
		}
		select {
		case <-p.done:
			f := Failf("the program exited (%s) without listening on %s", p.exitStatus(), addr)
			f.Sent, f.Stderr, f.Hint = "command line: --addr "+addr, p.Stderr(), HintAddr
			return nil, "", f
		case <-t.ctx.Done():
			if err := t.canceled(); err != nil {
				return nil, "", err
			}
			f := Failf("nothing accepted connections on %s within %v", addr, t.limit)
			f.Sent, f.Stderr, f.Hint = "command line: --addr "+addr, p.Stderr(), HintAddr
			return nil, "", f
		case <-tick.C:
		}
	}
}

// Wait waits, within the stage's limit, for the program to exit, and
// returns its exit code.
func (p *Process) Wait() (int, error) {
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode(), nil
	case <-p.t.ctx.Done():
		if err := p.t.canceled(); err != nil {
			return 0, err
		}
		f := Failf("the program did not exit within %v", p.t.limit)
		f.Stderr = p.Stderr()
		return 0, f
	}
}

// Output waits, within the stage's limit, until the program closes its
// stdout, and returns everything on it not yet read.
func (p *Process) Output() ([]byte, error) {
	for {
		_, pending, eof, full, wake := p.out.peek()
		if eof || full {
			return pending, nil
		}
		select {
		case <-wake:
		case <-p.t.ctx.Done():
			if err := p.t.canceled(); err != nil {
				return nil, err
			}
			f := Failf("the program did not finish its output within %v", p.t.limit)
			f.Got, f.Stderr = shorten(string(pending)), p.Stderr()
			return nil, f
		}
	}
}

// Stderr returns the last lines the program wrote on stderr. Once the
// program has exited, it first waits (briefly) for the rest of stderr,
// which may still be in the pipe.
func (p *Process) Stderr() string {
	if p.exited() {
		t := time.NewTimer(exitGrace)
		select {
		case <-p.errs.done:
		case <-t.C:
		}
		t.Stop()
	}
	return lastLines(p.errs.String(), stderrLines)
}

// Exited reports whether the program has exited.
func (p *Process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *Process) waitExit(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
}

// exitStatus describes how the program ended, for messages.
func (p *Process) exitStatus() string {
	if !p.exited() {
		return "still running"
	}
	st := p.cmd.ProcessState
	if st.Exited() {
		return "exit status " + strconv.Itoa(st.ExitCode())
	}
	return st.String() // "signal: killed"
}

func (p *Process) withSent(f *Failure) *Failure {
	p.stdinMu.Lock()
	defer p.stdinMu.Unlock()
	if f.Sent == "" {
		f.Sent = shorten(p.lastSent)
	}
	return f
}

// kill stops the program and everything it started, and closes the
// grader's ends of its pipes.
func (p *Process) kill() {
	killProcessGroup(p.cmd)
	p.waitExit(killWait)
	for _, f := range p.pipes {
		f.Close()
	}
}
