// This program reads its input and never answers. It also starts a child
// of its own that sleeps forever, and writes both process ids on stderr,
// so that a test can check that grading leaves neither behind.
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		time.Sleep(time.Hour)
		return
	}
	child := exec.Command(os.Args[0], "child")
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "pids %d %d\n", os.Getpid(), child.Process.Pid)
	io.Copy(io.Discard, os.Stdin)
	time.Sleep(time.Hour) // and even at the end of its input, it hangs
}
