package workers

import "syscall"

// sysProcAttr puts the worker in its own process group (a terminal's Ctrl-C
// reaches the launcher, which forwards it) and makes the kernel kill it if the
// launcher's thread dies without cleaning up.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
