package grade

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
)

// FixUncheckedStatus grades the fix-unchecked-status exercise: an HTTP
// client, given with one bug, that calls word_count,
//
//	fix-unchecked-status --url URL TEXT
//
// and must print the count only for an answer that is one: a 200 whose
// body is JSON. Each stage answers from a server of its own.
func FixUncheckedStatus() *Grader {
	return &Grader{
		Exercise: "fix-unchecked-status",
		Stages: []Stage{
			{Name: "prints the count", Run: fixStatusPrints},
			{Name: "reports an error status", Run: fixStatusError},
			{Name: "reports an answer that is not JSON", Run: fixStatusNotJSON},
		},
	}
}

const (
	hintCheckStatus  = `Look at resp.StatusCode before the body: a 401 decodes into your struct without an error, with no result in it, and zeros look like a real count. Anything but 200 is a failure to report on stderr, with the status, and exit 1.`
	hintUnmarshalErr = `json.Unmarshal returned an error, and the program went on with a zero value. A proxy or gateway may answer with an HTML page, even with 200: check the error, report it on stderr, and exit 1.`
)

// fixStatusAnswer is one way the grader's server answers.
type fixStatusAnswer struct {
	status      int
	contentType string
	body        string
}

// run serves a to one call of the program and returns its exit code,
// stdout and stderr, with the server's address hidden.
func (a fixStatusAnswer) run(t *T) (code int, stdout, stderr string, err error) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", a.contentType)
		w.WriteHeader(a.status)
		fmt.Fprint(w, a.body)
	}))
	defer srv.Close()
	p, err := t.Start("--url", srv.URL+"/execute", "read the wire")
	if err != nil {
		return 0, "", "", err
	}
	if code, err = p.Wait(); err != nil {
		return 0, "", "", err
	}
	out, err := p.Output()
	if err != nil {
		return 0, "", "", err
	}
	hide := strings.NewReplacer(srv.URL, "http://127.0.0.1:PORT").Replace
	return code, hide(string(out)), hide(p.Stderr()), nil
}

// sent is the answer as the report shows it.
func (a fixStatusAnswer) sent() string {
	return fmt.Sprintf("command line: --url http://127.0.0.1:PORT/execute read the wire; the server answered %d %s | Content-Type: %s | %s",
		a.status, http.StatusText(a.status), a.contentType, a.body)
}

func fixStatusPrints(t *T) error {
	a := fixStatusAnswer{http.StatusOK, "application/json", `{"result":{"words":3,"chars":13}}`}
	code, stdout, stderr, err := a.run(t)
	if err != nil {
		return err
	}
	if code != 0 || stdout != "3 words, 13 chars\n" {
		f := Failf("the call worked, and the program exited with status %d", code)
		f.Sent, f.Expected, f.Got, f.Stderr = a.sent(), "3 words, 13 chars", strings.TrimSuffix(stdout, "\n"), stderr
		return f
	}
	return nil
}

// checkRefused checks a run that must fail: status 1, nothing on
// stdout, and something on stderr.
func (a fixStatusAnswer) checkRefused(t *T, hint string) error {
	code, stdout, stderr, err := a.run(t)
	if err != nil {
		return err
	}
	var f *Failure
	switch {
	case code == 0:
		f = Failf("the call failed, but the program exited with status 0, as if it had worked")
	case code != 1:
		f = Failf("the call failed, and the program exited with status %d, not 1", code)
	case stdout != "":
		f = Failf("the call failed, and the program wrote on stdout, which is for the count")
	case strings.TrimSpace(stderr) == "":
		f = Failf("the call failed, and the program exited with status 1 without saying why on stderr")
	default:
		return nil
	}
	f.Sent, f.Hint = a.sent(), hint
	if stdout != "" {
		f.Got = "stdout: " + shorten(stdout)
	}
	return f
}

func fixStatusError(t *T) error {
	a := fixStatusAnswer{http.StatusUnauthorized, "application/json", `{"error":{"code":"invalid_token","message":"no valid bearer token"}}`}
	return a.checkRefused(t, hintCheckStatus)
}

func fixStatusNotJSON(t *T) error {
	a := fixStatusAnswer{http.StatusOK, "text/html", `<html><body><h1>Welcome to the hotel network</h1></body></html>`}
	return a.checkRefused(t, hintUnmarshalErr)
}
