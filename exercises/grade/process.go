package grade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// Send writes line and a newline to the program's stdin.
func (p *Process) Send(line string) error {
	p.stdinMu.Lock()
	p.lastSent = line
	p.stdinMu.Unlock()
	return p.Write([]byte(line + "\n"))
}

// Write writes b to the program's stdin as it is. It fails if the
// program exits before reading it all, or stops reading.
func (p *Process) Write(b []byte) error {
	p.stdinMu.Lock()
	closed := p.stdinClosed
	p.stdinMu.Unlock()
	if closed {
		return errors.New("Write after CloseStdin")
	}
	n, err := p.stdin.Write(b)
	if err == nil {
		return nil
	}
	if err := p.t.canceled(); err != nil {
		return err
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		f := Failf("the program stopped reading its stdin: it took %d of the %d bytes sent before the time limit (%v)", n, len(b), p.t.limit)
		f.Hint, f.Stderr = HintStopsReading, p.Stderr()
		return f
	}
	// EPIPE: nobody reads the pipe any more, so the program is gone or
	// closed its stdin. An exit is reported as ReadLine reports it, since
	// which of the two notices first is a matter of timing.
	p.waitExit(exitGrace)
	f := Failf("the program closed its stdin before reading all that was sent (%d of %d bytes)", n, len(b))
	if p.exited() {
		f = Failf("the program exited (%s) before answering", p.exitStatus())
	}
	f.Stderr = p.Stderr()
	return f
}

// CloseStdin closes the program's stdin: the end of its input.
func (p *Process) CloseStdin() {
	p.stdinMu.Lock()
	defer p.stdinMu.Unlock()
	if !p.stdinClosed {
		p.stdinClosed = true
		p.stdin.Close()
	}
}

// ReadLine returns the next line the program writes on stdout, without
// its newline. It fails if the stage's time runs out first, if the
// program exits or closes stdout, if a complete JSON value sits there
// without a newline, or if the program floods stdout without one.
func (p *Process) ReadLine() ([]byte, error) {
	return p.readLine(p.t.ctx)
}

// readLine is ReadLine, ending when ctx does; ctx is the stage's context
// or one that ends sooner.
func (p *Process) readLine(ctx context.Context) ([]byte, error) {
	for {
		line, pending, eof, full, wake := p.out.next()
		if line != nil {
			return line, nil
		}
		if full {
			f := Failf("the program wrote more than %d MiB on stdout without a newline", maxStdout>>20)
			f.Got, f.Hint = shorten(string(pending)), HintNoNewline
			return nil, p.withSent(f)
		}
		if eof {
			p.waitExit(exitGrace)
			f := Failf("the program closed its stdout before answering")
			if p.exited() {
				f = Failf("the program exited (%s) before answering", p.exitStatus())
			}
			if len(pending) > 0 {
				f.Summary = strings.TrimSuffix(f.Summary, "before answering") + "after writing part of a line"
				f.Got, f.Hint = shorten(string(pending)), HintNoNewline
			}
			f.Stderr = p.Stderr()
			return nil, p.withSent(f)
		}
		// A complete JSON value with nothing after it for newlineGrace is
		// an answer without its newline.
		grace := time.NewTimer(newlineGrace)
		if len(pending) == 0 || !json.Valid(pending) {
			grace.Stop()
		}
		select {
		case <-wake:
			grace.Stop()
		case <-grace.C:
			f := Failf("the answer arrived without a newline at its end")
			f.Got, f.Hint = shorten(string(pending)), HintNoNewline
			return nil, p.withSent(f)
		case <-ctx.Done():
			if err := p.t.canceled(); err != nil {
				return nil, err
			}
			f := Failf("no answer within %v", p.t.limit)
			if len(pending) > 0 {
				f.Summary = fmt.Sprintf("no complete line within %v", p.t.limit)
				f.Got, f.Hint = shorten(string(pending)), HintNoNewline
			}
			f.Stderr = p.Stderr()
			return nil, p.withSent(f)
		}
	}
}

// ReadJSON returns the next line, which must be a JSON value.
func (p *Process) ReadJSON() ([]byte, error) {
	line, err := p.ReadLine()
	if err != nil {
		return nil, err
	}
	if !json.Valid(line) {
		return nil, p.withSent(notJSON(line))
	}
	return line, nil
}

// Expect sends one line and checks that the next line the program
// writes is the JSON want, ignoring key order and whitespace. what says
// in a few words what is being checked, for the report.
func (p *Process) Expect(what, send, want string) error {
	return p.expect(what, send, want, Exact)
}

// ExpectSubset is Expect, but the answer may have keys want does not
// mention, and want may use the placeholders AnyString, AnyNumber and
// AnyValue.
func (p *Process) ExpectSubset(what, send, want string) error {
	return p.expect(what, send, want, Subset)
}

func (p *Process) expect(what, send, want string, subset bool) error {
	if err := p.Send(send); err != nil {
		return About(err, what, send)
	}
	got, err := p.ReadJSON()
	if err != nil {
		return About(err, what, send)
	}
	if f := CompareJSON(got, want, subset); f != nil {
		return About(f, what, send)
	}
	return nil
}

// Call sends one line and returns the next line the program writes,
// which must be JSON, for checks beyond what Expect does.
func (p *Process) Call(what, send string) ([]byte, error) {
	if err := p.Send(send); err != nil {
		return nil, About(err, what, send)
	}
	got, err := p.ReadJSON()
	if err != nil {
		return nil, About(err, what, send)
	}
	return got, nil
}

// Answered is a bad line for ExpectAnswered, and the good request sent
// right after it.
type Answered struct {
	What string // what Bad is, for the report: "a line that is not JSON"
	Bad  string // the line sent
	Want string // its answer, as ExpectSubset wants it
	// Hint is shown when Bad's answer is not Want, unless the difference
	// is a classic mistake with a hint of its own.
	Hint           string
	Next, NextWant string // a good request, and its answer (as ExpectSubset wants it)
}

// ExpectAnswered sends a bad line and, right after it, a good request.
// Both must be answered, the bad line as a.Want says. A server that skips
// lines it cannot parse answers only the good request, and would leave a
// real client waiting forever for the bad line's answer; sending the
// good one turns that wait into a quick, clear failure.
func (p *Process) ExpectAnswered(a Answered) error {
	if err := p.Send(a.Bad); err != nil {
		return About(err, a.What, a.Bad)
	}
	if err := p.Send(a.Next); err != nil {
		return About(err, "the request after "+a.What, a.Next)
	}
	first, err := p.ReadJSON()
	if err != nil {
		return About(err, a.What, a.Bad)
	}
	checkBad := func(got []byte) error {
		if f := CompareJSON(got, a.Want, Subset); f != nil {
			return About(WithHint(f, a.Hint), a.What, a.Bad)
		}
		return nil
	}
	nextID := Field([]byte(a.Next), "id")
	if nextID == nil || !bytes.Equal(Field(first, "id"), nextID) {
		// In order: the bad line's answer, then the good request's.
		if err := checkBad(first); err != nil {
			return err
		}
		got, err := p.ReadJSON()
		if err != nil {
			return About(err, "the request after "+a.What, a.Next)
		}
		return About(CompareJSON(got, a.NextWant, Subset).orNil(), "the request after "+a.What, a.Next)
	}
	// The good request was answered first. A server that answers
	// requests concurrently may do that (JSON-RPC allows answers in any
	// order), and then sends the other answer right away; one that
	// skipped the bad line sends nothing more.
	if f := CompareJSON(first, a.NextWant, Subset); f != nil {
		return About(f, "the request after "+a.What, a.Next)
	}
	ctx, cancel := context.WithTimeout(p.t.ctx, answerGrace)
	defer cancel()
	got, err := p.readLine(ctx)
	if err != nil {
		if p.t.ctx.Err() == nil && ctx.Err() != nil {
			f := Failf("%s got no answer: the request after it was answered, and then nothing came within %v", a.What, answerGrace)
			f.Sent = shorten(a.Bad + "\n" + a.Next)
			f.Got, f.Hint = shorten(string(first)), HintSkippedLine
			return f
		}
		return About(err, a.What, a.Bad)
	}
	if !json.Valid(got) {
		return About(p.withSent(notJSON(got)), a.What, a.Bad)
	}
	return checkBad(got)
}

// ExpectEnd closes stdin and checks that the program then writes nothing
// more and exits with status 0, the clean end of a session.
func (p *Process) ExpectEnd() error {
	p.CloseStdin()
	line, err := p.ReadLine()
	if err == nil {
		f := Failf("after its last answer, with its stdin closed, the program wrote another line")
		f.Got, f.Hint = shorten(string(line)), HintStdoutLogs
		if json.Valid(line) {
			f.Hint = ""
		}
		return f
	}
	var f *Failure
	if !errors.As(err, &f) {
		return err
	}
	if !p.exited() {
		if f.Got != "" {
			return err // a partial line
		}
		f = Failf("the program did not exit within %v of its stdin closing", p.t.limit)
		f.Hint, f.Stderr = HintEOF, p.Stderr()
		return f
	}
	if f.Got != "" {
		f.Summary = "after its last answer, with its stdin closed, the program wrote part of a line"
		f.Hint = HintStdoutLogs
		return f
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		f = Failf("at the end of its input the program exited with %s, not status 0", p.exitStatus())
		f.Hint, f.Stderr = HintEOF, p.Stderr()
		return f
	}
	return nil
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
