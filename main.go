// Command wirelab teaches the protocols that connect AI agents to tools by
// letting people watch and touch the real wire. See README.md, or run
// `wirelab help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/cli/browser"

	"github.com/wirelab/wirelab/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	exe, _ := os.Executable()
	code := cli.Run(ctx, os.Args[1:], cli.Env{
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		OpenBrowser: browser.OpenURL,
		Executable:  exe,
	})
	stop()
	os.Exit(code)
}
