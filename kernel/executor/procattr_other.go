//go:build !linux

package executor

import "syscall"

// childAttr puts the executor in its own process group. Only Linux has a
// parent-death signal; elsewhere the request pipe is the child's lifeline:
// when the kernel dies, however it dies, the pipe's write end closes, and
// Child.Serve returns (within 100 ms when a cell is stuck in compiled code),
// which ends the process.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
