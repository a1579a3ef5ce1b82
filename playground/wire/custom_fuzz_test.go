package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/shell"
)

// plainShellBytes are the bytes on which a POSIX shell does nothing but
// split words and remove quotes: no variables ($), no ~, no globs, no
// braces, no operators, no comments. On a line made only of these,
// splitCommandLine must split as a shell does, as `wirelab client
// --cmd` does with mvdan.cc/sh.
const plainShellBytes = "abcxyzABCXYZ0123456789 \t\n'\"\\-_./=,:@%+"

// FuzzSplitCommandLine splits any command line, starting from the ones
// the tests and the lessons use: it never panics, a line it splits gives
// at least one word, the words quoted again split back to themselves,
// and on plain lines it agrees with a real shell's parser.
func FuzzSplitCommandLine(f *testing.F) {
	for _, line := range []string{
		"python3 my_server.py --flag 'a b'",
		"  a\t b\n c  ",
		`a "b c" 'd "e"' "f 'g'"`,
		`a\ b c\'d \"e\"`,
		`"x \" \\ \$ \a"`,
		`'no \escape'`,
		`a'b'"c"d`,
		`'' ""`,
		`$HOME ~ *.py | wc > out`,
		"a \\\nb",
		"python3 'my server.py",
		`say "hi\"`,
		`trailing\`,
		"wirelab server stdio --max-line 1048576",
		"go run ./solutions/stdio-server",
	} {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		argv, err := splitCommandLine(line)
		if err == nil {
			if len(argv) == 0 {
				t.Fatalf("split(%q) gave no words and no error", line)
			}
			quoted := make([]string, len(argv))
			for i, w := range argv {
				quoted[i] = shellQuote(w)
			}
			again, err := splitCommandLine(strings.Join(quoted, " "))
			if err != nil {
				t.Fatalf("split(%q) = %q, which quoted again does not split: %v", line, argv, err)
			}
			if diff := cmp.Diff(argv, again); diff != "" {
				t.Fatalf("split(%q) = %q, quoted and split again (-first +again):\n%s", line, argv, diff)
			}
		}

		if strings.ContainsFunc(line, func(r rune) bool { return !strings.ContainsRune(plainShellBytes, r) }) {
			return
		}
		if strings.Contains(line, "\\\n") {
			// A backslash before a newline joins the lines (POSIX,
			// Shell Command Language 2.2.1), as sh, bash and
			// splitCommandLine do: three backslashes, a newline and 0
			// are the one word \0. shell.Fields keeps the newline
			// instead, so it is no reference here; the round trip above
			// still holds.
			return
		}
		want, werr := shell.Fields(line, func(string) string { return "" })
		if werr != nil || len(want) == 0 {
			return // the shell refuses it, or finds nothing to run: splitCommandLine may say either
		}
		if err != nil {
			if endsInLoneBackslash(line) {
				return // refused on purpose, where a shell keeps the backslash (TestSplitCommandLine)
			}
			t.Fatalf("split(%q): %v; a shell splits it into %q", line, err, want)
		}
		if diff := cmp.Diff(want, argv); diff != "" {
			t.Fatalf("split(%q) differs from a shell's (-shell +split):\n%s", line, diff)
		}
	})
}

// endsInLoneBackslash reports whether line ends with a backslash that
// escapes nothing: an odd number of them at the end.
func endsInLoneBackslash(line string) bool {
	n := len(line) - len(strings.TrimRight(line, "\\"))
	return n%2 == 1
}
