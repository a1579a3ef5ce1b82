package cli

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorilla/websocket"
)

func TestJoinURLs(t *testing.T) {
	machine := []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("2001:db8::5"), net.ParseIP("203.0.113.9"),
		net.ParseIP("fe80::1"), net.ParseIP("192.168.1.20"), net.ParseIP("::1"), net.ParseIP("10.0.0.3")}
	for _, tt := range []struct {
		name string
		addr *net.TCPAddr
		want []string
	}{
		{"every address: private IPv4 first, then IPv4, then IPv6; no loopback, no link-local",
			&net.TCPAddr{IP: net.IPv4zero, Port: 8080},
			[]string{"http://192.168.1.20:8080/join", "http://10.0.0.3:8080/join", "http://203.0.113.9:8080/join", "http://[2001:db8::5]:8080/join"}},
		{"[::] is every address too", &net.TCPAddr{IP: net.IPv6unspecified, Port: 80},
			[]string{"http://192.168.1.20:80/join", "http://10.0.0.3:80/join", "http://203.0.113.9:80/join", "http://[2001:db8::5]:80/join"}},
		{"one address", &net.TCPAddr{IP: net.ParseIP("192.168.1.20"), Port: 8080}, []string{"http://192.168.1.20:8080/join"}},
		{"loopback: this machine only", &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080}, []string{"http://127.0.0.1:8080/join"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, joinURLs(tt.addr, machine)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// classroomProcess is a running `wirelab serve --classroom`, as its
// stderr announced it.
type classroomProcess struct {
	joinURLs   []string
	code       string
	instructor string // the instructor's pages, http://127.0.0.1:PORT
}

var (
	joinLine       = regexp.MustCompile(`^wirelab: classroom: students join at (\S+)$`)
	codeLine       = regexp.MustCompile(`^wirelab: classroom: the join code is ([A-Z0-9]{6,})$`)
	instructorLine = regexp.MustCompile(`^wirelab: classroom: your pages, on this machine: (\S+)/ `)
)

// startClassroom runs `wirelab serve --no-open --classroom` with args,
// with a wirelab home of its own, and reads what it announces.
func startClassroom(t *testing.T, home string, args ...string) classroomProcess {
	t.Helper()
	var p classroomProcess
	for _, line := range startWirelab(t, home, instructorLine, append([]string{"serve", "--no-open", "--classroom"}, args...)...) {
		if m := joinLine.FindStringSubmatch(line); m != nil {
			p.joinURLs = append(p.joinURLs, m[1])
		}
		if m := codeLine.FindStringSubmatch(line); m != nil {
			p.code = m[1]
		}
		if m := instructorLine.FindStringSubmatch(line); m != nil {
			p.instructor = m[1]
		}
	}
	if p.code == "" || len(p.joinURLs) == 0 {
		t.Fatalf("%v announced no code or join URL", args)
	}
	return p
}

// startWirelab runs wirelab with args and a wirelab home of its own, and
// returns the lines of its stderr up to the first that matches until.
// The process gets SIGTERM at the end of the test, and must then exit
// cleanly.
func startWirelab(t *testing.T, home string, until *regexp.Regexp, args ...string) []string {
	t.Helper()
	cmd := exec.Command(wirelabBin, args...)
	cmd.Env = append(os.Environ(), "WIRELAB_HOME="+home)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A process that never prints the line is killed, which ends the
	// reading below: a guard against hanging, not a measurement.
	guard := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	var seen []string
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		seen = append(seen, lines.Text())
		if until.MatchString(lines.Text()) {
			break
		}
	}
	if !guard.Stop() || len(seen) == 0 || !until.MatchString(seen[len(seen)-1]) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%v never printed a line like %s:\n%s", args, until, strings.Join(seen, "\n"))
	}
	go io.Copy(io.Discard, stderr) // ends when the process exits
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("%v after SIGTERM: %v, want a clean exit", args, err)
		}
	})
	return seen
}

// fetch sends a request the way a page at base would (its Origin on a
// POST), with a follower's cookie if given, following no redirect.
func fetch(t *testing.T, method, base, path string, form url.Values, cookie string) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Origin", base)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if cookie != "" {
		req.Header.Set("Cookie", "wirelab-follower="+cookie)
	}
	client := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// followerCookie is the follower cookie a join set, or "".
func followerCookie(resp *http.Response) string {
	for _, c := range resp.Cookies() {
		if c.Name == "wirelab-follower" {
			return c.Value
		}
	}
	return ""
}

// TestServeClassroomLoopback: the real binary in classroom mode on
// loopback: it announces the join URL and the code, the home page shows
// them with the QR code, and a join over HTTP sets the cookie. Every
// request here comes from this machine, so every page is the
// instructor's.
func TestServeClassroomLoopback(t *testing.T) {
	home := t.TempDir()
	p := startClassroom(t, home, "--addr", "127.0.0.1:0", "--code", "class-room7")
	if p.code != "CLASSROOM7" {
		t.Errorf("the code is %s, want the instructor's own, CLASSROOM7", p.code)
	}
	base := strings.TrimSuffix(p.joinURLs[0], "/join")
	if base != p.instructor {
		t.Errorf("join URL %s, instructor's %s: one server on loopback", p.joinURLs[0], p.instructor)
	}
	resp, body := fetch(t, "GET", p.instructor, "/", nil, "")
	for _, want := range []string{p.code, p.joinURLs[0], `src="/classroom/qr.png?n=0"`} {
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("the home page (%d) lacks %q", resp.StatusCode, want)
		}
	}
	if resp, _ := fetch(t, "GET", p.instructor, "/classroom/qr.png", nil, ""); resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("the QR code: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, _ = fetch(t, "POST", base, "/join", url.Values{"code": {strings.ToLower(p.code)}, "name": {"Ada"}}, "")
	if resp.StatusCode != http.StatusSeeOther || followerCookie(resp) == "" {
		t.Fatalf("joining: %d, cookie %q", resp.StatusCode, followerCookie(resp))
	}
	if _, body := fetch(t, "GET", p.instructor, "/classroom", nil, ""); !strings.Contains(body, "Ada") {
		t.Errorf("the dashboard does not list Ada:\n%s", body)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("the classroom wrote in the wirelab home unasked: %v", entries)
	}
}

// machineIPv4 is an IPv4 address of this machine that is not loopback,
// or nil.
func machineIPv4() net.IP {
	for _, ip := range machineAddrs() {
		if ip.To4() != nil && !ip.IsLoopback() && !ip.IsLinkLocalUnicast() {
			return ip
		}
	}
	return nil
}

// TestServeClassroomRemote: the real binary in classroom mode on an
// address of this machine that is not loopback, plus 127.0.0.1 for the
// instructor. A request to the room's address comes from that address,
// not from loopback: it is a student's laptop as far as the playground
// can tell. It gets only the join page until it joins over HTTP; then
// it reads the pages, and is refused grading and the dashboard.
func TestServeClassroomRemote(t *testing.T) {
	ip := machineIPv4()
	if ip == nil {
		t.Skip("this machine has no IPv4 address but loopback: no second machine to be")
	}
	p := startClassroom(t, t.TempDir(), "--addr", net.JoinHostPort(ip.String(), "0"))
	if len(p.joinURLs) != 1 || !strings.HasPrefix(p.joinURLs[0], "http://"+ip.String()+":") {
		t.Fatalf("join URLs %v, want one at %s", p.joinURLs, ip)
	}
	room := strings.TrimSuffix(p.joinURLs[0], "/join")
	if !strings.HasPrefix(p.instructor, "http://127.0.0.1:") || p.instructor[len("http://127.0.0.1"):] != room[len("http://"+ip.String()):] {
		t.Fatalf("instructor's pages at %s, the room's at %s: want 127.0.0.1 on the same port", p.instructor, room)
	}

	// From the room's address, without the code.
	resp, _ := fetch(t, "GET", room, "/learn/", nil, "")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/join?") {
		t.Errorf("GET /learn/ without the code: %d %s, want a redirect to /join", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, body := fetch(t, "GET", room, "/join", nil, ""); resp.StatusCode != http.StatusOK || !strings.Contains(body, `action="/join"`) {
		t.Errorf("the join page: %d", resp.StatusCode)
	}
	ws := "ws" + strings.TrimPrefix(room, "http") + "/ws"
	if _, resp, err := websocket.DefaultDialer.Dial(ws, http.Header{"Origin": {room}}); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a websocket without the code: %v %v, want 401", resp, err)
	}
	if resp, _ := fetch(t, "POST", room, "/join", url.Values{"code": {"AAAAAA"}, "name": {"Eve"}}, ""); resp.StatusCode != http.StatusForbidden || followerCookie(resp) != "" {
		t.Errorf("a wrong code: %d, cookie %q", resp.StatusCode, followerCookie(resp))
	}

	// The Host and Origin checks stay on: the room's address is allowed,
	// another name for it (DNS rebinding) or another site's page is not,
	// code or no code.
	req, _ := http.NewRequest("GET", room+"/join", nil)
	req.Host = "evil.example"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a request for another host: %v %v, want 421", resp, err)
	} else {
		resp.Body.Close()
	}
	req, _ = http.NewRequest("POST", room+"/join", strings.NewReader(url.Values{"code": {p.code}, "name": {"Mallory"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden || followerCookie(resp) != "" {
		t.Errorf("a join from another site's page: %v %v, want 403 and no cookie", resp, err)
	} else {
		resp.Body.Close()
	}

	// With the code.
	resp, _ = fetch(t, "POST", room, "/join", url.Values{"code": {p.code}, "name": {"Ada"}, "next": {"/learn/"}}, "")
	cookie := followerCookie(resp)
	if resp.StatusCode != http.StatusSeeOther || cookie == "" || resp.Header.Get("Location") != "/learn/" {
		t.Fatalf("joining: %d, cookie %q, Location %q", resp.StatusCode, cookie, resp.Header.Get("Location"))
	}
	if resp, body := fetch(t, "GET", room, "/", nil, cookie); resp.StatusCode != http.StatusOK || strings.Contains(body, p.code) {
		t.Errorf("a follower's home page: %d; shows the code: %v", resp.StatusCode, strings.Contains(body, p.code))
	}
	conn, resp, err := websocket.DefaultDialer.Dial(ws, http.Header{"Origin": {room}, "Cookie": {"wirelab-follower=" + cookie}})
	if err != nil {
		t.Fatalf("a follower's websocket: %v %v", resp, err)
	}
	var hello struct {
		Op    string
		Local bool
	}
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	if err := conn.ReadJSON(&hello); err != nil || hello.Op != "hello" || hello.Local {
		t.Errorf("a follower's hello: %+v %v, want not local", hello, err)
	}
	conn.Close()
	for _, path := range []string{"/exercises/stdio-server/grade", "/classroom/log"} {
		if resp, body := fetch(t, "POST", room, path, nil, cookie); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST %s by a follower: %d %s", path, resp.StatusCode, body)
		}
	}
	if resp, _ := fetch(t, "GET", room, "/classroom", nil, cookie); resp.StatusCode != http.StatusForbidden {
		t.Errorf("the dashboard for a follower: %d", resp.StatusCode)
	}

	// The instructor, on this machine.
	if resp, body := fetch(t, "GET", p.instructor, "/classroom", nil, ""); resp.StatusCode != http.StatusOK || !strings.Contains(body, "Ada") || !strings.Contains(body, p.code) {
		t.Errorf("the instructor's dashboard: %d, lists Ada: %v", resp.StatusCode, strings.Contains(body, "Ada"))
	}
}
