package celllaunch

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

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/interpreter"
	"github.com/goaccel/goaccel/internal/program"
	"github.com/goaccel/goaccel/internal/workerjob"
)

// WorkerMain is an interpreted worker (`goaccel __worker`, started by Run):
// it loads the job's notebook.go into a fresh interpreter, runs its
// package-level vars, then serves the launched function. It returns the
// process exit status.
func WorkerMain() int {
	workerjob.ExitOnInterrupt()
	job, err := workerjob.FromEnv()
	if err != nil {
		fmt.Fprintf(os.Stderr, "goaccel %s: %v (it is started by a notebook launch, not by hand)\n", WorkerCommand, err)
		return 2
	}
	src, err := os.ReadFile(filepath.Join(job.Dir, program.File))
	if err != nil {
		return job.Fail(fmt.Errorf("read the worker program: %w", err))
	}
	frames := &panicFrames{w: os.Stderr}
	i, err := interpreter.ForProgram(string(src), interp.Options{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: frames, Args: []string{"goaccel-worker"}})
	if err != nil {
		return job.Fail(err)
	}
	p, err := interpreter.Load(i, string(src), true)
	if err != nil {
		return job.Fail(fmt.Errorf("load the worker program: %w", err))
	}
	if err := p.Run(context.Background()); err != nil {
		var pe interp.Panic
		if errors.As(err, &pe) {
			return job.Panicked(fmt.Sprint(pe.Value), atPanicLine(frames.take(), p.PanicLine(), job.Spec.Func), string(pe.Stack), true)
		}
		return job.Fail(fmt.Errorf("run the program's package-level vars: %w", err))
	}
	fn, err := p.Func(job.Spec.Func)
	if err != nil {
		return job.Fail(err)
	}
	return job.Serve(fn, func() []workerjob.Frame { return atPanicLine(frames.take(), p.PanicLine(), job.Spec.Func) })
}

// atPanicLine puts the line a panic happened on into the innermost frame,
// which yaegi reports at the start of the enclosing block.
func atPanicLine(frames []workerjob.Frame, line int, fn string) []workerjob.Frame {
	if line <= 0 {
		return frames
	}
	if len(frames) == 0 {
		return []workerjob.Frame{{Func: "main." + fn, File: program.File, Line: line}}
	}
	frames[0].Line, frames[0].Col = line, 0
	return frames
}

// yaegiFrame matches the line yaegi writes to the interpreter's stderr for
// each interpreted frame a panic unwinds: "notebook.go:12:3: panic: main.train(...)".
var yaegiFrame = regexp.MustCompile(`^` + regexp.QuoteMeta(program.File) + `:(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)

// panicFrames passes the interpreter's stderr through, except the frames of
// a panic, which it keeps for the worker's report (Serve prints them with
// the panic, the innermost at the line it happened on).
type panicFrames struct {
	w      io.Writer
	mu     sync.Mutex
	frames []workerjob.Frame
}

func (p *panicFrames) Write(b []byte) (int, error) {
	if m := yaegiFrame.FindSubmatch(b); m != nil {
		line, _ := strconv.Atoi(string(m[1]))
		col, _ := strconv.Atoi(string(m[2]))
		p.mu.Lock()
		p.frames = append(p.frames, workerjob.Frame{Func: string(m[3]), File: program.File, Line: line, Col: col})
		p.mu.Unlock()
		return len(b), nil
	}
	return p.w.Write(b)
}

func (p *panicFrames) take() []workerjob.Frame {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.frames
	p.frames = nil
	return f
}
