package profiling

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Categories of events.
const (
	CatOp         = "op"         // a tensor op, forward
	CatBackward   = "backward"   // a node of the backward pass (its gradient function)
	CatCollective = "collective" // a collective of the process group
	CatWait       = "wait"       // waiting for an asynchronous collective to finish
	CatData       = "data"       // a data loader handing out a batch
	CatStep       = "step"       // a span the user or the Accelerator marks (Profile's whole run)
)

// Args are an event's details; the zero value records none.
type Args struct {
	Device string  // where an op ran ("cpu", "cuda:0")
	DType  string  // its first operand's element type
	Shapes [][]int // its operands' shapes
	Bytes  int64   // a collective's payload per rank
}

// Event is one span: what ran, where, when and for how long.
type Event struct {
	Name      string
	Cat       string
	Goroutine int64         // the goroutine that ran it (its number when the recorder first saw it)
	Start     time.Duration // since the recorder's Begin
	Dur       time.Duration
	Self      time.Duration // Dur less the events nested in it on its goroutine
	LockWait  time.Duration // a collective's wait for the group (another collective of this process ran)
	Args      Args
	open      bool
	child     time.Duration
}

// Recorder collects events. Its methods are safe for use by several goroutines.
type Recorder struct {
	Begin time.Time
	// Limit bounds the events kept (0: 4 million); the later ones are counted in Dropped.
	Limit int

	mu      sync.Mutex
	events  []Event
	open    map[uintptr][]int32 // per goroutine (getg), its open events, innermost last
	ids     map[uintptr]int64   // per goroutine (getg), its number when first seen
	dropped int
}

// NewRecorder returns a recorder whose clock starts now.
func NewRecorder() *Recorder {
	return &Recorder{Begin: time.Now(), open: map[uintptr][]int32{}, ids: map[uintptr]int64{}}
}

// active is the recorder of the profile in progress, nil when none runs.
var active atomic.Pointer[Recorder]

// ErrRunning is Install's error while another profile runs.
var ErrRunning = errors.New("profiling: a profile is already running in this process")

// Install makes r the process's recorder.
func Install(r *Recorder) error {
	if !active.CompareAndSwap(nil, r) {
		return ErrRunning
	}
	return nil
}

// Uninstall stops recording into r (if it is the process's recorder).
func Uninstall(r *Recorder) { active.CompareAndSwap(r, nil) }

// Active returns the recorder of the profile in progress, or nil: the one check the
// instrumented code makes when no profile runs.
func Active() *Recorder { return active.Load() }

// Span is an event in progress; End finishes it. The zero Span does nothing.
type Span struct {
	r *Recorder
	i int32
	g uintptr
}

// Begin starts an event on the recorder of the profile in progress, if any.
func Begin(cat, name string, args Args) Span {
	if r := active.Load(); r != nil {
		return r.Start(cat, name, args)
	}
	return Span{}
}

// Start starts an event on the calling goroutine, nested in the one it has open.
func (r *Recorder) Start(cat, name string, args Args) Span {
	g := getg()
	now := time.Since(r.Begin)
	r.mu.Lock()
	defer r.mu.Unlock()
	id, ok := r.ids[g]
	if !ok {
		id = goroutineID() // once per goroutine: a stack trace costs microseconds
		r.ids[g] = id
	}
	limit := r.Limit
	if limit == 0 {
		limit = 4 << 20
	}
	if len(r.events) >= limit {
		r.dropped++
		return Span{}
	}
	r.events = append(r.events, Event{Name: name, Cat: cat, Goroutine: id, Start: now, Args: args, open: true})
	i := int32(len(r.events) - 1)
	r.open[g] = append(r.open[g], i)
	return Span{r: r, i: i, g: g}
}

// End finishes the event.
func (s Span) End() {
	if s.r == nil {
		return
	}
	s.r.end(s, 0)
}

// EndWaited finishes a collective's event, noting how long it waited for the group.
func (s Span) EndWaited(lockWait time.Duration) {
	if s.r == nil {
		return
	}
	s.r.end(s, lockWait)
}

func (r *Recorder) end(s Span, lockWait time.Duration) {
	now := time.Since(r.Begin)
	r.mu.Lock()
	defer r.mu.Unlock()
	e := &r.events[s.i]
	e.Dur, e.LockWait, e.open = now-e.Start, lockWait, false
	e.Self = e.Dur - e.child
	stack := r.open[s.g]
	for k := len(stack) - 1; k >= 0; k-- {
		if stack[k] == s.i {
			stack = append(stack[:k], stack[k+1:]...)
			break
		}
	}
	if len(stack) > 0 {
		r.events[stack[len(stack)-1]].child += e.Dur
	}
	if len(stack) == 0 {
		delete(r.open, s.g)
	} else {
		r.open[s.g] = stack
	}
}

// Events returns the finished events in the order they started, and how many were dropped
// over Limit.
func (r *Recorder) Events() ([]Event, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Event, 0, len(r.events))
	for _, e := range r.events {
		if !e.open {
			out = append(out, e)
		}
	}
	return out, r.dropped
}

// goroutineID is the calling goroutine's number, from the first line of its stack trace
// ("goroutine 123 [running]:"): about a microsecond, paid only while a profile runs.
func goroutineID() int64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	var id int64
	for _, c := range buf[len("goroutine "):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}
