package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestServeOutlivesCrashingServers is a learner's first hour with their
// own stdio server, against the real binary: it crashes at start, again
// and again, more times than wirelab has slots for children; then one
// that ignores SIGTERM and has a child of its own runs. Each crash is
// told with its exit status and stderr, each next Send starts it afresh,
// and Ctrl-C still ends wirelab, leaving no process behind.
func TestServeOutlivesCrashingServers(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc to count processes")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("needs sh")
	}
	tag := fmt.Sprintf("wirelab-test-%d", time.Now().UnixNano())
	cmd := exec.Command(wirelabBin, "serve", "--no-open", "--addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	url := ""
	for url == "" && lines.Scan() {
		url, _ = strings.CutPrefix(lines.Text(), "wirelab: playground server listening on ")
	}
	if url == "" {
		t.Fatal("serve never said where it listens")
	}
	go func() { // ends when serve exits and its stderr closes
		for lines.Scan() {
		}
	}()

	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(url, "http")+"/ws", http.Header{"Origin": {url}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	type event struct{ Op, Kind, Dir, Text, Message string }
	until := func(match func(event) bool) event {
		t.Helper()
		for {
			var ev event
			if err := conn.ReadJSON(&ev); err != nil {
				t.Fatalf("reading the tab's events: %v", err)
			}
			if ev.Op == "error" {
				t.Fatalf("refused: %s", ev.Message)
			}
			if match(ev) {
				return ev
			}
		}
	}
	crashing := sh + ` -c 'echo cannot open config.toml >&2; exit 3' ` + tag
	// More crashes than there are slots for children (32), and, with the
	// send below, fewer frames than a tab may send at once (40).
	for i := range 36 {
		conn.WriteJSON(map[string]any{"op": "send", "id": i, "target": "custom-stdio", "to": crashing, "frame": "{}"})
		ev := until(func(ev event) bool { return ev.Kind == "exit" })
		if !strings.Contains(ev.Text, "exit status 3") || !strings.Contains(ev.Text, "cannot open config.toml") {
			t.Fatalf("crash %d was told as %q", i, ev.Text)
		}
	}
	// A shell that ignores SIGTERM, starting one more that does too.
	stubborn := sh + ` -c 'trap "" TERM; echo up >&2; ` + sh + ` -c "trap \"\" TERM; sleep 1000; :" ` + tag + `-child; :' ` + tag
	conn.WriteJSON(map[string]any{"op": "send", "id": 100, "target": "custom-stdio", "to": stubborn, "frame": "{}"})
	until(func(ev event) bool { return ev.Dir == "err" && strings.Contains(ev.Text, "up") })
	for deadline := time.Now().Add(time.Minute); len(processesTagged(tag)) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d processes of the stubborn server run, want it and its child", len(processesTagged(tag)))
		}
	}

	cmd.Process.Signal(syscall.SIGINT)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("serve after Ctrl-C: %v, want a clean exit", err)
		}
	case <-time.After(time.Minute): // a guard against hanging, not a measurement
		t.Fatal("serve still runs a minute after Ctrl-C")
	}
	if left := processesTagged(tag); len(left) > 0 {
		t.Errorf("processes %v outlived serve", left)
	}
}

// processesTagged lists the running processes whose command line holds
// tag, from /proc.
func processesTagged(tag string) []string {
	var found []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(b, []byte(tag)) {
			continue
		}
		if stat, err := os.ReadFile(strings.TrimSuffix(f, "cmdline") + "stat"); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue // a zombie is not running
			}
		}
		found = append(found, f)
	}
	return found
}
