// This program writes to stdout without end and without a newline.
package main

import (
	"bytes"
	"os"
)

func main() {
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	for {
		if _, err := os.Stdout.Write(chunk); err != nil {
			return
		}
	}
}
