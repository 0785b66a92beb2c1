package launch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/kernel/internal/interpreter"
	"github.com/goaccel/goaccel/kernel/internal/program"
	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/notebook_launcher/job"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// WorkerCommand is the hidden subcommand of the goaccel binary that runs an
// interpreted worker (WorkerMain).
const WorkerCommand = "__worker"

// Request is a launch from a cell.
type Request struct {
	// Name is the function's declared name ("" when Launch got a function
	// value that no rewrite named: a closure, a method value, a parameter).
	Name string
	// Fn is the function as the session holds it, and Args its arguments.
	Fn   reflect.Value
	Args []reflect.Value
	// Config is the normalized configuration; Compile asks for compiled workers.
	Config  workers.Config
	Compile bool
	// ArgNames label the arguments in errors, e.g. the expressions "cfg".
	ArgNames []string
	// Record is a snapshot of the session's declarations.
	Record *program.Record
	// Cell is the launching cell's execution count.
	Cell int
	// Stdout and Stderr receive the workers' output, Display their display
	// messages (nil: dropped), Comms their widgets' messages (nil: the
	// workers' widgets show nothing).
	Stdout, Stderr io.Writer
	Display        host.Display
	Comms          *comm.Manager
	// Exe is the goaccel binary interpreted workers run (""; this one),
	// and Tables the symbol tables of the packages it has beyond goaccel's
	// (a derived executor's), against which the program is checked.
	Exe    string
	Tables []interp.Exports
	// Identity names the goaccel binary whose library code compiled
	// workers link (its gobuild.Identity, which keys their builds; "":
	// this binary's).
	Identity string
	// Control, when set, is how the session stops the launch (its stop of
	// its launches: the first interrupt saves, the Stop button finishes) and
	// what carries the front end's messages to the workers' widgets.
	Control *workers.Control
}

// Outcome is what a successful launch produced.
type Outcome struct {
	// Value is rank 0's result in the session's type (invalid when the
	// function returns none).
	Value reflect.Value
	// Devices lists each rank's device.
	Devices []string
	Wall    time.Duration
	// Build says how the compiled workers were obtained ("" when interpreted).
	Build string
}

// running is the launch in progress in this process, if any.
var (
	runningMu sync.Mutex
	running   string
)

// Run checks and writes the program, starts the workers, relays their
// output and waits. The error is a *CompileError (the worker program does not compile),
// a *WorkerError, a *transfer.Error about an argument, a
// *workers.StoppedError when the workers stopped on request after saving
// their state, ctx's error after an interrupt, or a plain error saying what
// to fix.
func Run(ctx context.Context, r Request) (*Outcome, error) {
	what := fmt.Sprintf("%s, started by cell [%d] at %s", r.Name, r.Cell, time.Now().Format("15:04:05"))
	runningMu.Lock()
	if running != "" {
		busy := running
		runningMu.Unlock()
		return nil, fmt.Errorf("another launch is running (%s); wait for it to finish or interrupt it, then launch again", busy)
	}
	running = what
	runningMu.Unlock()
	defer func() {
		runningMu.Lock()
		running = ""
		runningMu.Unlock()
	}()

	start := time.Now()
	if r.Name == "" {
		return nil, errors.New("notebook_launcher.Launch needs a function declared at the top level of a cell (func train(…) { … }), passed by its name; " +
			"it got a function value (a closure, a method value or a parameter), which the workers cannot rebuild")
	}
	prog, err := r.Record.Program(r.Name)
	if err != nil {
		return nil, err
	}
	resType := job.ResultType(r.Fn.Type())
	names := job.ArgLabels(r.Name, len(r.Args), r.ArgNames)
	spec := job.Spec{Func: r.Name, Display: r.Display != nil, Result: resType != nil}
	if r.Comms != nil {
		spec.Parent = r.Comms.Parent()
	}
	j, err := job.Create(spec, r.Args, names)
	if err != nil {
		return nil, err
	}
	defer j.Remove()

	exe, args := r.Exe, []string{WorkerCommand}
	extra := j.Env()
	out := &Outcome{}
	if r.Compile {
		bin, how, err := build(ctx, prog, r.Identity, r.Stdout)
		if err != nil {
			return nil, err
		}
		exe, args, out.Build = bin, nil, how
		extra = append(extra, nl.EnvWorker+"=*")
	} else {
		if err := check(prog.Source, r.Tables); err != nil {
			return nil, compileError(prog, err.Error())
		}
		if err := os.WriteFile(filepath.Join(j.Dir, program.File), []byte(prog.Source), 0o600); err != nil {
			return nil, fmt.Errorf("write the worker program: %w", err)
		}
		if exe == "" {
			if exe, err = os.Executable(); err != nil {
				return nil, fmt.Errorf("find the goaccel binary for the workers: %w", err)
			}
		}
	}

	cfg := r.Config
	cfg.Env = append(append([]string(nil), cfg.Env...), extra...)
	cfg.Stdout, cfg.Stderr = translating{r.Stdout, prog.Map}, translating{r.Stderr, prog.Map}
	cfg.Grace = time.Second // well inside the kernel's 2 s before it kills the executor
	ctl := r.Control
	if ctl == nil {
		ctl = &workers.Control{}
	}
	cfg.Control = ctl
	rel := newRelay(r.Comms, r.Stderr, ctl)
	defer rel.detach()
	cfg.Places = placesOf(prog)
	if r.Display != nil {
		cfg.Status = newStatusTable(r.Display, cfg.Places).show
	}
	if r.Display != nil {
		cfg.Frame = func(rank int, payload []byte) {
			typ, content, m, err := job.ParseFrame(payload)
			switch {
			case err != nil:
				fmt.Fprintf(r.Stderr, "[rank %d] %v\n", rank, err)
			case m != nil:
				rel.fromWorker(rank, *m)
			default:
				r.Display.Send(typ, content)
			}
		}
	}
	err = workers.Run(ctx, exe, args, cfg)
	switch {
	case errors.Is(err, workers.ErrStopped):
		return nil, err
	case errors.Is(err, workers.ErrInterrupted) || ctx.Err() != nil && err != nil:
		return nil, fmt.Errorf("%w: every worker was stopped", context.Canceled)
	case err != nil:
		return nil, workerError(j, prog, err)
	}
	out.Wall = time.Since(start)
	for rank := 0; rank < cfg.NumProcesses; rank++ {
		dev := "cpu"
		if rep, ok := j.Report(cfg.NodeRank*cfg.NumProcesses + rank); ok {
			dev = rep.Device
		}
		out.Devices = append(out.Devices, dev)
	}
	if resType != nil {
		v, err := j.Result(resType)
		if err != nil {
			return nil, err
		}
		out.Value = v
	}
	return out, nil
}

// translating maps positions in the worker program that the workers print
// (panic traces) to cells and lines on their way to the cell. The relay
// writes one whole line per call.
type translating struct {
	w io.Writer
	m *program.SourceMap
}

func (t translating) Write(b []byte) (int, error) {
	if !bytes.Contains(b, []byte(program.File)) {
		return t.w.Write(b)
	}
	if _, err := io.WriteString(t.w, t.m.Translate(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// checked remembers the worker programs that compiled, so a relaunch of
// unchanged code skips the check (a fresh interpreter costs tens of ms).
var (
	checkedMu sync.Mutex
	checked   = map[[32]byte]bool{}
)

// check compiles src in a scratch interpreter with goaccel's symbol tables
// and extra, once per distinct program.
func check(src string, extra []interp.Exports) error {
	key := sha256.Sum256([]byte(src))
	checkedMu.Lock()
	ok := checked[key]
	checkedMu.Unlock()
	if ok {
		return nil
	}
	if err := interpreter.Check(src, extra...); err != nil {
		return err
	}
	checkedMu.Lock()
	if len(checked) > 256 {
		clear(checked)
	}
	checked[key] = true
	checkedMu.Unlock()
	return nil
}
