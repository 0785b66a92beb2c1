//go:build amd64 || arm64

package profiling

// getg returns the address of the running goroutine's runtime structure: a few
// nanoseconds, where its number (goroutineID) costs a stack trace. The runtime reuses the
// structure of a goroutine that ended for a new one.
func getg() uintptr
