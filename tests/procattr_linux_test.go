package tests

import "syscall"

// serverAttr puts a server the tests start in its own process group, and has Linux send it sig
// when the thread that started it ends (the test binary killed before its cleanups ran).
func serverAttr(sig syscall.Signal) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: sig}
}
