package session

import (
	"fmt"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/interpreter"
)

// goOrigin is where a go statement of interpreted code ran: the cell
// running at the time.
type goOrigin struct {
	run int         // 0 when no cell was running (a goroutine started by another goroutine after its cell ended)
	src *cellSource // that cell, kept for naming it once the session has let its records go
}

// startGoroutine is the interpreter's go statement (interp.Options.Go): the
// goroutine recovers its own panic and reports it on the session's stderr,
// so that it ends only itself, as an exception in a thread of an ipykernel
// session does, and the session keeps every variable.
func (s *Session) startGoroutine(run func()) {
	s.mu.Lock()
	origin := goOrigin{run: s.running, src: s.sources[s.running]}
	s.mu.Unlock()
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.reportGoroutinePanic(origin, r, s.stderr.takeFor(interpreter.GoroutineID()))
			}
		}()
		run()
	}()
}

// reportGoroutinePanic writes the panic of a goroutine a cell started, with
// its interpreted frames, to the session's stderr: the running cell's output,
// whichever cell that is.
func (s *Session) reportGoroutinePanic(origin goOrigin, value any, frames []frame) {
	var b strings.Builder
	s.mu.Lock()
	running := s.running
	s.mu.Unlock()
	switch {
	case origin.run == 0:
		b.WriteString("panic in a goroutine")
	case origin.run == running:
		b.WriteString("panic in a goroutine this cell started")
	default:
		fmt.Fprintf(&b, "panic in a goroutine started by the cell %s", cellName(origin.src))
	}
	b.WriteString(" (the goroutine ended; the session and its variables are kept)\n")
	fmt.Fprintf(&b, "panic: %v\n", value)
	for _, f := range frames {
		fn := strings.TrimPrefix(f.fn, "main.")
		if strings.HasPrefix(fn, "func") {
			fn = "func literal"
		}
		o, ok := s.origin(f.file, f.line, 0)
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "  in %s, line %d", fn, o.Line)
		if o.run != running {
			fmt.Fprintf(&b, " of the cell %s", s.cellNameOf(o.run))
		}
		fmt.Fprintf(&b, ": %s\n", strings.TrimSpace(s.lineText(o.run, o.Line)))
	}
	fmt.Fprint(s.opts.Stderr, b.String())
}

// cellNameOf names the cell of a run for users (cellName).
func (s *Session) cellNameOf(run int) string {
	s.mu.Lock()
	c := s.sources[run]
	s.mu.Unlock()
	return cellName(c)
}

// cellName names a cell for users by its first line of code.
func cellName(c *cellSource) string {
	src := ""
	if c != nil {
		src = c.text
	}
	for _, line := range strings.Split(src, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			if len(line) > 40 {
				line = line[:37] + "..."
			}
			return "`" + line + "`"
		}
	}
	return "(empty)"
}
