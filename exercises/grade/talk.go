package grade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"time"
)

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
			var f *Failure
			switch {
			case p.exited() && len(pending) > 0:
				f = Failf("the program exited (%s) after writing part of a line", p.exitStatus())
			case p.exited():
				f = Failf("the program exited (%s) before answering", p.exitStatus())
			case len(pending) > 0:
				f = Failf("the program closed its stdout after writing part of a line")
			default:
				f = Failf("the program closed its stdout before answering")
			}
			if len(pending) > 0 {
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
				f.restatef("no complete line within %v", p.t.limit)
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
		return aboutf(err, a.Next, "the request after %s", a.What)
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
			return aboutf(err, a.Next, "the request after %s", a.What)
		}
		return aboutf(CompareJSON(got, a.NextWant, Subset).orNil(), a.Next, "the request after %s", a.What)
	}
	// The good request was answered first. A server that answers
	// requests concurrently may do that (JSON-RPC allows answers in any
	// order), and then sends the other answer right away; one that
	// skipped the bad line sends nothing more.
	if f := CompareJSON(first, a.NextWant, Subset); f != nil {
		return aboutf(f, a.Next, "the request after %s", a.What)
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
		f.restatef("after its last answer, with its stdin closed, the program wrote part of a line")
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
