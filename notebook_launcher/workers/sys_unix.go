//go:build unix && !linux

package workers

import "syscall"

// sysProcAttr puts the worker in its own process group; Pdeathsig is Linux-only (elsewhere the
// worker leaves when its control pipe closes: internal/workerinfo).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
