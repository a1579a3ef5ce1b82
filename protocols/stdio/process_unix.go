//go:build unix

package stdio

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the child in a process group of its own, so that
// stopping it also stops whatever it started: `go run ./server` runs the
// real server as a grandchild, which would otherwise outlive us.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminate sends SIGTERM to the child's process group.
func terminate(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
}

// kill sends SIGKILL to the child's process group.
func kill(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
