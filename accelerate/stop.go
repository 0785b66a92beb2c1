package accelerate

import (
	"fmt"
	"os"

	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/tensors"
)

// A launcher (the notebook's ■ button, Ctrl-C to goaccel launch,
// notebook_launcher.Stop) asks its workers to stop; each worker's
// Accelerator answers at the next step boundary, the moment a prepared
// loader is asked for its next batch: the step before it is complete, its
// optimizer step taken. Every rank must stop at the same boundary (saving
// is collective), so at each boundary the ranks all-reduce whether any was
// asked; the request reaches them at slightly different times, the answer
// is the same everywhere. That costs one small all-reduce per batch (about
// 25 µs over shared memory, 100 µs over TCP on loopback), and only under a
// launcher that can ask.

// watchBoundary makes the prepared loader s check for a stop request before
// it hands out each batch.
func (a *Accelerator) watchBoundary(s *shardSampler) {
	if !workerinfo.Controlled() {
		return
	}
	workerinfo.SetStoppable()
	prev := s.loader.BatchTransform()
	s.loader.SetBatchTransform(func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
		a.atBoundary(s)
		if prev != nil {
			return prev(x, y)
		}
		return x, y
	})
}

// atBoundary stops the worker when any rank was asked to, before the batch
// the loader s is about to return (its Position already counts it).
func (a *Accelerator) atBoundary(s *shardSampler) {
	if !a.syncGradients {
		return // mid-accumulation: the gradients added up so far are in no checkpoint
	}
	if !s.spec.even && s.loader.Position() > s.common {
		return // the last, short round: not every rank takes a batch here
	}
	flag := []float32{0}
	if workerinfo.StopRequested() {
		flag[0] = 1
	}
	if a.c.Size() > 1 {
		must(a.c.AllReduce(flag, "max"), "agree on a stop at the step boundary")
	}
	if flag[0] == 0 {
		return
	}
	a.stopAt(s)
}

// stopAt saves the state, with s resuming at the batch it was about to
// return, tells the launcher where, leaves the group and ends the process.
func (a *Accelerator) stopAt(s *shardSampler) {
	workerinfo.SetPhase(workerinfo.PhaseSaving)
	a.boundary = s
	dir, err := a.saveForStop()
	a.boundary = nil
	must(err, "save the state on a stop request")
	for _, t := range a.trackers {
		_ = t.Finish()
	}
	workerinfo.Stopped(dir, a.optimizerSteps)
	if err := workerinfo.Leave(); err != nil {
		fmt.Fprintf(os.Stderr, "accelerate: leave the process group after stopping: %v\n", err)
	}
	os.Exit(0)
}
