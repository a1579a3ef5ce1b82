package tap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// maxLine bounds one line of a recording, one event. An event keeps at
// most DefaultMaxData bytes of a message, and JSON writes each byte in at
// most six (\u001b); the rest of the event is small. A longer line was
// not written by a Recorder, and Read stops at it rather than read on
// (a file like /dev/zero has no end of line at all).
const maxLine = 8 * DefaultMaxData

// ReadFile reads the recording in a file. Only a regular file is read: a
// FIFO would wait for a writer that may never come, and a device like
// /dev/zero never ends, neither of which wirelab tap writes.
func ReadFile(path string) ([]Event, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	events, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return events, nil
}

// OpenFile opens a file that should hold a recording, refusing anything
// but a regular file. It looks before it opens, since opening a FIFO
// waits for its writer.
func OpenFile(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file but %s: a recording is a file that wirelab tap --record wrote", path, kindOf(fi.Mode()))
	}
	return os.Open(path)
}

// kindOf names what a file that is not a regular one is.
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// Read reads a recording: one event per line, as a Recorder writes it.
func Read(r io.Reader) ([]Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine)
	var events []Event
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("recording line %d: %w", n, err)
		}
		if n == 1 && (e.Kind != KindStart || e.Format != Format) {
			return nil, fmt.Errorf("recording line 1: not a %s recording (it starts with kind %q, format %q)", Format, e.Kind, e.Format)
		}
		events = append(events, e)
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return nil, fmt.Errorf("recording line %d is longer than %d MiB, more than any event a recording holds: this is not a recording wirelab tap wrote", n+1, maxLine>>20)
	case err != nil:
		return nil, fmt.Errorf("reading the recording: %w", err)
	}
	if len(events) == 0 {
		return nil, errors.New("the recording is empty")
	}
	return events, nil
}
