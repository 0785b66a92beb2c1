//go:build unix

package cli

import (
	"runtime"
	"syscall"
)

// machineLimits returns this process's open-file limit (which the workers,
// Go programs too, raise to the same hard limit) and its core count.
func machineLimits() (fileLimit uint64, cores int) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 1 << 20, runtime.NumCPU()
	}
	return rl.Cur, runtime.NumCPU()
}
