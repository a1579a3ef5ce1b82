package playground

import (
	"bufio"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/frames"
	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// exerciseSiteFor serves the whole playground with a progress store of
// its own, every request seen as coming from remoteAddr ("" leaves the
// real, loopback, address).
func exerciseSiteFor(t *testing.T, remoteAddr string) (*httptest.Server, *progress.Store) {
	t.Helper()
	t.Setenv(childEnv, "1")
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	pg := New(tools.New(nil), &Options{Executable: os.Args[0], Progress: store})
	var h http.Handler = pg
	if remoteAddr != "" {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.RemoteAddr = remoteAddr
			pg.ServeHTTP(w, r)
		})
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); pg.Close() })
	return srv, store
}

func fetchPage(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func post(t *testing.T, u, contentType, body string) (int, string) {
	t.Helper()
	resp, err := noRedirect.Post(u, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// TestExercisePages lists the exercises, opens hints one at a time, and
// shows a solution only after asking, as a learner meets them.
func TestExercisePages(t *testing.T) {
	srv, store := exerciseSiteFor(t, "")
	store.Update(func(st *progress.State) error { st.Pass("stdio-server", time.Now()); return nil })

	code, body := fetchPage(t, srv.URL+"/exercises/")
	if code != http.StatusOK || !strings.Contains(body, "1 of 30 exercises passed.") {
		t.Errorf("list: %d\n%s", code, body)
	}
	for _, e := range exercises.List() {
		if !strings.Contains(body, `href="/exercises/`+e.ID+`"`) {
			t.Errorf("list has no link to %s", e.ID)
		}
	}
	if code, body := fetchPage(t, srv.URL+"/?lang=ru"); code != http.StatusOK || !strings.Contains(body, "Пройдено 1 из 30 упражнений.") {
		t.Errorf("home: %d, no progress in\n%s", code, body)
	}
	if code, _ := fetchPage(t, srv.URL+"/exercises/nope"); code != http.StatusNotFound {
		t.Errorf("unknown exercise: %d", code)
	}

	// Hints: none at first, then one per press, never more than there are.
	e, _ := exercises.ByID("mcp-server")
	_, body = fetchPage(t, srv.URL+"/exercises/mcp-server")
	if strings.Contains(body, e.Hints.EN[0]) || !strings.Contains(body, "Next hint") {
		t.Errorf("a hint shows before any was asked for")
	}
	for i := range len(e.Hints.EN) + 1 {
		if code, _ := post(t, srv.URL+"/exercises/mcp-server/hint", "", ""); code != http.StatusSeeOther {
			t.Fatalf("hint %d: %d", i+1, code)
		}
		if i == 0 {
			_, body = fetchPage(t, srv.URL+"/exercises/mcp-server")
			if !strings.Contains(body, "Hint 1 of 3") || strings.Contains(body, "Hint 2 of 3") {
				t.Errorf("after one press:\n%s", body)
			}
		}
	}
	if st, _ := store.Load(); st.Exercise("mcp-server").HintsShown != len(e.Hints.EN) {
		t.Errorf("hints shown %d, want %d", st.Exercise("mcp-server").HintsShown, len(e.Hints.EN))
	}

	// The solution: asked first when not passed; shown when confirmed,
	// which progress remembers; shown at once when passed.
	_, body = fetchPage(t, srv.URL+"/exercises/mcp-server/solution")
	if !strings.Contains(body, "Yes, show me the solution") || strings.Contains(body, "func main") {
		t.Errorf("unconfirmed solution page:\n%s", body)
	}
	code, body = post(t, srv.URL+"/exercises/mcp-server/solution", "", "")
	if code != http.StatusOK || !strings.Contains(body, "main") || !strings.Contains(body, "before passing") {
		t.Errorf("confirmed: %d\n%s", code, body)
	}
	if st, _ := store.Load(); !st.Exercise("mcp-server").SolutionShown {
		t.Error("showing the solution early is not in the progress")
	}
	_, body = fetchPage(t, srv.URL+"/exercises/stdio-server/solution")
	if strings.Contains(body, "Yes, show me") || !strings.Contains(body, "main.go") {
		t.Errorf("a passed exercise's solution is not shown at once:\n%s", body)
	}
}

// TestExercisesFromElsewhere: a page from another machine may read and
// check, but never builds code and never changes this learner's progress.
func TestExercisesFromElsewhere(t *testing.T) {
	srv, store := exerciseSiteFor(t, "192.0.2.7:4000")
	store.Update(func(st *progress.State) error { st.Workspace = t.TempDir(); return nil })
	if code, body := post(t, srv.URL+"/exercises/stdio-server/grade", "", ""); code != http.StatusForbidden || !strings.Contains(body, "wirelab grade stdio-server") {
		t.Errorf("grade from elsewhere: %d %s", code, body)
	}
	if code, _ := post(t, srv.URL+"/exercises/stdio-server/hint", "", ""); code != http.StatusForbidden {
		t.Errorf("hint from elsewhere: %d", code)
	}
	_, body := fetchPage(t, srv.URL+"/exercises/stdio-server")
	if strings.Contains(body, `id="exercise-check"`) || !strings.Contains(body, "grade in a terminal") {
		t.Errorf("a page from elsewhere offers to build code:\n%s", body)
	}
	// Hints are asked for in the address instead, one more each time.
	e, _ := exercises.ByID("stdio-server")
	_, body = fetchPage(t, srv.URL+"/exercises/stdio-server?hints=1")
	if !strings.Contains(body, "Hint 1 of 3") || strings.Contains(body, "Hint 2 of 3") || !strings.Contains(body, `href="?hints=2#hints"`) {
		t.Errorf("hints from elsewhere:\n%s", body)
	}
	if _, body = fetchPage(t, srv.URL+"/exercises/stdio-server?hints=9"); !strings.Contains(body, "Hint 3 of 3") || strings.Contains(body, "?hints=4") || len(e.Hints.EN) != 3 {
		t.Errorf("every hint shown, and no link to more:\n%s", body)
	}
	if st, _ := store.Load(); len(st.Exercises) != 0 {
		t.Errorf("progress changed from elsewhere: %+v", st.Exercises)
	}
}

// TestFailedCheckFromElsewhere: a check of a frame exercise asked for by
// a page on another machine is answered, and fails, but the failure is
// not this learner's. The frames are sent from this machine (stdio
// servers run only for its pages); the check alone comes from elsewhere,
// with the session's id.
func TestFailedCheckFromElsewhere(t *testing.T) {
	t.Setenv(childEnv, "1")
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	pg := New(tools.New(nil), &Options{Executable: os.Args[0], Progress: store})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/check") {
			r.RemoteAddr = "192.0.2.7:4000"
		}
		pg.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); pg.Close() })

	const id = "frames-stdio-errors"
	fs, _ := frames.Solution(id)
	conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", http.Header{"Origin": {srv.URL}})
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, resp)
	}
	defer conn.Close()
	var hi wire.Hello
	if err := conn.ReadJSON(&hi); err != nil || hi.Session == "" {
		t.Fatalf("hello: %+v, %v", hi, err)
	}
	send(t, conn, wire.Command{Op: "send", ID: 1, Target: fs[0].Target, Frame: fs[0].Text})
	next(t, conn, func(ev wire.Event) bool { return ev.Target == fs[0].Target && ev.Dir == "in" })
	code, body := post(t, srv.URL+"/exercises/"+id+"/check", "application/json", `{"session":"`+hi.Session+`"}`)
	if code != http.StatusOK || !strings.Contains(body, `"passed":false`) || !strings.Contains(body, `"saved":false`) {
		t.Errorf("a failed check from elsewhere: %d %s", code, body)
	}
	if st, _ := store.Load(); len(st.Exercises) != 0 {
		t.Errorf("progress changed from elsewhere: %+v", st.Exercises)
	}
}

// TestCheckFrameExercise does a frame exercise the way a learner does in
// a console: the frames go through the tab's websocket, then Check reads
// the session's transcript. A wrong session is a clear 404.
func TestCheckFrameExercise(t *testing.T) {
	srv, store := exerciseSiteFor(t, "")
	const id = "frames-stdio-errors"
	fs, ok := frames.Solution(id)
	if !ok {
		t.Fatalf("%s has no solution", id)
	}
	conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", http.Header{"Origin": {srv.URL}})
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, resp)
	}
	defer conn.Close()
	var hi wire.Hello
	if err := conn.ReadJSON(&hi); err != nil || hi.Session == "" {
		t.Fatalf("hello: %+v, %v", hi, err)
	}

	check := func() (int, map[string]any) {
		code, body := post(t, srv.URL+"/exercises/"+id+"/check", "application/json", `{"session":"`+hi.Session+`"}`)
		var res map[string]any
		json.Unmarshal([]byte(body), &res)
		return code, res
	}
	if code, res := check(); code != http.StatusOK || res["passed"] != false || res["saved"] != false {
		t.Errorf("before any frame: %d %v", code, res)
	}
	// A look at the steps before sending anything is no attempt.
	if st, _ := store.Load(); st.Exercise(id) != (progress.Exercise{}) {
		t.Errorf("a check before any frame is in the progress: %+v", st.Exercise(id))
	}
	if len(fs) < 2 {
		t.Fatalf("%s's solution has %d frames; the test sends all but the last first", id, len(fs))
	}
	sendFrames := func(from int, fs []frames.Frame) {
		for i, f := range fs {
			send(t, conn, wire.Command{Op: "send", ID: int64(from + i), Target: f.Target, Frame: f.Text})
			next(t, conn, func(ev wire.Event) bool { return ev.Target == f.Target && ev.Dir == "in" })
		}
	}
	// All but the last frame: a failed check, counted.
	sendFrames(1, fs[:len(fs)-1])
	if code, res := check(); code != http.StatusOK || res["passed"] != false || res["saved"] != true {
		t.Fatalf("after all but the last frame: %d %v", code, res)
	}
	if st, _ := store.Load(); st.Exercise(id).Passed || st.Exercise(id).Failures != 1 {
		t.Errorf("after a failed check: %+v, want one failure", st.Exercise(id))
	}
	_, body := fetchPage(t, srv.URL+"/learn/")
	if m := regexp.MustCompile(`href="/exercises/` + id + `" data-state="([a-z-]+)"`).FindStringSubmatch(body); m == nil || m[1] != "tried" {
		t.Errorf("the course map shows %s as %v, want tried", id, m)
	}

	sendFrames(len(fs), fs[len(fs)-1:])
	code, res := check()
	if code != http.StatusOK || res["passed"] != true || res["saved"] != true {
		t.Fatalf("after the solution's frames: %d %v", code, res)
	}
	if st, _ := store.Load(); !st.Exercise(id).Passed || st.Exercise(id).Failures != 1 {
		t.Errorf("after the pass: %+v, want it passed, the failure kept", st.Exercise(id))
	}
	if code, _ := post(t, srv.URL+"/exercises/"+id+"/check", "application/json", `{"session":"nope"}`); code != http.StatusNotFound {
		t.Errorf("unknown session: %d", code)
	}
	if code, _ := post(t, srv.URL+"/exercises/stdio-server/check", "application/json", `{"session":"`+hi.Session+`"}`); code != http.StatusNotFound {
		t.Errorf("a code exercise checked from frames: %d", code)
	}
}

// TestGradeFromPage grades a code exercise in the learner's workspace
// from the page, and reads the stream: each stage as it starts and ends,
// then the end, with the pass saved.
func TestGradeFromPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	srv, store := exerciseSiteFor(t, "")
	ws := solvedWorkspace(t)

	if code, body := post(t, srv.URL+"/exercises/stdio-server/grade", "", ""); code != http.StatusConflict || !strings.Contains(body, "wirelab init") {
		t.Errorf("without a workspace: %d %s", code, body)
	}
	store.Update(func(st *progress.State) error { st.Workspace = ws; return nil })
	_, page := fetchPage(t, srv.URL+"/exercises/stdio-server")
	if !strings.Contains(page, `id="exercise-check"`) || !strings.Contains(page, filepath.Join(ws, "stdio-server")) {
		t.Errorf("the page does not offer to grade the workspace:\n%s", page)
	}

	resp, err := http.Post(srv.URL+"/exercises/stdio-server/grade", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ops []string
	var last map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		ops = append(ops, msg["op"].(string)+" "+str(msg["status"]))
		last = msg
	}
	// "builds" and the grader's six stages, each started and ended.
	if len(ops) != 2*7+1 || ops[0] != "stage running" || ops[1] != "stage passed" {
		t.Errorf("stream: %q", ops)
	}
	if last["op"] != "done" || last["passed"] != true || last["saved"] != true {
		t.Errorf("end: %v", last)
	}
	if st, _ := store.Load(); !st.Exercise("stdio-server").Passed {
		t.Error("the pass is not in the progress")
	}
}

// TestGradeFailureFromPage grades from the page a program that does not
// build, the quickest to fail: the failure is saved, and the exercise
// shows as tried on the course map, the list of exercises and its page.
func TestGradeFailureFromPage(t *testing.T) {
	srv, store := exerciseSiteFor(t, "")
	ws := t.TempDir()
	os.Mkdir(filepath.Join(ws, "stdio-server"), 0o755)
	// No go.mod either: go build fails at once.
	os.WriteFile(filepath.Join(ws, "stdio-server", "main.go"), []byte("package main\n\nfunc main() { notYet() }\n"), 0o644)
	store.Update(func(st *progress.State) error { st.Workspace = ws; return nil })

	resp, err := http.Post(srv.URL+"/exercises/stdio-server/grade", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var last map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		last = nil
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
	}
	if last["op"] != "done" || last["passed"] != false || last["saved"] != true || last["problem"] != nil {
		t.Fatalf("end: %v", last)
	}
	if st, _ := store.Load(); st.Exercise("stdio-server").Passed || st.Exercise("stdio-server").Failures != 1 {
		t.Errorf("after a failed grade: %+v, want one failure", st.Exercise("stdio-server"))
	}

	_, body := fetchPage(t, srv.URL+"/learn/")
	if !strings.Contains(body, `href="/exercises/stdio-server" data-state="tried"`) {
		t.Errorf("the course map does not show stdio-server as tried")
	}
	_, body = fetchPage(t, srv.URL+"/exercises/")
	if n := strings.Count(body, `class="exercise-status tried"`); n != 1 {
		t.Errorf("the list marks %d exercises as tried, want 1 (stdio-server)", n)
	}
	tried := regexp.MustCompile(`class="exercise-status tried"[^>]*>[^<]*<span class="visually-hidden">tried</span></span>\s*<a href="/exercises/stdio-server">`)
	if !tried.MatchString(body) {
		t.Errorf("the list does not mark stdio-server as tried:\n%s", body)
	}
	if _, body = fetchPage(t, srv.URL+"/exercises/stdio-server?lang=ru"); !strings.Contains(body, `<span class="visually-hidden">начато</span>`) {
		t.Errorf("the exercise's page does not say it is tried:\n%s", body)
	}
	// The home page lists the exercises once one is tried, passed or not.
	_, body = fetchPage(t, srv.URL+"/")
	if !regexp.MustCompile(`(?s)class="exercise-list home-progress".*class="exercise-status tried"`).MatchString(body) {
		t.Errorf("the home page does not list the tried exercise:\n%s", body)
	}
}

// TestGradeFromRussianPage grades from a Russian page (its language
// cookie, or ?lang=ru) a program that does not build: the errors, the
// stages and the last line come in Russian, the compiler's output and
// the names on the wire as they are.
func TestGradeFromRussianPage(t *testing.T) {
	srv, store := exerciseSiteFor(t, "")
	req, err := http.NewRequest("POST", srv.URL+"/exercises/stdio-server/grade", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: langCookie, Value: "ru"})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var refused struct{ Error string }
	json.NewDecoder(resp.Body).Decode(&refused)
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict || refused.Error != "рабочей папки пока нет: сначала выполните wirelab init DIR" {
		t.Errorf("without a workspace: %d %q", resp.StatusCode, refused.Error)
	}

	ws := t.TempDir()
	os.Mkdir(filepath.Join(ws, "stdio-server"), 0o755)
	// No go.mod: go build fails at once, with a hint.
	os.WriteFile(filepath.Join(ws, "stdio-server", "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	store.Update(func(st *progress.State) error { st.Workspace = ws; return nil })
	resp, err = http.Post(srv.URL+"/exercises/stdio-server/grade?lang=ru", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msgs []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		msgs = append(msgs, msg)
	}
	if len(msgs) != 3 {
		t.Fatalf("stream: %v", msgs)
	}
	failed, done := msgs[1], msgs[2]
	text := str(failed["text"])
	for _, want := range []string{
		"  ОШИБКА  1. builds — собирается\n",
		"          программа не собирается: go build завершился с ошибкой (exit status 1)\n",
		"          Подсказка: Папка не лежит внутри Go-модуля.",
		"          Вывод:\n",
		"go.mod file not found",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the stage's text:\n%s", want, text)
		}
	}
	if failed["name"] != "builds — собирается" || failed["status"] != "failed" {
		t.Errorf("stage: %v", failed)
	}
	if done["summary"] != "Пока нет: этап 1 из 7, «builds — собирается», не пройден.\n" {
		t.Errorf("end: %v", done)
	}
}

// solvedWorkspace writes a learner's workspace in which stdio-server is
// solved: the reference solution, made the learner's own by a comment
// (the reference solution itself is nobody's progress).
func solvedWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	gomod, gosum := exercises.ModuleFiles()
	src, err := os.ReadFile("../solutions/stdio-server/main.go")
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(ws, "stdio-server"), 0o755)
	for name, b := range map[string][]byte{"go.mod": gomod, "go.sum": gosum,
		"stdio-server/main.go": append(src, "\n// The learner's own.\n"...)} {
		if err := os.WriteFile(filepath.Join(ws, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// TestGradeStopsAtClose closes the playground in the middle of a grade,
// as Ctrl-C on `wirelab serve` does: Close waits for the grade, whose
// program is killed and whose folder is removed, and a grade asked for
// afterwards is refused.
func TestGradeStopsAtClose(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	pg := New(tools.New(nil), &Options{Progress: store})
	srv := httptest.NewServer(pg)
	defer srv.Close()
	defer pg.Close()

	// A program that hangs once started, with a child that hangs too.
	ws := t.TempDir()
	src, err := os.ReadFile("../exercises/grade/testdata/bad/hang/main.go")
	if err != nil {
		t.Fatal(err)
	}
	gomod, gosum := exercises.ModuleFiles()
	os.Mkdir(filepath.Join(ws, "stdio-server"), 0o755)
	for name, b := range map[string][]byte{"go.mod": gomod, "go.sum": gosum, "stdio-server/main.go": src} {
		if err := os.WriteFile(filepath.Join(ws, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store.Update(func(st *progress.State) error { st.Workspace = ws; return nil })

	resp, err := http.Post(srv.URL+"/exercises/stdio-server/grade", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	next := func() map[string]any {
		t.Helper()
		if !sc.Scan() {
			t.Fatalf("the stream ended: %v", sc.Err())
		}
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		return msg
	}
	// The build, then the first stage starting: the program runs.
	for msg := next(); !(msg["index"] == 1.0 && msg["status"] == "running"); msg = next() {
		if msg["op"] == "done" {
			t.Fatalf("the grade ended before the program ran: %v", msg)
		}
	}
	pg.Close()
	if running := processesIn(tmp); len(running) > 0 {
		t.Errorf("still running from the grade's folder: %q", running)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("left in the temporary directory: %v", entries)
	}
	var last map[string]any
	for sc.Scan() {
		json.Unmarshal(sc.Bytes(), &last)
	}
	if last["op"] != "done" || last["passed"] != false || !strings.Contains(str(last["summary"]), "Interrupted") {
		t.Errorf("end of the stream: %v", last)
	}
	if code, body := post(t, srv.URL+"/exercises/stdio-server/grade", "", ""); code != http.StatusServiceUnavailable {
		t.Errorf("a grade after Close: %d %s", code, body)
	}
	if st, _ := store.Load(); st.Exercise("stdio-server") != (progress.Exercise{}) {
		t.Errorf("an interrupted grade is in the progress: %+v", st.Exercise("stdio-server"))
	}
}

// processesIn lists the command lines of the running processes whose
// program is under dir, from /proc (on Linux; elsewhere, none).
func processesIn(dir string) []string {
	var found []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil || !strings.HasPrefix(string(b), dir) {
			continue
		}
		// A zombie, killed but not yet reaped by init, is not running.
		if stat, err := os.ReadFile(strings.TrimSuffix(f, "cmdline") + "stat"); err == nil {
			if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
				continue
			}
		}
		found = append(found, strings.ReplaceAll(string(b), "\x00", " "))
	}
	return found
}

// TestCorruptProgressPages serves the pages with a progress file that
// cannot be read: each page that shows or keeps progress says why, in
// the store's own sentence (the one `wirelab` says in a terminal); the
// buttons that would save answer 500 with it, not a 403 about where the
// page comes from; and the file is left as it was.
func TestCorruptProgressPages(t *testing.T) {
	srv, store := exerciseSiteFor(t, "")
	const broken = `{"version":1,"exercises":{"stdio-server":{"hints_shown":2`
	if err := os.WriteFile(store.Path(), []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	_, lerr := store.Load()
	if lerr == nil {
		t.Fatal("the broken file loads")
	}
	sentence := lerr.Error()
	inPage := html.EscapeString(sentence)

	for _, path := range []string{"/", "/exercises/", "/exercises/stdio-server", "/exercises/frames-mcp-handshake"} {
		if code, body := fetchPage(t, srv.URL+path); code != http.StatusOK || !strings.Contains(body, `role="alert">`+inPage+"</p>") {
			t.Errorf("GET %s: %d, and the page does not say %q", path, code, sentence)
		}
	}
	for _, tt := range []struct {
		path, body string
		want       string // how the sentence stands in the answer
	}{
		{"/exercises/stdio-server/hint", "", inPage},
		{"/exercises/stdio-server/solution", "", inPage},
		{"/exercises/stdio-server/grade", "", mustJSONString(sentence)},
	} {
		code, body := post(t, srv.URL+tt.path, "", tt.body)
		if code != http.StatusInternalServerError || !strings.Contains(body, tt.want) {
			t.Errorf("POST %s: %d %s\nwant 500 with %q", tt.path, code, body, sentence)
		}
	}
	// A Russian page says it in Russian, with the file and what to do.
	for _, path := range []string{"/?lang=ru", "/learn/?lang=ru", "/exercises/stdio-server?lang=ru"} {
		code, body := fetchPage(t, srv.URL+path)
		if code != http.StatusOK || !strings.Contains(body, "файл прогресса "+html.EscapeString(store.Path())+" не читается") || !strings.Contains(body, ".broken") {
			t.Errorf("GET %s: %d, and the page does not say in Russian that the file cannot be read", path, code)
		}
	}
	if b, _ := os.ReadFile(store.Path()); string(b) != broken {
		t.Errorf("the progress file became %q", b)
	}
}

// mustJSONString is s as it stands inside a JSON string.
func mustJSONString(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// TestExercisePageCommands checks that a code exercise's page tells the
// story the README and `wirelab init` tell: the workspace in the folder
// the README names, `wirelab grade` once `go install .` has put wirelab
// on the PATH, and `go run . grade` from the clone until then.
func TestExercisePageCommands(t *testing.T) {
	srv, _ := exerciseSiteFor(t, "")
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"<pre>wirelab init ~/wirelab-work</pre>", "<pre>wirelab grade --watch stdio-server</pre>",
			"The wirelab command is on your PATH once you have run <code>go install .</code> in your clone of wirelab; until then, the same from the clone is <code>go run . grade --watch stdio-server</code>"}},
		{"ru", []string{"<pre>wirelab init ~/wirelab-work</pre>", "<pre>wirelab grade --watch stdio-server</pre>",
			"<code>go install .</code> в своей копии wirelab", "<code>go run . grade --watch stdio-server</code>"}},
	} {
		code, body := fetchPage(t, srv.URL+"/exercises/stdio-server?lang="+tt.lang)
		if code != http.StatusOK {
			t.Fatalf("%s: %d", tt.lang, code)
		}
		for _, s := range tt.want {
			if !strings.Contains(body, s) {
				t.Errorf("%s: no %s in the page", tt.lang, s)
			}
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{initCommand, "go install ."} {
		if !strings.Contains(string(readme), s) {
			t.Errorf("README.md does not say %s, as the exercise pages do", s)
		}
	}
}

// TestFrameExerciseConsoles: every frame exercise's page opens a console
// that exists, with the exercise in it, in both languages.
func TestFrameExerciseConsoles(t *testing.T) {
	srv, _ := exerciseSiteFor(t, "")
	link := regexp.MustCompile(`<a class="button" href="(/console/[^"]*)"`)
	n := 0
	for _, e := range exercises.List() {
		if e.Kind != exercises.Frame {
			continue
		}
		n++
		for _, lang := range []string{"en", "ru"} {
			_, page := fetchPage(t, srv.URL+"/exercises/"+e.ID+"?lang="+lang)
			m := link.FindStringSubmatch(page)
			if m == nil {
				t.Errorf("%s (%s): the page has no button to a console", e.ID, lang)
				continue
			}
			u := html.UnescapeString(m[1])
			if code, body := fetchPage(t, srv.URL+u); code != http.StatusOK || !strings.Contains(body, e.ID) {
				t.Errorf("%s (%s): its console %s answers %d, or without the exercise", e.ID, lang, u, code)
			}
		}
	}
	if n == 0 {
		t.Fatal("no frame exercises")
	}
}
