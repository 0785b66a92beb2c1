//go:build unix && !linux

package tests

import "syscall"

// serverAttr puts a server the tests start in its own process group (only Linux has a
// parent-death signal; the tests' cleanups stop it).
func serverAttr(sig syscall.Signal) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
