package playground

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The pages' tests drive the engine as a tab does, over its websocket.
// What follows is the tab's side of it (the engine's own tests have
// theirs): a hub on a loopback port, and its messages sent and read.

// childEnv makes the test binary, started by the hub as
// "EXE server stdio" or "EXE server mcp", be that server.
const childEnv = "WIRELAB_PLAYGROUND_TEST_CHILD"

func TestMain(m *testing.M) {
	// "EXE server mcp --fixtures hostile" is the mcp-hostile target;
	// "--fixtures conformance" adds the conformance suite's fixtures, for
	// a learner's own server in the browser tests.
	fixtures := ""
	if len(os.Args) == 5 && os.Args[3] == "--fixtures" {
		fixtures = os.Args[4]
	}
	hostile := fixtures == "hostile"
	if os.Getenv(childEnv) != "" && (len(os.Args) == 3 || fixtures != "") && os.Args[1] == "server" {
		ctx := context.Background()
		cat := tools.New(&tools.Options{DeployStep: time.Millisecond})
		var err error
		switch os.Args[2] {
		case "stdio":
			err = stdio.NewServer(cat, nil).Serve(ctx, os.Stdin, os.Stdout)
		case "mcp":
			err = mcp.NewServer(cat, &mcp.ServerOptions{Version: "test", Hostile: hostile, Fixtures: fixtures == "conformance"}).ServeStdio(ctx, os.Stdin, os.Stdout)
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

// startHub serves a hub whose stdio targets run the test binary on a
// loopback httptest server until the test ends.
func startHub(t testing.TB, targets wire.Targets) (*wire.Hub, *httptest.Server) {
	t.Helper()
	t.Setenv(childEnv, "1")
	if targets.Executable == "" {
		targets.Executable = os.Args[0]
	}
	h := wire.NewHub(targets, nil, nil)
	srv := httptest.NewServer(http.HandlerFunc(h.ServeWS))
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return h, srv
}

// dial opens a tab's websocket, with the Origin a page of srv sends.
func dial(t testing.TB, srv *httptest.Server) *websocket.Conn {
	t.Helper()
	return dialPath(t, srv, "")
}

// dialPath opens the websocket at srv's URL plus suffix ("/ws", "?watch=...").
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

// readHello reads the first message of a websocket, which must be the
// engine's hello.
func readHello(t testing.TB, conn *websocket.Conn) wire.Hello {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(patience))
	_, b, err := conn.ReadMessage()
	if err != nil {
		t.Fatalf("waiting for the hello: %v", err)
	}
	var h wire.Hello
	if err := json.Unmarshal(b, &h); err != nil || h.Op != "hello" {
		t.Fatalf("first message %s, want a hello (%v)", b, err)
	}
	return h
}

func send(t testing.TB, conn *websocket.Conn, c wire.Command) {
	t.Helper()
	if err := conn.WriteJSON(c); err != nil {
		t.Fatal(err)
	}
}

// next reads events until one matches, and fails on an "error" event
// unless that is what is wanted.
func next(t testing.TB, conn *websocket.Conn, match func(wire.Event) bool) wire.Event {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(patience))
	for {
		var ev wire.Event
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
