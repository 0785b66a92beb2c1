package executor

import "syscall"

// childAttr puts the executor in its own process group and has Linux kill it
// (SIGKILL) when the kernel dies, even while it is stuck in compiled code.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
