package mcp

import (
	"bytes"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/tools"
)

// tokenHolder is how a transcript writes a token: "Bearer {{token:NAME}}",
// where NAME is one of testTokens. A real token is signed afresh on each
// run, and the good ones expire, so none can be written down.
var tokenHolder = regexp.MustCompile(`\{\{token:([a-z0-9-]+)\}\}`)

// TestAuthTranscripts replays testdata/http/oauth/*.txtar as
// TestHTTPTranscripts replays testdata/http: raw HTTP/1.1 on one
// connection, here to a server that takes OAuth access tokens. It trusts
// the stand-in authorization server testIssuer, which it reaches in
// memory, and is the resource testResource, which the requests' Host
// names.
func TestAuthTranscripts(t *testing.T) {
	for _, f := range transcript.Glob(t, "testdata/http/oauth/*.txtar") {
		t.Run(f.Name, func(t *testing.T) {
			as := newKeyAS(t, testIssuer)
			tokens := testTokens(t, as)
			h := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"}).
				HTTPHandler(&HTTPOptions{Loopback: true, Verifier: newTestVerifier(as)})
			srv := httptest.NewServer(h)
			defer srv.Close()
			defer h.Close()

			session := "none-yet"
			send := func(wire []byte) []byte {
				wire = bytes.ReplaceAll(wire, []byte("Mcp-Session-Id: SESSION\r\n"), []byte("Mcp-Session-Id: "+session+"\r\n"))
				return tokenHolder.ReplaceAllFunc(wire, func(m []byte) []byte {
					tok, ok := tokens[string(tokenHolder.FindSubmatch(m)[1])]
					if !ok {
						t.Fatalf("no test token %s", m)
					}
					return []byte(tok)
				})
			}
			got := func(answer string) string {
				if m := sessionHeader.FindStringSubmatch(answer); m != nil {
					session = m[1]
				}
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
