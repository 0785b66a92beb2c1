package launch

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/program"
	"github.com/goaccel/goaccel/notebook_launcher/job"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// Place is a position in the notebook with the text of its line.
type Place struct {
	At   program.Origin
	Code string // the line as the cell has it
}

// CompileError is a worker program that does not compile, reported before
// any worker starts, at cell lines.
type CompileError struct {
	// Lines are the compiler's messages with positions at cells and lines.
	Lines []string
	// Where is the first error's place, when it is in a cell.
	Where *Place
}

func (e *CompileError) Error() string {
	return "the worker program does not compile: " + strings.Join(e.Lines, "; ")
}

// compileError maps the positions of a compiler's (yaegi's or go build's)
// output through the program's source map.
func compileError(p *program.Program, out string) *CompileError {
	e := &CompileError{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		e.Lines = append(e.Lines, p.Map.Translate(l))
	}
	for _, pos := range program.Positions(out) {
		if o, ok := p.Map.Lookup(pos[0], pos[1]); ok {
			e.Where = &Place{At: o, Code: p.Line(pos[0])}
			break
		}
	}
	return e
}

// WorkerError is a worker that failed: its rank, what happened and where.
type WorkerError struct {
	Rank int
	// Message says what happened: "panic: …", "train returned an error: …",
	// or the exit status of a worker that died.
	Message string
	// Where is the innermost place in the notebook's code, when known.
	Where *Place
	// Trace lists the worker's frames in the notebook's code, innermost
	// first ("in train, cell [3], line 7").
	Trace []string
	// Tail is the last stderr lines of a worker that died without a report,
	// positions mapped to cells.
	Tail []string
}

func (e *WorkerError) Error() string {
	msg := fmt.Sprintf("worker rank %d failed: %s", e.Rank, e.Message)
	if e.Where != nil {
		msg += fmt.Sprintf(" (%s)", e.Where.At)
	}
	return msg
}

// workerError explains the failure err of a launch with the failing rank's
// report, or its stderr when it left none (it died outside the function's
// goroutine: a panic in another goroutine, a signal).
func workerError(j *job.Job, p *program.Program, err error) error {
	var ee *workers.ExitError
	if !errors.As(err, &ee) {
		return err
	}
	we := &WorkerError{Rank: ee.Rank, Message: ee.Status}
	rep, ok := j.Report(ee.Rank)
	if !ok {
		for _, l := range ee.StderrTail {
			we.Tail = append(we.Tail, p.Map.Translate(l))
		}
	}
	switch {
	case ok && rep.Panic != "":
		we.Message = "panic: " + rep.Panic
		for _, f := range rep.Frames {
			if filepath.Base(f.File) != program.File {
				continue
			}
			o, ok := p.Map.Lookup(f.Line, f.Col)
			if !ok {
				continue
			}
			if we.Where == nil {
				we.Where = &Place{At: o, Code: p.Line(f.Line)}
			}
			we.Trace = append(we.Trace, fmt.Sprintf("in %s, %s: %s", funcName(f.Func), o, strings.TrimSpace(p.Line(f.Line))))
		}
	case ok && rep.Error != "":
		we.Message = rep.Error
	case ee.Panic != "":
		we.Message = p.Map.Translate(ee.Panic)
	}
	if we.Where == nil {
		for _, l := range ee.StderrTail {
			if pos := program.Positions(l); len(pos) > 0 {
				if o, ok := p.Map.Lookup(pos[0][0], pos[0][1]); ok {
					we.Where = &Place{At: o, Code: p.Line(pos[0][0])}
					break
				}
			}
		}
	}
	return we
}

// funcName shortens "main.train.func1" to "train.func1".
func funcName(f string) string {
	return strings.TrimPrefix(f, "main.")
}
