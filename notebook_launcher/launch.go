package notebook_launcher

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"sync"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/rt"
	"github.com/goaccel/goaccel/notebook_launcher/job"
	"github.com/goaccel/goaccel/notebook_launcher/transfer"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// Options configures Launch and Run (see workers.Options for each field). The
// zero value runs one worker per visible GPU (one worker on a machine without
// GPUs) on one node.
type Options = workers.Options

// Environment variables that mark and configure a worker.
const (
	// EnvWorker names the Launch call a worker runs: its call site and the
	// number of times that site was reached ("file.go:42#1"), "file.go:42#*"
	// (the first call at that site) when the workers got custom Options.Args,
	// or "*" (the first Launch call reached) in a program written to be a
	// worker.
	EnvWorker = "GOACCEL_LAUNCH_WORKER"
	// EnvRestart is the restart count of the group the worker belongs to.
	EnvRestart = workers.EnvRestart
	// EnvToken is the per-job secret the rendezvous store checks.
	EnvToken = workers.EnvToken
)

// siteCalls counts how often each Launch call site was reached in this process,
// so that a worker runs the fn of exactly the call that started it.
var (
	callsMu   sync.Mutex
	siteCalls = map[string]int{}
)

// Launch runs fn(args...) on opts.NumProcesses worker processes, waits for
// them and returns rank 0's result: fn's first result, or nil when fn has
// none. fn returns nothing, a value, an error, or a value and an error; an
// error from any rank fails the launch. The arguments go to every worker and
// the result comes back by value (basic types, structs, slices, maps, and
// *tensors.Tensor; a channel, a function or an open file is an error before
// any worker starts). See the package doc for what a worker runs.
func Launch(fn any, opts Options, args ...any) (any, error) {
	return launchAt(context.Background(), fn, opts, args)
}

// LaunchContext is Launch with a context: cancelling it stops every worker.
func LaunchContext(ctx context.Context, fn any, opts Options, args ...any) (any, error) {
	return launchAt(ctx, fn, opts, args)
}

func launchAt(ctx context.Context, fn any, opts Options, args []any) (any, error) {
	_, file, line, _ := runtime.Caller(2)
	site := file + ":" + strconv.Itoa(line)
	callsMu.Lock()
	siteCalls[site]++
	call := site + "#" + strconv.Itoa(siteCalls[site])
	callsMu.Unlock()

	name, cellName := "fn", ""
	if nf, ok := fn.(rt.NamedFunc); ok {
		fn, name, cellName = nf.Fn, nf.Name, nf.Name
	}
	fv := reflect.ValueOf(fn)
	if !fv.IsValid() {
		return nil, fmt.Errorf("notebook_launcher: Launch needs a function; got nil")
	}
	if err := job.CheckFunc(fv.Type(), name); err != nil {
		return nil, fmt.Errorf("notebook_launcher: %w", err)
	}
	if v := os.Getenv(EnvWorker); v != "" {
		// Workers re-executed with custom Args (a test binary running one
		// test) do not replay the parent's path: the call site alone decides.
		if call != v && v != site+"#*" && v != "*" {
			return nil, nil // another Launch call started this worker
		}
		j, err := job.FromEnv()
		if err != nil {
			return nil, fmt.Errorf("notebook_launcher: %w", err)
		}
		os.Exit(j.Serve(fv, nil))
	}
	h := host.Current()
	if h.Cells != nil {
		// In the kernel's executor: workers rebuild a cell's function from
		// the notebook's declarations. Arguments keep the session's types.
		cfg, err := config(opts, nil)
		if err != nil {
			return nil, err
		}
		vals := make([]reflect.Value, len(args))
		for i, a := range args {
			vals[i] = reflect.ValueOf(a)
		}
		return h.Cells.LaunchCell(ctx, host.LaunchCall{Name: cellName, Fn: fv, Args: vals, Config: cfg, Compile: opts.Compile})
	}
	in, err := callArgs(fv.Type(), name, args)
	if err != nil {
		return nil, fmt.Errorf("notebook_launcher: %w", err)
	}
	if underExternalLauncher() {
		return callInProcess(fv, in)
	}
	if h.InNotebook() {
		// Notebook code outside the kernel's executor (a launched
		// worker's): re-executing this binary would not run the program.
		return nil, fmt.Errorf("notebook_launcher: Launch re-executes a compiled program and cannot run a notebook cell's function; in a notebook use the magic `%%accelerate launch --num_processes %d FUNC`", max(opts.NumProcesses, 2))
	}
	cfg, err := config(opts, nil)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("notebook_launcher: find own executable: %w", err)
	}
	names := job.ArgLabels(name, len(in), nil)
	resType := job.ResultType(fv.Type())
	j, err := job.Create(job.Spec{Func: name, Result: resType != nil}, in, names)
	if err != nil {
		return nil, fmt.Errorf("notebook_launcher: %w", err)
	}
	defer j.Remove()
	ctl := &workers.Control{}
	ctx, stop := workers.InterruptOnSignals(ctx, ctl)
	defer stop()
	cfg.Control = ctl
	pargs := opts.Args
	if pargs == nil {
		for _, a := range os.Args[1:] {
			// A test binary's workers must be allowed to exit 0 from inside a test.
			if a != "-test.paniconexit0" {
				pargs = append(pargs, a)
			}
		}
	} else {
		call = site + "#*"
	}
	cfg.Env = append(append([]string{EnvWorker + "=" + call}, j.Env()...), cfg.Env...)
	if err := workers.Run(ctx, exe, pargs, cfg); err != nil {
		return nil, fmt.Errorf("notebook_launcher: %w", err)
	}
	if resType == nil {
		return nil, nil
	}
	res, err := j.Result(resType)
	if err != nil {
		return nil, fmt.Errorf("notebook_launcher: %w", err)
	}
	return res.Interface(), nil
}

// Run starts opts.NumProcesses copies of the program at path with args, each
// with the torchrun environment plus extra, and restarts the whole group up to
// opts.MaxRestarts times after a failure. It is the engine of Launch and of
// `goaccel launch`. ctl, when not nil, interrupts it (workers.Control).
func Run(ctx context.Context, path string, args, extra []string, opts Options, ctl *workers.Control) error {
	cfg, err := config(opts, extra)
	if err != nil {
		return err
	}
	cfg.Control = ctl
	if err := workers.Run(ctx, path, args, cfg); err != nil {
		return fmt.Errorf("notebook_launcher: %w", err)
	}
	return nil
}

// StoppedError is the error of a launch whose workers stopped on request
// (the first interrupt, or Stop) after saving their state: its Checkpoint
// is the folder to resume from, with Options.Resume.
type StoppedError = workers.StoppedError

// config is the launch engine's configuration of opts, with extra added to
// every worker's environment.
func config(opts Options, extra []string) (workers.Config, error) {
	c := workers.Config{Options: opts, Env: extra}
	if err := c.Normalize(); err != nil {
		return c, fmt.Errorf("notebook_launcher: %w", err)
	}
	return c, nil
}

// DecodeArgs decodes arguments that `%accelerate export` saved for fn into
// values of fn's parameter types, ready for Launch(fn, opts, args...).
func DecodeArgs(fn any, data []byte) ([]any, error) {
	t := reflect.TypeOf(fn)
	if t == nil || t.Kind() != reflect.Func {
		return nil, fmt.Errorf("notebook_launcher: DecodeArgs needs the function the arguments are for; got %T", fn)
	}
	m, err := transfer.DecodeMessage(data)
	if err != nil {
		return nil, fmt.Errorf("notebook_launcher: decode the arguments: %w", err)
	}
	types, err := job.ParamTypes(t, m.Len(), "the function")
	if err != nil {
		return nil, fmt.Errorf("notebook_launcher: decode the arguments: %w", err)
	}
	vals, err := m.Values(types, nil)
	if err != nil {
		return nil, fmt.Errorf("notebook_launcher: decode the arguments: %w", err)
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v.Interface()
	}
	return out, nil
}

// callArgs checks args against the parameters of a function of type t and
// converts them to the parameter types (numbers convert when they fit, as
// untyped constants do).
func callArgs(t reflect.Type, name string, args []any) ([]reflect.Value, error) {
	types, err := job.ParamTypes(t, len(args), name)
	if err != nil {
		return nil, err
	}
	out := make([]reflect.Value, len(args))
	for i, a := range args {
		v := reflect.ValueOf(a)
		want := types[i]
		switch {
		case !v.IsValid():
			switch want.Kind() {
			case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.Func, reflect.Chan:
				v = reflect.Zero(want)
			default:
				return nil, fmt.Errorf("argument %d of %s is nil; %s wants a %s", i+1, name, name, want)
			}
		case v.Type().AssignableTo(want):
		case isNumber(v.Kind()) && isNumber(want.Kind()) && v.CanConvert(want):
			v = v.Convert(want)
		default:
			return nil, fmt.Errorf("argument %d of %s is a %s; %s wants a %s", i+1, name, v.Type(), name, want)
		}
		out[i] = v
	}
	return out, nil
}

func isNumber(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Complex128 }

// callInProcess calls fn in this process (a worker of an external launcher)
// and returns its result as Launch does.
func callInProcess(fn reflect.Value, in []reflect.Value) (any, error) {
	out := fn.Call(in)
	if n := len(out); n > 0 && out[n-1].Type() == reflect.TypeOf((*error)(nil)).Elem() {
		if !out[n-1].IsNil() {
			return nil, out[n-1].Interface().(error)
		}
		out = out[:n-1]
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out[0].Interface(), nil
}

// underExternalLauncher reports whether this process is already one worker
// of a group that another launcher started: torchrun-style (WORLD_SIZE),
// Open MPI's mpirun, or Slurm's srun with several tasks.
func underExternalLauncher() bool {
	if os.Getenv("WORLD_SIZE") != "" || os.Getenv("OMPI_COMM_WORLD_SIZE") != "" {
		return true
	}
	n, err := strconv.Atoi(os.Getenv("SLURM_NTASKS"))
	return err == nil && n > 1
}
