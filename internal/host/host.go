package host

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/workerinfo"
)

// Display publishes one iopub message from the code running now (a cell, a
// widget's callback, a launched worker's function): msgType is
// "display_data", "update_display_data" or "clear_output"; content is that
// message's content.
type Display interface {
	Send(msgType string, content map[string]any)
}

// Cells is how a process that runs notebook cells (the kernel's executor,
// whose session implements it) launches and stops workers for them:
// notebook_launcher.Launch called by a cell's code, and Stop and the Stop
// button, end here.
type Cells interface {
	// LaunchCell starts the workers of call, waits for them and returns
	// rank 0's result.
	LaunchCell(ctx context.Context, call LaunchCall) (any, error)
	// StopLaunches stops every launch the process's cells started, in
	// mode (workerinfo.StopSave: save and leave; StopFinish: end the
	// training pass), and returns how many launches it asked.
	StopLaunches(mode workerinfo.StopMode) int
}

// LaunchCall is a notebook_launcher.Launch call made by a notebook cell.
type LaunchCall struct {
	// Name is the function's declared name ("" when Launch got a function
	// value that no rewrite named: a closure, a method value, a parameter).
	Name string
	// Fn is the function as the session holds it, and Args its arguments.
	Fn   reflect.Value
	Args []reflect.Value
	// Config is the launch's normalized configuration, a
	// notebook_launcher/workers.Config: this package sits below the
	// launcher and cannot name its type, so the launcher checks it.
	Config any
	// Compile asks for compiled workers.
	Compile bool
}

// Host is what a process offers the library code that user code calls
// (display, widgets, plots, progress bars, notebook_launcher, accelerate):
// where displays go, the comms of widgets, the launcher of cells'
// launches, and the link to the launcher that started the process. The
// zero value, with Worker set, is a plain program's: nothing is shown,
// widgets stay invisible, Launch re-executes the program.
type Host struct {
	// Display receives the process's display messages; nil where nothing
	// shows them (a program, a worker whose launcher relays none).
	Display Display
	// Comms are the process's comms, over which widgets talk to the front
	// end; nil where there is none.
	Comms *comm.Manager
	// Cells launches workers for notebook cells; set in the kernel's
	// executor only.
	Cells Cells
	// Worker is the process's link to the launcher that started it: its
	// status, the stop asked of it. Never nil in what Current returns.
	Worker *workerinfo.Worker
}

// InNotebook reports whether the process runs notebook code whose displays
// a notebook shows: the kernel's executor, or a launched worker whose
// launcher relays them. Rich output (live plots, progress widgets) is only
// worth drawing there.
func (h Host) InNotebook() bool { return h.Display != nil }

// ErrInstalled is Install's error when the process has a host already.
var ErrInstalled = errors.New("host: the process has a host already (only its entry point installs one)")

var (
	// installed is the process's host, nil until Install.
	installed atomic.Pointer[Host]
	// envWorker is the process's link to its launcher, made once from
	// its environment: every Host of the process shares it.
	envWorker = sync.OnceValue(workerinfo.FromEnv)
)

// Install makes h the process's host. The process's entry point calls it
// once, before user code runs (the executor's main, the worker harness); a
// second call returns ErrInstalled and changes nothing. A nil h.Worker is
// the link FromEnv finds in the process's environment.
func Install(h Host) error {
	if h.Worker == nil {
		h.Worker = envWorker()
	}
	if !installed.CompareAndSwap(nil, &h) {
		return ErrInstalled
	}
	return nil
}

// Current returns the process's host: what Install installed, else a
// plain program's (only the Worker its environment gives it). It returns a
// copy: nothing changes the host after its installation.
func Current() Host {
	if h := installed.Load(); h != nil {
		return *h
	}
	return Host{Worker: envWorker()}
}

// TB is the part of testing.TB that ForTest uses.
type TB interface {
	Helper()
	Cleanup(func())
}

// ForTest makes h the process's host until the end of the test t, whatever
// was installed, and then restores it; a nil h.Worker is the process's own,
// as with Install. Tests only (tests/globals_test.go checks it), and not from
// parallel tests: a process has one host.
func ForTest(t TB, h Host) {
	t.Helper()
	if h.Worker == nil {
		h.Worker = envWorker()
	}
	prev := installed.Swap(&h)
	t.Cleanup(func() { installed.Store(prev) })
}
