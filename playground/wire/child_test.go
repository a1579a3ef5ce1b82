package wire

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// misbehave makes the test binary, started as "EXE wirelab-test-child
// MODE ARGS...", a learner's server that goes wrong in one of the ways
// learners' servers do. It reports false for a mode it does not know.
// Each mode first says its pid on stderr, as the well-behaved child does.
func misbehave(args []string) bool {
	if len(args) == 0 {
		return false
	}
	hello := func() { fmt.Fprintf(os.Stderr, "pid=%d args=[]\n", os.Getpid()) }
	in := bufio.NewScanner(os.Stdin)
	switch args[0] {
	case "exit-now": // exits at once with the status given
		hello()
		fmt.Fprintln(os.Stderr, "cannot open config.toml: no such file")
		code, _ := strconv.Atoi(args[1])
		os.Exit(code)
	case "crash-after": // answers N lines, then crashes as a script would
		hello()
		n, _ := strconv.Atoi(args[1])
		for i := 0; i < n && in.Scan(); i++ {
			fmt.Printf("{\"echo\":%q}\n", in.Text())
		}
		fmt.Fprintln(os.Stderr, "Traceback (most recent call last):\nValueError: the server crashed on purpose")
		os.Exit(2)
	case "long-line": // answers a line with 2 MiB and no end, and lives on
		hello()
		in.Scan()
		os.Stdout.Write(bytes.Repeat([]byte("x"), 2<<20))
		for in.Scan() {
		}
		time.Sleep(time.Hour)
	case "ignore-term": // ignores EOF on stdin and SIGTERM
		hello()
		signal.Ignore(syscall.SIGTERM)
		for in.Scan() {
			fmt.Println(`{"ok":true}`)
		}
		time.Sleep(time.Hour)
	case "fork": // starts a grandchild that holds stdout, then exits at EOF
		hello()
		grandchild := exec.Command(os.Args[0], append([]string{customChild, "sleep"}, args[1:]...)...) // with the tag
		grandchild.Stdout, grandchild.Stderr = os.Stdout, os.Stderr
		if err := grandchild.Start(); err != nil {
			panic(err)
		}
		for in.Scan() {
			fmt.Println(`{"ok":true}`)
		}
	case "sleep": // a grandchild that does nothing for an hour
		hello()
		time.Sleep(time.Hour)
	default:
		return false
	}
	os.Exit(0)
	return true
}

// childProcesses lists the pids of the running processes whose command
// line holds the test child's marker and tag, read from /proc.
func childProcesses(t *testing.T, tag string) []int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil || !bytes.Contains(b, []byte(customChild)) || !bytes.Contains(b, []byte(tag)) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(filepath.Dir(d), "stat"))
		if err == nil && strings.Contains(string(stat), ") Z ") {
			continue // a zombie is not running; its parent reaps it
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		pids = append(pids, pid)
	}
	return pids
}

// TestChildEnds: however a learner's stdio server ends, the playground
// stops it, releases its slot, says how it ended, and starts a fresh one
// on the next frame; after the tab and the hub close, no process of
// theirs is left.
func TestChildEnds(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc to count processes")
	}
	for _, tt := range []struct {
		mode   string
		frames int      // frames sent to one child before it ends
		stop   bool     // the test restarts it; otherwise it ends by itself
		want   []string // in the exit note
	}{
		{mode: "exit-now 3", frames: 1, want: []string{"it exited (exit status 3)", "cannot open config.toml", "the next frame starts it again"}},
		{mode: "crash-after 2", frames: 3, want: []string{"it exited (exit status 2)", "the server crashed on purpose"}},
		{mode: "long-line", frames: 1, want: []string{"longer than 1048576 bytes", "the next frame starts it again"}},
		{mode: "ignore-term", frames: 1, stop: true, want: []string{"the server was stopped (signal: killed)"}},
		// It exits at EOF, or at SIGTERM when that takes longer than the
		// grace (under the race detector): either way, stopped, with its
		// grandchild gone too.
		{mode: "fork", frames: 1, stop: true, want: []string{"the server was stopped ("}},
	} {
		t.Run(strings.Fields(tt.mode)[0], func(t *testing.T) {
			tag := fmt.Sprintf("tag-%d", time.Now().UnixNano())
			h := newTestHub(t, Targets{})
			h.frameRate, h.frameBurst = 1000, 1000 // a crash a round, not a learner's pace
			srv := serveHub(t, h, "")
			conn := dial(t, srv)
			readHello(t, conn)
			cmdline := shellQuote(os.Args[0]) + " " + customChild + " " + tt.mode + " " + tag
			// Twice as many lives as the hub has slots: a slot that is
			// not released shows as a refusal before the end.
			rounds := maxChildren + 4
			if tt.stop {
				rounds = 3 // each of these takes a grace period or two
			}
			id := int64(0)
			for round := range rounds {
				for range tt.frames {
					id++
					send(t, conn, Command{Op: "send", ID: id, Target: "custom-stdio", To: cmdline, Frame: `{"n":1}`})
				}
				if tt.stop {
					next(t, conn, func(ev Event) bool { return ev.Dir == "in" })
					send(t, conn, Command{Op: "restart", Target: "custom-stdio", To: cmdline})
				}
				ev := next(t, conn, func(ev Event) bool { return ev.Kind == "exit" })
				for _, want := range tt.want {
					if !strings.Contains(ev.Text, want) {
						t.Fatalf("round %d: exit note %q, want it to say %q", round, ev.Text, want)
					}
				}
			}
			waitFor(t, func() bool { return h.childCount() == 0 })
			conn.Close()
			waitFor(t, func() bool { return h.sessionCount() == 0 })
			if left := childProcesses(t, tag); len(left) > 0 {
				t.Errorf("processes %v still run after their tab closed", left)
			}
		})
	}
}

// TestShutdownStopsStubbornChildren: closing the hub while tabs run
// children that ignore EOF and SIGTERM, or left a grandchild behind,
// returns, and leaves no process behind.
func TestShutdownStopsStubbornChildren(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc to count processes")
	}
	tag := fmt.Sprintf("tag-%d", time.Now().UnixNano())
	h, srv := startHub(t, Targets{})
	for i, mode := range []string{"ignore-term", "fork"} {
		conn := dial(t, srv)
		readHello(t, conn)
		send(t, conn, Command{Op: "send", ID: int64(i), Target: "custom-stdio", To: shellQuote(os.Args[0]) + " " + customChild + " " + mode + " " + tag, Frame: `{"n":1}`})
		next(t, conn, func(ev Event) bool { return ev.Dir == "err" })
	}
	waitFor(t, func() bool { return len(childProcesses(t, tag)) >= 3 }) // fork's grandchild too
	h.Close()
	if left := childProcesses(t, tag); len(left) > 0 {
		t.Errorf("processes %v still run after the hub closed", left)
	}
	if n := h.childCount(); n != 0 {
		t.Errorf("%d child slots still taken", n)
	}
}
