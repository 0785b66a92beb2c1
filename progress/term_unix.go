//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package progress

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether f is a terminal (a /dev/null or a pipe is not).
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlReadTermios)
	return err == nil
}
