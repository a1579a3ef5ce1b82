package stdio

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"testing"

	"github.com/wirelab/wirelab/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite the server sections of testdata/*.txtar from what the server now sends")

// TestTranscripts replays each golden transcript against the real server
// running as a child process: the client section is written to its stdin
// byte for byte, stdin is closed, and everything it writes to stdout must
// equal the server section byte for byte.
//
// Comment lines set options: "max-line: N" starts the server with that
// line limit; "final-newline: no" drops the client section's last newline
// (a txtar section always ends with one).
func TestTranscripts(t *testing.T) {
	for _, f := range transcript.Glob(t, "testdata/*.txtar") {
		t.Run(f.Name, func(t *testing.T) {
			client := f.Section(t, "client")
			if f.Option("final-newline") == "no" {
				client = bytes.TrimSuffix(client, []byte("\n"))
			}

			cmd := exec.Command(serverArgv(t, "ok")[0])
			cmd.Env = append(os.Environ(), "WIRELAB_TEST_MAX_LINE="+f.Option("max-line"))
			cmd.Stdin = bytes.NewReader(client)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("server: %v\nstderr:\n%s", err, stderr.String())
			}
			if *update {
				f.Rewrite(t, "server", stdout.Bytes())
				return
			}
			if got, want := stdout.Bytes(), f.Section(t, "server"); !bytes.Equal(got, want) {
				t.Errorf("server sent:\n%s\nwant:\n%s\n(run go test -update to accept)", got, want)
			}
		})
	}
}
