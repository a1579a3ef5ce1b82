package tap

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/wirelab/wirelab/protocols/stdio"
)

// replayMaxLine is the longest line a replay reads from the server: as
// long as anything the tap records whole.
const replayMaxLine = 4 * DefaultMaxData

// ReplayStdio starts argv and sends it the host's lines of a stdio
// recording, in order; before each, it waits (at most wait) until the
// server has written as many lines as it had at that point in the
// recording. Then it closes the server's stdin, lets it exit, and
// compares what it wrote on stdout with the recording. The server's
// stderr goes to stderr (nil discards it).
func ReplayStdio(ctx context.Context, events []Event, argv []string, wait time.Duration, stderr io.Writer) ([]Difference, error) {
	if wait <= 0 {
		wait = DefaultWait
	}
	var recorded []recordedMessage
	ids := &idMap{}
	for _, e := range events {
		if e.Kind == KindLine && e.Dir == In && !e.Truncated {
			recorded = append(recorded, recordedMessage{e.Seq, e.Bytes()})
			if id, ok := serverRequestID(e.Bytes()); ok {
				ids.addRecorded(id)
			}
		}
	}
	p, err := stdio.StartProcess(argv, stderr, 0)
	if err != nil {
		return nil, err
	}
	lines := make(chan []byte, 1024) // room for what the server writes while the replay stops it
	// Ends at the end of the server's stdout: when it exits, or is
	// stopped below.
	go func() {
		defer close(lines)
		r := stdio.NewLineReader(p.Stdout, replayMaxLine)
		for {
			line, err := r.Next()
			if errors.Is(err, stdio.ErrLineTooLong) {
				continue
			}
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	var got [][]byte
	open := true
	// await takes the server's lines until it has written n, or wait
	// passes, or it closes stdout.
	await := func(n int) {
		t := time.NewTimer(wait)
		defer t.Stop()
		for open && len(got) < n {
			select {
			case line, ok := <-lines:
				if !ok {
					open = false
					return
				}
				got = append(got, line)
				if id, ok := serverRequestID(line); ok {
					ids.addActual(id)
				}
			case <-t.C:
				return
			case <-ctx.Done():
				return
			}
		}
	}
	seen := 0 // server lines in the recording so far
	for _, e := range events {
		if e.Kind != KindLine || e.Dir == Err {
			continue
		}
		if e.Dir == In {
			seen++
			continue
		}
		await(seen)
		line := append(ids.rewrite(e.Bytes()), '\n')
		if _, err := p.Stdin.Write(line); err != nil {
			break // the server is gone; what it said is compared below
		}
	}
	await(seen)
	p.Stdin.Close()
	stopErr := p.Stop()
	for line := range lines {
		got = append(got, line)
	}
	methods := hostMethods(events, func(e Event) bool { return e.Kind == KindLine && e.Dir == Out }, func(e Event) []byte { return e.Bytes() })
	diffs := compareMessages(recorded, got, methods, "server->host ")
	if stopErr != nil && len(diffs) == 0 {
		// Same answers, but the server did not exit as it should have.
		return nil, stopErr
	}
	return diffs, ctx.Err()
}
