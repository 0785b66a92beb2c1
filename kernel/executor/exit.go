package executor

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
)

// describeExit says, for the user, why the child process ended.
func describeExit(ps *os.ProcessState, werr error, stderrTail string) string {
	// The last panic in the tail ended the process: an earlier one may be a
	// goroutine's that the session reported and survived.
	panicLine := ""
	for _, line := range strings.Split(stderrTail, "\n") {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			panicLine = strings.TrimSpace(line)
		}
	}
	switch {
	case panicLine != "":
		return "the executor crashed (" + panicLine + ")"
	case ps == nil:
		return fmt.Sprintf("the executor process ended: %v", werr)
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("the executor process was killed by signal %v", ws.Signal())
	}
	if last := lastLine(stderrTail); last != "" {
		return fmt.Sprintf("the executor process exited with status %d (last words: %q)", ps.ExitCode(), last)
	}
	return fmt.Sprintf("the executor process exited with status %d (os.Exit called by the cell?)", ps.ExitCode())
}

// lastLine returns the last non-empty line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = bytes.Clone(t.buf[over:])
	}
	return len(p), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
