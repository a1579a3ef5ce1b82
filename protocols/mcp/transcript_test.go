package mcp

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/tools"
)

var update = flag.Bool("update", false, "rewrite the server lines of testdata/*.txtar from what the server now sends")

// answerWait bounds how long a replay waits for one server line, so that
// a server that stays silent fails the test instead of hanging it.
const answerWait = 10 * time.Second

// TestTranscripts replays each golden transcript over the stdio
// transport. The "wire" section interleaves the two sides in the order
// they happen: "-> " lines are written to the server, and after each one
// the replay reads as many lines as there are "<- " lines before the next
// "-> ", and compares them byte for byte. A notification expects no
// answer, so no "<- " lines follow it.
func TestTranscripts(t *testing.T) {
	for _, f := range transcript.Glob(t, "testdata/*.txtar") {
		t.Run(f.Name, func(t *testing.T) {
			steps := parseSteps(t, f.Section(t, "wire"))
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			// hostile*.txtar are the hostile server's (hostile.go).
			srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}),
				&ServerOptions{Version: "test", Hostile: strings.HasPrefix(f.Name, "hostile")})
			done := make(chan error, 1)
			// The server ends when inW is closed below.
			go func() { done <- srv.ServeStdio(context.Background(), inR, outW); outW.Close() }()
			lines := make(chan string)
			// This goroutine ends when outW is closed, after the server returns.
			go func() {
				sc := bufio.NewScanner(outR)
				sc.Buffer(nil, 2<<20)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()

			var got bytes.Buffer
			state := "none-yet" // the last requestState the server sent
			for _, s := range steps {
				got.WriteString("-> " + s.send + "\n")
				if _, err := io.WriteString(inW, strings.ReplaceAll(s.send, stateHolder, state)+"\n"); err != nil {
					t.Fatal(err)
				}
				for range s.answers {
					select {
					case l, ok := <-lines:
						if !ok {
							t.Fatalf("the server stopped; so far:\n%s", got.String())
						}
						l, state = holdState(l, state)
						got.WriteString("<- " + l + "\n")
					case <-time.After(answerWait):
						t.Fatalf("no answer to %s; so far:\n%s", s.send, got.String())
					}
				}
			}
			inW.Close()
			if err := <-done; err != nil {
				t.Fatalf("ServeStdio: %v", err)
			}
			if extra, ok := <-lines; ok {
				t.Errorf("the server sent more than the transcript expects: %s", extra)
			}
			if *update {
				f.Rewrite(t, "wire", got.Bytes())
				return
			}
			if want := f.Section(t, "wire"); !bytes.Equal(got.Bytes(), want) {
				t.Errorf("got:\n%s\nwant:\n%s\n(run go test -update to accept)", got.String(), want)
			}
		})
	}
}

// stateHolder stands for a requestState in a transcript: the server
// signs each with a new key and expiry, so the bytes differ on every run.
// In an answer it replaces the state, and in a message sent it is
// replaced by the state the server sent last.
const stateHolder = "{{requestState}}"

var requestStateField = regexp.MustCompile(`"requestState":"([A-Za-z0-9_.-]+)"`)

// holdState replaces the requestState in an answer line with stateHolder
// and returns the state it found (or the previous one).
func holdState(line, last string) (string, string) {
	if m := requestStateField.FindStringSubmatch(line); m != nil {
		return strings.Replace(line, m[1], stateHolder, 1), m[1]
	}
	return line, last
}

type step struct {
	send    string
	answers []string
}

func parseSteps(t *testing.T, wire []byte) []step {
	var steps []step
	for _, line := range strings.Split(strings.TrimSuffix(string(wire), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "-> "):
			steps = append(steps, step{send: strings.TrimPrefix(line, "-> ")})
		case strings.HasPrefix(line, "<- ") && len(steps) > 0:
			steps[len(steps)-1].answers = append(steps[len(steps)-1].answers, strings.TrimPrefix(line, "<- "))
		default:
			t.Fatalf("wire line %q starts with neither \"-> \" nor \"<- \"", line)
		}
	}
	if len(steps) == 0 {
		t.Fatal("the wire section is empty")
	}
	return steps
}
