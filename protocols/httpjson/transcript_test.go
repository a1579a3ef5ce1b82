package httpjson

import (
	"bytes"
	"flag"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/tools"
)

var update = flag.Bool("update", false, "rewrite the server sections of testdata/*.txtar from what the server now sends, and correct Content-Length in the client sections")

// TestTranscripts replays each golden transcript against a real server on
// a real TCP connection. The client section holds raw HTTP/1.1 requests;
// they are sent one at a time over one keep-alive connection, and the
// bytes that come back must equal the server section, with only the Date
// value replaced. Requests and answers are separated by a blank line, and
// the files use LF line ends where the wire has CRLF.
//
// The server always runs with the loopback guards on, as the CLI runs it
// on 127.0.0.1. Comment lines set other options: "tokens: SPEC SPEC"
// turns on bearer tokens, "max-body: N" sets the body limit.
func TestTranscripts(t *testing.T) {
	for _, f := range transcript.Glob(t, "testdata/*.txtar") {
		t.Run(f.Name, func(t *testing.T) {
			srv := httptest.NewServer(NewServer(testCatalogue(), transcriptOptions(t, f)))
			defer srv.Close()

			reqs, fixed := transcript.SplitHTTP(t, f.Section(t, "client"), *update)
			got := transcript.ReplayHTTP(t, srv.Listener.Addr().String(), reqs, nil, nil)
			if *update {
				if fixed != nil {
					f.Rewrite(t, "client", fixed)
				}
				f.Rewrite(t, "server", got)
				return
			}
			if want := f.Section(t, "server"); !bytes.Equal(got, want) {
				t.Errorf("server sent:\n%s\nwant:\n%s\n(run go test -update to accept)", got, want)
			}
		})
	}
}

func testCatalogue() *tools.Catalogue {
	return tools.New(&tools.Options{DeployStep: time.Millisecond}) // deploys take milliseconds, not a second
}

func transcriptOptions(t *testing.T, f *transcript.File) *ServerOptions {
	t.Helper()
	opts := &ServerOptions{Loopback: true}
	if specs := f.Option("tokens"); specs != "" {
		ts, err := tools.ParseTokens(strings.Fields(specs))
		if err != nil {
			t.Fatal(err)
		}
		opts.Tokens = ts
	}
	if n := f.Option("max-body"); n != "" {
		max, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		opts.MaxBody = max
	}
	return opts
}
