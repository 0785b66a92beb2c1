package widgets

import (
	"sync"

	"github.com/goaccel/goaccel/internal/comm"
)

// Interactive is what Interact returns: a column of the controls and the
// Output that shows what the function printed and displayed last.
type Interactive struct {
	*Box
	out *Output
	fn  func()
	gen sync.Mutex // guards runs
	// runs counts the changes seen; a deferred re-run that is no longer the
	// latest one is skipped, so a burst of slider moves re-runs fn once.
	runs uint64
}

// observer is a widget whose value changes can be watched.
type observer interface {
	watch(fn func(msg *comm.Message))
}

// Interact shows controls and an Output under them, runs fn once now, and
// again each time a control's value changes, its output replacing the
// previous one in the Output. fn reads the values it needs from the controls
// (Go's form of ipywidgets' interact(f, x=…)):
//
//	epochs := widgets.NewIntSlider("epochs", 3, 1, 10)
//	lr := widgets.NewFloatSlider("lr", 0.01, 0.001, 0.1)
//	widgets.Interact(func() { fmt.Println(epochs.Value(), lr.Value()) }, epochs, lr)
//
// A change the user makes re-runs fn after the running cell, once for a
// burst of changes; a change code makes re-runs it at once.
func Interact(fn func(), controls ...Widget) *Interactive {
	out := NewOutput()
	children := append(append([]Widget(nil), controls...), out)
	ia := &Interactive{Box: NewVBox(children...), out: out, fn: fn}
	ia.Box.spec.kind = "Interactive"
	for _, c := range controls {
		if o, ok := c.(observer); ok {
			o.watch(ia.changed)
		}
	}
	ia.run(0)
	return ia
}

// Output returns the Output fn's output goes to.
func (ia *Interactive) Output() *Output { return ia.out }

// Update runs fn again now.
func (ia *Interactive) Update() { ia.run(ia.next()) }

func (ia *Interactive) next() uint64 {
	ia.gen.Lock()
	defer ia.gen.Unlock()
	ia.runs++
	return ia.runs
}

func (ia *Interactive) latest(n uint64) bool {
	ia.gen.Lock()
	defer ia.gen.Unlock()
	return n == ia.runs
}

// changed re-runs fn for a control's change: deferred behind the running
// cell when the front end made it, at once when code did.
func (ia *Interactive) changed(msg *comm.Message) {
	n := ia.next()
	if msg == nil || ia.mgr == nil {
		ia.run(n)
		return
	}
	ia.mgr.Defer(*msg, comm.Job{
		Run: func() { ia.fn() },
		Around: func(run func()) {
			if !ia.latest(n) {
				return // a later change re-runs fn
			}
			ia.out.Capture(func() {
				ia.out.Clear(true)
				run()
			})
		},
	})
}

// run runs fn now inside the Output, replacing what it showed.
func (ia *Interactive) run(n uint64) {
	if !ia.latest(n) {
		return
	}
	ia.out.Capture(func() {
		ia.out.Clear(true)
		ia.fn()
	})
}
