package procgroup

import (
	"bufio"
	"io"
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

// tailBuffer keeps the last n lines written to it.
type tailBuffer struct {
	mu   sync.Mutex
	n    int
	ring []string
}

func newTail(n int) *tailBuffer { return &tailBuffer{n: n} }

func (t *tailBuffer) add(line string) {
	if l := len(line); l > 0 && line[l-1] == '\n' {
		line = line[:l-1]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
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
