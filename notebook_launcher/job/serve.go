package job

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/workerinfo"
)

// Serve runs fn as this worker of the job: it installs the worker's host
// (internal/host: with Spec.Display, its displays and widgets go to the
// launcher), decodes the arguments into fn's parameter types, calls fn,
// sends rank 0's result back and writes the report. It returns the process exit status: 0 on success, 1 when fn
// returned an error or its result could not be sent, 2 after a panic (whose
// trace it prints on stderr, as Go does). interpreted, when set, returns the
// interpreted stack frames of a panic (yaegi's), which the Go stack lacks.
func (j *Job) Serve(fn reflect.Value, interpreted func() []Frame) int {
	ExitOnInterrupt()
	rank, _ := strconv.Atoi(os.Getenv("RANK"))
	var rep Report
	h := host.Current() // the Worker of the environment's launcher
	if j.Spec.Display {
		// The worker's displays and widgets go to its launcher, which
		// shows them in the launching cell.
		h.Display = frameSink{}
		h.Comms = comm.NewManager(frameSink{})
		h.Comms.SetParent(j.Spec.Parent) // an Output a worker captures into shows the launching cell's output
		serveComms(h.Worker, h.Comms)
	}
	if err := host.Install(h); errors.Is(err, host.ErrInstalled) {
		// A process that serves a second function (a test binary whose
		// test launches twice, its tests calling Serve) keeps the host it
		// served the first with.
		h = host.Current()
	}
	args, err := j.decodeArgs(fn.Type())
	if err != nil {
		return j.Fail(err)
	}
	h.Worker.SetPhase(workerinfo.PhaseComputing)
	out, p := call(fn, args)
	if h.Comms != nil {
		h.Comms.Finish() // a callback output area the function made is shown
	}
	if p != nil {
		frames := p.frames
		if interpreted != nil {
			frames = interpreted()
		}
		return j.Panicked(p.message, frames, p.stack, interpreted != nil)
	}
	if n := len(out); n > 0 && out[n-1].Type() == errorType {
		if e := out[n-1]; !e.IsNil() {
			rep.Error = fmt.Sprintf("%s returned an error: %s", j.Spec.Func, e.Interface().(error).Error())
			fmt.Fprintln(os.Stderr, rep.Error)
			return j.finish(rep, 1)
		}
		out = out[:n-1]
	}
	if rank == 0 && j.Spec.Result && len(out) == 1 {
		if err := j.writeResult(out[0]); err != nil {
			return j.Fail(err)
		}
	}
	if err := h.Worker.Leave(); err != nil {
		fmt.Fprintf(os.Stderr, "goaccel worker: leave the process group: %v\n", err)
	}
	return j.finish(rep, 0)
}

// Fail reports err as this worker's failure before its function ran, and
// returns the exit status 1.
func (j *Job) Fail(err error) int {
	fmt.Fprintf(os.Stderr, "goaccel worker: %v\n", err)
	return j.finish(Report{Error: err.Error()}, 1)
}

// Panicked reports a panic with its frames (innermost first) and Go stack,
// prints it as Go would (for an interpreted function, its frames instead of
// the interpreter's own stack), and returns the exit status 2.
func (j *Job) Panicked(msg string, frames []Frame, stack string, interpreted bool) int {
	if interpreted && len(frames) > 0 {
		fmt.Fprintf(os.Stderr, "panic: %s\n\n", msg)
		for _, f := range frames {
			fmt.Fprintf(os.Stderr, "%s(...)\n\t%s:%d\n", f.Func, f.File, f.Line)
		}
	} else {
		fmt.Fprintf(os.Stderr, "panic: %s\n\n%s", msg, stack)
	}
	return j.finish(Report{Panic: msg, Frames: frames, Stack: stack}, 2)
}

// finish writes the report of this rank and returns status.
func (j *Job) finish(rep Report, status int) int {
	rep.Rank, _ = strconv.Atoi(os.Getenv("RANK"))
	w := host.Current().Worker
	rep.Device = w.Device()
	w.Flush()
	if err := j.writeReport(rep); err != nil {
		fmt.Fprintf(os.Stderr, "goaccel worker: write the report: %v\n", err)
	}
	return status
}

// decodeArgs reads the job's arguments as fn's parameter types.
func (j *Job) decodeArgs(t reflect.Type) ([]reflect.Value, error) {
	types, err := ParamTypes(t, j.Spec.Args, j.Spec.Func)
	if err != nil {
		return nil, err
	}
	return j.Args(types, ArgLabels(j.Spec.Func, len(types), nil))
}

// ArgLabels names n arguments of a call of fn in errors: "argument 2 of
// train", followed by the argument's expression in parentheses when exprs
// has a non-empty one ("argument 2 of train (cfg)").
func ArgLabels(fn string, n int, exprs []string) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("argument %d of %s", i+1, fn)
		if i < len(exprs) && exprs[i] != "" {
			names[i] += " (" + exprs[i] + ")"
		}
	}
	return names
}

// ParamTypes returns the types of n arguments of a call of a function of
// type t (named name, for the error when n does not fit).
func ParamTypes(t reflect.Type, n int, name string) ([]reflect.Type, error) {
	fixed := t.NumIn()
	if t.IsVariadic() {
		fixed--
	}
	if n < fixed || n > fixed && !t.IsVariadic() {
		takes := plural(fixed, "argument")
		if t.IsVariadic() {
			takes = "at least " + takes
		}
		return nil, fmt.Errorf("%s takes %s; the launch passed %d", name, takes, n)
	}
	types := make([]reflect.Type, n)
	for i := range types {
		if i < fixed {
			types[i] = t.In(i)
		} else {
			types[i] = t.In(fixed).Elem()
		}
	}
	return types, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// panicked is a recovered panic.
type panicked struct {
	message, stack string
	frames         []Frame
}

// call calls fn, recovering a panic with its stack.
func call(fn reflect.Value, args []reflect.Value) (out []reflect.Value, p *panicked) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		p = &panicked{message: PanicMessage(r), stack: string(debug.Stack()), frames: goFrames()}
	}()
	return fn.Call(args), nil
}

// PanicMessage is the text of the recovered panic value r, as Go prints it
// after "panic: " (less the type of a value that is not an error).
func PanicMessage(r any) string {
	if e, ok := r.(error); ok {
		return e.Error()
	}
	return fmt.Sprint(r)
}

// goFrames lists the frames of the panicking goroutine that belong to the
// program, innermost first (not the runtime's, reflect's or this package's).
func goFrames() []Frame {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []Frame
	for {
		f, more := frames.Next()
		own := strings.Contains(f.Function, "notebook_launcher/job.call") || strings.Contains(f.Function, "notebook_launcher/job.(*Job)") ||
			strings.Contains(f.Function, "notebook_launcher/job.goFrames")
		if !own && !strings.HasPrefix(f.Function, "runtime.") && !strings.HasPrefix(f.Function, "reflect.") {
			out = append(out, Frame{Func: f.Function, File: f.File, Line: f.Line})
		}
		if !more {
			return out
		}
	}
}

var exitOnInterrupt sync.Once

// ExitOnInterrupt makes SIGINT and SIGTERM end the process at once (status
// 130 or 143), even when it was started with them ignored, as children of
// the kernel's executor are: a worker stops when its launcher says so.
func ExitOnInterrupt() {
	exitOnInterrupt.Do(func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt, syscall.SIGTERM)
		go func() {
			code := 130
			if <-c == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		}()
	})
}
