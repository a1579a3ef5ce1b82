package httpjson

import (
	"bufio"
	"bytes"
	"flag"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/tools"
)

var update = flag.Bool("update", false, "rewrite the server sections of testdata/*.txtar from what the server now sends, and correct Content-Length in the client sections")

// testDate replaces the Date header's value, the only part of an answer
// that changes from run to run.
const testDate = "Mon, 02 Jan 2006 15:04:05 GMT"

// ioLimit stops a transcript that waits for bytes that never come; it is
// a guard against hanging, not a measurement.
const ioLimit = 10 * time.Second

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

			reqs, fixed := splitRequests(t, f.Section(t, "client"))
			got := replay(t, srv.Listener.Addr().String(), reqs)
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

// rawRequest is one request of a client section.
type rawRequest struct {
	wire   []byte        // exactly what is sent
	parsed *http.Request // the same bytes parsed, which ReadResponse needs to know the method
}

var requestLine = regexp.MustCompile(`^[A-Z]+ \S+ HTTP/1\.1$`)

// splitRequests cuts a client section into requests: each starts at a
// request line, its header lines end at a blank line, and its body is the
// lines after that, up to the blank line before the next request. A
// Content-Length that does not match the body fails the test, or with
// -update is corrected, and then fixed holds the corrected section.
func splitRequests(t *testing.T, section []byte) (reqs []rawRequest, fixed []byte) {
	t.Helper()
	var groups [][]string
	for _, line := range strings.Split(strings.TrimSuffix(string(section), "\n"), "\n") {
		if requestLine.MatchString(line) {
			groups = append(groups, nil)
		}
		if len(groups) == 0 {
			t.Fatalf("client section does not start with a request line: %q", line)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], line)
	}
	var rewritten []string
	changed := false
	for _, lines := range groups {
		head, rest := lines, []string(nil)
		for i, l := range lines {
			if l == "" {
				head, rest = lines[:i], lines[i+1:]
				break
			}
		}
		body := strings.TrimRight(strings.Join(rest, "\n"), "\n")
		hasLength := false
		for i, h := range head {
			name, value, _ := strings.Cut(h, ":")
			if !strings.EqualFold(name, "Content-Length") {
				continue
			}
			hasLength = true
			if want := strconv.Itoa(len(body)); strings.TrimSpace(value) != want {
				if !*update {
					t.Fatalf("%s: Content-Length says %s, the body is %s bytes (run go test -update to correct it)", lines[0], strings.TrimSpace(value), want)
				}
				head[i], changed = name+": "+want, true
			}
		}
		if body != "" && !hasLength {
			t.Fatalf("%s: has a body but no Content-Length header", lines[0])
		}
		wire := []byte(strings.Join(head, "\r\n") + "\r\n\r\n" + body)
		parsed, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(wire)))
		if err != nil {
			t.Fatalf("%s: not a valid HTTP request: %v", lines[0], err)
		}
		reqs = append(reqs, rawRequest{wire: wire, parsed: parsed})
		rewritten = append(rewritten, strings.Join(head, "\n")+"\n\n"+body)
	}
	if changed {
		fixed = []byte(strings.Join(rewritten, "\n\n") + "\n")
	}
	return reqs, fixed
}

// replay sends each request on one connection and returns the answers as
// they arrived, Date aside, in the transcript's format.
func replay(t *testing.T, addr string, reqs []rawRequest) []byte {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(ioLimit))
	rec := &recorder{r: conn}
	br := bufio.NewReader(rec)

	var answers []string
	for _, req := range reqs {
		if _, err := conn.Write(req.wire); err != nil {
			t.Fatalf("sending %s %s: %v", req.parsed.Method, req.parsed.URL, err)
		}
		// ReadResponse finds where the answer ends (Content-Length, or the
		// method being HEAD); the recorder keeps the bytes as they came.
		resp, err := http.ReadResponse(br, req.parsed)
		if err != nil {
			t.Fatalf("reading the answer to %s %s: %v", req.parsed.Method, req.parsed.URL, err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatalf("reading the body of the answer to %s %s: %v", req.parsed.Method, req.parsed.URL, err)
		}
		resp.Body.Close()
		if br.Buffered() != 0 {
			t.Fatalf("%d bytes arrived after the answer to %s %s", br.Buffered(), req.parsed.Method, req.parsed.URL)
		}
		answers = append(answers, normalize(rec.take()))
	}
	return []byte(strings.Join(answers, "\n"))
}

var dateLine = regexp.MustCompile(`(?m)^Date: [^\r\n]*`)

// normalize fixes the Date and turns the head's CRLF line ends into the
// LF a text file uses. Bodies are JSON and have no CR of their own.
func normalize(answer []byte) string {
	s := dateLine.ReplaceAllString(string(answer), "Date: "+testDate)
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// recorder keeps a copy of every byte read through it.
type recorder struct {
	r   io.Reader
	buf bytes.Buffer
}

func (rc *recorder) Read(p []byte) (int, error) {
	n, err := rc.r.Read(p)
	rc.buf.Write(p[:n])
	return n, err
}

// take returns the bytes recorded since the last take.
func (rc *recorder) take() []byte {
	b := bytes.Clone(rc.buf.Bytes())
	rc.buf.Reset()
	return b
}
