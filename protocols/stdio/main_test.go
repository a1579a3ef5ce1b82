package stdio

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/tools"
)

// serverEnv, when set, makes the test binary act as a stdio server instead
// of running tests, so tests can start a real child process. Its value
// picks the behaviour: "ok" is the real server; the others misbehave the
// way real servers do.
const serverEnv = "WIRELAB_TEST_STDIO_SERVER"

func TestMain(m *testing.M) {
	mode := os.Getenv(serverEnv)
	if mode == "" {
		os.Exit(m.Run())
	}
	os.Exit(fakeServer(mode))
}

func fakeServer(mode string) int {
	switch mode {
	case "ok":
		max, _ := strconv.Atoi(os.Getenv("WIRELAB_TEST_MAX_LINE"))
		cat := tools.New(&tools.Options{DeployStep: time.Millisecond})
		log := slog.New(slog.NewTextHandler(os.Stderr, nil))
		if err := NewServer(cat, &ServerOptions{MaxLine: max, Log: log}).Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "noisy":
		// Prints a log line on stdout, the classic stdio mistake, and
		// then never answers.
		fmt.Println("server starting on stdio...")
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "stubborn":
		// Ignores EOF on stdin and SIGTERM; only SIGKILL stops it.
		signal.Ignore(syscall.SIGTERM)
		fmt.Fprintln(os.Stderr, "ignoring SIGTERM") // the test waits for this
		io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour) // select{} would trip the runtime's deadlock check
		return 0
	case "crash":
		// Exits after reading the first request, without answering.
		bufio.NewReader(os.Stdin).ReadString('\n')
		fmt.Fprintln(os.Stderr, "panic: something broke")
		return 2
	}
	fmt.Fprintln(os.Stderr, "unknown mode", mode)
	return 3
}

// serverArgv returns a command that runs this test binary as a server.
func serverArgv(t testing.TB, mode string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(serverEnv, mode)
	return []string{exe}
}
