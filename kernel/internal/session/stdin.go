package session

import (
	"errors"
	"io"
	"sync"
)

// errNoStdin is what interpreted reads of os.Stdin get when the client did not allow input.
var errNoStdin = errors.New("stdin not available: this client does not accept input (allow_stdin is false)")

// stdinSwitch is the interpreter's os.Stdin: a reader the session swaps per execution.
type stdinSwitch struct {
	mu sync.Mutex
	r  io.Reader
}

func (s *stdinSwitch) set(r io.Reader) {
	s.mu.Lock()
	s.r = r
	s.mu.Unlock()
}

// Read reads from the current reader, or fails when there is none.
func (s *stdinSwitch) Read(p []byte) (int, error) {
	s.mu.Lock()
	r := s.r
	s.mu.Unlock()
	if r == nil {
		return 0, errNoStdin
	}
	return r.Read(p)
}
