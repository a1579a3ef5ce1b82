package cli

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestFollowTarget(t *testing.T) {
	for _, tt := range []struct {
		name, joinURL, code string
		wantURL, wantCode   string // wantURL "" means a usage error
	}{
		{"the code in the URL", "http://192.168.1.20:8080/join?code=K7P2QX", "", "http://192.168.1.20:8080/join", "K7P2QX"},
		{"the code in a flag", "http://192.168.1.20:8080/join", "k7p2qx", "http://192.168.1.20:8080/join", "k7p2qx"},
		{"the flag wins", "http://192.168.1.20:8080/join?code=AAAAAA", "K7P2QX", "http://192.168.1.20:8080/join", "K7P2QX"},
		{"the address alone", "http://192.168.1.20:8080?code=K7P2QX", "", "http://192.168.1.20:8080/join", "K7P2QX"},
		{"no code", "http://192.168.1.20:8080/join", "", "", ""},
		{"a blank code", "http://192.168.1.20:8080/join?code=", " - ", "", ""},
		{"not a web address", "192.168.1.20:8080/join?code=K7P2QX", "", "", ""},
		{"another scheme", "ftp://192.168.1.20/join?code=K7P2QX", "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u, code, err := followTarget(tt.joinURL, tt.code)
			if tt.wantURL == "" {
				var ue errUsage
				if !errors.As(err, &ue) {
					t.Fatalf("got %v, %q, %v; want a usage error", u, code, err)
				}
				return
			}
			if err != nil || u.String() != tt.wantURL || code != tt.wantCode {
				t.Errorf("got %v, %q, %v; want %s, %q", u, code, err, tt.wantURL, tt.wantCode)
			}
		})
	}
}

// TestServeFollowWrongCode: a student's wirelab with a wrong code says so
// and starts nothing.
func TestServeFollowWrongCode(t *testing.T) {
	p := startClassroom(t, t.TempDir(), "--addr", "127.0.0.1:0")
	code, _, stderr := exe(t, "", "serve", "--no-open", "--addr", "127.0.0.1:0", "--follow", p.joinURLs[0]+"?code=AAAAAA", "--name", "Eve")
	if code != exitFailure || !strings.Contains(stderr, "refused the code AAAAAA") || strings.Contains(stderr, "listening on") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, args := range [][]string{
		{"serve", "--classroom", "--follow", p.joinURLs[0] + "?code=" + p.code},
		{"serve", "--name", "Eve"},
		{"serve", "--code", "K7P2QX"},
		{"serve", "--classroom", "--code", "ABC"},
		{"serve", "--classroom", "--code", "K7P2Q!"},
		{"serve", "--follow", p.joinURLs[0]},
	} {
		if code, _, stderr := exe(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d:\n%s", args, code, exitUsage, stderr)
		}
	}
}

// TestServeFollow: two real playgrounds on loopback, an instructor's in
// classroom mode and a student's that follows it. The student's wirelab
// joins with the code and its name (the instructor's dashboard lists
// it), and a tab of the student's own playground that watches
// "instructor" sees the instructor's presented session live: the frame
// the instructor's tab sends and the answer of the instructor's server.
func TestServeFollow(t *testing.T) {
	p := startClassroom(t, t.TempDir(), "--addr", "127.0.0.1:0")
	listening := regexp.MustCompile(`^wirelab: playground server listening on (\S+)$`)
	followingLine := regexp.MustCompile(`^wirelab: following the classroom at `)
	lines := startWirelab(t, t.TempDir(), followingLine,
		"serve", "--no-open", "--addr", "127.0.0.1:0", "--follow", p.joinURLs[0]+"?code="+p.code, "--name", "Ada Lovelace")
	var student string
	for _, l := range lines {
		if m := listening.FindStringSubmatch(l); m != nil {
			student = m[1]
		}
	}
	if student == "" {
		t.Fatalf("the student's wirelab did not say where it listens:\n%s", strings.Join(lines, "\n"))
	}
	if _, body := fetch(t, "GET", p.instructor, "/classroom", nil, ""); !strings.Contains(body, "Ada Lovelace") {
		t.Errorf("the instructor's dashboard does not list the student's wirelab:\n%s", body)
	}

	dialWS := func(base, query string) *websocket.Conn {
		t.Helper()
		conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/ws"+query, http.Header{"Origin": {base}})
		if err != nil {
			t.Fatalf("dialing %s/ws%s: %v %v", base, query, err, resp)
		}
		t.Cleanup(func() { conn.Close() })
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		return conn
	}
	type message struct {
		Op, Status, Dir, Kind, Text, Message string
	}
	// The student's tab watches the instructor, through the student's
	// own playground.
	watcher := dialWS(student, "?watch=instructor")

	// The instructor's tab presents and sends the MCP initialize.
	presenter := dialWS(p.instructor, "")
	var hello message
	if err := presenter.ReadJSON(&hello); err != nil || hello.Op != "hello" {
		t.Fatalf("the instructor's hello: %+v %v", hello, err)
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
		if err := watcher.ReadJSON(&m); err != nil {
			t.Fatalf("the student's tab, waiting for the instructor's session: %v; saw:\n%s", err, strings.Join(seen, "\n"))
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
		t.Errorf("the student's tab saw the answer but not the instructor's frame:\n%s", strings.Join(seen, "\n"))
	}
}
