package stdio

import (
	"fmt"
	"os/exec"
	"time"
)

// process watches a started child so it can be stopped without leaks.
type process struct {
	cmd   *exec.Cmd
	grace time.Duration
	done  chan struct{} // closed when Wait returns
	err   error         // Wait's result; read after done is closed
}

func watch(cmd *exec.Cmd, grace time.Duration) *process {
	p := &process{cmd: cmd, grace: grace, done: make(chan struct{})}
	// This goroutine ends when the child exits; stop makes sure it does.
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p
}

// stop waits for the child to exit by itself (its stdin is closed), then
// asks it to stop, then kills it. It returns nil if the child exited by
// itself or after SIGTERM.
func (p *process) stop() error {
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

func (p *process) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

func (p *process) exitErr() error {
	if p.err != nil {
		return fmt.Errorf("server exited: %w", p.err)
	}
	return nil
}
