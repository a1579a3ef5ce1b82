//go:build !unix

package stdio

import (
	"errors"
	"os/exec"
)

func setProcessGroup(cmd *exec.Cmd) {}

// terminate has no gentle form here; kill follows.
func terminate(cmd *exec.Cmd) error { return errors.New("no SIGTERM on this system") }

func kill(cmd *exec.Cmd) { cmd.Process.Kill() }
