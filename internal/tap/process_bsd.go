//go:build unix && !linux

package tap

import "syscall"

// sysProcAttr starts the server in a process group of its own, so that
// stopping it stops whatever it started.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
