package grade

import (
	"strings"
	"time"
)

// FixIsError grades the fix-is-error exercise: an MCP client (revision
// 2025-11-25) over stdio, given with one bug, that calls one tool,
//
//	fix-is-error TOOL '{JSON}' SERVER [ARG...]
//
// and prints the text of its result on stdout (exit status 0), or, for
// a result with isError, on stderr (exit status 1). The server is the
// grader's scripted one (fixServer, in fixinitialized.go).
func FixIsError() *Grader {
	return &Grader{
		Exercise: "fix-is-error",
		Stages: []Stage{
			// The first stage builds the grader's relay too.
			{Name: "prints the tool's text", Run: fixIsErrorPrints, Limit: time.Minute},
			{Name: "reports a tool error", Run: fixIsErrorReports},
		},
	}
}

const (
	hintFixResultContent = `The content is the result's, not the response's: the answer is {"jsonrpc":"2.0","id":2,"result":{"content":[...]}}, so the text blocks are at response.result.content. A struct field for "content" at the top level stays empty, and the program prints nothing.`
	hintFixIsError       = `"isError": true is the tool saying that it failed, inside a normal result, with the reason as its text. Check it before printing: write the text on stderr and exit with status 1, or the failure reaches whoever reads stdout as if it were the answer.`
)

// The results of the grader's two tools.
const (
	fixWordCount = `{"content":[{"type":"text","text":"{\"words\":3,\"chars\":13}"}],"structuredContent":{"words":3,"chars":13}}`
	fixWeather   = `{"content":[{"type":"text","text":"the forecast service did not answer (HTTP 503)"}],"isError":true}`
)

// fixToolServer is a scripted server whose tools answer with the two
// results above.
func fixToolServer() *fixServer {
	return &fixServer{results: map[string]string{"word_count": fixWordCount, "weather": fixWeather}}
}

func fixIsErrorPrints(t *T) error {
	r, err := fixStart(t, fixToolServer(), "word_count", `{"text":"read the wire"}`)
	if err != nil {
		return err
	}
	const want = "{\"words\":3,\"chars\":13}\n"
	if r.code != 0 || r.stdout != want {
		f := r.fail(hintFixResultContent, "the call worked; the program exited with status %d, and stdout is not the text of the result", r.code)
		f.Sent, f.Got = r.sentWithAnswer(), ""
		f.setDiff([]byte(want), []byte(r.stdout), firstDiff([]byte(want), []byte(r.stdout)))
		return f
	}
	return nil
}

func fixIsErrorReports(t *T) error {
	r, err := fixStart(t, fixToolServer(), "weather", `{"city":"Lisbon"}`)
	if err != nil {
		return err
	}
	const text = "the forecast service did not answer (HTTP 503)"
	var f *Failure
	switch {
	case r.code == 0:
		f = r.fail(hintFixIsError, "the tool failed (its result has isError: true), but the program exited with status 0, as if it had worked")
	case r.code != 1:
		f = r.fail(hintFixIsError, "the tool failed (its result has isError: true), and the program exited with status %d, not 1", r.code)
	case r.stdout != "":
		f = r.fail(hintFixIsError, "the tool failed, and the program wrote on stdout, which is for a tool's answer; the text of a failure goes on stderr")
	case !strings.Contains(r.stderr, text):
		f = r.fail(hintFixIsError, "the tool failed, and the program's stderr does not show the text of its result")
		f.Expected = text
	default:
		return nil
	}
	if r.stdout != "" {
		f.Got = "stdout: " + shorten(r.stdout)
	} else {
		f.Got = ""
	}
	f.Sent = r.sentWithAnswer()
	return f
}

// sentWithAnswer is the command line and the server's last answer, the
// one to tools/call.
func (r *fixRun) sentWithAnswer() string {
	for i := len(r.trace) - 1; i >= 0; i-- {
		if answer, ok := strings.CutPrefix(r.trace[i], "<- "); ok {
			return r.sent() + " | the server answered " + answer
		}
	}
	return r.sent()
}
