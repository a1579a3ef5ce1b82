package tap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// DefaultGrace is how long the tap waits, once the server has exited,
// for the last of its output to drain, and how long after SIGTERM (when
// ctx ends) before SIGKILL.
const DefaultGrace = 2 * time.Second

// Stdio is a tapped stdio server: the host's three streams relayed to a
// child process and back, every line recorded.
type Stdio struct {
	// Argv is the server's command line.
	Argv []string
	// Stdin, Stdout and Stderr are the host's side: what the host writes
	// to the server, and where the server's output goes.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Recorder receives every line.
	Recorder *Recorder
	// Signals, if set, are forwarded to the server's process group as
	// they arrive: Ctrl-C and the host's SIGTERM reach the server as if
	// it had been started directly.
	Signals <-chan os.Signal
	// Grace: 0 means DefaultGrace.
	Grace time.Duration
}

// Run starts the server, relays until it exits, and returns its exit
// status: its exit code, or 128+N when signal N ended it, as a shell
// reports it. When ctx ends, the server is asked to stop (SIGTERM to its
// process group) and then killed. Whatever the server started in its
// process group is killed once the server is gone.
//
// The relay of the host's stdin may still be blocked reading when Run
// returns; it ends when the host closes stdin. A command-line tap exits
// then anyway.
func (s *Stdio) Run(ctx context.Context) (int, error) {
	if len(s.Argv) == 0 {
		return 0, errors.New("tap: no server command")
	}
	grace := s.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	rec := s.Recorder
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.SysProcAttr = sysProcAttr()
	// Pipes of our own for stdout and stderr, so that cmd.Wait returns
	// when the server exits, even if something it started still holds
	// them open.
	outR, outW, err := os.Pipe()
	if err != nil {
		return 0, fmt.Errorf("tap: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return 0, fmt.Errorf("tap: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	childIn, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	outW.Close() // the child has its copies; ours would keep the pipes open
	errW.Close()
	rec.Add(Event{Kind: KindStart, Format: Format, Command: s.Argv})
	if err != nil {
		outR.Close()
		errR.Close()
		// Said in the recording too: a host often hides the tap's
		// stderr, and sees only its server's stdout end at once.
		rec.Add(Event{Kind: KindNote, Data: "the server could not be started: " + err.Error()})
		return 0, fmt.Errorf("tap: starting %q: %w", s.Argv[0], err)
	}

	// The host's stdin, to the server. This goroutine ends when the host
	// closes stdin or the server's stdin is gone (a write fails).
	go func() {
		lines := newLineSplitter(rec, Out)
		err := relay(childIn, s.Stdin, lines)
		lines.End()
		childIn.Close() // tells a well-behaved server to finish
		if err != nil {
			rec.Add(Event{Kind: KindNote, Dir: Out, Data: "relaying stdin: " + err.Error()})
		}
	}()
	// The server's stdout and stderr, to the host. These end at the end
	// of each pipe, which comes when the server and what it started are
	// gone, or when Run closes them after the grace period.
	var drained sync.WaitGroup
	for _, o := range []struct {
		dir string
		r   *os.File
		w   io.Writer
	}{{In, outR, s.Stdout}, {Err, errR, s.Stderr}} {
		drained.Add(1)
		go func() {
			defer drained.Done()
			lines := newLineSplitter(rec, o.dir)
			err := relay(o.w, o.r, lines)
			lines.End()
			var werr *writeError
			if errors.As(err, &werr) {
				// The host stopped reading. Closing our end gives the
				// server the broken pipe it would have had without us.
				rec.Add(Event{Kind: KindNote, Dir: o.dir, Data: "the host stopped reading: " + err.Error()})
				o.r.Close()
			}
		}()
	}

	exited := make(chan struct{})
	// Ends when the server exits.
	go func() {
		cmd.Wait()
		close(exited)
	}()
	s.forward(ctx, cmd, exited, grace)
	kill(cmd) // the rest of its process group, if any is left

	// Let the output drain: everything the server wrote before it exited
	// is still in the pipes.
	done := make(chan struct{})
	go func() { drained.Wait(); close(done) }() // ends when both relays end, forced below at worst
	t := time.NewTimer(grace)
	select {
	case <-done:
		t.Stop()
	case <-t.C:
		// Something outside its process group still holds the pipes.
		outR.Close()
		errR.Close()
		<-done
	}
	outR.Close()
	errR.Close()

	code := exitCode(cmd.ProcessState)
	rec.Add(Event{Kind: KindExit, ExitCode: &code, Data: cmd.ProcessState.String()})
	return code, nil
}

// forward passes signals on to the server's process group until the
// server exits. When ctx ends, it stops the server: SIGTERM, then
// SIGKILL after grace.
func (s *Stdio) forward(ctx context.Context, cmd *exec.Cmd, exited <-chan struct{}, grace time.Duration) {
	stopping := ctx.Done()
	var killAfter <-chan time.Time
	for {
		select {
		case <-exited:
			return
		case sig := <-s.Signals:
			signalGroup(cmd, sig)
		case <-stopping:
			stopping = nil
			signalGroup(cmd, terminateSignal)
			killAfter = time.After(grace)
		case <-killAfter:
			kill(cmd)
		}
	}
}

// exitCode is the status a shell would report for the server.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return 1
	}
	if code := ps.ExitCode(); code >= 0 {
		return code
	}
	if n, ok := signalNumber(ps); ok {
		return 128 + n
	}
	return 1
}
