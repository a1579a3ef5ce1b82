//go:build unix

package progress

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path, creating it if needed, and
// returns the function that releases it. The lock is advisory: it only
// keeps out other wirelab processes, which is all it is for.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
