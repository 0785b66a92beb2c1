package session

import (
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/goaccel/goaccel/kernel/internal/interpreter"
)

// panicLine matches what yaegi writes to the interpreter's stderr for each
// interpreted frame a panic unwinds: "cell3.go:4:2: panic: main.f(...)", or
// "1:28: panic: main(...)" for code the session evaluates without a file
// (the call that runs a widget callback).
var panicLine = regexp.MustCompile(`^(?:(cell\d+\.go):)?(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)

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
	goroutine uint64 // the goroutine that unwound it
}

func (p *panicFilter) Write(b []byte) (int, error) {
	if m := panicLine.FindSubmatch(b); m != nil {
		f := frame{file: string(m[1]), line: atoi(string(m[2])), col: atoi(string(m[3])), fn: string(m[4]), goroutine: interpreter.GoroutineID()}
		p.mu.Lock()
		p.frames = append(p.frames, f)
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

// takeFor returns and forgets the frames goroutine id unwound.
func (p *panicFilter) takeFor(id uint64) []frame {
	p.mu.Lock()
	defer p.mu.Unlock()
	var mine, rest []frame
	for _, f := range p.frames {
		if f.goroutine == id {
			mine = append(mine, f)
		} else {
			rest = append(rest, f)
		}
	}
	p.frames = rest
	return mine
}

func atoi(s string) int {
	n := 0
	for _, c := range strings.TrimSpace(s) {
		n = n*10 + int(c-'0')
	}
	return n
}
