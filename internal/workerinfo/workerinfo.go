package workerinfo

import (
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
)

// Worker is a process's link to the launcher that started it: the facts its
// Status reports (phase, steps, samples, the collective in progress, the
// last checkpoint), the stop its launcher asked for, and the pipes that
// carry them. Its methods are safe for concurrent use. A process has one,
// reached through its host (package internal/host): FromEnv makes it from
// the environment a launcher gave the process. Without a launcher it
// records what it is told and reports it to no one; the zero Worker is
// such a one.
type Worker struct {
	rank int

	// The live counters. Each is one atomic, so the hot paths that update
	// them (every collective, every batch) cost a few nanoseconds and the
	// reporter reads them without a lock.
	phase     atomic.Int32 // a Phase
	steps     atomic.Int64
	samples   atomic.Int64
	seq       atomic.Int64 // collectives entered
	inside    atomic.Int64 // seq of the collective in progress, 0 when none
	collSince atomic.Int64 // its start, in Unix nanoseconds
	nameMu    sync.Mutex   // a string under a lock: storing one atomically would allocate per collective
	collName  string
	stoppable atomic.Bool
	ckpt      atomic.Pointer[checkpoint]
	position  atomic.Pointer[func() int]
	device    atomic.Pointer[string]
	leave     atomic.Pointer[func() error]

	// The launcher's side: the status pipe (nil without a launcher), and
	// what its control pipe asked.
	rep         *reporter
	controlled  bool
	stopMode    atomic.Int32 // a StopMode
	commHandler atomic.Pointer[func(json.RawMessage)]
}

// FromEnv returns the link to the launcher that gave this process a status
// pipe (EnvStatusFD) and a control pipe (EnvControlFD), and starts sending
// its Status and reading the launcher's messages; its rank is RANK's.
// Without a status pipe the Worker reports nothing. Call it once per
// process (the host does): each call takes over the pipes.
func FromEnv() *Worker {
	w := &Worker{}
	w.rank, _ = strconv.Atoi(os.Getenv("RANK"))
	out := fdFile(EnvStatusFD, "goaccel-status")
	if out == nil {
		return w
	}
	w.rep = &reporter{out: out}
	if in := fdFile(EnvControlFD, "goaccel-control"); in != nil {
		w.controlled = true
		go w.serveControl(in, leaveOrphaned)
	}
	go w.loop()
	return w
}

// SetDevice records the device this process trains on, e.g. "cpu" or "cuda:1".
func (w *Worker) SetDevice(d string) { w.device.Store(&d) }

// Device returns the device SetDevice recorded, or "cpu" (the tensors
// default) when nothing chose one.
func (w *Worker) Device() string {
	if d := w.device.Load(); d != nil && *d != "" {
		return *d
	}
	return "cpu"
}

// SetLeave records how this process leaves its process group cleanly
// (accelerate: a barrier, then closing the connections) for a worker whose
// function returned without doing so.
func (w *Worker) SetLeave(f func() error) { w.leave.Store(&f) }

// Leave runs what SetLeave recorded, once. A worker that exits while its
// peers still read from it would reset their connections.
func (w *Worker) Leave() error {
	if f := w.leave.Swap(nil); f != nil {
		return (*f)()
	}
	return nil
}
