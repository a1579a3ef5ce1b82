package a2a

import (
	"bytes"
	"flag"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/tools"
)

var update = flag.Bool("update", false, "rewrite the server sections of testdata/*.txtar from what the server now sends, and correct Content-Length in the client sections")

// transcriptTime is the clock of every transcript: timestamps on the
// wire come out the same on every run.
var transcriptTime = time.Date(2026, 3, 12, 9, 0, 0, 0, time.UTC)

// TestTranscripts replays each testdata/*.txtar, raw HTTP/1.1 on one
// connection, against a server whose clock stands still and whose ids
// count up (task ids and context ids "id-1", "id-2", ...), so that a
// later request can name a task an earlier one created. Comment options:
// "tokens: SPEC..." turns on bearer tokens.
func TestTranscripts(t *testing.T) {
	for _, f := range transcript.Glob(t, "testdata/*.txtar") {
		t.Run(f.Name, func(t *testing.T) {
			var ts *tools.Tokens
			if specs := f.Option("tokens"); specs != "" {
				var err error
				if ts, err = tools.ParseTokens(strings.Fields(specs)); err != nil {
					t.Fatal(err)
				}
			}
			var n atomic.Int64
			s := NewServer(&Options{
				Tools:    tools.New(&tools.Options{DeployStep: time.Millisecond}),
				Tokens:   ts,
				Loopback: true,
				Version:  "test",
				Now:      func() time.Time { return transcriptTime },
				NewID:    func() string { return fmt.Sprintf("id-%d", n.Add(1)) },
			})
			srv := httptest.NewServer(s)
			defer srv.Close()
			defer s.Close()

			reqs, fixed := transcript.SplitHTTP(t, f.Section(t, "client"), *update)
			answers := transcript.ReplayHTTP(t, srv.Listener.Addr().String(), reqs, nil, nil)
			if *update {
				if fixed != nil {
					f.Rewrite(t, "client", fixed)
				}
				f.Rewrite(t, "server", answers)
				return
			}
			if want := f.Section(t, "server"); !bytes.Equal(answers, want) {
				t.Errorf("server sent:\n%s\nwant:\n%s\n(run go test -update to accept)", answers, want)
			}
		})
	}
}
