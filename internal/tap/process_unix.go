//go:build unix

package tap

import (
	"os"
	"os/exec"
	"syscall"
)

// terminateSignal asks a server to stop.
var terminateSignal os.Signal = syscall.SIGTERM

// signalGroup sends sig to the server's process group: the server was
// started in a group of its own, so a terminal's Ctrl-C no longer reaches
// it by itself.
func signalGroup(cmd *exec.Cmd, sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(-cmd.Process.Pid, s)
	}
}

// kill sends SIGKILL to the server's process group.
func kill(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// signalNumber says which signal ended the process, if one did.
func signalNumber(ps *os.ProcessState) (int, bool) {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	return int(ws.Signal()), true
}
