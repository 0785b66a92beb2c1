package procgroup

import (
	"bufio"
	"io"
	"strings"
	"sync"
)

// relay copies r to w line by line, prefixing each line, holding mu per line so
// lines from different workers never interleave. Lines also go to tail when set.
func relay(r io.Reader, w io.Writer, prefix string, mu *sync.Mutex, tail *tailBuffer, wg *sync.WaitGroup) {
	defer wg.Done()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			mu.Lock()
			_, _ = io.WriteString(w, prefix+line)
			if line[len(line)-1] != '\n' {
				_, _ = io.WriteString(w, "\n")
			}
			mu.Unlock()
			if tail != nil {
				tail.add(line)
			}
		}
		if err != nil {
			return
		}
	}
}

// tailBuffer keeps the last n lines written to it, and the last Go panic or
// fatal error line (which a long stack trace would push out of the tail).
type tailBuffer struct {
	mu    sync.Mutex
	n     int
	ring  []string
	panic string
}

func newTail(n int) *tailBuffer { return &tailBuffer{n: n} }

func (t *tailBuffer) add(line string) {
	if l := len(line); l > 0 && line[l-1] == '\n' {
		line = line[:l-1]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
		t.panic = line
	}
	t.ring = append(t.ring, line)
	if len(t.ring) > t.n {
		t.ring = t.ring[len(t.ring)-t.n:]
	}
}

func (t *tailBuffer) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.ring...)
}

func (t *tailBuffer) panicLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.panic
}
