package stdio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Process is a server started as a child process, speaking over its
// stdin and stdout. Every protocol that runs a server over stdio (this
// package's, MCP's) starts and stops it the same way, here.
type Process struct {
	// Stdout is the child's stdout, to read messages from; Stdin its
	// stdin, to write messages to. Closing Stdin tells a well-behaved
	// server to finish and exit.
	Stdout io.ReadCloser
	Stdin  io.WriteCloser

	cmd   *exec.Cmd
	grace time.Duration
	done  chan struct{} // closed when Wait returns
	err   error         // Wait's result; read after done is closed
}

// StartProcess runs argv with its stderr going to stderr (nil discards
// it). grace is how long Stop waits at each step; 0 means
// DefaultShutdownGrace.
func StartProcess(argv []string, stderr io.Writer, grace time.Duration) (*Process, error) {
	if len(argv) == 0 {
		return nil, errors.New("starting server: empty command")
	}
	if grace <= 0 {
		grace = DefaultShutdownGrace
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	// Our own pipe for stdout, so cmd.Wait never races the reader and a
	// grandchild holding the pipe open cannot make Wait hang.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting server: %w", err)
	}
	cmd.Stdout = pw
	cmd.Stderr = stderr
	cmd.WaitDelay = grace // bounds copying of stderr after exit
	stdin, err := cmd.StdinPipe()
	if err != nil {
		pr.Close()
		pw.Close()
		return nil, fmt.Errorf("starting server: %w", err)
	}
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, fmt.Errorf("starting server %q: %w", argv[0], err)
	}
	pw.Close() // the child has its copy; ours would keep the pipe open forever
	p := &Process{Stdout: pr, Stdin: stdin, cmd: cmd, grace: grace, done: make(chan struct{})}
	// This goroutine ends when the child exits; Stop makes sure it does.
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Stop sees the child out once its stdin is closed: it waits for the
// child to exit by itself, then asks it to stop (SIGTERM to its process
// group), then kills it. Whatever the child started in its process group
// is killed once the child is gone: a forgotten grandchild would
// otherwise outlive us, and keep our end of its stdout open. Stop
// returns nil if the child exited cleanly by itself or after SIGTERM.
func (p *Process) Stop() error {
	defer kill(p.cmd) // the rest of the group, if any is left
	if p.waitFor(p.grace) {
		return p.exitErr()
	}
	if terminate(p.cmd) == nil && p.waitFor(p.grace) {
		return nil
	}
	kill(p.cmd)
	<-p.done
	return fmt.Errorf("server did not exit within %v of closing its stdin and was killed", 2*p.grace)
}

// Done is closed when the child has exited, whoever ended it.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitState says how the child ended ("exit status 2", "signal:
// killed"). It waits for the child to exit.
func (p *Process) ExitState() *os.ProcessState {
	<-p.done
	return p.cmd.ProcessState
}

func (p *Process) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

func (p *Process) exitErr() error {
	if p.err != nil {
		return fmt.Errorf("server exited: %w", p.err)
	}
	return nil
}
