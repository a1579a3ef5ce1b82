package grade

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// maxBuildOutput is how much of the compiler's output is kept: the first
// errors are the ones that matter, and go build stops after ten anyway.
const maxBuildOutput = 32 << 10

// build is the first stage of every grade: go build in the learner's
// folder. A build failure is the stage's failure, with the compiler's
// output. folder is the grade's own, where the go command keeps its
// temporary files.
func build(t *T, folder, bin string) error {
	fi, err := os.Stat(t.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f := Failf("there is no folder %s", t.dir)
		f.Hint = HintNoDir
		return f
	case err != nil:
		return Failf("cannot read the folder: %v", err)
	case !fi.IsDir():
		f := Failf("%s is a file, not a folder", t.dir)
		f.Hint = HintNoDir
		return f
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		f := Failf("building needs the Go toolchain, and there is no go command in PATH")
		f.Hint = "Install Go from https://go.dev/dl/ and make sure `go version` works in this terminal."
		return f
	}

	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	cmd.Dir = t.dir
	cmd.Env = goEnv(folder)
	out := &capped{max: maxBuildOutput}
	cmd.Stdout, cmd.Stderr = out, out
	// go build runs the compiler and linker as children; its own process
	// group lets a build that runs out of time be stopped whole.
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting go build: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // ends when the build does, or is killed below
	select {
	case err = <-done:
	case <-t.ctx.Done():
		killProcessGroup(cmd)
		<-done
		if err := t.canceled(); err != nil {
			return err
		}
		f := Failf("go build did not finish within %v", t.limit)
		f.Output = out.String()
		return f
	}
	if err != nil {
		f := Failf("the program does not build: go build failed (%v)", err)
		f.Output = strings.TrimRight(out.String(), "\n")
		switch {
		case strings.Contains(f.Output, "go.mod file not found"):
			f.Hint = HintNoModule
		case strings.Contains(f.Output, "no Go files in"):
			f.Hint = "The folder has no .go files: the exercise's code goes in its own folder, package main."
		}
		return f
	}
	return nil
}

// capped is a writer that keeps the first max bytes written to it.
type capped struct {
	mu  sync.Mutex // guards buf and cut: go build's stdout and stderr write concurrently
	buf bytes.Buffer
	max int
	cut bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room < len(p) {
		c.buf.Write(p[:max(room, 0)])
		c.cut = true
	} else {
		c.buf.Write(p)
	}
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cut {
		return c.buf.String() + "\n[output cut]"
	}
	return c.buf.String()
}
