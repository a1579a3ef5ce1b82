package playground

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestExportRecording: a console's session, after a frame to the MCP
// server over stdio, comes from /console/export as a recording file
// that tap.Read reads, named for download; a session that sent nothing,
// an unknown one, and a request from another machine are refused, each
// saying why.
func TestExportRecording(t *testing.T) {
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

	conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", http.Header{"Origin": {srv.URL}})
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, resp)
	}
	defer conn.Close()
	var hi wire.Hello
	if err := conn.ReadJSON(&hi); err != nil || hi.Session == "" {
		t.Fatalf("hello: %+v, %v", hi, err)
	}
	path := "/console/export?target=mcp-stdio&session=" + hi.Session
	if a := do(t, srv, "GET", path, "", "", ""); a.code != http.StatusConflict || !strings.Contains(a.body, "no frame") {
		t.Errorf("export before any frame: %d %s, want 409 saying nothing was sent", a.code, a.body)
	}

	frame := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`
	send(t, conn, wire.Command{Op: "send", ID: 1, Target: "mcp-stdio", Frame: frame})
	next(t, conn, func(ev wire.Event) bool { return ev.Dir == "in" && ev.Kind == "line" })

	a := do(t, srv, "GET", path, "", "", "")
	if a.code != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Disposition"), `attachment; filename="wirelab-mcp-stdio-`) {
		t.Fatalf("export: %d %v %s", a.code, a.header, a.body)
	}
	events, err := tap.Read(strings.NewReader(a.body))
	if err != nil {
		t.Fatalf("the exported file is no recording: %v\n%s", err, a.body)
	}
	if len(events) != 3 || events[1].Dir != tap.Out || events[1].Data != frame || events[2].Dir != tap.In {
		t.Errorf("the recording's events: %+v", events)
	}

	if a := do(t, srv, "GET", "/console/export?session=nope", "", "", ""); a.code != http.StatusNotFound {
		t.Errorf("export of an unknown session: %d %s, want 404", a.code, a.body)
	}
	if a := do(t, remote, "GET", path, "", "", ""); a.code != http.StatusForbidden {
		t.Errorf("export from another machine: %d %s, want 403", a.code, a.body)
	}
}
