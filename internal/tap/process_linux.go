package tap

import "syscall"

// sysProcAttr starts the server in a process group of its own, so that
// stopping it stops whatever it started, and has the kernel kill it if
// the tap itself is killed (SIGKILL cannot be caught and forwarded): a
// host that kills the tap must not leave the server running.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
