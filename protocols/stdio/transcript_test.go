package stdio

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
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
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			client, server := section(t, ar, "client"), section(t, ar, "server")
			if option(ar.Comment, "final-newline") == "no" {
				client = bytes.TrimSuffix(client, []byte("\n"))
			}

			cmd := exec.Command(serverArgv(t, "ok")[0])
			cmd.Env = append(os.Environ(), "WIRELAB_TEST_MAX_LINE="+option(ar.Comment, "max-line"))
			cmd.Stdin = bytes.NewReader(client)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("server: %v\nstderr:\n%s", err, stderr.String())
			}
			if *update {
				setSection(ar, "server", stdout.Bytes())
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got := stdout.Bytes(); !bytes.Equal(got, server) {
				t.Errorf("server sent:\n%s\nwant:\n%s\n(run go test -update to accept)", got, server)
			}
		})
	}
}

func section(t *testing.T, ar *txtar.Archive, name string) []byte {
	t.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("transcript has no %q section", name)
	return nil
}

func setSection(ar *txtar.Archive, name string, data []byte) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = data
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
}

// option finds "key: value" among a transcript's comment lines.
func option(comment []byte, key string) string {
	sc := bufio.NewScanner(bytes.NewReader(comment))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
