package transcript

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDate replaces the Date header's value, the only part of an HTTP
// answer that changes from run to run.
const TestDate = "Mon, 02 Jan 2006 15:04:05 GMT"

// ioLimit stops a replay that waits for bytes that never come; it is a
// guard against hanging, not a measurement.
const ioLimit = 10 * time.Second

// HTTPRequest is one request of a client section.
type HTTPRequest struct {
	Wire   []byte        // exactly what is sent
	Parsed *http.Request // the same bytes parsed, which ReadResponse needs to know the method
}

var requestLine = regexp.MustCompile(`^[A-Z]+ \S+ HTTP/1\.1$`)

// SplitHTTP cuts a client section of raw HTTP/1.1 requests, written with
// LF line ends, into requests: each starts at a request line, its header
// lines end at a blank line, and its body is the lines after that, up to
// the blank line before the next request. A Content-Length that does not
// match the body fails the test, or with update is corrected, and then
// fixed holds the corrected section.
func SplitHTTP(t testing.TB, section []byte, update bool) (reqs []HTTPRequest, fixed []byte) {
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
				if !update {
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
		reqs = append(reqs, HTTPRequest{Wire: wire, Parsed: parsed})
		rewritten = append(rewritten, strings.Join(head, "\n")+"\n\n"+body)
	}
	if changed {
		fixed = []byte(strings.Join(rewritten, "\n\n") + "\n")
	}
	return reqs, fixed
}

// ReplayHTTP sends each request on one keep-alive connection and returns
// the answers as they arrived, in the transcript's format: Date replaced
// by TestDate, the head's CRLF line ends turned into LF, answers separated
// by a blank line. Bodies keep their bytes, chunked framing included.
//
// A protocol whose answers hold values that change per run (a session id)
// passes hooks: send may rewrite each request just before it goes out,
// and got may rewrite each answer as it is recorded. Either may be nil.
func ReplayHTTP(t testing.TB, addr string, reqs []HTTPRequest, send func([]byte) []byte, got func(string) string) []byte {
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
		wire := req.Wire
		if send != nil {
			wire = send(wire)
		}
		if _, err := conn.Write(wire); err != nil {
			t.Fatalf("sending %s %s: %v", req.Parsed.Method, req.Parsed.URL, err)
		}
		// ReadResponse finds where the answer ends (Content-Length, the
		// last chunk, or the method being HEAD); the recorder keeps the
		// bytes as they came.
		resp, err := http.ReadResponse(br, req.Parsed)
		if err != nil {
			t.Fatalf("reading the answer to %s %s: %v", req.Parsed.Method, req.Parsed.URL, err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatalf("reading the body of the answer to %s %s: %v", req.Parsed.Method, req.Parsed.URL, err)
		}
		resp.Body.Close()
		if br.Buffered() != 0 {
			t.Fatalf("%d bytes arrived after the answer to %s %s", br.Buffered(), req.Parsed.Method, req.Parsed.URL)
		}
		answer := normalize(rec.take())
		if got != nil {
			answer = got(answer)
		}
		answers = append(answers, answer)
	}
	return []byte(strings.Join(answers, "\n"))
}

var dateLine = regexp.MustCompile(`(?m)^Date: [^\r\n]*`)

// normalize fixes the Date and turns the head's CRLF line ends into the
// LF a text file uses.
func normalize(answer []byte) string {
	s := dateLine.ReplaceAllString(string(answer), "Date: "+TestDate)
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
