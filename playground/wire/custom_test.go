package wire

import (
	"encoding/json"
	"net"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/tools"
)

func TestSplitCommandLine(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
		err  string
	}{
		{line: "python3 my_server.py --flag 'a b'", want: []string{"python3", "my_server.py", "--flag", "a b"}},
		{line: "  a\t b\n c  ", want: []string{"a", "b", "c"}},
		{line: `a "b c" 'd "e"' "f 'g'"`, want: []string{"a", "b c", `d "e"`, "f 'g'"}},
		{line: `a\ b c\'d \"e\"`, want: []string{"a b", "c'd", `"e"`}},
		// In double quotes, a backslash escapes only " \ $ and `.
		{line: `"x \" \\ \$ \a"`, want: []string{`x " \ $ \a`}},
		// In single quotes, nothing is special.
		{line: `'no \escape'`, want: []string{`no \escape`}},
		// Quoted and bare pieces join into one word.
		{line: `a'b'"c"d`, want: []string{"abcd"}},
		// Empty quotes are an empty word.
		{line: `'' ""`, want: []string{"", ""}},
		// No shell runs: these are words like any other.
		{line: `$HOME ~ *.py | wc > out`, want: []string{"$HOME", "~", "*.py", "|", "wc", ">", "out"}},
		// A backslash-newline joins lines.
		{line: "a \\\nb", want: []string{"a", "b"}},
		// A command pasted over several lines: no empty word between.
		{line: "python3 server.py \\\n  --flag x", want: []string{"python3", "server.py", "--flag", "x"}},
		{line: "0 \\\n", want: []string{"0"}},
		{line: "a\\\nb", want: []string{"ab"}},
		{line: "python3 'my server.py", err: "unbalanced single quote at byte 8"},
		{line: `say "hi`, err: "unbalanced double quote at byte 4"},
		{line: `say "hi\"`, err: "unbalanced double quote"},
		{line: `trailing\`, err: "ends with a backslash"},
		{line: "   ", err: "the command line is empty"},
	} {
		got, err := splitCommandLine(tt.line)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("split(%q) = %q, %v; want an error containing %q", tt.line, got, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("split(%q): %v", tt.line, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("split(%q) (-want +got):\n%s", tt.line, diff)
		}
	}
}

// shellQuote quotes a word for a command line: the test binary's path
// may hold blanks or quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// childStart is what the custom test child says on stderr first.
type childStart struct {
	pid  int
	args []string
}

func parseChildStart(t *testing.T, line string) childStart {
	t.Helper()
	var cs childStart
	pid, args, ok := strings.Cut(strings.TrimSpace(line), " args=")
	if !ok || !strings.HasPrefix(pid, "pid=") {
		t.Fatalf("stderr of the child: %q", line)
	}
	if err := json.Unmarshal([]byte(args), &cs.args); err != nil {
		t.Fatalf("stderr of the child: %q: %v", line, err)
	}
	var err error
	if cs.pid, err = strconv.Atoi(strings.TrimPrefix(pid, "pid=")); err != nil {
		t.Fatalf("stderr of the child: %q: %v", line, err)
	}
	return cs
}

// processGone reports whether no process has the pid any more.
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return p.Signal(syscall.Signal(0)) != nil
}

// TestCustomStdio: a command line the learner typed starts their server
// (here the test binary), split as a shell would split it; frames go to
// its stdin, its stdout and stderr come back, every event names the
// command line in "to"; a restart starts a fresh process; a second
// command line is a second child; bad command lines are refused, each
// said plainly; closing the tab stops the children.
func TestCustomStdio(t *testing.T) {
	h, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	if hl := readHello(t, conn); !hl.Local {
		t.Fatalf("hello %+v: a loopback tab must be local", hl)
	}
	cmdline := shellQuote(os.Args[0]) + ` ` + customChild + ` --flag 'a b' "c \"d\"" e\ f`
	frame := `{"name":"word_count","args":{"text":"read the wire"}}`
	send(t, conn, Command{Op: "send", ID: 1, Target: "custom-stdio", To: cmdline, Frame: frame})

	out := next(t, conn, func(ev Event) bool { return ev.Dir == "out" })
	if out.ID != 1 || out.Target != "custom-stdio" || out.To != cmdline || out.Text != frame+"\n" {
		t.Errorf("the frame came back as %+v", out)
	}
	var first childStart
	var answer Event
	for first.pid == 0 || answer.Kind == "" {
		ev := next(t, conn, func(ev Event) bool { return ev.Dir == "err" || ev.Dir == "in" })
		if ev.To != cmdline || ev.Target != "custom-stdio" {
			t.Errorf("event %+v: want target custom-stdio and to %q", ev, cmdline)
		}
		if ev.Dir == "err" {
			first = parseChildStart(t, ev.Text)
		} else {
			answer = ev
		}
	}
	if diff := cmp.Diff([]string{"--flag", "a b", `c "d"`, "e f"}, first.args); diff != "" {
		t.Errorf("the child's argv (-want +got):\n%s", diff)
	}
	if !strings.Contains(answer.Text, `"words":3`) {
		t.Errorf("the child's answer: %q", answer.Text)
	}

	// A second command line is a second child, told apart by "to".
	other := shellQuote(os.Args[0]) + " " + customChild + " other"
	send(t, conn, Command{Op: "send", ID: 2, Target: "custom-stdio", To: other, Frame: frame})
	if ev := next(t, conn, func(ev Event) bool { return ev.Dir == "in" }); ev.To != other {
		t.Errorf("the second child's answer came as %+v", ev)
	}
	if got := h.childCount(); got != 2 {
		t.Errorf("%d children, want 2", got)
	}

	// A restart ends the first child; the next frame starts another.
	send(t, conn, Command{Op: "restart", Target: "custom-stdio", To: cmdline})
	if ev := next(t, conn, func(ev Event) bool { return ev.Kind == "exit" }); ev.To != cmdline {
		t.Errorf("exit note %+v, want it for %q", ev, cmdline)
	}
	// The tab's commands are served in order: once a later one is
	// answered, the restart has seen the process out.
	send(t, conn, Command{Op: "send", ID: 4, Target: "nowhere"})
	next(t, conn, func(ev Event) bool { return ev.Op == "error" && ev.ID == 4 })
	if !processGone(first.pid) {
		t.Errorf("process %d still runs after the restart", first.pid)
	}
	send(t, conn, Command{Op: "send", ID: 3, Target: "custom-stdio", To: cmdline, Frame: frame})
	// The child's stderr and stdout are two pipes: its start line and its
	// answer may come in either order.
	var second childStart
	answered := false
	for second.pid == 0 || !answered {
		ev := next(t, conn, func(ev Event) bool { return ev.To == cmdline && (ev.Dir == "err" || ev.Dir == "in") })
		if ev.Dir == "err" {
			second = parseChildStart(t, ev.Text)
		} else {
			answered = true
		}
	}
	if second.pid == first.pid {
		t.Errorf("after the restart the same process %d answers", first.pid)
	}

	for _, tt := range []struct {
		c    Command
		want string
	}{
		{Command{Op: "send", ID: 10, Target: "custom-stdio", To: "python3 'my server.py", Frame: frame}, "unbalanced single quote"},
		{Command{Op: "send", ID: 11, Target: "custom-stdio", To: "wirelab-no-such-program --x", Frame: frame}, `could not start "wirelab-no-such-program --x": exec: "wirelab-no-such-program": executable file not found`},
		{Command{Op: "send", ID: 12, Target: "custom-stdio", Frame: frame}, `custom-stdio needs "to"`},
		{Command{Op: "send", ID: 13, Target: "custom-stdio", To: "  ", Frame: frame}, `custom-stdio needs "to"`},
		{Command{Op: "restart", ID: 14, Target: "custom-stdio"}, `custom-stdio needs "to"`},
		{Command{Op: "send", ID: 15, Target: "custom-smtp", To: "x", Frame: frame}, `unknown target "custom-smtp"`},
		{Command{Op: "send", ID: 16, Target: "custom-stdio", To: strings.Repeat("x", maxTo+1), Frame: frame}, `at most 4096 are taken`},
	} {
		send(t, conn, tt.c)
		ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" })
		if ev.ID != tt.c.ID || !strings.Contains(ev.Message, tt.want) {
			t.Errorf("%s %q: got %+v, want a refusal containing %q", tt.c.Op, tt.c.To, ev, tt.want)
		}
	}
	if got := h.childCount(); got != 2 {
		t.Errorf("%d children after the refusals, want 2", got)
	}

	conn.Close()
	waitFor(t, func() bool { return h.childCount() == 0 && h.sessionCount() == 0 })
	if !processGone(second.pid) {
		t.Errorf("process %d still runs after its tab closed", second.pid)
	}
}

// TestCustomNetwork: custom-http and custom-grpc reach servers the
// learner runs (here, the reference servers), with "to" echoed on every
// event; what they cannot reach is refused plainly.
func TestCustomNetwork(t *testing.T) {
	api := httptest.NewServer(httpjson.NewServer(tools.New(nil), nil))
	defer api.Close()
	grpcAddr := startGRPC(t)
	_, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	readHello(t, conn)

	frame := "POST /execute HTTP/1.1\nContent-Type: application/json\n\n{\"name\":\"word_count\",\"args\":{\"text\":\"read the wire\"}}\n"
	send(t, conn, Command{Op: "send", ID: 1, Target: "custom-http", To: api.URL, Frame: frame})
	body := next(t, conn, func(ev Event) bool { return ev.Kind == "http-body" })
	if body.ID != 1 || body.Target != "custom-http" || body.To != api.URL || !strings.Contains(body.Text, `"words":3`) {
		t.Errorf("custom-http answer: %+v", body)
	}
	if end := next(t, conn, func(ev Event) bool { return ev.Kind == "end" }); end.To != api.URL {
		t.Errorf("end note %+v", end)
	}

	call := "tools.v1.ToolServer/ExecuteTool\n" + `{"toolName":"word_count","arguments":"eyJ0ZXh0IjoicmVhZCB0aGUgd2lyZSJ9"}`
	send(t, conn, Command{Op: "send", ID: 2, Target: "custom-grpc", To: grpcAddr, Frame: call})
	in := next(t, conn, func(ev Event) bool { return ev.Kind == "grpc" })
	if in.ID != 2 || in.To != grpcAddr || !strings.Contains(in.Text, `{"words":3,"chars":13}`) {
		t.Errorf("custom-grpc answer: %+v", in)
	}

	for _, tt := range []struct {
		c    Command
		want string
	}{
		{Command{Op: "send", ID: 10, Target: "custom-http", To: "https://127.0.0.1:9", Frame: frame}, "connecting to 127.0.0.1:9"},
		{Command{Op: "send", ID: 11, Target: "custom-http", To: "127.0.0.1:9", Frame: frame}, `custom-http needs your server's URL, such as "http://127.0.0.1:9000/mcp"`},
		{Command{Op: "send", ID: 12, Target: "custom-http", Frame: frame}, `custom-http needs "to"`},
		{Command{Op: "send", ID: 13, Target: "custom-grpc", To: "http://" + grpcAddr, Frame: call}, `custom-grpc needs your server's host:port`},
		{Command{Op: "send", ID: 14, Target: "custom-grpc", Frame: call}, `custom-grpc needs "to"`},
		{Command{Op: "restart", ID: 15, Target: "custom-http", To: api.URL}, "only stdio servers restart, and gRPC connections"},
	} {
		send(t, conn, tt.c)
		ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" })
		if ev.ID != tt.c.ID || !strings.Contains(ev.Message, tt.want) {
			t.Errorf("%s %s %q: got %+v, want a refusal containing %q", tt.c.Op, tt.c.Target, tt.c.To, ev, tt.want)
		}
	}
}

// TestCustomRefusedFromElsewhere: a tab whose peer is not on this
// machine hears local=false and may use no custom target, nor start the
// playground's own stdio servers.
func TestCustomRefusedFromElsewhere(t *testing.T) {
	api := httptest.NewServer(httpjson.NewServer(tools.New(nil), nil))
	defer api.Close()
	h, srv := startHubAs(t, Targets{}, "192.0.2.7:4242")
	conn := dial(t, srv)
	if hl := readHello(t, conn); hl.Local {
		t.Errorf("hello %+v: a tab from 192.0.2.7 must not be local", hl)
	}
	for i, c := range []Command{
		{Op: "send", Target: "custom-stdio", To: shellQuote(os.Args[0]) + " " + customChild, Frame: "{}"},
		{Op: "restart", Target: "custom-stdio", To: shellQuote(os.Args[0]) + " " + customChild},
		{Op: "send", Target: "custom-http", To: api.URL, Frame: "GET /tools HTTP/1.1\n\n"},
		{Op: "send", Target: "custom-grpc", To: "127.0.0.1:9", Frame: "x.Y/Z"},
		{Op: "send", Target: "stdio", Frame: "{}"},
	} {
		c.ID = int64(i + 1)
		send(t, conn, c)
		ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" })
		if ev.ID != c.ID || !strings.Contains(ev.Message, "only for pages opened on this machine") {
			t.Errorf("%s %s: got %+v, want a refusal for a page from elsewhere", c.Op, c.Target, ev)
		}
	}
	if got := h.childCount(); got != 0 {
		t.Errorf("%d children started for a page from elsewhere", got)
	}
}

// startGRPC serves the reference gRPC tool server on a loopback port
// until the test ends.
func startGRPC(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpctool.NewServer(tools.New(nil), nil)
	done := make(chan struct{})
	// Ends when Serve returns, which Stop below causes.
	go func() {
		s.Serve(ln)
		close(done)
	}()
	t.Cleanup(func() {
		s.Stop()
		<-done
	})
	return ln.Addr().String()
}
