package tap

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// runStdio taps argv with stdin as the host's input and returns what
// the host got and the record.
func runStdio(t *testing.T, stdin string, argv ...string) (code int, stdout, stderr string, events []Event) {
	t.Helper()
	rec := NewRecorder(&RecorderOptions{MaxData: 1000})
	var out, errb bytes.Buffer
	s := &Stdio{Argv: argv, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Recorder: rec}
	code, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String(), rec.Events()
}

// lines returns the data of the line events in one direction, each with
// its newline back, so that they can be compared with the stream.
func lines(events []Event, dir string) string {
	var b strings.Builder
	for _, e := range events {
		if e.Kind == KindLine && e.Dir == dir {
			b.Write(e.Bytes())
			if !e.NoEOL {
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// TestStdioRelay: stdin reaches the server and stdout and stderr reach
// the host byte for byte, each line is recorded in its direction, a
// last line without a newline is marked, and the server's exit status
// is the tap's.
func TestStdioRelay(t *testing.T) {
	in := "{\"a\":1}\r\nsecond line\nno newline at the end"
	code, out, errOut, events := runStdio(t, in, "sh", "-c", "cat; echo to stderr >&2; printf 'partial'; exit 3")
	if code != 3 {
		t.Errorf("exit %d, want the server's 3", code)
	}
	if want := in + "partial"; out != want {
		t.Errorf("host got %q, want %q", out, want)
	}
	if errOut != "to stderr\n" {
		t.Errorf("host's stderr got %q", errOut)
	}
	if got := lines(events, Out); got != in {
		t.Errorf("recorded stdin %q, want %q", got, in)
	}
	if got := lines(events, In); got != in+"partial" {
		t.Errorf("recorded stdout %q", got)
	}
	if got := lines(events, Err); got != "to stderr\n" {
		t.Errorf("recorded stderr %q", got)
	}
	last := events[len(events)-1]
	if last.Kind != KindExit || last.ExitCode == nil || *last.ExitCode != 3 {
		t.Errorf("last event %+v, want an exit with code 3", last)
	}
	var noEOL int
	for _, e := range events {
		if e.NoEOL {
			noEOL++
		}
	}
	if noEOL != 2 { // the host's last line and the server's
		t.Errorf("%d lines marked without newline, want 2", noEOL)
	}
}

// TestStdioHugeAndGarbage: a line longer than the record's bound passes
// whole and is recorded cut, with its real size; bytes that are not
// UTF-8 pass unchanged and are recorded in base64.
func TestStdioHugeAndGarbage(t *testing.T) {
	code, out, _, events := runStdio(t, "", "sh", "-c", `head -c 5000 /dev/zero | tr '\0' a; echo; printf '\377\376garbage\n'`)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := strings.Repeat("a", 5000) + "\n\xff\xfegarbage\n"
	if out != want {
		t.Fatalf("host got %d bytes, want %d unchanged", len(out), len(want))
	}
	var got []Event
	for _, e := range events {
		if e.Kind == KindLine {
			got = append(got, Event{Dir: e.Dir, Size: e.Size, Truncated: e.Truncated, Base64: e.Base64, Data: e.Data[:min(len(e.Data), 3)]})
		}
	}
	wantEvents := []Event{
		{Dir: In, Size: 5000, Truncated: true, Data: "aaa"},
		{Dir: In, Size: 9, Base64: base64.StdEncoding.EncodeToString([]byte("\xff\xfegarbage"))},
	}
	if d := cmp.Diff(wantEvents, got); d != "" {
		t.Errorf("recorded lines (-want +got):\n%s", d)
	}
}

// TestStdioContextStops: when ctx ends, a server that would run forever
// is stopped, with what it started, and Run returns 128+SIGTERM.
func TestStdioContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	defer pw.Close()
	outR, outW := io.Pipe()
	rec := NewRecorder(nil)
	s := &Stdio{Argv: []string{"sh", "-c", "echo ready; sleep 600 & wait"}, Stdin: pr, Stdout: outW, Stderr: io.Discard, Recorder: rec, Grace: time.Second}
	codec := make(chan int)
	go func() { // ends when Run returns, which cancel causes
		code, _ := s.Run(ctx)
		outW.Close()
		codec <- code
	}()
	buf := make([]byte, 6)
	if _, err := io.ReadFull(outR, buf); err != nil || string(buf) != "ready\n" {
		t.Fatalf("read %q, %v", buf, err)
	}
	cancel()
	go io.Copy(io.Discard, outR) // ends when outW closes
	if code := <-codec; code != 128+15 {
		t.Errorf("exit %d, want 143 (SIGTERM)", code)
	}
}

// TestRecorderMasksAndBounds: secrets are masked in the record (not in
// what passes), the in-memory log keeps the newest events, and a slow
// subscriber is dropped rather than waited for.
func TestRecorderMasksAndBounds(t *testing.T) {
	var file bytes.Buffer
	rec := NewRecorder(&RecorderOptions{File: &file, MaxEvents: 3})
	h := http.Header{"Authorization": {"Bearer s3cret"}, "Cookie": {"a=b"}, "Mcp-Session-Id": {"abc"}}
	sub := rec.Subscribe()
	rec.Add(Event{Kind: KindHTTPRequest, Header: h})
	if h.Get("Authorization") != "Bearer s3cret" {
		t.Error("the header passed in was changed")
	}
	if strings.Contains(file.String(), "s3cret") || strings.Contains(file.String(), "a=b") {
		t.Errorf("secret in the file: %s", file.String())
	}
	if !strings.Contains(file.String(), `"Bearer ***"`) || !strings.Contains(file.String(), `"abc"`) {
		t.Errorf("file: %s", file.String())
	}
	for range subscriberBuffer + 10 {
		rec.Add(Event{Kind: KindNote})
	}
	if ev := rec.Events(); len(ev) != 3 || ev[2].Seq != subscriberBuffer+11 {
		t.Errorf("kept %d events, the last #%d", len(ev), ev[len(ev)-1].Seq)
	}
	n := 0
	for range sub.C() {
		n++
	}
	if !sub.Dropped() || n != subscriberBuffer {
		t.Errorf("subscriber got %d events, dropped %v; want %d and dropped", n, sub.Dropped(), subscriberBuffer)
	}
	sub.Close() // a second close is harmless
	events, err := Read(&file)
	if err == nil || len(events) != 0 {
		t.Errorf("a file without a start event read as %d events, %v", len(events), err)
	}
}

// TestProxy: a request and its answer pass unchanged but for hop-by-hop
// headers; an event stream passes and is recorded event by event; an
// upstream that is down gets 502 with the reason, recorded; a request
// for another host is refused.
func TestProxy(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Accept-Encoding") != "" {
			http.Error(w, "the proxy added headers", 500)
			return
		}
		if r.URL.Path == "/sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range []string{"id: 1\ndata: one\n\n", "data: two\ndata: lines\n\n"} {
				io.WriteString(w, ev)
				w.(http.Flusher).Flush()
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Mcp-Session-Id", "xyz")
		w.Write(body)
	}))
	defer upstream.Close()
	rec := NewRecorder(nil)
	p, err := NewProxy(upstream.URL, rec, &ProxyOptions{Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer client.CloseIdleConnections()

	resp, err := client.Post(front.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != `{"jsonrpc":"2.0","id":1,"method":"ping"}` || resp.Header.Get("Mcp-Session-Id") != "xyz" {
		t.Errorf("got %d %q %v", resp.StatusCode, body, resp.Header)
	}
	resp, err = client.Get(front.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "id: 1\ndata: one\n\ndata: two\ndata: lines\n\n" {
		t.Errorf("stream got %q", body)
	}
	req, _ := http.NewRequest("GET", front.URL+"/mcp", nil)
	req.Host = "attacker.example"
	if resp, err := client.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("other host: %v %v, want 421", resp.StatusCode, err)
	}

	var got []string
	for _, e := range rec.Events() {
		got = append(got, e.Kind+" "+e.Dir+" "+e.Data)
	}
	want := []string{
		"http-request out " + `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		"http-response in ",
		"http-body in " + `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		"http-end in ",
		"http-request out ",
		"http-response in ",
		"sse-event in id: 1\ndata: one",
		"sse-event in data: two\ndata: lines",
		"http-end in ",
		"http-request out ",
		"note in refused by the tap: this server listens on a loopback address and answers only requests for localhost, 127.0.0.1 or [::1]; Host was \"attacker.example\"",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("record (-want +got):\n%s", d)
	}

	// The upstream goes away.
	upstream.Close()
	resp, err = client.Post(front.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "did not answer") {
		t.Errorf("upstream down: %d %q, want 502 saying so", resp.StatusCode, body)
	}
	// The tap's 502 is recorded once, as the host got it, and ends.
	ev := rec.Events()
	if n := len(ev); n < 3 || ev[n-3].Kind != KindHTTPRequest || ev[n-2].Status != http.StatusBadGateway || ev[n-1].Kind != KindHTTPEnd {
		t.Errorf("last events %+v, want the request, the 502 and its end", ev[max(0, n-3):])
	}
}

// TestProxyStopped: an exchange cut short because the tap stops is
// recorded as the tap's doing, not as a host that went away.
func TestProxyStopped(t *testing.T) {
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // a long call, still running when the tap stops
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer upstream.Close()
	defer close(release)
	for _, tt := range []struct {
		stop bool
		want string
	}{
		{false, "the host went away before the answer"},
		{true, "the tap was stopped before the answer came"},
	} {
		rec := NewRecorder(nil)
		p, err := NewProxy(upstream.URL, rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tt.stop {
			p.Stop()
		}
		ctx, cancel := context.WithCancel(context.Background())
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(`{}`)).WithContext(ctx)
		go func() { time.Sleep(50 * time.Millisecond); cancel() }() // the exchange is cut while the upstream works
		p.ServeHTTP(httptest.NewRecorder(), req)
		ev := rec.Events()
		if last := ev[len(ev)-1]; last.Kind != KindNote || !strings.Contains(last.Data, tt.want) {
			t.Errorf("stopping %v: last event %+v, want a note saying %q", tt.stop, last, tt.want)
		}
	}
}

// TestHAR: an HTTP recording exports as HAR with each exchange's
// request, response and body.
func TestHAR(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	events := []Event{
		{Seq: 1, T: t0, Kind: KindStart, Format: Format},
		{Seq: 2, T: t0, Dir: Out, Kind: KindHTTPRequest, Exchange: 1, Method: "POST", URL: "http://127.0.0.1:1/mcp", Header: http.Header{"Content-Type": {"application/json"}}, Data: "{}", Size: 2},
		{Seq: 3, T: t0.Add(time.Millisecond), Dir: In, Kind: KindHTTPResponse, Exchange: 1, Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}},
		{Seq: 4, T: t0.Add(2 * time.Millisecond), Dir: In, Kind: KindSSEEvent, Exchange: 1, Data: "data: {}"},
		{Seq: 5, T: t0.Add(3 * time.Millisecond), Dir: In, Kind: KindHTTPEnd, Exchange: 1},
	}
	var b bytes.Buffer
	if err := WriteHAR(&b, events, "test"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"method": "POST"`, `"text": "data: {}\n\n"`, `"time": 3`, `"startedDateTime": "2026-11-25T12:00:00Z"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %s in:\n%s", want, b.String())
		}
	}
}

// TestDiffLines names the changed lines and nothing else far away.
func TestDiffLines(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8"
	b := "1\n2\n3\n4\nfive\n6\n7\n8"
	want := "  ...\n  3\n  4\n- 5\n+ five\n  6\n  7\n  ...\n"
	if got := DiffLines(a, b); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if DiffLines(a, a) != "" {
		t.Error("equal texts differ")
	}
}

// answeringWriter is a peer that answers the moment a line reaches it,
// as a host that reads the server's request and replies at once: its
// answer goes into the record from inside the write.
type answeringWriter struct{ rec *Recorder }

func (w answeringWriter) Write(p []byte) (int, error) {
	w.rec.Add(Event{Kind: KindLine, Dir: Out, Data: "the answer"})
	return len(p), nil
}

// TestRelayRecordsBeforePassingOn: each way, a line is recorded before
// the peer can have it, so that an answer is never recorded before what
// it answers.
func TestRelayRecordsBeforePassingOn(t *testing.T) {
	rec := NewRecorder(nil)
	lines := newLineSplitter(rec, In)
	if err := relay(answeringWriter{rec}, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"roots/list"}`+"\n"), lines); err != nil {
		t.Fatal(err)
	}
	lines.End()
	var order []string
	for _, e := range rec.Events() {
		order = append(order, e.Dir+" "+e.Data)
	}
	if len(order) != 2 || !strings.Contains(order[0], "roots/list") || order[1] != "out the answer" {
		t.Errorf("recorded %q; want the request, then the answer", order)
	}
}

// TestStdioCannotStart: a server command that cannot be started leaves a
// recording that says why, not an empty one.
func TestStdioCannotStart(t *testing.T) {
	rec := NewRecorder(nil)
	s := &Stdio{Argv: []string{filepath.Join(t.TempDir(), "no-such-server")}, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Recorder: rec}
	if _, err := s.Run(context.Background()); err == nil {
		t.Fatal("a missing server command started")
	}
	events := rec.Events()
	if len(events) != 2 || events[0].Kind != KindStart || events[1].Kind != KindNote ||
		!strings.Contains(events[1].Data, "could not be started") || !strings.Contains(events[1].Data, "no such file") {
		t.Errorf("recorded %+v; want the start and a note saying why the server did not start", events)
	}
}
