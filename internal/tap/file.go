package tap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Read reads a recording: one event per line, as a Recorder writes it.
func Read(r io.Reader) ([]Event, error) {
	br := bufio.NewReader(r)
	var events []Event
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var e Event
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				return nil, fmt.Errorf("recording line %d: %w", n, jerr)
			}
			if n == 1 && (e.Kind != KindStart || e.Format != Format) {
				return nil, fmt.Errorf("recording line 1: not a %s recording (it starts with kind %q, format %q)", Format, e.Kind, e.Format)
			}
			events = append(events, e)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the recording: %w", err)
		}
	}
	if len(events) == 0 {
		return nil, errors.New("the recording is empty")
	}
	return events, nil
}
