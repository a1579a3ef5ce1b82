// This program exits at once, before reading anything.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "giving up before starting")
	os.Exit(3)
}
