//go:build !linux

package procgroup

import "syscall"

// sysProcAttr puts the worker in its own process group; Pdeathsig is Linux-only.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
