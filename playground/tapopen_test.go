package playground

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/tools"
)

// recordingForm is the taps page's form carrying file as the recording
// named name, and its content type.
func recordingForm(t *testing.T, name string, file []byte) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	part, err := mw.CreateFormFile("recording", name)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(file)
	mw.Close()
	return mw.FormDataContentType(), b.Bytes()
}

// TestOpenRecordingForm: the taps page's form opens a recording (the
// file wirelab tap --record writes): the answer goes to the MCP console
// that follows it, and the page lists it as a recording, read only, with
// its findings counted. A malformed file, one too big, a form from
// another site's page, a request from another machine and a classroom's
// follower are refused, each saying why, and open nothing.
func TestOpenRecordingForm(t *testing.T) {
	t.Setenv(childEnv, "1")
	pg := New(tools.New(nil), &Options{Executable: os.Args[0]})
	srv := httptest.NewServer(pg)
	defer func() {
		srv.Close()
		pg.Close()
	}()
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = "192.0.2.7:40000"
		pg.ServeHTTP(w, r)
	}))
	defer remote.Close()
	good, err := os.ReadFile("../exercises/find-the-defect/recording.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	post := func(srv *httptest.Server, origin, contentType string, body []byte) answer {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+"/taps/open", bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return answer{resp.StatusCode, resp.Header, string(b)}
	}
	taps := func() string {
		t.Helper()
		return do(t, srv, "GET", "/taps", "", "", "").body
	}

	if page := taps(); !strings.Contains(page, `action="/taps/open"`) || !strings.Contains(page, "wirelab tap open FILE --playground "+srv.URL) {
		t.Errorf("/taps on this machine has no form to open a recording:\n%s", page)
	}
	if page := do(t, remote, "GET", "/taps", "", "", "").body; strings.Contains(page, `action="/taps/open"`) {
		t.Errorf("/taps from another machine offers a form it may not use")
	}

	bad := bytes.Replace(good, []byte(`"seq":3,`), []byte(`"seq":3 `), 1)
	big := bytes.Repeat([]byte("x"), MaxRecordingFile+1)
	for _, c := range []struct {
		name   string
		srv    *httptest.Server
		origin string
		file   []byte
		status int
		says   string
	}{
		{"a malformed line", srv, srv.URL, bad, http.StatusBadRequest, "recording line 3: invalid character"},
		{"not a recording", srv, srv.URL, []byte("{\"jsonrpc\":\"2.0\"}\n"), http.StatusBadRequest, "not a wirelab-tap/1 recording"},
		{"too big", srv, srv.URL, big, http.StatusRequestEntityTooLarge, "larger than 16 MiB"},
		{"another site's page", srv, "http://attacker.example", good, http.StatusForbidden, "Origin was"},
		{"another port of this machine", srv, "http://127.0.0.1:1", good, http.StatusForbidden, "Origin was"},
		{"another machine", remote, remote.URL, good, http.StatusForbidden, "from this machine only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ct, body := recordingForm(t, "mine.jsonl", c.file)
			a := post(c.srv, c.origin, ct, body)
			if a.code != c.status || !strings.Contains(a.body, c.says) {
				t.Errorf("POST /taps/open: %d, want %d saying %q:\n%.2000s", a.code, c.status, c.says, a.body)
			}
		})
	}
	if page := taps(); strings.Contains(page, "mine.jsonl") {
		t.Fatalf("a refused recording is listed:\n%s", page)
	}

	ct, body := recordingForm(t, `C:\Users\me\mine.jsonl`, good)
	a := post(srv, srv.URL, ct, body)
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/console/mcp?watch=tap-1" {
		t.Fatalf("POST /taps/open: %d to %q, want 303 to the MCP console following tap-1:\n%s", a.code, a.header.Get("Location"), a.body)
	}
	page := taps()
	for _, want := range []string{`href="/console/mcp?watch=tap-1"`, "recording, read only", "mine.jsonl", "1 errors, 0 warnings"} {
		if !strings.Contains(page, want) {
			t.Errorf("/taps after opening a recording has no %q:\n%s", want, page)
		}
	}
	if a := do(t, srv, "GET", "/console/mcp?watch=tap-1", "", "", ""); a.code != http.StatusOK || strings.Contains(a.body, `"missing":true`) {
		t.Errorf("the console that follows the recording: %d, missing its session", a.code)
	}

	// A program posts the file as the body, and reads JSON.
	req, _ := http.NewRequest("POST", srv.URL+"/taps/open?name=again.jsonl", bytes.NewReader(good))
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var opened struct{ ID, Console string }
	json.NewDecoder(resp.Body).Decode(&opened)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || opened.ID != "tap-2" || opened.Console != "/console/mcp?watch=tap-2" {
		t.Errorf("POST /taps/open?name=again.jsonl: %s %+v, want 201, tap-2 and its console", resp.Status, opened)
	}
}

// TestOpenRecordingClassroom: in a classroom, a follower may not open a
// recording (only the instructor's machine writes), and its page offers
// no form; the instructor may.
func TestOpenRecordingClassroom(t *testing.T) {
	tr := newTestRoom(t, nil)
	cookie := tr.follower(t, "Ada")
	good, err := os.ReadFile("../exercises/find-the-defect/recording.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ct, body := recordingForm(t, "mine.jsonl", good)
	if a := do(t, tr.remote, "POST", "/taps/open", ct, string(body), cookie); a.code != http.StatusForbidden || !strings.Contains(a.body, "only the instructor's machine") {
		t.Errorf("a follower's POST /taps/open: %d, want 403 by the classroom's rules:\n%s", a.code, a.body)
	}
	if a := do(t, tr.remote, "GET", "/taps", "", "", cookie); a.code != http.StatusOK || strings.Contains(a.body, `action="/taps/open"`) {
		t.Errorf("a follower's /taps: %d, offering the form: %v", a.code, strings.Contains(a.body, `action="/taps/open"`))
	}
	if a := do(t, tr.local, "POST", "/taps/open", ct, string(body), ""); a.code != http.StatusSeeOther {
		t.Errorf("the instructor's POST /taps/open: %d, want 303:\n%s", a.code, a.body)
	}
}
