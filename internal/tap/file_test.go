package tap

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// zeros reads as /dev/zero does: NUL bytes without end, and no newline.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestReadBoundsALine: a file with no end of line is refused once a line
// passes what any event can be, having read little more than that; a
// recording whose event holds a whole DefaultMaxData message, escaped,
// still reads.
func TestReadBoundsALine(t *testing.T) {
	z := &zeros{}
	events, err := Read(z)
	if err == nil || len(events) != 0 || !strings.Contains(err.Error(), "recording line 1 is longer than 8 MiB") {
		t.Errorf("read %d events, %v", len(events), err)
	}
	if z.read > maxLine+1<<20 {
		t.Errorf("read %d bytes of a file without newlines before refusing it; the bound is %d", z.read, maxLine)
	}

	var file bytes.Buffer
	for _, e := range []Event{
		{Kind: KindStart, Format: Format},
		{Kind: KindNote, Data: strings.Repeat("\x1b", DefaultMaxData)}, // six bytes each in JSON
	} {
		b, _ := json.Marshal(e)
		file.Write(append(b, '\n'))
	}
	events, err = Read(&file)
	if err != nil || len(events) != 2 || len(events[1].Data) != DefaultMaxData {
		t.Errorf("a recording with a 1 MiB event: %d events, %v", len(events), err)
	}
}
