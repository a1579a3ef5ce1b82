package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
)

// tapWait bounds each wait for something that should happen at once.
const tapWait = 20 * time.Second

// tapHandshake is a host's session typed by hand: initialize, the
// notification, a list and a call.
var tapHandshake = strings.Join([]string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"by-hand","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`,
}, "\n") + "\n"

var (
	defectOnce sync.Once
	defectBin  string
	defectErr  error
)

// tapDefect builds testdata/tapdefect once.
func tapDefect(t *testing.T) string {
	t.Helper()
	defectOnce.Do(func() {
		defectBin = filepath.Join(filepath.Dir(wirelabBin), "tapdefect")
		out, err := exec.Command("go", "build", "-o", defectBin, "./testdata/tapdefect").CombinedOutput()
		if err != nil {
			defectErr = err
			t.Logf("%s", out)
		}
	})
	if defectErr != nil {
		t.Fatalf("building tapdefect: %v", defectErr)
	}
	return defectBin
}

func readEvents(t *testing.T, path string) []tap.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := tap.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// recordedLines is every line recorded in one direction, newline and all.
func recordedLines(events []tap.Event, dir string) string {
	var b strings.Builder
	for _, e := range events {
		if e.Kind == tap.KindLine && e.Dir == dir {
			b.Write(e.Bytes())
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// teeCloser passes writes on to w and keeps a copy.
type teeCloser struct {
	w    io.WriteCloser
	mu   sync.Mutex // guards copy
	copy bytes.Buffer
}

func (c *teeCloser) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.copy.Write(p)
	c.mu.Unlock()
	return c.w.Write(p)
}
func (c *teeCloser) Close() error { return c.w.Close() }

type readTee struct {
	io.Reader
	io.Closer
}

// TestTapSDKStdio: the official SDK's client drives wirelab server mcp
// through wirelab tap, in both revisions. What the client sent is what
// the server read and what the record holds, byte for byte; what the
// server wrote is what the client read and the record holds; the tap
// exits with the server's status; the checker finds nothing.
func TestTapSDKStdio(t *testing.T) {
	for _, v := range []struct {
		name string
		opts *sdk.ClientSessionOptions
	}{{"2025-11-25", &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"}}, {"2026-07-28", nil}} {
		t.Run(v.name, func(t *testing.T) {
			dir := t.TempDir()
			record := filepath.Join(dir, "rec.jsonl")
			// tee on both sides of the server shows what it really read and wrote.
			server := "tee " + dir + "/server-in | " + wirelabBin + " server mcp | tee " + dir + "/server-out"
			cmd := exec.Command(wirelabBin, "tap", "--record", record, "--", "sh", "-c", server)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			sent := &teeCloser{w: stdin}
			ctx, cancel := context.WithTimeout(context.Background(), tapWait)
			defer cancel()
			client := sdk.NewClient(&sdk.Implementation{Name: "tap-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: readTee{io.TeeReader(stdout, &got), stdout}, Writer: sent}, v.opts)
			if err != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("connecting through the tap: %v\n%s", err, stderr.String())
			}
			if _, err := cs.ListTools(ctx, nil); err != nil {
				t.Errorf("tools/list: %v", err)
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "word_count", Arguments: map[string]any{"text": "read the wire"}})
			if err != nil || res.IsError {
				t.Errorf("tools/call: %v %+v", err, res)
			}
			cs.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("tap: %v\n%s", err, stderr.String())
			}
			events := readEvents(t, record)
			serverIn, _ := os.ReadFile(dir + "/server-in")
			serverOut, _ := os.ReadFile(dir + "/server-out")
			sent.mu.Lock()
			hostOut := sent.copy.String()
			sent.mu.Unlock()
			for _, c := range []struct{ what, a, b string }{
				{"client sent / server read", hostOut, string(serverIn)},
				{"client sent / recorded", hostOut, recordedLines(events, tap.Out)},
				{"server wrote / client read", string(serverOut), got.String()},
				{"server wrote / recorded", string(serverOut), recordedLines(events, tap.In)},
			} {
				if c.a != c.b || c.a == "" {
					t.Errorf("%s differ:\n%s", c.what, tap.DiffLines(c.a, c.b))
				}
			}
			r := tapcheck.Check(events)
			if len(r.Findings) != 0 || len(r.Messages) < 4 {
				t.Errorf("%d messages, findings %+v; want none", len(r.Messages), r.Findings)
			}
			if !strings.Contains(stderr.String(), "0 errors, 0 warnings, 0 notes") {
				t.Errorf("no clean summary on stderr:\n%s", stderr.String())
			}
		})
	}
}

// TestTapDefects: each planted defect is found by tap check and breaks
// the replay of a clean recording, which names the message; the clean
// recording replays clean against the reference server.
func TestTapDefects(t *testing.T) {
	defect := tapDefect(t)
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.jsonl")
	if code, _, stderr := exe(t, tapHandshake, "tap", "--record", clean, "--", wirelabBin, "server", "mcp"); code != 0 {
		t.Fatalf("tap exit %d\n%s", code, stderr)
	}
	if code, out, _ := exe(t, "", "tap", "check", clean); code != 0 {
		t.Errorf("check of the clean recording: exit %d\n%s", code, out)
	}
	// A stdio recording has no HTTP exchanges: export refuses it in one
	// sentence, rather than print an empty HAR.
	code, out, stderr := exe(t, "", "tap", "export", "--har", clean)
	if want := "is a recording of a stdio server: its messages are lines on a pipe, not HTTP exchanges"; code != exitToolError || out != "" || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("export --har of a stdio recording: exit %d, stdout %q, stderr %q; want exit 1, nothing on stdout and one line saying %q", code, out, stderr, want)
	}
	if code, out, stderr := exe(t, "", "replay", clean, "--against", wirelabBin+" server mcp"); code != 0 {
		t.Errorf("replay against the reference server: exit %d\n%s\n%s", code, out, stderr)
	}
	for _, c := range []struct{ defect, code, replay string }{
		{"stdout-log", "stdout-noise", "a line that is not JSON"},
		{"no-structured", "structured-content-missing", "response id 3 (tools/call): differs"},
		{"answer-notification", "notification-answered", "response id null"},
		{"reuse-ids", "id-reused", "request ping"},
		{"no-input-schema", "schema", "response id 2 (tools/list): differs"},
		{"untyped-content", "schema", "response id 3 (tools/call): differs"},
	} {
		t.Run(c.defect, func(t *testing.T) {
			rec := filepath.Join(dir, c.defect+".jsonl")
			exe(t, tapHandshake, "tap", "--record", rec, "--", defect, "-defect", c.defect, wirelabBin, "server", "mcp")
			code, out, _ := exe(t, "", "tap", "check", rec)
			if code != 1 || !strings.Contains(out, " "+c.code+": ") {
				t.Errorf("tap check: exit %d, want 1 and %s:\n%s", code, c.code, out)
			}
			code, out, _ = exe(t, "", "replay", clean, "--against", defect+" -defect "+c.defect+" "+wirelabBin+" server mcp", "--wait", "2s")
			if code != 1 || !strings.Contains(out, c.replay) || !strings.Contains(out, " from "+clean+"\n") {
				t.Errorf("replay: exit %d, want 1 and a diff naming %q:\n%s", code, c.replay, out)
			}
		})
	}
}

// TestTapSignals: SIGTERM to the tap reaches the server, which exits by
// its own trap; the tap exits with its status and leaves no process of
// the server's group behind.
func TestTapSignals(t *testing.T) {
	cmd := exec.Command(wirelabBin, "tap", "--quiet", "--", "sh", "-c", `trap 'exit 7' TERM; echo $$; while :; do sleep 0.1; done`)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stdin = strings.NewReader("") // the host closes stdin at once; the server does not care
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 0, 16)
	buf := make([]byte, 1)
	for {
		if _, err := stdout.Read(buf); err != nil || buf[0] == '\n' {
			break
		}
		line = append(line, buf[0])
	}
	pgid, err := strconv.Atoi(string(line))
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("server's pid: %q", line)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	go io.Copy(io.Discard, stdout) // ends when the tap exits
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 7 {
		t.Errorf("tap exit %d (%v), want the server's 7", code, err)
	}
	if err := syscall.Kill(-pgid, 0); err != syscall.ESRCH {
		syscall.Kill(-pgid, syscall.SIGKILL)
		t.Errorf("the server's process group %d is still there (%v)", pgid, err)
	}
}

// TestTapSDKHTTP: the SDK's client through the HTTP tap to wirelab
// server mcp --http, in both revisions: every request body arrives as
// sent and is recorded as sent, the checker (the official schemas
// included) finds nothing, HAR export works, and the recording replays
// clean against the server.
func TestTapSDKHTTP(t *testing.T) {
	upstream := startServer(t, "mcp", "server", "mcp", "--http", "127.0.0.1:0")
	for _, v := range []struct {
		name string
		opts *sdk.ClientSessionOptions
	}{{"2025-11-25", &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"}}, {"2026-07-28", nil}} {
		t.Run(v.name, func(t *testing.T) { tapSDKHTTP(t, upstream, v.opts) })
	}
}

func tapSDKHTTP(t *testing.T, upstream string, opts *sdk.ClientSessionOptions) {
	dir := t.TempDir()
	record := filepath.Join(dir, "http.jsonl")
	front := startServer(t, "tap", "tap", "--listen", "127.0.0.1:0", "--upstream", upstream+"/mcp", "--record", record)
	ctx, cancel := context.WithTimeout(context.Background(), tapWait)
	defer cancel()
	rt := &bodyRecorder{base: &http.Transport{}}
	defer rt.base.CloseIdleConnections()
	client := sdk.NewClient(&sdk.Implementation{Name: "tap-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: front + "/mcp", HTTPClient: &http.Client{Transport: rt}, MaxRetries: -1}, opts)
	if err != nil {
		t.Fatalf("connecting through the tap: %v", err)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("tools/list: %v", err)
	}
	if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "word_count", Arguments: map[string]any{"text": "read the wire"}}); err != nil || res.IsError {
		t.Errorf("tools/call: %v", err)
	}
	cs.Close()

	events := readEvents(t, record)
	var recorded []string
	for _, e := range events {
		if e.Kind == tap.KindHTTPRequest && e.Size > 0 {
			recorded = append(recorded, string(e.Bytes()))
		}
	}
	rt.mu.Lock()
	sent := strings.Join(rt.bodies, "\n")
	rt.mu.Unlock()
	if got := strings.Join(recorded, "\n"); got != sent || sent == "" {
		t.Errorf("request bodies sent and recorded differ:\n%s", tap.DiffLines(sent, got))
	}
	if r := tapcheck.Check(events); len(r.Findings) != 0 || len(r.Messages) < 5 {
		t.Errorf("%d messages, findings %+v; want none", len(r.Messages), r.Findings)
	}
	code, har, _ := exe(t, "", "tap", "export", "--har", record)
	var doc struct {
		Log struct{ Entries []json.RawMessage }
	}
	if code != 0 || json.Unmarshal([]byte(har), &doc) != nil || len(doc.Log.Entries) < 3 {
		t.Errorf("export: exit %d, %d entries:\n%.500s", code, len(doc.Log.Entries), har)
	}
	if code, out, stderr := exe(t, "", "replay", record, "--against", upstream); code != 0 {
		t.Errorf("replay against the server: exit %d\n%s\n%s", code, out, stderr)
	}
}

// bodyRecorder keeps every request body a client sends.
type bodyRecorder struct {
	base   *http.Transport
	mu     sync.Mutex // guards bodies
	bodies []string
}

func (b *bodyRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if len(body) > 0 {
			b.mu.Lock()
			b.bodies = append(b.bodies, string(body))
			b.mu.Unlock()
		}
	}
	return b.base.RoundTrip(r)
}

// TestTapCheckRussian: with --lang ru, tap check says everything in
// Russian: each finding's severity and detail, its explanation, and the
// count, with the noun's form agreeing with the number. Without it, the
// output is the English it always was.
func TestTapCheckRussian(t *testing.T) {
	lines := []struct{ dir, data string }{
		{"out", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`}, // before initialize
		{"out", `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`},
		{"in", `starting up`},
		{"in", `{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"in", `{"jsonrpc":"2.0","id":null,"result":{}}`},
		{"out", `{"jsonrpc":"2.0","id":4,"method":"ping"}`},
		{"in", `{"jsonrpc":"2.0","id":99,"result":{}}`},
		{"out", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wc"}}`},
		{"in", `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"no"}],"isError":true}}`},
	}
	var rec strings.Builder
	rec.WriteString(`{"seq":1,"t":"2026-01-01T00:00:00Z","kind":"start","command":["server"],"format":"wirelab-tap/1"}` + "\n")
	for i, l := range lines {
		data, _ := json.Marshal(l.data)
		rec.WriteString(`{"seq":` + strconv.Itoa(i+2) + `,"t":"2026-01-01T00:00:00Z","dir":"` + l.dir + `","kind":"line","data":` + string(data) + "}\n")
	}
	file := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := os.WriteFile(file, []byte(rec.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	code, en, _ := run(t, "", "tap", "check", file)
	wantEN := []string{
		"event 2: error before-initialize: tools/list before initialize\n",
		"event 4: error stdout-noise: parse error: not valid JSON: \"starting up\"\n",
		"event 7: error notification-answered: answers the notification in event 6\n",
		"event 9: error unknown-id: server answers id 99, which no host request waits for\n",
		"event 11: note tool-error: tool \"wc\"\n",
		"event 2: note pending-at-end: host request tools/list id 1: no answer by the end of the recording\n",
		"\n9 messages; 4 errors, 0 warnings, 3 notes\n",
	}
	for _, w := range wantEN {
		if code != exitToolError || !strings.Contains(en, w) {
			t.Errorf("tap check: exit %d, want 1 and %q in:\n%s", code, w, en)
		}
	}

	code, ru, _ := run(t, "", "tap", "check", "--lang", "ru", file)
	if code != exitToolError {
		t.Errorf("tap check --lang ru: exit %d, want 1", code)
	}
	r := tapcheck.Check(mustRead(t, file))
	var heads []string
	for _, l := range strings.Split(ru, "\n") {
		if strings.HasPrefix(l, "событие ") {
			heads = append(heads, l)
		}
		if strings.HasPrefix(l, "event ") || strings.Contains(l, "messages;") {
			t.Errorf("an English line in Russian output: %q", l)
		}
	}
	if len(heads) != len(r.Findings) || len(heads) == 0 {
		t.Fatalf("%d finding lines for %d findings:\n%s", len(heads), len(r.Findings), ru)
	}
	last := 0
	for _, h := range heads {
		var n int
		fmt.Sscanf(h, "событие %d:", &n)
		if n < last {
			t.Errorf("finding lines out of the order of their events: %q after event %d", h, last)
		}
		last = n
	}
	for i, f := range inEventOrder(r.Findings) { // printed in the order of their events
		_, detail, _ := strings.Cut(heads[i], " "+f.Code+": ")
		if detail == "" || detail == f.Detail || !strings.ContainsFunc(detail, func(r rune) bool { return r >= 'а' && r <= 'я' }) {
			t.Errorf("finding %s: Russian line %q, English detail %q", f.Code, heads[i], f.Detail)
		}
		if !strings.Contains(ru, "\n    "+f.RU+"\n") {
			t.Errorf("finding %s: no explanation in Russian", f.Code)
		}
	}
	for _, w := range []string{
		"событие 2: ошибка before-initialize: tools/list до initialize\n",
		"событие 9: ошибка unknown-id: сервер отвечает на id 99, но ни один запрос хоста с таким id ответа не ждёт\n",
		"событие 11: заметка tool-error: инструмент \"wc\"\n",
		"\n9 сообщений; 4 ошибки, 0 предупреждений, 3 заметки\n",
	} {
		if !strings.Contains(ru, w) {
			t.Errorf("tap check --lang ru: want %q in:\n%s", w, ru)
		}
	}

	if code, _, stderr := run(t, "", "tap", "check", "--lang", "de", file); code != exitUsage || !strings.Contains(stderr, `--lang "de"`) {
		t.Errorf("--lang de: exit %d, stderr %q; want a usage error", code, stderr)
	}
}

func mustRead(t *testing.T, file string) []tap.Event {
	t.Helper()
	events, err := tap.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// TestSummaryLineRU: the nouns of the summary agree with their numbers
// as Russian wants: one form for 1 and 21, another for 2 and 22, a third
// for 5 and for 11.
func TestSummaryLineRU(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{
		{0, "0 сообщений; 0 ошибок, 0 предупреждений, 0 заметок"},
		{1, "1 сообщение; 1 ошибка, 1 предупреждение, 1 заметка"},
		{2, "2 сообщения; 2 ошибки, 2 предупреждения, 2 заметки"},
		{5, "5 сообщений; 5 ошибок, 5 предупреждений, 5 заметок"},
		{11, "11 сообщений; 11 ошибок, 11 предупреждений, 11 заметок"},
		{12, "12 сообщений; 12 ошибок, 12 предупреждений, 12 заметок"},
		{21, "21 сообщение; 21 ошибка, 21 предупреждение, 21 заметка"},
		{22, "22 сообщения; 22 ошибки, 22 предупреждения, 22 заметки"},
		{111, "111 сообщений; 111 ошибок, 111 предупреждений, 111 заметок"},
	} {
		r := &tapcheck.Report{Messages: make([]tapcheck.Message, tt.n)}
		for _, s := range []string{tapcheck.SeverityError, tapcheck.SeverityWarning, tapcheck.SeverityNote} {
			for range tt.n {
				r.Findings = append(r.Findings, tapcheck.Finding{Severity: s})
			}
		}
		if got := summaryLineRU(r); got != tt.want {
			t.Errorf("%d of each: %q, want %q", tt.n, got, tt.want)
		}
	}
	r := &tapcheck.Report{Calls: make([]tapcheck.Call, 21)}
	if got, want := summaryLineRU(r), "21 вызов gRPC; 0 ошибок, 0 предупреждений, 0 заметок"; got != want {
		t.Errorf("calls: %q, want %q", got, want)
	}
}

// TestTapSummaryRussian: with --lang ru (or $WIRELAB_LANG), the summary
// the tap prints at exit is in Russian; a tap whose server never
// started prints none, the error saying it all.
func TestTapSummaryRussian(t *testing.T) {
	server := []string{"--", "sh", "-c", `read line; echo '{"jsonrpc":"2.0","id":1,"result":{}}'`}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	_, _, stderr := run(t, ping, append([]string{"tap", "--lang", "ru"}, server...)...)
	if !strings.Contains(stderr, "wirelab tap: 2 сообщения; 0 ошибок, 0 предупреждений, 0 заметок") {
		t.Errorf("tap --lang ru: stderr\n%s", stderr)
	}
	_, _, stderr = run(t, ping, append([]string{"tap"}, server...)...)
	if !strings.Contains(stderr, "wirelab tap: 2 messages; 0 errors, 0 warnings, 0 notes") {
		t.Errorf("tap: stderr\n%s", stderr)
	}
	code, _, stderr := run(t, "", "tap", "--", filepath.Join(t.TempDir(), "no-such-server"))
	if code == 0 || strings.Contains(stderr, "0 messages") || !strings.Contains(stderr, "no such file") {
		t.Errorf("a server that never started: exit %d, stderr\n%s", code, stderr)
	}
}
