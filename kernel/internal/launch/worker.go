package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/kernel/internal/interpreter"
	"github.com/goaccel/goaccel/kernel/internal/launch/gcheadroom"
	"github.com/goaccel/goaccel/kernel/internal/program"
	"github.com/goaccel/goaccel/notebook_launcher/job"
)

// workerHeadroom is the least the heap of an interpreted worker may grow
// between two collections: the interpreter's program is a few megabytes of
// pointers in the heap, which each collection scans (see gcheadroom).
const workerHeadroom = 64 << 20

// WorkerMain is an interpreted worker (`goaccel __worker`, started by Run):
// it loads the job's notebook.go into a fresh interpreter, runs its
// package-level vars, then serves the launched function. tables are the
// symbol tables of the packages the binary has beyond goaccel's (a derived
// executor's). It returns the process exit status.
func WorkerMain(tables ...interp.Exports) int {
	job.ExitOnInterrupt()
	gcheadroom.Keep(workerHeadroom)
	j, err := job.FromEnv()
	if err != nil {
		fmt.Fprintf(os.Stderr, "goaccel %s: %v (it is started by a notebook launch, not by hand)\n", WorkerCommand, err)
		return 2
	}
	src, err := os.ReadFile(filepath.Join(j.Dir, program.File))
	if err != nil {
		return j.Fail(fmt.Errorf("read the worker program: %w", err))
	}
	frames := &panicFrames{w: os.Stderr}
	g := &goroutines{job: j, frames: frames}
	i, err := interpreter.ForProgram(string(src), interp.Options{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: frames, Args: []string{"goaccel-worker"}, Go: g.start}, tables...)
	if err != nil {
		return j.Fail(err)
	}
	p, err := interpreter.Load(i, string(src), true)
	if err != nil {
		return j.Fail(fmt.Errorf("load the worker program: %w", err))
	}
	frames.program.Store(p)
	if err := p.Run(context.Background()); err != nil {
		var pe interp.Panic
		if errors.As(err, &pe) {
			return j.Panicked(fmt.Sprint(pe.Value), atPanicLine(frames.takeAll(), p, j.Spec.Func), string(pe.Stack), true)
		}
		return j.Fail(fmt.Errorf("run the program's package-level vars: %w", err))
	}
	// Where the launcher's status table says the rank is: the program's variables exist once
	// its package-level initializers ran.
	host.Current().Worker.SetPosition(p.Position())
	fn, err := p.Func(j.Spec.Func)
	if err != nil {
		return j.Fail(err)
	}
	return j.Serve(fn, func() []job.Frame { return atPanicLine(frames.take(), p, j.Spec.Func) })
}

// atPanicLine puts the line a panic happened on into the innermost frame,
// which yaegi reports at the start of the function's body; with no frames,
// it makes one of fn (a function named fn panicked outside interpreted code,
// or in a call yaegi made without a frame).
func atPanicLine(frames []panicFrame, p *interpreter.Program, fn string) []job.Frame {
	if len(frames) == 0 {
		if line := p.PanicLine(); line > 0 && fn != "" {
			return []job.Frame{{Func: "main." + fn, File: program.File, Line: line}}
		}
		return nil
	}
	out := make([]job.Frame, len(frames))
	for i, f := range frames {
		out[i] = f.Frame
	}
	if f := frames[0]; p.InFrame(f.at, f.Line, f.Col) {
		out[0].Line, out[0].Col = f.at, 0
	}
	return out
}

// yaegiFrame matches the line yaegi writes to the interpreter's stderr for
// each interpreted frame a panic unwinds: "notebook.go:12:3: panic: main.train(...)".
var yaegiFrame = regexp.MustCompile(`^` + regexp.QuoteMeta(program.File) + `:(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)

// panicFrames passes the interpreter's stderr through, except the frames of
// a panic, which it keeps for the worker's report (Serve prints them with
// the panic, the innermost at the line it happened on).
type panicFrames struct {
	w       io.Writer
	program atomic.Pointer[interpreter.Program] // set once loaded
	mu      sync.Mutex
	frames  []panicFrame
}

// panicFrame is a frame of a panic and the goroutine it unwound.
type panicFrame struct {
	job.Frame
	goroutine uint64
	// at is the program's PanicLine when yaegi wrote the frame. For the
	// innermost one, the first, that is as soon after the panic as the
	// worker can read it, before another goroutine sets it again.
	at int
}

func (p *panicFrames) Write(b []byte) (int, error) {
	if m := yaegiFrame.FindSubmatch(b); m != nil {
		line, _ := strconv.Atoi(string(m[1]))
		col, _ := strconv.Atoi(string(m[2]))
		f := panicFrame{Frame: job.Frame{Func: string(m[3]), File: program.File, Line: line, Col: col}, goroutine: interpreter.GoroutineID()}
		if prog := p.program.Load(); prog != nil {
			f.at = prog.PanicLine()
		}
		p.mu.Lock()
		p.frames = append(p.frames, f)
		p.mu.Unlock()
		return len(b), nil
	}
	return p.w.Write(b)
}

// take returns and forgets the frames the calling goroutine's panic unwound
// (yaegi writes them from the panicking goroutine).
func (p *panicFrames) take() []panicFrame { return p.takeOf(interpreter.GoroutineID()) }

// takeAll returns and forgets every frame written so far (after a panic in
// yaegi's ExecuteWithContext, which runs the program in a goroutine of its
// own).
func (p *panicFrames) takeAll() []panicFrame { return p.takeOf(0) }

// takeOf returns and forgets the frames goroutine id unwound (all when id is 0).
func (p *panicFrames) takeOf(id uint64) []panicFrame {
	p.mu.Lock()
	defer p.mu.Unlock()
	var mine []panicFrame
	rest := p.frames[:0]
	for _, f := range p.frames {
		if id == 0 || f.goroutine == id {
			mine = append(mine, f)
		} else {
			rest = append(rest, f)
		}
	}
	p.frames = rest
	return mine
}
