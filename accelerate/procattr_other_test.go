//go:build unix && !linux

package accelerate

import "syscall"

// childAttr puts a test's child process in its own group (only Linux has a parent-death signal:
// the test's deferred kill stops it).
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
