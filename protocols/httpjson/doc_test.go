package httpjson

import (
	"os"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/transcript"
)

// TestDocExchange keeps the exchange quoted in the package documentation
// equal to the golden transcript it was copied from.
func TestDocExchange(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	golden := transcript.Glob(t, "testdata/execute.txtar")[0]
	for _, q := range []struct{ after, section string }{
		{"// From testdata/execute.txtar. The client sends:", "client"},
		{"// and the server answers (lines end in CRLF on the wire):", "server"},
	} {
		quoted := indentedBlock(t, string(src), q.after)
		if !strings.HasPrefix(string(golden.Section(t, q.section)), quoted) {
			t.Errorf("doc.go quotes the %s as\n%s\nbut testdata/execute.txtar does not start with that", q.section, quoted)
		}
	}
}

// indentedBlock returns the tab-indented comment lines (and the blank
// comment lines among them) that follow the line after, uncommented.
func indentedBlock(t *testing.T, src, after string) string {
	t.Helper()
	_, rest, ok := strings.Cut(src, after+"\n//\n")
	if !ok {
		t.Fatalf("doc.go has no line %q followed by an empty comment line", after)
	}
	var out []string
	for _, line := range strings.Split(rest, "\n") {
		code, isCode := strings.CutPrefix(line, "//\t")
		switch {
		case isCode:
			out = append(out, code)
		case line == "//" && len(out) > 0:
			out = append(out, "")
		default:
			return strings.TrimSuffix(strings.Join(out, "\n"), "\n") + "\n"
		}
	}
	return ""
}
