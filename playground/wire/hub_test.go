package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// childEnv makes the test binary, started by the hub as
// "EXE server stdio" or "EXE server mcp", be that server.
const childEnv = "WIRELAB_PLAYGROUND_TEST_CHILD"

// customChild, as the first argument, makes the test binary the
// learner's own server of the custom-stdio tests: a custom command line
// carries no environment, so the marker is in argv. The child says its
// pid and the rest of its argv on stderr, then serves the stdio
// protocol.
const customChild = "wirelab-test-child"

func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == customChild && misbehave(os.Args[2:]) {
		return
	}
	if len(os.Args) >= 2 && os.Args[1] == customChild {
		args, _ := json.Marshal(os.Args[2:])
		fmt.Fprintf(os.Stderr, "pid=%d args=%s\n", os.Getpid(), args)
		if err := stdio.NewServer(tools.New(nil), nil).Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(childEnv) != "" && len(os.Args) == 3 && os.Args[1] == "server" {
		ctx := context.Background()
		cat := tools.New(&tools.Options{DeployStep: time.Millisecond})
		var err error
		switch os.Args[2] {
		case "stdio":
			err = stdio.NewServer(cat, nil).Serve(ctx, os.Stdin, os.Stdout)
		case "mcp":
			err = mcp.NewServer(cat, &mcp.ServerOptions{Version: "test"}).ServeStdio(ctx, os.Stdin, os.Stdout)
		}
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// patience bounds a wait for an event that should come at once; it is a
// guard against hanging, not a measurement.
const patience = 20 * time.Second

// startHub serves a hub on a loopback httptest server and returns it with
// the websocket URL.
func startHub(t testing.TB, targets Targets) (*Hub, *httptest.Server) {
	t.Helper()
	return startHubAs(t, targets, "")
}

// startHubAs is startHub with every tab seen as coming from remoteAddr
// ("" leaves the real, loopback, address): how a page opened from
// another machine is simulated. Host and Origin still name this
// machine, as they would behind a forwarded port.
func startHubAs(t testing.TB, targets Targets, remoteAddr string) (*Hub, *httptest.Server) {
	t.Helper()
	h := newTestHub(t, targets)
	return h, serveHub(t, h, remoteAddr)
}

// newTestHub makes a hub whose stdio targets run the test binary.
func newTestHub(t testing.TB, targets Targets) *Hub {
	t.Setenv(childEnv, "1")
	if targets.Executable == "" {
		targets.Executable = os.Args[0]
	}
	return NewHub(targets, nil, nil)
}

// serveHub serves h on a loopback httptest server until the test ends,
// then closes both.
func serveHub(t testing.TB, h *Hub, remoteAddr string) *httptest.Server {
	handler := http.HandlerFunc(h.ServeWS)
	if remoteAddr != "" {
		handler = func(w http.ResponseWriter, r *http.Request) {
			r.RemoteAddr = remoteAddr
			h.ServeWS(w, r)
		}
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return srv
}

// dial opens a tab's websocket, with the Origin a page on this machine
// sends.
func dial(t testing.TB, srv *httptest.Server) *websocket.Conn {
	t.Helper()
	return dialPath(t, srv, "")
}

// dialPath opens the websocket at srv's URL plus suffix ("?watch=...").
func dialPath(t testing.TB, srv *httptest.Server, suffix string) *websocket.Conn {
	t.Helper()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + suffix
	conn, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Origin": {srv.URL}})
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, resp)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// waitFor polls until cond holds, and fails after patience.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting after %v", patience)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// readHello reads the first message of a websocket, which must be the
// playground's hello.
func readHello(t testing.TB, conn *websocket.Conn) Hello {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(patience))
	_, b, err := conn.ReadMessage()
	if err != nil {
		t.Fatalf("waiting for the hello: %v", err)
	}
	var h Hello
	if err := json.Unmarshal(b, &h); err != nil || h.Op != "hello" {
		t.Fatalf("first message %s, want a hello (%v)", b, err)
	}
	return h
}

func send(t testing.TB, conn *websocket.Conn, c Command) {
	t.Helper()
	if err := conn.WriteJSON(c); err != nil {
		t.Fatal(err)
	}
}

// next reads events until one matches, and fails on an "error" event
// unless that is what is wanted.
func next(t testing.TB, conn *websocket.Conn, match func(Event) bool) Event {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(patience))
	for {
		var ev Event
		if err := conn.ReadJSON(&ev); err != nil {
			t.Fatalf("waiting for an event: %v", err)
		}
		if match(ev) {
			return ev
		}
		if ev.Op == "error" {
			t.Fatalf("the playground refused a frame: %s", ev.Message)
		}
	}
}

// TestMCPStdioSession is the lesson's handshake, sent frame by frame to a
// child "wirelab server mcp": every frame comes back as an "out" event,
// and the answers as "in" lines from the child's stdout.
func TestMCPStdioSession(t *testing.T) {
	h, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	frames := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`,
	}
	answers := map[string]string{}
	for i, f := range frames {
		send(t, conn, Command{Op: "send", ID: int64(i + 1), Target: "mcp-stdio", Frame: f})
		out := next(t, conn, func(ev Event) bool { return ev.Dir == "out" })
		if out.ID != int64(i+1) || out.Text != f+"\n" || out.Size != len(f)+1 || out.Target != "mcp-stdio" {
			t.Errorf("frame %d came back as %+v", i+1, out)
		}
		if i == 1 {
			continue // a notification has no answer
		}
		in := next(t, conn, func(ev Event) bool { return ev.Dir == "in" && ev.Kind == "line" })
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal([]byte(in.Text), &msg)
		answers[string(msg.ID)] = in.Text
	}
	if !strings.Contains(answers["3"], `"structuredContent":{"words":3,"chars":13}`) {
		t.Errorf("tools/call answer: %q", answers["3"])
	}
	if !strings.Contains(answers["1"], `"protocolVersion":"2025-11-25"`) {
		t.Errorf("initialize answer: %q", answers["1"])
	}
	if got := h.childCount(); got != 1 {
		t.Errorf("%d children running, want 1", got)
	}
}

// TestStdioRestartAndStderr: a restart gives a fresh child, which the
// next frame starts; a line the stdio server cannot read is answered on
// stdout, and the server keeps going.
func TestStdioRestartAndStderr(t *testing.T) {
	_, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	send(t, conn, Command{Op: "send", ID: 1, Target: "stdio", Frame: `{"name":"word_count","args":{"text":"a b"}}`})
	if in := next(t, conn, func(ev Event) bool { return ev.Dir == "in" }); !strings.Contains(in.Text, `"words":2`) {
		t.Errorf("stdio answer: %q", in.Text)
	}
	send(t, conn, Command{Op: "restart", Target: "stdio"})
	next(t, conn, func(ev Event) bool { return ev.Kind == "exit" })
	send(t, conn, Command{Op: "send", ID: 2, Target: "stdio", Frame: `not json`})
	if in := next(t, conn, func(ev Event) bool { return ev.Dir == "in" }); !strings.Contains(in.Text, "error") {
		t.Errorf("answer to a bad line: %q", in.Text)
	}
}

// TestHTTPExchange sends a raw request, typed with LF line ends and no
// Host or Content-Length, to a real HTTP tool server: the playground
// says what it fixed, and the raw answer and its parsed head and body
// come back.
func TestHTTPExchange(t *testing.T) {
	api := httptest.NewServer(httpjson.NewServer(tools.New(nil), nil))
	defer api.Close()
	_, srv := startHub(t, Targets{HTTPURL: api.URL})
	conn := dial(t, srv)
	frame := "POST /execute HTTP/1.1\nContent-Type: application/json\n\n{\"name\":\"word_count\",\"args\":{\"text\":\"read the wire\"}}\n"
	send(t, conn, Command{Op: "send", ID: 5, Target: "http", Frame: frame})
	var fixes []string
	var out, raw, head, body Event
	for body.Kind == "" || raw.Kind == "" {
		ev := next(t, conn, func(Event) bool { return true })
		switch ev.Kind {
		case "fix":
			fixes = append(fixes, ev.Text)
		case "http-request":
			out = ev
		case "raw":
			raw = ev
		case "http-head":
			head = ev
		case "http-body":
			body = ev
		}
	}
	if len(fixes) != 2 || !strings.HasPrefix(fixes[0], "added Host: 127.0.0.1:") || !strings.HasPrefix(fixes[1], "added Content-Length: 53") {
		t.Errorf("fixes: %q", fixes)
	}
	if !strings.HasPrefix(out.Text, "POST /execute HTTP/1.1\r\nHost: 127.0.0.1:") || !strings.HasSuffix(out.Text, "\r\n\r\n"+`{"name":"word_count","args":{"text":"read the wire"}}`) {
		t.Errorf("request as sent: %q", out.Text)
	}
	if !strings.HasPrefix(raw.Text, "HTTP/1.1 200 OK\r\n") || !strings.HasPrefix(head.Text, "HTTP/1.1 200 OK\n") {
		t.Errorf("raw %q, head %q", raw.Text, head.Text)
	}
	if !strings.Contains(body.Text, `"words":3`) || body.ID != 5 {
		t.Errorf("body: %+v", body)
	}
}

// TestRefusals: what the playground will not do, each said plainly, and
// the tab stays usable.
func TestRefusals(t *testing.T) {
	_, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	for _, tt := range []struct {
		c    Command
		want string
	}{
		{Command{Op: "send", ID: 1, Target: "smtp", Frame: "HELO"}, `unknown target "smtp"`},
		{Command{Op: "dance", ID: 2}, `unknown op "dance"`},
		{Command{Op: "send", ID: 3, Target: "http", Frame: "GET / HTTP/1.1"}, "no http server runs"},
		{Command{Op: "send", ID: 4, Target: "grpc", Frame: "x/y"}, "no gRPC server runs"},
		{Command{Op: "send", ID: 5, Target: "stdio", Frame: strings.Repeat("x", maxFrame+1)}, "at most 1048576 are sent"},
	} {
		send(t, conn, tt.c)
		ev := next(t, conn, func(ev Event) bool { return ev.Op == "error" })
		if ev.ID != tt.c.ID || !strings.Contains(ev.Message, tt.want) {
			t.Errorf("%+v: got %+v, want a refusal containing %q", tt.c.Op+" "+tt.c.Target, ev, tt.want)
		}
	}
}

// TestRateLimit: a tab that sends faster than FramesPerSecond is told
// so after its burst.
func TestRateLimit(t *testing.T) {
	_, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	readHello(t, conn)
	for i := range frameBurst + 5 {
		send(t, conn, Command{Op: "send", ID: int64(i + 1), Target: "nowhere"})
	}
	// Each frame is refused, for its unknown target or, once the burst is
	// used up, for coming too fast.
	conn.SetReadDeadline(time.Now().Add(patience))
	first := int64(0)
	for i := range frameBurst + 5 {
		var ev Event
		if err := conn.ReadJSON(&ev); err != nil {
			t.Fatalf("refusal %d: %v", i+1, err)
		}
		if strings.HasPrefix(ev.Message, "too many frames") && first == 0 {
			first = ev.ID
		}
	}
	if first == 0 || first <= frameBurst-5 {
		t.Errorf("rate limit hit at frame %d; want it after most of the burst of %d", first, frameBurst)
	}
}

// TestWebsocketOrigin: only a page on this machine may open the
// websocket.
func TestWebsocketOrigin(t *testing.T) {
	_, srv := startHub(t, Targets{})
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	for _, origin := range []string{"https://attacker.example", ""} {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		_, resp, err := websocket.DefaultDialer.Dial(url, h)
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("Origin %q: err %v, resp %v; want 403", origin, err, resp)
		}
	}
}

// TestHello: the first message of a tab is its hello, with a session id
// of 32 hex digits, different for every tab, and local=true for a page
// on this machine.
func TestHello(t *testing.T) {
	_, srv := startHub(t, Targets{})
	a, b := readHello(t, dial(t, srv)), readHello(t, dial(t, srv))
	for _, h := range []Hello{a, b} {
		if len(h.Session) != 2*sessionIDBytes || strings.Trim(h.Session, "0123456789abcdef") != "" {
			t.Errorf("session id %q: want %d hex digits", h.Session, 2*sessionIDBytes)
		}
		if !h.Local || h.Watching {
			t.Errorf("hello %+v: want local, not watching", h)
		}
	}
	if a.Session == b.Session {
		t.Errorf("two tabs share the session id %q", a.Session)
	}
}

// TestSessionsLeaveNothing opens and closes 50 tabs that each start a
// child server and are each watched by a follower: every follower sees
// the session end and is closed, and afterwards no child runs and no
// goroutine is left.
func TestSessionsLeaveNothing(t *testing.T) {
	h, srv := startHub(t, Targets{})
	before := runtime.NumGoroutine()
	var watchers []*websocket.Conn
	for range 50 {
		conn := dial(t, srv)
		id := readHello(t, conn).Session
		watcher := dialPath(t, srv, "?watch="+id)
		readHello(t, watcher)
		watchers = append(watchers, watcher)
		send(t, conn, Command{Op: "send", ID: 1, Target: "stdio", Frame: `{"name":"word_count","args":{"text":"x"}}`})
		next(t, conn, func(ev Event) bool { return ev.Dir == "in" })
		next(t, watcher, func(ev Event) bool { return ev.Dir == "in" })
		conn.Close()
		// Sessions end in the background, their followers told last;
		// stay under the hub's limit.
		for h.sessionCount() >= maxSessions-1 {
			time.Sleep(time.Millisecond)
		}
	}
	for i, watcher := range watchers {
		next(t, watcher, func(ev Event) bool { return ev.Kind == "session-end" })
		if _, _, err := watcher.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
			t.Fatalf("follower %d: after session-end it read %v, want a normal close", i, err)
		}
		watcher.Close()
	}
	deadline := time.Now().Add(patience)
	for h.sessionCount() > 0 || h.childCount() > 0 || runtime.NumGoroutine() > before+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("after 50 sessions: %d sessions, %d children, %d goroutines (was %d)\n%s",
				h.sessionCount(), h.childCount(), runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.mu.Lock()
	left := len(h.registry)
	h.mu.Unlock()
	if left != 0 {
		t.Errorf("%d sessions are still in the registry", left)
	}
}
