package shm

import "os"

// Dir is the folder of region files: the user's temporary folder (macOS has no /dev/shm, and
// its POSIX shm_open is reached only through libc). The file is unlinked once every rank mapped
// it.
func Dir() string { return os.TempDir() }

// platformWaiter sleeps in short steps: Go cannot call macOS's futex-like __ulock_wait.
func platformWaiter() waiter { return sleepWaiter{} }
