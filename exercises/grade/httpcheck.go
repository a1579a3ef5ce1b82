package grade

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// HTTPCall is one request a grader sends to a server exercise that
// speaks JSON over HTTP, and the answer it wants back. [Process.ExpectHTTP]
// sends it and compares.
type HTTPCall struct {
	// What says in a few words what is being checked, for the report.
	What string
	// Method is the request's method; "" means POST.
	Method string
	// Path is the request's path, such as "/execute".
	Path string
	// Header lists the request's headers as "Name: value", in the order
	// the report shows them.
	Header []string
	// Body is sent as it is; "" sends none.
	Body string

	// Status is the status code wanted.
	Status int
	// Headers are headers the answer must have, beyond Content-Type:
	// application/json, which every answer must have and is checked
	// first.
	Headers []HeaderWant
	// Want is the JSON body wanted, compared as ExpectSubset does, or as
	// Expect does when Exact is set.
	Want  string
	Exact bool

	// HintFor gives the hint for an answer that came back with a status
	// other than Status, by that status: {403: "401 is for ..."}.
	HintFor map[int]string
	// Hint is shown for any other wrong answer, unless the difference is
	// a classic mistake with a hint of its own.
	Hint string
}

// HeaderWant is a header an answer must have.
type HeaderWant struct {
	Name string
	// Want shows the value wanted in the report: "POST", "Bearer <...>".
	Want string
	// Match reports whether the value received (all values joined with
	// ", "; "" for none) is right.
	Match func(value string) bool
	// Hint is shown when the header is missing or wrong.
	Hint string
}

// Hints for mistakes any HTTP server exercise can make.
const (
	// HintContentTypeJSON: an answer without Content-Type: application/json.
	HintContentTypeJSON = `Every answer has a JSON body, errors included, so every answer says Content-Type: application/json. Set it with w.Header().Set before calling WriteHeader.`

	// HintHeadersAfterWriteHeader: Content-Type sniffed from a JSON body.
	HintHeadersAfterWriteHeader = `The body is JSON, but Content-Type came back as net/http's guess from the body's first bytes: the header was set after WriteHeader (or after the first Write), when the headers had already gone. Set every header first, then call WriteHeader, then Write.`

	// HintPlainText: an error page from http.Error or from the ServeMux.
	HintPlainText = `This answer is plain text, like those of http.Error and of the ServeMux itself (its 404, and its 405 when a pattern names a method, such as "POST /execute"). Every answer of this protocol is JSON: register the path alone, check the method in your handler, and write errors as JSON like any other answer.`

	// HintHandlerPanic: the connection closed because the handler panicked.
	HintHandlerPanic = `The handler panicked: net/http recovered, wrote the panic and its trace on stderr, and closed the connection without an answer. In the trace, the first frame of your own code (main.…, main.go:LINE) names the line that panicked.`
)

// maxHTTPBody is the most of an answer's body the grader reads: far more
// than any answer it expects, little enough that a flood cannot hurt.
const maxHTTPBody = 1 << 20

// ExpectHTTP sends c to the server at addr (host:port) and checks the
// answer's status, its Content-Type, the headers c wants, and its body,
// in that order. The failure shows the request on one line, and the
// answer wanted and received on one line each:
//
//	Sent:     POST /execute | Authorization: Bearer guessed | Content-Type: application/json | {"name":...}
//	Expected: 401 Unauthorized | Content-Type: application/json | WWW-Authenticate: Bearer <...> | {"error":...}
//	Got:      403 Forbidden | Content-Type: application/json | WWW-Authenticate: (none) | {"error":...}
func (p *Process) ExpectHTTP(addr string, c HTTPCall) error {
	method := c.Method
	if method == "" {
		method = http.MethodPost
	}
	sent := strings.Join(append(append([]string{method + " " + c.Path}, c.Header...), c.Body), " | ")
	sent = strings.TrimSuffix(sent, " | ")

	var body io.Reader
	if c.Body != "" {
		body = strings.NewReader(c.Body)
	}
	req, err := http.NewRequestWithContext(p.t.ctx, method, "http://"+addr+c.Path, body)
	if err != nil {
		return fmt.Errorf("making the request %s: %w", sent, err)
	}
	for _, h := range c.Header {
		name, value, _ := strings.Cut(h, ": ")
		req.Header.Set(name, value)
	}
	client := &http.Client{
		// A connection per call: no call depends on how an earlier one
		// left the connection.
		Transport: &http.Transport{DisableKeepAlives: true},
		// A redirect is an answer to report (a ServeMux pattern "/execute/"
		// redirects /execute), not one to follow.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		return About(p.httpError(err), c.What, sent)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	if err != nil {
		return About(p.httpError(err), c.What, sent)
	}
	return About(compareHTTP(c, resp, got).orNil(), c.What, sent)
}

// httpError describes a request that got no answer.
func (p *Process) httpError(err error) error {
	if err := p.t.canceled(); err != nil {
		return err
	}
	if p.t.ctx.Err() != nil {
		f := Failf("no answer within %v", p.t.limit)
		f.Stderr = p.Stderr()
		return f
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the rest repeats the method and URL, which Sent shows
	}
	// A program that closed the connection may be exiting, and what it
	// wrote on stderr may still be in the pipe: both take a moment.
	p.waitExit(exitGrace)
	f := Failf("the connection closed without an answer (%v)", err)
	if p.exited() {
		f = Failf("the program exited (%s) before answering", p.exitStatus())
	}
	// net/http recovers a handler's panic, logs "http: panic serving
	// ADDR: VALUE" and a trace, and closes the connection. The report
	// shows only the trace's last lines, so the value goes in the summary.
	if _, after, ok := strings.Cut(p.errs.String(), "http: panic serving "); ok {
		line, _, _ := strings.Cut(after, "\n")
		_, value, _ := strings.Cut(line, ": ")
		f = Failf("the handler panicked (%s), and the connection closed without an answer", value)
		f.Hint = HintHandlerPanic
	}
	f.Stderr = p.Stderr()
	return f
}

// compareHTTP checks an answer against c, and returns nil if it is right.
func compareHTTP(c HTTPCall, resp *http.Response, body []byte) *Failure {
	wantStatus := fmt.Sprintf("%d %s", c.Status, http.StatusText(c.Status))
	gotParts := []string{resp.Status}
	expParts := []string{wantStatus}
	var f *Failure
	if resp.StatusCode == c.Status {
		expParts[0] = resp.Status // the reason phrase is the server's to choose
	} else {
		f = Failf("the answer is %s; %s was expected", resp.Status, wantStatus)
		f.Hint = c.Hint
		if h, ok := c.HintFor[resp.StatusCode]; ok {
			f.Hint = h
		}
	}

	wantJSON, err := parseJSON([]byte(c.Want))
	if err != nil {
		// A grader's own want that is not JSON is a bug in the grader.
		panic(fmt.Sprintf("grade: wanted JSON does not parse: %v: %s", err, c.Want))
	}
	gotJSON, jsonErr := parseJSON(body)

	for _, h := range append([]HeaderWant{contentTypeJSON()}, c.Headers...) {
		v := strings.Join(resp.Header.Values(h.Name), ", ")
		shown := v
		if v == "" {
			shown = "(none)"
		}
		gotParts = append(gotParts, h.Name+": "+shown)
		if h.Match(v) {
			expParts = append(expParts, h.Name+": "+v)
			continue
		}
		expParts = append(expParts, h.Name+": "+h.Want)
		if f != nil {
			continue
		}
		if v == "" {
			f = Failf("the answer has no %s header", h.Name)
		} else {
			f = Failf("the answer's %s is %q, not %s", h.Name, v, h.Want)
		}
		f.Hint = h.Hint
		if h.Name == "Content-Type" && strings.HasPrefix(v, "text/plain") {
			f.Hint = HintPlainText
			if jsonErr == nil {
				f.Hint = HintHeadersAfterWriteHeader
			}
		}
	}

	var expBody bytes.Buffer
	gotBody := string(bytes.TrimSpace(body))
	if resp.StatusCode != c.Status {
		// Another kind of answer altogether: show the body wanted as it
		// is, placeholders and all, rather than matched to this one.
		expBody.Write(wantJSON.raw)
		if jsonErr == nil {
			gotBody = string(gotJSON.raw)
		} else if gotBody == "" {
			gotBody = "(no body)"
		}
	} else if jsonErr != nil {
		expBody.Write(wantJSON.raw)
		if gotBody == "" {
			gotBody = "(no body)"
		}
		if f == nil {
			f = Failf("the answer's body is not JSON")
			f.Hint = c.Hint
		}
	} else {
		view(&expBody, wantJSON, gotJSON, !c.Exact, true)
		gotBody = string(gotJSON.raw)
		if f == nil && !bytes.Equal(expBody.Bytes(), gotJSON.raw) {
			f = Failf("the answer's body is not the one expected")
			if f.Hint = diagnose(wantJSON, gotJSON, !c.Exact); f.Hint == "" {
				f.Hint = c.Hint
			}
		}
	}
	if f == nil {
		return nil
	}
	exp := strings.Join(append(expParts, expBody.String()), " | ")
	got := strings.Join(append(gotParts, gotBody), " | ")
	off := firstDiff([]byte(exp), []byte(got))
	if resp.StatusCode != c.Status {
		// A wrong status: show both answers whole, since the body often
		// says why.
		f.Expected, f.Got, f.Offset = shorten(exp), shorten(got), &off
	} else {
		f.setDiff([]byte(exp), []byte(got), off)
	}
	return f
}

// contentTypeJSON is the header every answer of a JSON protocol has.
func contentTypeJSON() HeaderWant {
	return HeaderWant{
		Name: "Content-Type", Want: "application/json", Hint: HintContentTypeJSON,
		Match: func(v string) bool {
			mt, _, err := mime.ParseMediaType(v)
			return err == nil && mt == "application/json"
		},
	}
}
