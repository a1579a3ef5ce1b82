package oauth

import (
	"bytes"
	"flag"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite the server sections of testdata/*.txtar from what the server now sends")

// Values the server makes up per run, each found in an answer by its
// pattern and written in the transcript as its name, both ways: a
// request that says CODE sends the code the last answer gave.
var placeholders = []struct {
	name    string
	pattern *regexp.Regexp
}{
	{"CLIENT_ID", regexp.MustCompile(`"client_id": "(wl-[A-Za-z0-9_-]+)"`)},
	{"ISSUED_AT", regexp.MustCompile(`"client_id_issued_at": (\d+)`)},
	{"CSRF", regexp.MustCompile(`name="csrf" value="([A-Za-z0-9_-]+)"`)},
	{"CODE", regexp.MustCompile(`(?m)^Location: \S*[?&]code=([A-Za-z0-9_-]+)`)},
	{"ACCESS_TOKEN", regexp.MustCompile(`"access_token": "([^"]+)"`)},
	{"REFRESH_TOKEN", regexp.MustCompile(`"refresh_token": "([^"]+)"`)},
}

var contentLength = regexp.MustCompile(`(?m)^Content-Length: \d+`)

// fixLength sets a message's Content-Length to its body as it now is:
// after a placeholder is swapped for a value, or a value for its name.
func fixLength(msg []byte, sep string) []byte {
	head, body, ok := bytes.Cut(msg, []byte(sep))
	if !ok || !contentLength.Match(head) {
		return msg
	}
	head = contentLength.ReplaceAll(head, []byte("Content-Length: "+strconv.Itoa(len(body))))
	return append(append(head, sep...), body...)
}

// TestTranscripts replays testdata/*.txtar against a server whose
// issuer is http://127.0.0.1:8023 (the server believes what it is told;
// the test listens elsewhere) with one pre-registered client, app, whose
// secret is app-secret. Values made per run travel as placeholders, and
// Content-Length counts the text as written.
func TestTranscripts(t *testing.T) {
	for _, f := range transcript.Glob(t, "testdata/*.txtar") {
		t.Run(f.Name, func(t *testing.T) {
			s := NewServer(Options{
				Issuer: "http://127.0.0.1:8023", Loopback: true,
				Clients: []Client{{ID: "app", Secret: appSecret, Name: "The App", RedirectURIs: []string{testRedirect}}},
			})
			srv := httptest.NewServer(s)
			defer srv.Close()

			values := map[string]string{} // placeholder name -> this run's value
			send := func(wire []byte) []byte {
				for name, v := range values {
					wire = bytes.ReplaceAll(wire, []byte(name), []byte(v))
				}
				return fixLength(wire, "\r\n\r\n")
			}
			got := func(answer string) string {
				for _, p := range placeholders {
					if m := p.pattern.FindStringSubmatch(answer); m != nil {
						values[p.name] = m[1]
					}
				}
				for name, v := range values {
					answer = strings.ReplaceAll(answer, v, name)
				}
				return string(fixLength([]byte(answer), "\n\n"))
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
