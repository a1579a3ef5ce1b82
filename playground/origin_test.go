package playground

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestOnlyItsOwnOrigin: the playground's routes that change something
// (the websocket, hints, solutions, grades) answer only its own pages.
// A page on another port of this machine is foreign; so is any page
// when the playground listens beyond loopback, except its own, by the
// address it listens on, which may read and follow but never run code
// or change progress.
func TestOnlyItsOwnOrigin(t *testing.T) {
	t.Setenv(childEnv, "1")
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	const lan = "192.0.2.7" // the address a classroom reaches it by
	pg := New(tools.New(nil), &Options{Executable: os.Args[0], Progress: store, Hosts: []string{lan}})
	// Requests for the lan address come from another machine, as they
	// would in a classroom.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Host, lan) {
			r.RemoteAddr = "192.0.2.99:50000"
		}
		pg.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); pg.Close() })
	port := strings.TrimPrefix(srv.URL, "http://127.0.0.1:")

	do := func(method, path, host, origin string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	own := "127.0.0.1:" + port
	for _, tt := range []struct {
		method, path, host, origin string
		want                       int
	}{
		{"GET", "/learn/", own, "", http.StatusOK},
		{"POST", "/exercises/stdio-server/hint", own, "http://" + own, http.StatusSeeOther},
		// Another port of this machine, and a foreign site.
		{"POST", "/exercises/stdio-server/hint", own, "http://localhost:3000", http.StatusForbidden},
		{"POST", "/exercises/stdio-server/solution", own, "http://127.0.0.1:1", http.StatusForbidden},
		{"POST", "/exercises/stdio-server/grade", own, "https://attacker.example", http.StatusForbidden},
		// DNS rebinding: a name that is not the playground's.
		{"GET", "/learn/", "attacker.example:" + port, "", http.StatusMisdirectedRequest},
		// From the classroom: pages, yes; progress and code, no.
		{"GET", "/learn/", lan + ":" + port, "", http.StatusOK},
		{"POST", "/exercises/stdio-server/hint", lan + ":" + port, "http://" + lan + ":" + port, http.StatusForbidden},
		{"POST", "/exercises/stdio-server/grade", lan + ":" + port, "http://" + lan + ":" + port, http.StatusForbidden},
		{"POST", "/exercises/stdio-server/hint", lan + ":" + port, "http://localhost:" + port, http.StatusForbidden},
	} {
		if code, body := do(tt.method, tt.path, tt.host, tt.origin); code != tt.want {
			t.Errorf("%s %s Host %s Origin %q: %d, want %d (%s)", tt.method, tt.path, tt.host, tt.origin, code, tt.want, body)
		}
	}
	if st, _ := store.Load(); st.Exercises["stdio-server"].HintsShown != 1 {
		t.Errorf("hints counted: %+v; want the one from the playground's own page", st.Exercises["stdio-server"])
	}

	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	dialAs := func(host, origin string) (*websocket.Conn, int) {
		t.Helper()
		h := http.Header{"Origin": {origin}, "Host": {host}}
		d := websocket.Dialer{}
		conn, resp, err := d.Dial(wsURL, h)
		if err != nil {
			if resp == nil {
				t.Fatal(err)
			}
			return nil, resp.StatusCode
		}
		t.Cleanup(func() { conn.Close() })
		return conn, http.StatusSwitchingProtocols
	}
	if _, code := dialAs(own, "http://localhost:3000"); code != http.StatusForbidden {
		t.Errorf("websocket from another local port: %d, want 403", code)
	}
	// The classroom's own page gets a session that starts nothing.
	conn, code := dialAs(lan+":"+port, "http://"+lan+":"+port)
	if code != http.StatusSwitchingProtocols {
		t.Fatalf("websocket from the classroom's page: %d", code)
	}
	if hl := readHello(t, conn); hl.Local {
		t.Errorf("hello %+v: a page from another machine must not be local", hl)
	}
	send(t, conn, wire.Command{Op: "send", ID: 1, Target: "custom-stdio", To: "touch /tmp/pwned", Frame: "{}"})
	if ev := next(t, conn, func(ev wire.Event) bool { return ev.Op == "error" }); !strings.Contains(ev.Message, "only for pages opened on this machine") {
		t.Errorf("custom-stdio from the classroom: %+v", ev)
	}
	send(t, conn, wire.Command{Op: "send", ID: 2, Target: "stdio", Frame: "{}"})
	if ev := next(t, conn, func(ev wire.Event) bool { return ev.Op == "error" }); !strings.Contains(ev.Message, "only for pages opened on this machine") {
		t.Errorf("stdio from the classroom: %+v", ev)
	}
}
