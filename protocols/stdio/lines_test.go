package stdio

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLineReader(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 100) + "\nafter\r\n\nexactly10!\nlast"
	lr := NewLineReader(strings.NewReader(in), 10)
	var got []string
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, ErrLineTooLong) {
			got = append(got, "<too long>")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	want := []string{"short", "<too long>", "after", "", "exactly10!", "last"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestLineReaderLongerThanBuffer(t *testing.T) {
	long := strings.Repeat("y", 200<<10) // past the 64 KiB bufio buffer
	lr := NewLineReader(strings.NewReader(long+"\n"), 0)
	line, err := lr.Next()
	if err != nil || len(line) != len(long) {
		t.Fatalf("got %d bytes, %v; want %d bytes", len(line), err, len(long))
	}
}
