package procgroup

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"sync"
)

// relay copies r to w line by line, prefixing each line, holding mu per line so
// lines from different workers never interleave. A carriage return also ends
// a line, so progress bars redraw in place with their prefix. Lines also go
// to tail when set.
func relay(r io.Reader, w io.Writer, prefix string, mu *sync.Mutex, tail *tailBuffer, wg *sync.WaitGroup) {
	defer wg.Done()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	sc.Split(splitLines)
	for sc.Scan() {
		line := sc.Text()
		mu.Lock()
		_, _ = io.WriteString(w, prefix+line)
		if end := line[len(line)-1]; end != '\n' && end != '\r' {
			_, _ = io.WriteString(w, "\n")
		}
		mu.Unlock()
		if tail != nil && line[len(line)-1] != '\r' {
			tail.add(line)
		}
	}
	if sc.Err() != nil {
		_, _ = io.Copy(w, r) // after a line beyond 64 MB (dropped): pass the rest through unprefixed
	}
}

// splitLines is bufio.ScanLines keeping the terminator, which may be \n or \r.
func splitLines(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		return i + 1, data[:i+1], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
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
