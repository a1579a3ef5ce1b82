package playground

import (
	"bufio"
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/wirelab/wirelab/exercises/frames"
	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/internal/classroom"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/tools"
)

// classroomCode is the join code of the test's rooms.
const classroomCode = "K7P2QX"

// testRoom is a playground in classroom mode, reached two ways: local,
// from this machine, as the instructor's pages; and remote, every
// request seen as coming from 192.0.2.7, as a follower's laptop.
type testRoom struct {
	local, remote *httptest.Server
	room          *classroom.Room
	store         *progress.Store
	logDir        string
}

func newTestRoom(t *testing.T, opts *Options) *testRoom {
	t.Helper()
	t.Setenv(childEnv, "1")
	if opts == nil {
		opts = &Options{}
	}
	tr := &testRoom{room: classroom.New(&classroom.Options{Code: classroomCode}),
		store: progress.NewStore(filepath.Join(t.TempDir(), "progress.json")), logDir: t.TempDir()}
	// Progress the instructor already has: it must come out unchanged.
	tr.store.Update(func(st *progress.State) error {
		st.Workspace = t.TempDir()
		st.Pass("frames-stdio-errors", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		return nil
	})
	opts.Executable, opts.Progress = os.Args[0], tr.store
	opts.Classroom = &Classroom{Room: tr.room, JoinURLs: []string{"http://192.0.2.2:8080/join"}, LogDir: tr.logDir}
	pg := New(tools.New(nil), opts)
	tr.local = httptest.NewServer(pg)
	tr.remote = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = "192.0.2.7:40000"
		pg.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { tr.local.Close(); tr.remote.Close(); pg.Close() })
	return tr
}

// progressBytes is the progress file as it is on disk.
func (tr *testRoom) progressBytes(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(tr.store.Path())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// answer is what a request got: its status, headers and body.
type answer struct {
	code   int
	header http.Header
	body   string
}

// do sends a request to srv as a page of srv would (its Origin on a
// POST), with the follower's cookie if one is given, and follows no
// redirect.
func do(t *testing.T, srv *httptest.Server, method, path, contentType, body, cookie string) answer {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Origin", srv.URL)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: followerCookie, Value: cookie})
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}
}

// join posts the join form from the remote side and returns the answer
// and the follower cookie it set, if any.
func (tr *testRoom) join(t *testing.T, code, name, next string) (answer, *http.Cookie) {
	t.Helper()
	form := url.Values{"code": {code}, "name": {name}}
	if next != "" {
		form.Set("next", next)
	}
	a := do(t, tr.remote, "POST", "/join", "application/x-www-form-urlencoded", form.Encode(), "")
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if c.Name == followerCookie {
			return a, c
		}
	}
	return a, nil
}

// follower joins and returns the cookie's value.
func (tr *testRoom) follower(t *testing.T, name string) string {
	t.Helper()
	a, c := tr.join(t, classroomCode, name, "")
	if a.code != http.StatusSeeOther || c == nil {
		t.Fatalf("joining as %s: %d, cookie %v:\n%s", name, a.code, c, a.body)
	}
	return c.Value
}

// TestClassroomDoor: a machine of the room without the cookie sees the
// join page and the static files; pages send it there, and everything
// else is 401 with a sentence saying what to do.
func TestClassroomDoor(t *testing.T) {
	tr := newTestRoom(t, nil)
	for _, tt := range []struct {
		method, path, accept string
		code                 int
		where                string // the redirect's Location, or a piece of the body
	}{
		{"GET", "/", "", http.StatusSeeOther, "/join?next=%2F"},
		{"GET", "/learn/mcp-by-hand?lang=ru", "", http.StatusSeeOther, "/join?next=%2Flearn%2Fmcp-by-hand%3Flang%3Dru"},
		{"GET", "/exercises/frames-http-auth/solution", "", http.StatusSeeOther, "/join?next="},
		{"GET", "/classroom", "", http.StatusSeeOther, "/join?next=%2Fclassroom"},
		{"GET", "/no-such-page", "", http.StatusSeeOther, "/join?next="},
		{"GET", "/join", "", http.StatusOK, `<form class="join-form" method="post" action="/join">`},
		{"GET", "/join?lang=ru", "", http.StatusOK, "Войти в класс"},
		{"GET", "/join?code=k7p2qx", "", http.StatusOK, `value="k7p2qx"`},
		{"GET", "/static/wirelab.css", "", http.StatusOK, "--accent"},
		{"GET", "/static/classroom.css", "", http.StatusOK, ".join-code-big"},
		{"GET", "/ws", "", http.StatusUnauthorized, "join the classroom first"},
		{"GET", "/classroom/events", "text/event-stream", http.StatusUnauthorized, `"error":"join the classroom first`},
		{"POST", "/exercises/frames-http-auth/check", "", http.StatusUnauthorized, `"error":"join the classroom first`},
		{"POST", "/exercises/stdio-server/grade", "", http.StatusUnauthorized, "join the classroom first"},
		{"POST", "/classroom/seen", "", http.StatusUnauthorized, "join the classroom first"},
		{"POST", "/static/wirelab.css", "", http.StatusUnauthorized, "join the classroom first"},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, tr.remote.URL+tt.path, nil)
			if tt.accept != "" {
				req.Header.Set("Accept", tt.accept)
			}
			if tt.path == "/ws" {
				req.Header.Set("Origin", tr.remote.URL)
				req.Header.Set("Connection", "Upgrade")
				req.Header.Set("Upgrade", "websocket")
			}
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.code {
				t.Fatalf("%d, want %d:\n%s", resp.StatusCode, tt.code, b)
			}
			got := string(b)
			if tt.code == http.StatusSeeOther {
				got = resp.Header.Get("Location")
			}
			if !strings.Contains(got, tt.where) {
				t.Errorf("got %q, want it to hold %q", got, tt.where)
			}
			if tt.code == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("a 401 without WWW-Authenticate (RFC 9110 section 15.5.2)")
			}
		})
	}
	// The websocket, dialled as a page does: refused before the upgrade.
	_, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(tr.remote.URL, "http")+"/ws", http.Header{"Origin": {tr.remote.URL}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a websocket without the cookie: %v, %v; want 401", resp, err)
	}
}

// TestClassroomJoin: a wrong or missing code shows the form again, with
// why; a name is needed; the right code sets the follower's cookie and
// goes on to the page asked for, never to another site.
func TestClassroomJoin(t *testing.T) {
	tr := newTestRoom(t, nil)
	for _, tt := range []struct {
		name, code, person, next string
		status                   int
		want                     string // in the body, or the Location
	}{
		{"wrong code", "AAAAAA", "Ada", "", http.StatusForbidden, "Wrong code"},
		{"no code", "", "Ada", "", http.StatusForbidden, "Wrong code"},
		{"no name", classroomCode, "  ", "", http.StatusBadRequest, "Type a name"},
		{"right code", classroomCode, "Ada", "/learn/mcp-by-hand", http.StatusSeeOther, "/learn/mcp-by-hand"},
		{"right code, typed loosely", " k7p-2qx", "Ada", "", http.StatusSeeOther, followerStart},
		{"another site as next", classroomCode, "Ada", "//evil.example/", http.StatusSeeOther, followerStart},
		{"a URL as next", classroomCode, "Ada", "https://evil.example/", http.StatusSeeOther, followerStart},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, c := tr.join(t, tt.code, tt.person, tt.next)
			if a.code != tt.status {
				t.Fatalf("%d, want %d:\n%s", a.code, tt.status, a.body)
			}
			if tt.status != http.StatusSeeOther {
				if c != nil {
					t.Errorf("a refused join set the cookie %v", c)
				}
				if !strings.Contains(a.body, tt.want) || !strings.Contains(a.body, `action="/join"`) {
					t.Errorf("the form again with %q? got:\n%s", tt.want, a.body)
				}
				return
			}
			if loc := a.header.Get("Location"); loc != tt.want {
				t.Errorf("Location %q, want %q", loc, tt.want)
			}
			if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" {
				t.Fatalf("cookie %+v, want HttpOnly, SameSite=Lax, Path=/", c)
			}
			if f, ok := tr.room.Follower(c.Value); !ok || f.Name != strings.TrimSpace(tt.person) {
				t.Errorf("the room has %+v for the cookie", f)
			}
			// With the cookie, the pages open.
			if a := do(t, tr.remote, "GET", "/learn/", "", "", c.Value); a.code != http.StatusOK {
				t.Errorf("GET /learn/ with the cookie: %d", a.code)
			}
			if a := do(t, tr.remote, "GET", "/join", "", "", c.Value); !strings.Contains(a.body, "You are in the classroom as") {
				t.Errorf("the join page does not say the follower is in:\n%s", a.body)
			}
		})
	}
}

// TestClassroomRefusalsInRussian: a follower's page in Russian hears in
// Russian what it may not do; a page opened in the browser gets it as
// text, a script as JSON.
func TestClassroomRefusalsInRussian(t *testing.T) {
	tr := newTestRoom(t, nil)
	id := tr.follower(t, "Ada")
	ask := func(method, path, accept string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, tr.remote.URL+path, nil)
		if method == http.MethodPost {
			req.Header.Set("Origin", tr.remote.URL)
		}
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		req.AddCookie(&http.Cookie{Name: followerCookie, Value: id})
		req.AddCookie(&http.Cookie{Name: "lang", Value: "ru"})
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := ask("GET", "/classroom", "text/html,application/xhtml+xml")
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "машине преподавателя") || strings.HasPrefix(body, "{") {
		t.Errorf("the dashboard opened by a follower: %d %q, want 403 in Russian, as text", resp.StatusCode, body)
	}
	resp, body = ask("POST", "/exercises/stdio-server/grade", "")
	var refusal struct{ Error string }
	if resp.StatusCode != http.StatusForbidden || json.Unmarshal([]byte(body), &refusal) != nil || !strings.Contains(refusal.Error, "машина преподавателя") {
		t.Errorf("a grade asked by a follower's script: %d %q, want 403 in Russian, as JSON", resp.StatusCode, body)
	}
}

// TestClassroomJoinAgain: a follower who joins again with the cookie
// they hold (the QR code scanned again, a name mended) stays one
// follower, under the new name.
func TestClassroomJoinAgain(t *testing.T) {
	tr := newTestRoom(t, nil)
	id := tr.follower(t, "Ada")
	form := url.Values{"code": {classroomCode}, "name": {"Ada L."}}
	a := do(t, tr.remote, "POST", "/join", "application/x-www-form-urlencoded", form.Encode(), id)
	if a.code != http.StatusSeeOther {
		t.Fatalf("joining again: %d:\n%s", a.code, a.body)
	}
	if fs := tr.room.Followers(); len(fs) != 1 || fs[0].Name != "Ada L." {
		t.Errorf("followers after joining again: %+v; want Ada, once, renamed", fs)
	}
}

// TestClassroomRateLimit: five wrong codes a minute from one address,
// then even the right code waits, with 429 and Retry-After.
func TestClassroomRateLimit(t *testing.T) {
	tr := newTestRoom(t, nil)
	for i := range 5 {
		if a, _ := tr.join(t, "AAAAAA", "Eve", ""); a.code != http.StatusForbidden {
			t.Fatalf("wrong code %d: %d", i+1, a.code)
		}
	}
	a, c := tr.join(t, classroomCode, "Eve", "")
	if a.code != http.StatusTooManyRequests || c != nil || a.header.Get("Retry-After") == "" || !strings.Contains(a.body, "wait a minute") {
		t.Fatalf("the right code after five wrong ones: %d, cookie %v, Retry-After %q:\n%s", a.code, c, a.header.Get("Retry-After"), a.body)
	}
	// This machine is another address, and not affected.
	form := url.Values{"code": {classroomCode}, "name": {"Instructor"}}
	if a := do(t, tr.local, "POST", "/join", "application/x-www-form-urlencoded", form.Encode(), ""); a.code != http.StatusSeeOther {
		t.Errorf("another address: %d", a.code)
	}
}

// TestClassroomForgedCookie: a cookie the room did not give out is no
// follower's: pages go to the join page, which says the place is gone.
func TestClassroomForgedCookie(t *testing.T) {
	tr := newTestRoom(t, nil)
	real := tr.follower(t, "Ada")
	for _, forged := range []string{"x", strings.Repeat("0", 32), real[:31] + "0", real + "0", strings.ToUpper(real)} {
		if forged == real {
			continue
		}
		if a := do(t, tr.remote, "GET", "/learn/", "", "", forged); a.code != http.StatusSeeOther || !strings.Contains(a.header.Get("Location"), "again=1") {
			t.Errorf("GET /learn/ with cookie %q: %d %s", forged, a.code, a.header.Get("Location"))
		}
		if a := do(t, tr.remote, "POST", "/classroom/seen", "application/json", `{"page":"/"}`, forged); a.code != http.StatusUnauthorized {
			t.Errorf("POST /classroom/seen with cookie %q: %d", forged, a.code)
		}
	}
	if a := do(t, tr.remote, "GET", "/join?again=1", "", "", "x"); !strings.Contains(a.body, "Your place in the classroom is gone") {
		t.Errorf("the join page does not say the place is gone:\n%s", a.body)
	}
}

// TestClassroomFollowerLimits: a follower reads every page, but may not
// count a hint, see a solution by asking, grade code, or open the
// instructor's dashboard; the instructor's progress on disk stays as it
// was, byte for byte.
func TestClassroomFollowerLimits(t *testing.T) {
	tr := newTestRoom(t, nil)
	id := tr.follower(t, "Ada")
	before := tr.progressBytes(t)
	for _, path := range []string{"/", "/learn/", "/learn/mcp-by-hand", "/console/mcp", "/exercises/", "/exercises/frames-http-auth", "/five-wires"} {
		if a := do(t, tr.remote, "GET", path, "", "", id); a.code != http.StatusOK {
			t.Errorf("GET %s: %d", path, a.code)
		} else if strings.Contains(a.body, "classroom-box") {
			t.Errorf("GET %s shows a follower the room's code and QR code", path)
		}
	}
	for _, tt := range []struct{ method, path, contentType string }{
		{"POST", "/exercises/frames-http-auth/hint", "application/x-www-form-urlencoded"},
		{"POST", "/exercises/frames-http-auth/solution", "application/x-www-form-urlencoded"},
		{"POST", "/exercises/stdio-server/grade", ""},
		{"GET", "/classroom", ""},
		{"GET", "/classroom/qr.png", ""},
		{"GET", "/classroom/events", ""},
		{"POST", "/classroom/log", ""},
	} {
		a := do(t, tr.remote, tt.method, tt.path, tt.contentType, "", id)
		if a.code != http.StatusForbidden || !strings.Contains(a.body, "instructor's machine") {
			t.Errorf("%s %s by a follower: %d %s, want 403 saying why", tt.method, tt.path, a.code, a.body)
		}
	}
	if after := tr.progressBytes(t); !bytes.Equal(before, after) {
		t.Errorf("a follower changed the progress on disk:\nbefore %s\nafter  %s", before, after)
	}
	if entries, _ := os.ReadDir(tr.logDir); len(entries) != 0 {
		t.Errorf("something was written in the log folder: %v", entries)
	}
}

// TestClassroomFollowerTab: a follower's tab is no local tab: the engine
// refuses it stdio servers and custom targets, while HTTP reaches the
// servers; and a check of a frame exercise from the follower's own
// transcript comes back to the follower, passed, and saves nothing.
func TestClassroomFollowerTab(t *testing.T) {
	tokens, err := tools.ParseTokens(AuthTokens())
	if err != nil {
		t.Fatal(err)
	}
	auth := httptest.NewServer(httpjson.NewServer(tools.New(nil), &httpjson.ServerOptions{Tokens: tokens, Loopback: true}))
	defer auth.Close()
	tr := newTestRoom(t, &Options{HTTPAuthURL: auth.URL})
	id := tr.follower(t, "Ada")
	before := tr.progressBytes(t)

	h := http.Header{"Origin": {tr.remote.URL}, "Cookie": {followerCookie + "=" + id}}
	conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(tr.remote.URL, "http")+"/ws", h)
	if err != nil {
		t.Fatalf("a follower's websocket: %v (%v)", err, resp)
	}
	defer conn.Close()
	hi := readHello(t, conn)
	if hi.Local {
		t.Fatalf("a follower's tab is local: %+v", hi)
	}
	for i, target := range []wire.Command{
		{Op: "send", ID: 101, Target: "mcp-stdio", Frame: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{Op: "send", ID: 102, Target: "custom-stdio", To: "sh -c 'touch /tmp/pwned'", Frame: "{}"},
		{Op: "send", ID: 103, Target: "custom-http", To: "http://127.0.0.1:1", Frame: "GET / HTTP/1.1\n\n"},
	} {
		send(t, conn, target)
		ev := next(t, conn, func(ev wire.Event) bool { return ev.Op == "error" && ev.ID == target.ID })
		if ev.Message == "" {
			t.Errorf("refusal %d says nothing", i)
		}
	}

	// Nor may it present to the room.
	send(t, conn, wire.Command{Op: "present"})
	if ev := next(t, conn, func(ev wire.Event) bool { return ev.Op == "error" }); !strings.Contains(ev.Message, "instructor's machine") {
		t.Errorf("a follower asking to present: %q", ev.Message)
	}

	const ex = "frames-http-auth"
	fs, ok := frames.Solution(ex)
	if !ok {
		t.Fatalf("%s has no solution", ex)
	}
	for i, f := range fs {
		// The page fills in {{host}}, the target's address.
		frame := strings.ReplaceAll(f.Text, "{{host}}", strings.TrimPrefix(auth.URL, "http://"))
		send(t, conn, wire.Command{Op: "send", ID: int64(i + 1), Target: f.Target, Frame: frame})
		next(t, conn, func(ev wire.Event) bool { return ev.ID == int64(i+1) && ev.Dir == "in" })
	}
	a := do(t, tr.remote, "POST", "/exercises/"+ex+"/check", "application/json", `{"session":"`+hi.Session+`"}`, id)
	var res struct{ Passed, Saved bool }
	if err := json.Unmarshal([]byte(a.body), &res); err != nil || a.code != http.StatusOK || !res.Passed || res.Saved {
		t.Fatalf("a follower's check: %d %s; want passed and not saved", a.code, a.body)
	}
	if after := tr.progressBytes(t); !bytes.Equal(before, after) {
		t.Errorf("a follower's check changed the progress on disk:\nbefore %s\nafter  %s", before, after)
	}
}

// TestClassroomReports: what followers' pages report reaches the room,
// only with a follower's cookie, and progress only when shared.
func TestClassroomReports(t *testing.T) {
	tr := newTestRoom(t, nil)
	id := tr.follower(t, "Ada")
	for _, tt := range []struct {
		name, path, body, cookie string
		srv                      *httptest.Server
		code                     int
	}{
		{"seen", "/classroom/seen", `{"page":"/learn/mcp-by-hand"}`, id, tr.remote, http.StatusNoContent},
		{"seen, not a path", "/classroom/seen", `{"page":"https://x"}`, id, tr.remote, http.StatusBadRequest},
		{"seen, not JSON", "/classroom/seen", `page=/`, id, tr.remote, http.StatusBadRequest},
		{"seen from this machine without the cookie", "/classroom/seen", `{"page":"/"}`, "", tr.local, http.StatusForbidden},
		{"a check before sharing", "/classroom/progress", `{"exercise":"frames-http-auth","passed":true}`, id, tr.remote, http.StatusNoContent},
		{"an unknown exercise", "/classroom/progress", `{"share":true,"exercise":"nope","passed":true}`, id, tr.remote, http.StatusBadRequest},
		{"progress from this machine without the cookie", "/classroom/progress", `{"share":true}`, "", tr.local, http.StatusForbidden},
	} {
		if a := do(t, tt.srv, "POST", tt.path, "application/json", tt.body, tt.cookie); a.code != tt.code {
			t.Errorf("%s: %d %s, want %d", tt.name, a.code, a.body, tt.code)
		}
	}
	if f, _ := tr.room.Follower(id); f.Page != "/learn/mcp-by-hand" || f.Share || len(f.Passed) != 0 {
		t.Errorf("before sharing: %+v", f)
	}
	for _, body := range []string{
		`{"share":true}`,
		`{"exercise":"frames-grpc-deadline","passed":false,"failure":"step 2: no DEADLINE_EXCEEDED"}`,
		`{"share":true,"exercise":"frames-http-auth","passed":true}`,
	} {
		if a := do(t, tr.remote, "POST", "/classroom/progress", "application/json", body, id); a.code != http.StatusNoContent {
			t.Fatalf("%s: %d %s", body, a.code, a.body)
		}
	}
	f, _ := tr.room.Follower(id)
	if !f.Share || len(f.Passed) != 1 || f.Passed[0].Exercise != "frames-http-auth" || f.Failure == nil || f.Failure.Exercise != "frames-grpc-deadline" {
		t.Errorf("after sharing: %+v", f)
	}
}

// TestClassroomInstructor: on the instructor's machine, the home page
// shows the join URL, the code and the QR code, the QR code is a PNG,
// the dashboard lists the followers and streams them, and the session
// log is written only when asked.
func TestClassroomInstructor(t *testing.T) {
	tr := newTestRoom(t, nil)
	id := tr.follower(t, "Ada <b>Lovelace</b>")
	do(t, tr.remote, "POST", "/classroom/progress", "application/json", `{"share":true,"exercise":"frames-http-auth","passed":true}`, id)

	home := do(t, tr.local, "GET", "/", "", "", "")
	for _, want := range []string{"http://192.0.2.2:8080/join", ">" + classroomCode + "<", `src="/classroom/qr.png?n=0"`,
		"wirelab serve --follow http://192.0.2.2:8080/join?code=" + classroomCode, "/static/classroom.css", `<a href="/classroom">`} {
		if !strings.Contains(home.body, want) {
			t.Errorf("the instructor's home page lacks %q", want)
		}
	}
	if theirs := do(t, tr.remote, "GET", "/", "", "", id); theirs.code != http.StatusOK || strings.Contains(theirs.body, `href="/classroom"`) {
		t.Errorf("a follower's home page (%d) links the dashboard, which is the instructor's alone", theirs.code)
	}
	qr := do(t, tr.local, "GET", "/classroom/qr.png", "", "", "")
	img, err := png.Decode(strings.NewReader(qr.body))
	if qr.code != http.StatusOK || err != nil || img.Bounds().Dx() < qrSize {
		t.Fatalf("the QR code: %d, %v", qr.code, err)
	}
	// What a phone reads from it: the join URL with the code, so that
	// the form comes filled in.
	if got, want := decodeQR(t, img), "http://192.0.2.2:8080/join?code="+classroomCode; got != want {
		t.Errorf("the QR code reads %q, want %q", got, want)
	}
	if a := do(t, tr.local, "GET", "/classroom/qr.png?n=1", "", "", ""); a.code != http.StatusNotFound {
		t.Errorf("the QR code of a join URL there is not: %d", a.code)
	}

	dash := do(t, tr.local, "GET", "/classroom?lang=en", "", "", "")
	for _, want := range []string{"Ada &lt;b&gt;Lovelace&lt;/b&gt;", "Refused, forbidden, allowed: 401, 403, 200", "1 of 1 connected", `src="/static/classroom.js"`, "Write a session log"} {
		if dash.code != http.StatusOK || !strings.Contains(dash.body, want) {
			t.Errorf("the dashboard (%d) lacks %q", dash.code, want)
		}
	}

	// The stream: the room now, then again at a change.
	req, _ := http.NewRequest("GET", tr.local.URL+"/classroom/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("the stream: %v %v", resp, err)
	}
	defer resp.Body.Close()
	events := bufio.NewScanner(resp.Body)
	event := func() dashboardData {
		t.Helper()
		for events.Scan() {
			if data, ok := strings.CutPrefix(events.Text(), "data: "); ok {
				var d dashboardData
				if err := json.Unmarshal([]byte(data), &d); err != nil {
					t.Fatalf("an event that is not the room: %s", data)
				}
				return d
			}
		}
		t.Fatalf("the stream ended: %v", events.Err())
		return dashboardData{}
	}
	if d := event(); len(d.Followers) != 1 || d.Followers[0].Name != "Ada <b>Lovelace</b>" || len(d.Followers[0].Passed) != 1 {
		t.Fatalf("first event: %+v", d)
	}
	tr.follower(t, "Grace")
	if d := event(); len(d.Followers) != 2 || d.Followers[1].Name != "Grace" || d.Followers[1].Share {
		t.Errorf("after Grace joined: %+v", d)
	}

	if entries, _ := os.ReadDir(tr.logDir); len(entries) != 0 {
		t.Fatalf("a log was written before it was asked for: %v", entries)
	}
	a := do(t, tr.local, "POST", "/classroom/log", "", "", "")
	var written struct{ Path string }
	json.Unmarshal([]byte(a.body), &written)
	if a.code != http.StatusOK || filepath.Dir(written.Path) != tr.logDir {
		t.Fatalf("writing the log: %d %s", a.code, a.body)
	}
	b, err := os.ReadFile(written.Path)
	var l classroom.Log
	if err != nil || json.Unmarshal(b, &l) != nil || len(l.Followers) != 2 || l.Followers[0].Passed[0].Exercise != "frames-http-auth" {
		t.Errorf("the log: %v\n%s", err, b)
	}
	if fi, err := os.Stat(written.Path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the log's mode: %v %v, want 0600", fi.Mode(), err)
	}
	// Logs asked for in the same second each get a file of their own.
	paths := map[string]bool{written.Path: true}
	for range 3 {
		a := do(t, tr.local, "POST", "/classroom/log", "", "", "")
		var again struct{ Path string }
		json.Unmarshal([]byte(a.body), &again)
		if a.code != http.StatusOK || paths[again.Path] {
			t.Errorf("another log: %d %s, after %v", a.code, a.body, paths)
		}
		paths[again.Path] = true
	}
}

// decodeQR reads the text of the QR code in img, as a phone's camera
// would.
func decodeQR(t *testing.T, img image.Image) string {
	t.Helper()
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatalf("the QR code as a bitmap: %v", err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("reading the QR code: %v", err)
	}
	return res.GetText()
}

// TestNoClassroom: without --classroom there is no join page, and a page
// from elsewhere reads the course as before.
func TestNoClassroom(t *testing.T) {
	pg := New(tools.New(nil), &Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = "192.0.2.7:40000"
		pg.ServeHTTP(w, r)
	}))
	defer func() { srv.Close(); pg.Close() }()
	for path, code := range map[string]int{"/join": http.StatusNotFound, "/classroom": http.StatusNotFound, "/learn/": http.StatusOK} {
		if a := do(t, srv, "GET", path, "", "", ""); a.code != code {
			t.Errorf("GET %s: %d, want %d", path, a.code, code)
		}
	}
}

// TestClassroomFollowerSolution: a follower's exercise page offers no
// solution it may not open (its confirming POST is refused): it says
// where the solution is, on the student's own wirelab; the confirming
// page offers no button either. The instructor's page keeps both.
func TestClassroomFollowerSolution(t *testing.T) {
	tr := newTestRoom(t, nil)
	id := tr.follower(t, "Ada")
	const ex = "frames-http-auth"
	link := `href="/exercises/` + ex + `/solution"`
	form := `action="/exercises/` + ex + `/solution"`
	if _, ok := frames.Solution(ex); !ok {
		t.Fatalf("%s has no solution to offer", ex)
	}

	for _, l := range []string{"en", "ru"} {
		page := do(t, tr.remote, "GET", "/exercises/"+ex+"?lang="+l, "", "", id)
		if page.code != http.StatusOK || strings.Contains(page.body, link) || !strings.Contains(page.body, "<code>wirelab serve --follow</code>") {
			t.Errorf("a follower's exercise page (%s, %d): offers the solution: %v; says where it is: %v",
				l, page.code, strings.Contains(page.body, link), strings.Contains(page.body, "wirelab serve --follow"))
		}
	}
	confirm := do(t, tr.remote, "GET", "/exercises/"+ex+"/solution", "", "", id)
	if confirm.code != http.StatusOK || strings.Contains(confirm.body, form) || !strings.Contains(confirm.body, "<code>wirelab serve --follow</code>") {
		t.Errorf("a follower's solution page (%d): offers the button: %v", confirm.code, strings.Contains(confirm.body, form))
	}
	// The button would be refused: nothing it could do.
	if a := do(t, tr.remote, "POST", "/exercises/"+ex+"/solution", "application/x-www-form-urlencoded", "", id); a.code != http.StatusForbidden {
		t.Errorf("a follower's confirming POST: %d, want 403", a.code)
	}

	if page := do(t, tr.local, "GET", "/exercises/"+ex, "", "", ""); !strings.Contains(page.body, link) || strings.Contains(page.body, "wirelab serve --follow") {
		t.Errorf("the instructor's exercise page lacks the solution's link")
	}
	if confirm := do(t, tr.local, "GET", "/exercises/"+ex+"/solution", "", "", ""); !strings.Contains(confirm.body, form) {
		t.Errorf("the instructor's solution page lacks the button")
	}
}

// TestClassroomOwnWirelab: a student who follows from their own wirelab
// (wirelab serve --follow) reports {"own": true}; the dashboard lists
// the student as connected, on their own wirelab, where a page's path
// would be, in the page and in the stream's rows; a page of the same
// follower reporting its path later shows the path again.
func TestClassroomOwnWirelab(t *testing.T) {
	tr := newTestRoom(t, nil)
	id := tr.follower(t, "Ada")
	if a := do(t, tr.remote, "POST", "/classroom/seen", "application/json", `{"own":true}`, id); a.code != http.StatusNoContent {
		t.Fatalf("own wirelab's report: %d %s", a.code, a.body)
	}
	for l, want := range map[lang]string{en: `<span class="note">on their own wirelab</span>`, ru: `<span class="note">в своём wirelab</span>`} {
		if dash := do(t, tr.local, "GET", "/classroom?lang="+string(l), "", "", ""); !strings.Contains(dash.body, want) {
			t.Errorf("the dashboard (%s) lacks %s", l, want)
		}
	}
	site := &classroomSite{room: tr.room}
	if d := site.rows(en); len(d.Followers) != 1 || !d.Followers[0].Own || d.Followers[0].Page != "on their own wirelab" || !d.Followers[0].Connected {
		t.Errorf("the stream's row: %+v", d.Followers)
	}
	do(t, tr.remote, "POST", "/classroom/seen", "application/json", `{"page":"/learn/"}`, id)
	if d := site.rows(en); d.Followers[0].Own || d.Followers[0].Page != "/learn/" {
		t.Errorf("after a page's report: %+v", d.Followers[0])
	}
}
