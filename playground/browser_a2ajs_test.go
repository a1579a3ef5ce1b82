package playground

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The A2A console against an agent wirelab did not write: one built with
// the official A2A JavaScript SDK (@a2a-js/sdk), testdata/a2a-js-agent/
// agent.mjs, run on the Node and SDK that .ci/a2a-js-install puts in a
// cache directory (the test skips, saying so, when they are not there).

// a2aJSEnv names a directory that holds the installed SDK
// (node_modules/.bin/node and node_modules/@a2a-js/sdk), in place of the
// cache .ci/a2a-js-install writes.
const a2aJSEnv = "WIRELAB_A2A_JS"

// a2aJS returns the directory of an installed SDK, or skips the test.
func a2aJS(t *testing.T) string {
	t.Helper()
	dirs := []string{os.Getenv(a2aJSEnv)}
	if os.Getenv(a2aJSEnv) == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		found, _ := filepath.Glob(filepath.Join(cache, "wirelab", "a2a-js", "*", ".installed"))
		dirs = nil
		for _, f := range found {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		_, errNode := os.Stat(filepath.Join(dirs[i], "node_modules", ".bin", "node"))
		_, errSDK := os.Stat(filepath.Join(dirs[i], "node_modules", "@a2a-js", "sdk", "package.json"))
		if errNode == nil && errSDK == nil {
			return dirs[i]
		}
	}
	if d := os.Getenv(a2aJSEnv); d != "" {
		// CI installed it and named the directory: missing, it is a failure.
		t.Fatalf("%s=%s holds no node_modules/.bin/node and node_modules/@a2a-js/sdk", a2aJSEnv, d)
	}
	t.Skipf("@a2a-js/sdk is not installed: run .ci/a2a-js-install (it needs npm once), or set %s to a directory holding its node_modules", a2aJSEnv)
	return ""
}

// startA2AJSAgent runs testdata/a2a-js-agent/agent.mjs on the installed
// SDK and returns its base URL; it stops when the test ends. Node finds a
// module's imports in a node_modules beside it, so the agent is copied
// into a directory whose node_modules is the install's.
func startA2AJSAgent(t *testing.T) string {
	t.Helper()
	sdk := a2aJS(t)
	src, err := os.ReadFile(filepath.Join("testdata", "a2a-js-agent", "agent.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.mjs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(sdk, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(sdk, "node_modules", ".bin", "node"), filepath.Join(dir, "agent.mjs"), "0")
	cmd.Stderr = &tailWriter{} // kept for a failure message
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// The agent prints its base URL once it listens.
	base := make(chan string, 1)
	// Ends when the agent's stdout closes, at its end.
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "http://") {
				select {
				case base <- line:
				default:
				}
			}
		}
		close(base)
	}()
	select {
	case url, ok := <-base:
		if !ok {
			t.Fatalf("the agent exited before it listened; its stderr:\n%s", cmd.Stderr.(*tailWriter).String())
		}
		return url
	case <-time.After(browserStart):
		t.Fatalf("the agent did not say it listens within %v; its stderr:\n%s", browserStart, cmd.Stderr.(*tailWriter).String())
	}
	return ""
}

// savedRow is true once one row from the agent, as the A2A console
// keeps it, holds every piece of text.
func savedRow(texts ...string) string {
	all := make([]string, len(texts))
	for i, text := range texts {
		all[i] = fmt.Sprintf(`(r.text || "").includes(%s)`, jsString(text))
	}
	return `(JSON.parse(localStorage.getItem("wirelab.console.a2a") || "{}").rows || []).some(r => r.dir === "in" && ` + strings.Join(all, " && ") + `)`
}

// tailWriter keeps the last tailSize bytes written to it.
type tailWriter struct {
	mu sync.Mutex // guards b
	b  []byte
}

// tailSize is as much of an agent's stderr as a failure message shows:
// its last error, not its whole log.
const tailSize = 4096

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > tailSize {
		w.b = w.b[len(w.b)-tailSize:]
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.b)
}

// TestBrowserOwnA2AJS: the console reads the JS agent's card by its URL
// (the card and its answer are rows of the transcript), learns the
// JSON-RPC endpoint the card names at a path of its own, and offers the
// card's skills as templates; the shout skill's task completes, and the
// order skill's task asks for input, which a second message on the same
// task (the {{task}} the console learnt) gives, and then completes.
func TestBrowserOwnA2AJS(t *testing.T) {
	base := startA2AJSAgent(t)
	b := openBrowser(t)
	b.open("/console/a2a")
	b.choose("target", "custom-http")
	b.setTo(base + "/.well-known/agent-card.json")
	b.text(`(document.getElementById("own-declared").click(), "")`) // a script click: the page scrolls as rows come, and a mouse click may land beside
	b.waitUntil("the card is read", `document.getElementById("own-status").textContent.includes("endpoint `+base+`/a2a/jsonrpc")`, ownDump)
	if got := b.text(messageRows + `.find(r => r.dataset.dir === "out").querySelector(".summary").textContent`); !strings.HasPrefix(got, "GET /.well-known/agent-card.json HTTP/1.1") {
		t.Errorf("the card was asked for as %q", got)
	}
	b.expect("the card is in the transcript", rowHas("in", "200 OK · Shouting Barista"), ownDump)
	b.expect("the card is kept with its skills", savedIn("a2a", `"name":"Shouting Barista"`), ownDump)

	b.chooseOwn("SendMessage Shout")
	frame := b.text(`document.getElementById("composer").value`)
	for _, want := range []string{"POST /a2a/jsonrpc HTTP/1.1\n", "A2A-Version: 1.0\n", `"method":"SendMessage"`, `"role":"ROLE_USER"`, `"parts":[{"text":"read the wire"}]`} {
		if !strings.Contains(frame, want) {
			t.Errorf("the Shout template lacks %q:\n%s", want, frame)
		}
	}
	b.click("#send")
	b.waitUntil("the shout task completes", savedRow(`"id":100,`, `TASK_STATE_COMPLETED`), ownDump)
	b.expect("the agent shouts", savedRow(`"id":100,`, `"text":"READ THE WIRE"`), ownDump)

	b.chooseOwn("SendMessage Order coffee")
	b.click("#send")
	b.waitUntil("the order task asks for input", savedRow(`"id":101,`, `TASK_STATE_INPUT_REQUIRED`, `Which size`), ownDump)

	// The answer goes on the same task: the declared template for it,
	// sent to the endpoint the card names, with {{task}} filled from the
	// agent's answer.
	b.chooseOwn("SendMessage: answer the task waiting for input")
	frame = b.text(`document.getElementById("composer").value`)
	if !strings.HasPrefix(frame, "POST /a2a/jsonrpc HTTP/1.1\n") || !strings.Contains(frame, `"taskId":"`) {
		t.Errorf("the answer does not go to the card's endpoint, on the task:\n%s", frame)
	}
	b.setComposer(strings.Replace(frame, `"text":""`, `"text":"large"`, 1))
	b.click("#send")
	b.waitUntil("the task completes with the order", savedRow(`One large coffee, coming up.`, `TASK_STATE_COMPLETED`), ownDump)
	if got := b.text(`document.getElementById("composer").value`); strings.Contains(got, "{{task}}") {
		t.Errorf("the answer went without the task's id:\n%s", got)
	}
}
