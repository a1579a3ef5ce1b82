package mcp

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/tools"
)

// sessionHeader finds the session id in an answer. Ids are random, so a
// transcript writes SESSION in their place, both ways. (Content-Length
// stays right: every id has 32 characters.)
var (
	sessionHeader = regexp.MustCompile(`(?m)^Mcp-Session-Id: ([0-9a-f]{32})$`)
	contentLength = regexp.MustCompile(`Content-Length: (\d+)\r\n`)
)

// TestHTTPTranscripts replays testdata/http/*.txtar: raw HTTP/1.1
// requests (section "client") sent one at a time on one connection to
// the Streamable HTTP transport, and the bytes that come back (section
// "server"), with Date fixed and CRLF written as LF. "SESSION" in a
// request stands for the id the last initialize answer gave; in an
// answer it replaces the id. The comment line "tokens: SPEC SPEC" turns
// on bearer tokens.
func TestHTTPTranscripts(t *testing.T) {
	for _, f := range transcript.Glob(t, "testdata/http/*.txtar") {
		t.Run(f.Name, func(t *testing.T) {
			opts := &HTTPOptions{Loopback: true}
			if specs := f.Option("tokens"); specs != "" {
				ts, err := tools.ParseTokens(strings.Fields(specs))
				if err != nil {
					t.Fatal(err)
				}
				opts.Tokens = ts
			}
			h := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"}).HTTPHandler(opts)
			srv := httptest.NewServer(h)
			defer srv.Close()
			defer h.Close()

			session, state := "none-yet", "none-yet"
			send := func(wire []byte) []byte {
				wire = bytes.ReplaceAll(wire, []byte("Mcp-Session-Id: SESSION\r\n"), []byte("Mcp-Session-Id: "+session+"\r\n"))
				if n := bytes.Count(wire, []byte(stateHolder)); n > 0 {
					// The body grows by the state's length: say so.
					wire = bytes.ReplaceAll(wire, []byte(stateHolder), []byte(state))
					wire = contentLength.ReplaceAllFunc(wire, func(h []byte) []byte {
						old, _ := strconv.Atoi(string(contentLength.FindSubmatch(h)[1]))
						return fmt.Appendf(nil, "Content-Length: %d\r\n", old+n*(len(state)-len(stateHolder)))
					})
				}
				return wire
			}
			got := func(answer string) string {
				if m := sessionHeader.FindStringSubmatch(answer); m != nil {
					session = m[1]
				}
				answer, state = holdState(answer, state)
				// Error messages may quote the id too.
				return strings.ReplaceAll(answer, session, "SESSION")
			}
			reqs, fixed := transcript.SplitHTTP(t, f.Section(t, "client"), *update)
			answers := transcript.ReplayHTTP(t, srv.Listener.Addr().String(), reqs, send, got)
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
