package workers

import (
	"context"
	"reflect"
	"sync/atomic"
)

// CellRequest is a Launch call made by a notebook cell.
type CellRequest struct {
	// Name is the function's declared name ("" when Launch got a function
	// value that no rewrite named: a closure, a method value, a parameter).
	Name string
	// Fn is the function as the session holds it, and Args its arguments.
	Fn   reflect.Value
	Args []reflect.Value
	// Config is the normalized configuration; Compile asks for compiled workers.
	Config  Config
	Compile bool
}

// CellLauncher starts workers for a cell's Launch call and returns rank 0's result.
type CellLauncher func(ctx context.Context, r CellRequest) (any, error)

var cellLauncher atomic.Pointer[CellLauncher]

// SetCellLauncher installs f as the process's cell launcher: a process that
// runs notebook cells (the kernel's executor) routes notebook_launcher.Launch
// to it. nil removes it.
func SetCellLauncher(f CellLauncher) {
	if f == nil {
		cellLauncher.Store(nil)
		return
	}
	cellLauncher.Store(&f)
}

// InstalledCellLauncher returns the cell launcher, or nil outside a kernel.
func InstalledCellLauncher() CellLauncher {
	if f := cellLauncher.Load(); f != nil {
		return *f
	}
	return nil
}

// CellStop stops every launch the process's cells started, in mode, as
// Control.Stop does, and returns how many launches it asked.
type CellStop func(mode StopMode) int

var cellStop atomic.Pointer[CellStop]

// SetCellStop installs f as the process's stop of cell launches (the
// session installs its own with its cell launcher); nil removes it.
func SetCellStop(f CellStop) {
	if f == nil {
		cellStop.Store(nil)
		return
	}
	cellStop.Store(&f)
}

// InstalledCellStop returns the process's stop of cell launches, or nil
// outside a kernel.
func InstalledCellStop() CellStop {
	if f := cellStop.Load(); f != nil {
		return *f
	}
	return nil
}
