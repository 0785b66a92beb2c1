package repl

import (
	"io"
	"regexp"
	"strings"
	"sync"
)

// panicLine matches what yaegi writes to the interpreter's stderr for each
// interpreted frame a panic unwinds: "cell3.go:4:2: panic: main.f(...)".
var panicLine = regexp.MustCompile(`^(cell\d+\.go):(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)

// panicFilter passes the interpreter's stderr through, except yaegi's panic
// frame lines, which it keeps for the cell's traceback.
type panicFilter struct {
	w      io.Writer
	mu     sync.Mutex
	frames []frame
}

// frame is one interpreted stack frame of a panic.
type frame struct {
	file      string
	line, col int
	fn        string
}

func (p *panicFilter) Write(b []byte) (int, error) {
	if m := panicLine.FindSubmatch(b); m != nil {
		p.mu.Lock()
		p.frames = append(p.frames, frame{file: string(m[1]), line: atoi(string(m[2])), col: atoi(string(m[3])), fn: string(m[4])})
		p.mu.Unlock()
		return len(b), nil
	}
	return p.w.Write(b)
}

// take returns and forgets the frames recorded so far.
func (p *panicFilter) take() []frame {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.frames
	p.frames = nil
	return f
}

func atoi(s string) int {
	n := 0
	for _, c := range strings.TrimSpace(s) {
		n = n*10 + int(c-'0')
	}
	return n
}
