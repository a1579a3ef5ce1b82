package playground

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestTapsPage: a tap that publishes to a running playground is listed
// at /taps, live, with a link to the MCP console that follows it; a tab
// at that link's websocket gets the tap's rows; once the tap stops, the
// list says it ended. The console list links to the page, in both
// languages.
func TestTapsPage(t *testing.T) {
	pg := New(tools.New(nil), nil)
	srv := httptest.NewServer(pg)
	defer func() {
		srv.Close()
		pg.Close()
	}()
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s\n%s", path, resp.Status, b)
		}
		return string(b)
	}
	waitPage := func(path, want string) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			page := get(path)
			if strings.Contains(page, want) {
				return page
			}
			if time.Now().After(deadline) {
				t.Fatalf("GET %s never had %q:\n%s", path, want, page)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	if page := get("/taps"); !strings.Contains(page, "No tap publishes here yet.") || !strings.Contains(page, "wirelab tap --playground "+srv.URL+" -- wirelab server mcp") {
		t.Errorf("/taps with no tap does not say how to start one:\n%s", page)
	}
	rec := tap.NewRecorder(nil)
	rec.Add(tap.Event{Kind: tap.KindStart, Format: tap.Format, Command: []string{"node", "server.js"}})
	rec.Add(tap.Event{Kind: tap.KindLine, Dir: tap.Out, Data: `{"jsonrpc":"2.0","id":1,"method":"ping"}`})
	pub, err := wire.Publish(srv.URL, "node server.js", rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()

	page := waitPage("/taps", `href="/console/mcp?watch=tap-1"`)
	if !strings.Contains(page, "<code>node server.js</code>") || !strings.Contains(page, "<strong>live</strong>") {
		t.Errorf("/taps does not list the live tap with its command:\n%s", page)
	}
	get("/console/mcp?watch=tap-1") // 200: the console has a session to follow

	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws?watch=tap-1"
	conn, resp, err := websocket.DefaultDialer.Dial(ws, http.Header{"Origin": {srv.URL}})
	if err != nil {
		t.Fatalf("watching tap-1: %v (%v)", err, resp)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	var got []string
	for len(got) < 3 {
		var m struct{ Op, Kind, Dir, Text, Session string }
		if err := conn.ReadJSON(&m); err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, m.Op+" "+m.Dir+" "+m.Kind+" "+m.Session+m.Text)
	}
	want := []string{
		"hello   tap-1",
		"event note tap the tap relays node server.js; what it sees comes here as it happens",
		`event out line {"jsonrpc":"2.0","id":1,"method":"ping"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("the watcher got %q, want %q", got, want)
	}

	pub.Close()
	if page := waitPage("/taps", "ended "); strings.Contains(page, "watch=tap-1") {
		t.Errorf("/taps links to an ended tap, whose session is gone:\n%s", page)
	}
	if page := get("/taps?lang=ru"); !strings.Contains(page, "Запустите tap") || !strings.Contains(page, "закончен") {
		t.Errorf("/taps in Russian:\n%s", page)
	}
	for _, l := range []string{"en", "ru"} {
		if page := get("/console/?lang=" + l); !strings.Contains(page, `href="/taps"`) {
			t.Errorf("the console list (%s) does not link to /taps", l)
		}
	}
}
