package chapters_test

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wirelab/wirelab/internal/cli"
	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
)

// asWirelab, set to 1, makes this test binary wirelab itself: the lesson
// "Debugging a real host" runs `wirelab tap` and `wirelab server mcp`,
// and the test runs them as a host would, by name, from PATH.
const asWirelab = "CHAPTERS_TEST_AS_WIRELAB"

func TestMain(m *testing.M) {
	if os.Getenv(asWirelab) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		exe, _ := os.Executable()
		code := cli.Run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Executable: exe})
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// host is a host in a dozen lines: the official Go SDK's client starts
// the server the way a host's configuration does, with wirelab tap in
// front of it. It lists the tools, calls one, and lists them again, as a
// host does when a new conversation starts.
func host(ctx context.Context, record string, server ...string) error {
	tapped := append([]string{"tap", "--record", record, "--"}, server...)
	client := mcp.NewClient(&mcp.Implementation{Name: "my-host", Version: "1"}, nil)
	transport := &mcp.CommandTransport{Command: exec.Command("wirelab", tapped...)}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return err
	}
	defer session.Close()
	if _, err := session.ListTools(ctx, nil); err != nil {
		return err
	}
	args := map[string]any{"text": "read the wire"}
	if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "word_count", Arguments: args}); err != nil {
		return err
	}
	_, err = session.ListTools(ctx, nil)
	return err
}

// hostWait bounds one host's session, which takes well under a second:
// a hung server fails the test instead of hanging it.
const hostWait = 30 * time.Second

// TestHostThroughTap holds the lesson "Debugging a real host" to what
// really happens when the SDK's client above drives a server through
// the tap: against the reference server, nothing to find; against the
// hostile server of testdata/hostile, a poisoned description and a rug
// pull; against two of the tap's planted defects, a host that gives up
// at once (a log line on stdout) and a host that never notices (a
// result without its structuredContent).
func TestHostThroughTap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs servers")
	}
	bin := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "wirelab")); err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"./testdata/hostile", "../internal/cli/testdata/tapdefect"} {
		out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(asWirelab, "1")

	for _, c := range []struct {
		name    string
		server  []string
		hostErr string   // what the host's error says; "" for none
		codes   []string // the findings of tap check, in order
	}{
		{"reference", []string{"wirelab", "server", "mcp"}, "", nil},
		{"hostile", []string{"hostile"}, "", []string{"model-instructions", "tool-changed", "model-instructions"}},
		{"stdout-log", []string{"tapdefect", "-defect", "stdout-log", "wirelab", "server", "mcp"}, "invalid character", []string{"stdout-noise"}},
		{"no-structured", []string{"tapdefect", "-defect", "no-structured", "wirelab", "server", "mcp"}, "", []string{"structured-content-missing"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			record := filepath.Join(t.TempDir(), "host.jsonl")
			ctx, cancel := context.WithTimeout(context.Background(), hostWait)
			defer cancel()
			err := host(ctx, record, c.server...)
			switch {
			case c.hostErr == "" && err != nil:
				t.Errorf("the host failed: %v", err)
			case c.hostErr != "" && (err == nil || !strings.Contains(err.Error(), c.hostErr)):
				t.Errorf("the host's error is %v, want one saying %q", err, c.hostErr)
			}
			f, err := os.Open(record)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			events, err := tap.Read(f)
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, fd := range tapcheck.Check(events).Findings {
				codes = append(codes, fd.Code)
			}
			if diff := cmp.Diff(c.codes, codes); diff != "" {
				t.Errorf("tap check's findings (-want +got):\n%s", diff)
			}
		})
	}
}
