//go:build !unix

package grade

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the program. Without process groups, programs
// it started itself may outlive it.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
