//go:build !unix

package tap

import (
	"os"
	"os/exec"
	"syscall"
)

// Without process groups and signals, stopping is killing.
var terminateSignal os.Signal = os.Kill

func sysProcAttr() *syscall.SysProcAttr { return nil }

func signalGroup(cmd *exec.Cmd, sig os.Signal) { cmd.Process.Signal(sig) }

func kill(cmd *exec.Cmd) { cmd.Process.Kill() }

func signalNumber(ps *os.ProcessState) (int, bool) { return 0, false }
