//go:build unix

package grade

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup starts the program in a process group of its own, so
// that stopping it stops everything it started too: a program that
// starts a child and hangs leaves nothing behind.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup sends SIGKILL to the program's whole process group.
// There is no gentler step: the grade is over, and nothing the program
// does at exit is graded.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}

// ownedByUs reports whether a file belongs to the user running wirelab.
func ownedByUs(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
