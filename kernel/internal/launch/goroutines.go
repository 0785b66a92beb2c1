package launch

import (
	"os"
	"runtime/debug"

	"github.com/goaccel/goaccel/kernel/internal/program"
	"github.com/goaccel/goaccel/notebook_launcher/job"
)

// goroutines starts the goroutines of an interpreted worker's go statements
// (interp.Options.Go). A panic in one of them ends the worker, as it ends a
// compiled program, and is reported as a panic of the launched function is:
// at the cell line it happened on, with the go statement that started the
// goroutine as the outermost frame. Without the hook the notebook would get
// the interpreter's Go stack and no cell line.
type goroutines struct {
	job    *job.Job
	frames *panicFrames
}

func (g *goroutines) start(run func()) {
	p := g.frames.program.Load()
	var origin []job.Frame
	if p != nil {
		// The statement that ran last in this goroutine: the go statement,
		// unless another goroutine ran one since.
		if line := p.PanicLine(); line > 0 {
			if fn, ok := p.GoStatementAt(line); ok {
				origin = []job.Frame{{Func: fn, File: program.File, Line: line}}
			}
		}
	}
	go func() {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			var frames []job.Frame
			if p != nil {
				frames = atPanicLine(g.frames.take(), p, "")
			}
			os.Exit(g.job.Panicked(job.PanicMessage(r), append(frames, origin...), string(debug.Stack()), true))
		}()
		run()
	}()
}
