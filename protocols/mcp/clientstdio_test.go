package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/tools"
)

// helperEnv, when set, makes TestHelperServer act as a stdio MCP server,
// so that Connect can start this test binary as a real child process.
const helperEnv = "WIRELAB_TEST_MCP_SERVER"

func TestHelperServer(t *testing.T) {
	switch os.Getenv(helperEnv) {
	case "":
		t.Skip("only runs as a child process of TestConnect")
	case "ok":
		srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "child"})
		err := srv.ServeStdio(context.Background(), os.Stdin, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "noisy":
		// The classic stdio mistake: a log line on stdout. Then it exits.
		fmt.Println("server starting on stdio...")
	}
	os.Exit(0)
}

func helperArgv(t *testing.T, mode string) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(helperEnv, mode) // inherited by the child
	// A race-enabled binary sleeps a second at exit unless told not to.
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return []string{exe, "-test.run=^TestHelperServer$"}
}

func TestConnect(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	c, err := Connect(ctx, helperArgv(t, "ok"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.InitializeResult().ServerInfo.Version; got != "child" {
		t.Errorf("serverInfo.version = %q, want child", got)
	}
	res, err := c.CallTool(ctx, "word_count", json.RawMessage(`{"text":"read the wire"}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.StructuredContent); got != `{"words":3,"chars":13}` {
		t.Errorf("structuredContent = %s", got)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v (the child should exit when its stdin closes)", err)
	}
}

func TestConnectNoisyServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	_, err := Connect(ctx, helperArgv(t, "noisy"), nil)
	if err == nil {
		t.Fatal("connected to a server that never answered")
	}
	for _, want := range []string{"stdout closed", "server starting on stdio...", "logs on stderr"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}
