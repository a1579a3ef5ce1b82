// This program never reads its stdin, and never exits.
package main

import (
	"fmt"
	"os"
	"time"
)

func main() {
	fmt.Fprintf(os.Stderr, "pids %d\n", os.Getpid())
	time.Sleep(time.Hour)
}
