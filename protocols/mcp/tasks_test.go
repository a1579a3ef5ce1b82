package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// Task ids are random, so a transcript writes taskHolder in their place:
// in an answer it replaces the id, and in a message sent it is replaced
// by the id the server gave last. Times, where they are real (over HTTP),
// are written timeHolder.
const (
	taskHolder = "{{taskId}}"
	timeHolder = "{{time}}"
)

var (
	taskIDField = regexp.MustCompile(`"taskId":"([A-Z2-7]{26})"`)
	taskTimes   = regexp.MustCompile(`"(createdAt|lastUpdatedAt)":"[^"]*"`)
)

// holdTask replaces the task id in an answer with taskHolder and returns
// the id it found (or the previous one).
func holdTask(answer, last string) (string, string) {
	if m := taskIDField.FindStringSubmatch(answer); m != nil {
		last = m[1]
	}
	if last == "" {
		return answer, last
	}
	return strings.ReplaceAll(answer, last, taskHolder), last
}

// TestTaskTranscripts replays testdata/tasks/stdio.txtar over stdio, in a
// synctest bubble: time is the bubble's (it starts at 2000-01-01 UTC and
// moves only when everything waits), so the tasks' times are the same on
// every run, and after each answer the replay waits until the server's
// tasks have done all they can before it sends the next line. A line that
// starts with "=> " instead of "-> " is a poll: it is sent again, after
// the interval the server asks for, while the answer says the task is
// still working; the transcript holds the last answer.
func TestTaskTranscripts(t *testing.T) {
	f := transcript.Glob(t, "testdata/tasks/stdio.txtar")[0]
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(string(f.Section(t, "wire")), "\n"), "\n") {
		if poll, ok := strings.CutPrefix(l, "=> "); ok {
			l = "-> " + poll + pollMark
		}
		lines = append(lines, l)
	}
	steps := parseSteps(t, []byte(strings.Join(lines, "\n")))
	synctest.Test(t, func(t *testing.T) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		srv := NewServer(tools.New(&tools.Options{DeployStep: time.Second}), &ServerOptions{Version: "test", Fixtures: true})
		done := make(chan error, 1)
		// The server ends when inW is closed below.
		go func() { done <- srv.ServeStdio(context.Background(), inR, outW); outW.Close() }()
		answers := make(chan string)
		// This goroutine ends when outW is closed, after the server returns.
		go func() {
			sc := bufio.NewScanner(outR)
			sc.Buffer(nil, 2<<20)
			for sc.Scan() {
				answers <- sc.Text()
			}
			close(answers)
		}()

		var got bytes.Buffer
		id := ""
		for _, s := range steps {
			send, poll := strings.CutSuffix(s.send, pollMark)
			for try := 0; ; try++ {
				if _, err := io.WriteString(inW, strings.ReplaceAll(send, taskHolder, id)+"\n"); err != nil {
					t.Fatal(err)
				}
				var last string
				for range s.answers {
					l, ok := <-answers
					if !ok {
						t.Fatalf("the server stopped; so far:\n%s", got.String())
					}
					last, id = holdTask(l, id)
				}
				synctest.Wait() // the tasks have done what they can
				if !poll || !strings.Contains(last, `"status":"working"`) || try == 100 {
					if poll {
						got.WriteString("=> " + send + "\n")
					} else {
						got.WriteString("-> " + send + "\n")
					}
					if len(s.answers) > 0 {
						got.WriteString("<- " + last + "\n")
					}
					break
				}
				time.Sleep(taskPollInterval)
				synctest.Wait() // work due at the same instant comes first
			}
		}
		inW.Close()
		if err := <-done; err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
		srv.Close()
		if extra, ok := <-answers; ok {
			t.Errorf("the server sent more than the transcript expects: %s", extra)
		}
		if *update {
			f.Rewrite(t, "wire", got.Bytes())
			return
		}
		if want := f.Section(t, "wire"); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("got:\n%s\nwant:\n%s\n(run go test -update to accept)", got.String(), want)
		}
	})
}

// pollMark marks a step that polls, inside the test only.
const pollMark = "\x00poll"

// TestTaskHTTPTranscripts replays testdata/tasks/http.txtar like
// TestHTTPTranscripts, with the task id and the times held.
func TestTaskHTTPTranscripts(t *testing.T) {
	f := transcript.Glob(t, "testdata/tasks/http.txtar")[0]
	srv := NewServer(tools.New(nil), &ServerOptions{Version: "test", Fixtures: true})
	defer srv.Close()
	h := srv.HTTPHandler(&HTTPOptions{Loopback: true})
	ts := httptest.NewServer(h)
	defer ts.Close()
	defer h.Close()

	id := ""
	send := func(wire []byte) []byte {
		if n := bytes.Count(wire, []byte(taskHolder)); n > 0 && id != "" {
			// The body may hold the id too: its length changes.
			body := wire[bytes.Index(wire, []byte("\r\n\r\n")):]
			grow := bytes.Count(body, []byte(taskHolder)) * (len(id) - len(taskHolder))
			wire = bytes.ReplaceAll(wire, []byte(taskHolder), []byte(id))
			wire = contentLength.ReplaceAllFunc(wire, func(h []byte) []byte {
				old, _ := strconv.Atoi(string(contentLength.FindSubmatch(h)[1]))
				return fmt.Appendf(nil, "Content-Length: %d\r\n", old+grow)
			})
		}
		return wire
	}
	got := func(answer string) string {
		answer, id = holdTask(answer, id)
		return taskTimes.ReplaceAllString(answer, `"$1":"`+timeHolder+`"`)
	}
	reqs, fixed := transcript.SplitHTTP(t, f.Section(t, "client"), *update)
	answers := transcript.ReplayHTTP(t, ts.Listener.Addr().String(), reqs, send, got)
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
}

// taskMeta is the _meta of a modern request from a client that can take
// tasks and answer elicitations.
const taskMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// taskCall sends one modern request straight to the server and returns its
// answer: the result decoded into a Task, or the error.
func taskCall(t *testing.T, srv *Server, method, params string) (*TaskResult, *jsonrpc.Error) {
	t.Helper()
	ss := &session{srv: srv, logLevel: -1}
	req := &jsonrpc.Request{ID: jsonrpc.IntID(1), Method: method, Params: json.RawMessage(`{` + params + `,` + taskMeta + `}`)}
	resp := ss.handleModern(context.Background(), req, func(any) error { return nil }, caller{})
	if resp.Error != nil {
		return nil, resp.Error
	}
	var r TaskResult
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		t.Fatal(err)
	}
	return &r, nil
}

// slowTask starts a task that would run for an hour.
func slowTask(t *testing.T, srv *Server) string {
	t.Helper()
	r, err := taskCall(t, srv, "tools/call", `"name":"slow_compute","arguments":{"seconds":3600}`)
	if err != nil || r.ResultType != ResultTask {
		t.Fatalf("slow_compute: got %+v, error %v; want a task", r, err)
	}
	return r.TaskID
}

// TestTaskForgottenAfterTTL: a task is kept TaskTTL from its creation,
// then its id is unknown; its work, still running, is stopped.
func TestTaskForgottenAfterTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := NewServer(tools.New(nil), &ServerOptions{Fixtures: true})
		defer srv.Close()
		id := slowTask(t, srv)
		time.Sleep(TaskTTL - time.Second)
		if r, err := taskCall(t, srv, "tasks/get", `"taskId":"`+id+`"`); err != nil || r.Status != TaskWorking {
			t.Fatalf("a second before its ttl: got %+v, error %v; want it working", r, err)
		}
		time.Sleep(time.Second)
		if _, err := taskCall(t, srv, "tasks/get", `"taskId":"`+id+`"`); err == nil || err.Code != jsonrpc.CodeInvalidParams {
			t.Fatalf("at its ttl: got error %v; want -32602, the task forgotten", err)
		}
		synctest.Wait()
		srv.tasks.running.Wait() // the work has stopped: this returns
	})
}

// TestTaskLimit: at MaxTasks running tasks a new one is refused; a task
// that has finished makes room.
func TestTaskLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := NewServer(tools.New(nil), &ServerOptions{Fixtures: true})
		defer srv.Close()
		var first string
		for i := range MaxTasks {
			id := slowTask(t, srv)
			if i == 0 {
				first = id
			}
		}
		_, err := taskCall(t, srv, "tools/call", `"name":"slow_compute","arguments":{"seconds":1}`)
		if err == nil || err.Code != jsonrpc.CodeInternalError {
			t.Fatalf("task %d: got error %v; want -32603, the limit", MaxTasks+1, err)
		}
		if _, err := taskCall(t, srv, "tasks/cancel", `"taskId":"`+first+`"`); err != nil {
			t.Fatal(err)
		}
		slowTask(t, srv) // room made by forgetting the cancelled task
		if _, err := taskCall(t, srv, "tasks/get", `"taskId":"`+first+`"`); err == nil {
			t.Error("the cancelled task is still known; it should have made room")
		}
	})
}

// TestCloseCancelsTasks: Close stops the work of every task and returns
// once it has stopped; the tasks say why; a second Close does nothing.
func TestCloseCancelsTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := NewServer(tools.New(nil), &ServerOptions{Fixtures: true})
		id := slowTask(t, srv)
		srv.Close()
		r, err := taskCall(t, srv, "tasks/get", `"taskId":"`+id+`"`)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{TaskCancelled, "cancelled: the server shut down"}, []string{r.Status, r.StatusMessage}); diff != "" {
			t.Errorf("after Close (-want +got):\n%s", diff)
		}
		if _, err := taskCall(t, srv, "tools/call", `"name":"slow_compute","arguments":{"seconds":1}`); err == nil || err.Code != jsonrpc.CodeInternalError {
			t.Errorf("a task after Close: got error %v; want -32603", err)
		}
		srv.Close()
	})
}

// TestTaskPartialAnswers: a task that asks two questions at once stays
// input_required until both are answered, and shows only the open one.
func TestTaskPartialAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := NewServer(tools.New(nil), &ServerOptions{Fixtures: true})
		defer srv.Close()
		r, _ := taskCall(t, srv, "tools/call", `"name":"multi_input","arguments":{}`)
		id := r.TaskID
		synctest.Wait()
		keys := func() []string {
			r, err := taskCall(t, srv, "tasks/get", `"taskId":"`+id+`"`)
			if err != nil {
				t.Fatal(err)
			}
			out := []string{r.Status}
			for _, k := range []string{"user_name", "confirm"} {
				if _, ok := r.InputRequests[k]; ok {
					out = append(out, k)
				}
			}
			return out
		}
		if diff := cmp.Diff([]string{TaskInputRequired, "user_name", "confirm"}, keys()); diff != "" {
			t.Fatalf("asked (-want +got):\n%s", diff)
		}
		taskCall(t, srv, "tasks/update", `"taskId":"`+id+`","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}}`)
		synctest.Wait()
		if diff := cmp.Diff([]string{TaskInputRequired, "confirm"}, keys()); diff != "" {
			t.Fatalf("after one answer (-want +got):\n%s", diff)
		}
		taskCall(t, srv, "tasks/update", `"taskId":"`+id+`","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}`)
		synctest.Wait()
		r, _ = taskCall(t, srv, "tasks/get", `"taskId":"`+id+`"`)
		if r.Status != TaskCompleted || !strings.Contains(string(r.Result), "name Ada") {
			t.Errorf("after both answers: got %s %s; want completed, with the name", r.Status, r.Result)
		}
	})
}

// TestDeployTaskSteps: a deploy that runs as a task shows each finished
// step in its statusMessage, then completes with the deploy's result.
func TestDeployTaskSteps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := NewServer(tools.New(&tools.Options{DeployStep: time.Second}), nil)
		defer srv.Close()
		r, err := taskCall(t, srv, "tools/call", `"name":"deploy_service","arguments":{"service":"api","env":"staging"}`)
		if err != nil || r.ResultType != ResultTask {
			t.Fatalf("got %+v, error %v; want a task", r, err)
		}
		var seen []string
		for range 5 {
			time.Sleep(time.Second)
			synctest.Wait()
			got, err := taskCall(t, srv, "tasks/get", `"taskId":"`+r.TaskID+`"`)
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, got.Status+": "+got.StatusMessage)
		}
		want := []string{
			"working: deploy_service: build image (1/4)",
			"working: deploy_service: push image (2/4)",
			"working: deploy_service: roll out (3/4)",
			"completed: done",
			"completed: done",
		}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("statuses, a second apart (-want +got):\n%s", diff)
		}
	})
}

// postModernAs sends one modern request with a bearer token, its headers
// in step with its body, and returns the recorded answer.
func postModernAs(h http.Handler, token, method, name, params string) *httptest.ResponseRecorder {
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params + `,` + taskMeta + `}}`
	r := httptest.NewRequest(http.MethodPost, Endpoint, strings.NewReader(body))
	r.Header.Set("Authorization", "Bearer "+token)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", ModernVersion)
	r.Header.Set("Mcp-Method", method)
	r.Header.Set("Mcp-Name", name)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestTaskBoundToCaller: a task answers only the caller whose tools/call
// created it. tasks/get, tasks/update and tasks/cancel from another
// caller get the -32602 of a task id never given out, word for word, and
// change nothing: the task still runs for its owner.
func TestTaskBoundToCaller(t *testing.T) {
	ts, err := tools.ParseTokens([]string{"alice", "bob"})
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(tools.New(nil), &ServerOptions{Version: "test", Fixtures: true})
	defer srv.Close()
	h := srv.HTTPHandler(&HTTPOptions{Tokens: ts})
	defer h.Close()

	state := func(w *httptest.ResponseRecorder) Task {
		t.Helper()
		var resp struct{ Result TaskResult }
		if err := json.Unmarshal(w.Body.Bytes(), &resp); w.Code != http.StatusOK || err != nil {
			t.Fatalf("got %d %s, want a task (%v)", w.Code, w.Body, err)
		}
		return resp.Result.Task
	}
	id := state(postModernAs(h, "alice", "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":3600}`)).TaskID

	const never = "NEVER7GIVEN7OUT7AS7A7TASK7"
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		unknown := postModernAs(h, "alice", method, never, `"taskId":"`+never+`"`)
		if !strings.Contains(unknown.Body.String(), `"code":-32602`) {
			t.Fatalf("%s of an unknown task: %d %s, want -32602", method, unknown.Code, unknown.Body)
		}
		want := strings.ReplaceAll(unknown.Body.String(), never, id)
		if w := postModernAs(h, "bob", method, id, `"taskId":"`+id+`"`); w.Code != unknown.Code || w.Body.String() != want {
			t.Errorf("%s by another caller: %d %s\nwant %d %s", method, w.Code, w.Body, unknown.Code, want)
		}
	}
	if task := state(postModernAs(h, "alice", "tasks/get", id, `"taskId":"`+id+`"`)); task.Status != TaskWorking {
		t.Errorf("the owner's tasks/get: status %q, want %q: the other caller's tasks/cancel reached it", task.Status, TaskWorking)
	}
}
