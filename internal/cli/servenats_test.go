package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	natsserver "github.com/nats-io/nats-server/v2/server"
)

// TestServeNATS: two playground processes that share a NATS server share
// the presenter: a tab on one presents and sends the MCP initialize, and
// a tab on the other, following the presenter, sees the frame and its
// answer. A NATS server that is not there stops serve with the reason.
func TestServeNATS(t *testing.T) {
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	t.Cleanup(ns.Shutdown)
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	listening := regexp.MustCompile(`^wirelab: playground server listening on (\S+)$`)
	start := func() string {
		for _, l := range startWirelab(t, t.TempDir(), listening, "serve", "--no-open", "--addr", "127.0.0.1:0", "--nats", ns.ClientURL()) {
			if m := listening.FindStringSubmatch(l); m != nil {
				return m[1]
			}
		}
		return ""
	}
	one, two := start(), start()

	dial := func(base, query string) *websocket.Conn {
		t.Helper()
		conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/ws"+query, http.Header{"Origin": {base}})
		if err != nil {
			t.Fatalf("dialing %s/ws%s: %v %v", base, query, err, resp)
		}
		t.Cleanup(func() { conn.Close() })
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		return conn
	}
	type message struct{ Op, Status, Dir, Kind, Text, Message string }
	follower := dial(two, "?watch=presenter")
	presenter := dial(one, "")
	var hello message
	if err := presenter.ReadJSON(&hello); err != nil || hello.Op != "hello" {
		t.Fatalf("the presenter's hello: %+v %v", hello, err)
	}
	frame := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`
	for _, c := range []map[string]any{{"op": "present"}, {"op": "send", "id": 1, "target": "mcp-stdio", "frame": frame}} {
		if err := presenter.WriteJSON(c); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	sawFrame := false
	for {
		var m message
		if err := follower.ReadJSON(&m); err != nil {
			t.Fatalf("the follower on the other playground: %v; saw:\n%s", err, strings.Join(seen, "\n"))
		}
		seen = append(seen, m.Op+" "+m.Status+" "+m.Dir+" "+m.Kind+" "+m.Message)
		if m.Op == "event" && m.Dir == "out" && strings.Contains(m.Text, `"method":"initialize"`) {
			sawFrame = true
		}
		if m.Op == "event" && m.Dir == "in" && strings.Contains(m.Text, `"protocolVersion":"2025-11-25"`) {
			break
		}
	}
	if !sawFrame {
		t.Errorf("the follower saw the answer but not the presenter's frame:\n%s", strings.Join(seen, "\n"))
	}

	code, _, stderr := exe(t, "", "serve", "--no-open", "--addr", "127.0.0.1:0", "--nats", "nats://127.0.0.1:1")
	if code == 0 || !strings.Contains(stderr, "connecting to NATS at nats://127.0.0.1:1") {
		t.Errorf("serve with an unreachable NATS server: exit %d, stderr:\n%s\nwant a failure that names it", code, stderr)
	}
}

// TestServeNATSDashboard: a classroom and the instructor's playground,
// as two processes on one NATS server, as the README sets them up. A
// follower who joins the classroom and shares a passed exercise appears,
// with it, on the dashboard of the instructor's playground, which has no
// classroom of its own; and nothing of it is written there.
func TestServeNATSDashboard(t *testing.T) {
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	t.Cleanup(ns.Shutdown)
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	class := startClassroom(t, t.TempDir(), "--addr", "127.0.0.1:0", "--code", "K7P2QX", "--nats", ns.ClientURL())
	dashboardLine := regexp.MustCompile(`^wirelab: the followers of the classrooms on the NATS server, on this machine: (\S+)/classroom$`)
	home := t.TempDir()
	var dashboard string
	for _, l := range startWirelab(t, home, dashboardLine, "serve", "--no-open", "--addr", "127.0.0.1:0", "--nats", ns.ClientURL()) {
		if m := dashboardLine.FindStringSubmatch(l); m != nil {
			dashboard = m[1] + "/classroom"
		}
	}

	resp, _ := fetch(t, "POST", class.instructor, "/join", url.Values{"code": {class.code}, "name": {"Ada"}}, "")
	ada := followerCookie(resp)
	if ada == "" {
		t.Fatalf("joining the classroom: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest("POST", class.instructor+"/classroom/progress", strings.NewReader(`{"share":true,"exercise":"frames-http-auth","passed":true}`))
	req.Header.Set("Origin", class.instructor)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", "wirelab-follower="+ada)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("sharing progress: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, "GET", dashboard+"/events?lang=en", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the instructor's dashboard stream: %v %v", resp, err)
	}
	defer resp.Body.Close()
	type row struct {
		Name, Where string
		Passed      []string
	}
	var last string
	events := bufio.NewScanner(resp.Body)
	for {
		if !events.Scan() {
			t.Fatalf("the instructor's dashboard never listed Ada with her exercise (%v); last:\n%s", events.Err(), last)
		}
		data, ok := strings.CutPrefix(events.Text(), "data: ")
		if !ok {
			continue
		}
		last = data
		var d struct{ Followers []row }
		json.Unmarshal([]byte(data), &d)
		if len(d.Followers) == 1 && d.Followers[0].Name == "Ada" && len(d.Followers[0].Passed) == 1 && d.Followers[0].Where != "" {
			break
		}
	}
	if _, body := fetch(t, "GET", strings.TrimSuffix(dashboard, "/classroom"), "/classroom", nil, ""); !strings.Contains(body, "Ada") {
		t.Errorf("the instructor's dashboard page does not list Ada:\n%s", body)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("the instructor's playground wrote in its wirelab home unasked: %v", entries)
	}
}
