package wire

import (
	"os"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/transcript"
)

// TestDocExcerpts keeps the transcripts quoted in the package
// documentation equal to the golden files they were copied from.
func TestDocExcerpts(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"word_count", "unauthenticated"} {
		intro := "From testdata/" + name + ".txtar"
		_, rest, ok := strings.Cut(string(src), intro)
		if !ok {
			t.Fatalf("doc.go does not quote testdata/%s.txtar", name)
		}
		quoted := codeBlock(rest)
		if quoted == "" {
			t.Fatalf("doc.go has no code block after %q", intro)
		}
		wire := string(transcript.Glob(t, "testdata/"+name+".txtar")[0].Section(t, "wire"))
		if !strings.Contains(wire, quoted) {
			t.Errorf("doc.go quotes testdata/%s.txtar as\n%s\nbut its wire section has no such lines", name, quoted)
		}
	}
}

// codeBlock returns the first run of tab-indented comment lines in src,
// uncommented.
func codeBlock(src string) string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		code, isCode := strings.CutPrefix(line, "//\t")
		if isCode {
			out = append(out, code)
		} else if len(out) > 0 {
			break
		}
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}
