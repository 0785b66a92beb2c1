package accelerate

import "syscall"

// childAttr puts a test's child process in its own group and kills it with the test binary.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
