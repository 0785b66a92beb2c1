package shm

import (
	"syscall"
	"time"
	"unsafe"
)

// Dir is the folder of region files: /dev/shm, memory the kernel never writes to disk.
func Dir() string { return "/dev/shm" }

// platformWaiter sleeps on a futex, which arrive wakes.
func platformWaiter() waiter { return futexWaiter{} }

// futexWaiter waits on the low 32 bits of a peer's sequence number (little-endian), at most
// 10 ms at a time.
type futexWaiter struct{}

func (futexWaiter) wait(p *uint64, v uint64) {
	ts := syscall.Timespec{Nsec: int64(10 * time.Millisecond)}
	futex(unsafe.Pointer(p), futexWait, uint32(v), &ts)
}

func (futexWaiter) wake(p *uint64) { futex(unsafe.Pointer(p), futexWake, 1<<30, nil) }

const (
	futexWait = 0
	futexWake = 1
)

func futex(addr unsafe.Pointer, op int, val uint32, ts *syscall.Timespec) {
	syscall.Syscall6(syscall.SYS_FUTEX, uintptr(addr), uintptr(op), uintptr(val), uintptr(unsafe.Pointer(ts)), 0, 0)
}
