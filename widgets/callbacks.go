package widgets

import (
	"sync"

	"github.com/goaccel/goaccel/internal/comm"
)

// How callbacks run.
//
// A callback (OnChange, OnClick, OnSubmit, Interact's function) is cell code.
// When the front end changes a widget, the new value is in the widget at
// once, even while a cell runs, and the callback is deferred: the kernel
// runs it in the session after the running cell ends, never beside it, in
// the order the changes came. A change made by code (SetValue) runs the
// callbacks at once, in the goroutine that made it, as ipywidgets does.
//
// What a deferred callback prints or displays, and its panic, go into the
// callback output area of the cell that registered it: an Output widget
// shown under that cell's output (with a widget left as the cell's result,
// under the widget), empty until a callback writes to it. A callback that
// captures into an Output of its own (out.Capture) writes there instead.

// listener is a registered callback and the area its output goes to.
type listener struct {
	run  func(v any)
	area *Output
}

// listeners are a widget's callbacks of one kind.
type listeners struct {
	mu   sync.Mutex
	list []listener
}

// add registers fn; its output area is the registering cell's.
func (l *listeners) add(mgr *comm.Manager, fn func(v any)) {
	area := areaFor(mgr)
	l.mu.Lock()
	l.list = append(l.list, listener{run: fn, area: area})
	l.mu.Unlock()
}

func (l *listeners) snapshot() []listener {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]listener(nil), l.list...)
}

// deferFrom queues each callback with v for the kernel to run after msg,
// between cells, inside its output area.
func (l *listeners) deferFrom(mgr *comm.Manager, msg comm.Message, v any) {
	for _, cb := range l.snapshot() {
		cb := cb
		mgr.Defer(msg, comm.Job{Run: func() { cb.run(v) }, Around: cb.area.around})
	}
}

// call runs each callback with v now, in the caller's goroutine.
func (l *listeners) call(v any) {
	for _, cb := range l.snapshot() {
		cb.run(v)
	}
}

// fire runs the callbacks for a change: deferred when a front end's message
// made it, at once when code did.
func (l *listeners) fire(mgr *comm.Manager, msg *comm.Message, v any) {
	if msg != nil && mgr != nil {
		l.deferFrom(mgr, *msg, v)
		return
	}
	l.call(v)
}

// cellAreas holds the callback output area of the request that runs now.
// One process has one kernel connection (the comm manager is the
// process's), so one is enough: a new request gets a new area.
var cellAreas struct {
	mu     sync.Mutex
	mgr    *comm.Manager
	parent string
	area   *Output
	shown  bool
}

// areaFor returns the callback output area of the request that runs now,
// making it on first use; it is shown when the request finishes unless a
// display of a widget took it first. Outside a kernel there is none.
func areaFor(mgr *comm.Manager) *Output {
	if mgr == nil {
		return nil
	}
	parent := mgr.Parent()
	cellAreas.mu.Lock()
	defer cellAreas.mu.Unlock()
	if cellAreas.area != nil && cellAreas.mgr == mgr && cellAreas.parent == parent {
		return cellAreas.area
	}
	area := NewOutput()
	cellAreas.mgr, cellAreas.parent, cellAreas.area, cellAreas.shown = mgr, parent, area, false
	mgr.AtFinish(func() {
		if takeArea(mgr, parent) == area {
			_ = display(area.bundle(area.String()))
		}
	})
	return area
}

// takeArea returns the area of the request parent if it is still to be
// shown, and marks it shown.
func takeArea(mgr *comm.Manager, parent string) *Output {
	cellAreas.mu.Lock()
	defer cellAreas.mu.Unlock()
	if cellAreas.area == nil || cellAreas.shown || cellAreas.mgr != mgr || cellAreas.parent != parent {
		return nil
	}
	cellAreas.shown = true
	return cellAreas.area
}

// pendingArea is takeArea for the request that runs now.
func pendingArea(mgr *comm.Manager) *Output {
	if mgr == nil {
		return nil
	}
	return takeArea(mgr, mgr.Parent())
}

// around runs run capturing into o (nil: no capture): a comm.Job's Around.
func (o *Output) around(run func()) {
	if o == nil {
		run()
		return
	}
	o.Capture(run)
}
