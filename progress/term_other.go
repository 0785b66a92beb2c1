//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package progress

import "os"

// isTerminal is false where the terminal check is not implemented: bars
// there write plain log lines.
func isTerminal(*os.File) bool { return false }
