//go:build !linux

package workers

import "syscall"

// sysProcAttr puts the worker in its own process group; Pdeathsig is Linux-only.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
