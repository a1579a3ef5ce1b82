package cli

import (
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestServeClassroomSaysWhoReaches: a classroom on every address is
// reachable from other machines by choice, so the real binary says who
// may reach it and what they may do, not the warning for an address
// chosen by mistake; without --classroom, the same address still gets
// the warning.
func TestServeClassroomSaysWhoReaches(t *testing.T) {
	// Go listens on [::] for 0.0.0.0 where the machine has IPv6.
	reaches := regexp.MustCompile(`^wirelab: classroom: (0\.0\.0\.0|\[::\]):\d+ is reachable from other machines: browsers with the join code follow, read-only; `)
	lines := startWirelab(t, t.TempDir(), instructorLine, "serve", "--no-open", "--classroom", "--addr", "0.0.0.0:0")
	said := false
	for _, line := range lines {
		if strings.Contains(line, "WARNING") {
			t.Errorf("the classroom warns: %s", line)
		}
		said = said || reaches.MatchString(line)
	}
	if !said {
		t.Errorf("the classroom never said who reaches it:\n%s", strings.Join(lines, "\n"))
	}

	listening := regexp.MustCompile(`^wirelab: playground server listening on `)
	lines = startWirelab(t, t.TempDir(), listening, "serve", "--no-open", "--addr", "0.0.0.0:0")
	warning := regexp.MustCompile(`^wirelab: WARNING: (0\.0\.0\.0|\[::\]):\d+ is reachable from other machines; use 127\.0\.0\.1 unless you mean it$`)
	if len(lines) < 2 || !warning.MatchString(lines[len(lines)-2]) {
		t.Errorf("serve --addr 0.0.0.0:0 without --classroom, before it listens:\n%s\nwant the warning", strings.Join(lines, "\n"))
	}
}

// TestClassroomLoopbackPortTaken: a classroom on one address of this
// machine serves the instructor's pages on 127.0.0.1 at the same port;
// when another program holds that, the classroom does not start, and
// says why, rather than print that program's address as the
// instructor's.
func TestClassroomLoopbackPortTaken(t *testing.T) {
	var lan string
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			lan = n.IP.String()
			break
		}
	}
	if lan == "" {
		t.Skip("skipping: this machine has no IPv4 address beside loopback")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := strconv.Itoa(taken.Addr().(*net.TCPAddr).Port)
	code, _, stderr := exe(t, "", "serve", "--no-open", "--classroom", "--addr", net.JoinHostPort(lan, port))
	if code == 0 || !strings.Contains(stderr, "127.0.0.1 at the port of") || strings.Contains(stderr, "your pages, on this machine") {
		t.Errorf("exit %d, stderr:\n%s\nwant a refusal that names the taken port", code, stderr)
	}
}
