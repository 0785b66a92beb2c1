package accelerate

import (
	"fmt"
	"os"
	"time"

	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/tensors"
)

// A launcher (the notebook's ■ button, Ctrl-C to goaccel launch,
// notebook_launcher.Stop) asks its workers to stop; each worker's
// Accelerator answers at the next step boundary, the moment a prepared
// loader is asked for its next batch: the step before it is complete, its
// optimizer step taken. Every rank must stop at the same boundary (saving
// is collective), so the ranks all-reduce whether any was asked; the
// request reaches them at slightly different times, the answer is the same
// everywhere. One such all-reduce is a synchronisation of its own (it cost
// 0.3 ms a step beside MNIST's 2 ms step on two loaded cores), so the
// ranks agree at a boundary about every checkInterval of training, not at
// every one: the same all-reduce carries each rank's proposal for how many
// batches to the next check, and the largest wins on every rank. Only
// under a launcher that can ask.

// checkInterval is how much training may pass between two stop checks.
const checkInterval = 100 * time.Millisecond

// maxCheckEvery bounds the batches between two stop checks.
const maxCheckEvery = 64

// stopCheck is when the ranks next agree on a stop.
type stopCheck struct {
	in    int       // eligible boundaries until the next check (0: at the next)
	every int       // boundaries between the last two checks
	last  time.Time // the last check
}

// due counts a boundary and reports whether the ranks check at it.
func (c *stopCheck) due() bool {
	if c.in > 0 {
		c.in--
		return false
	}
	return true
}

// proposal is how many boundaries this rank would let pass before the next
// check: about checkInterval of them at the pace since the last check.
func (c *stopCheck) proposal(now time.Time) float32 {
	if c.last.IsZero() || c.every == 0 {
		return 1
	}
	per := now.Sub(c.last) / time.Duration(c.every)
	if per <= 0 {
		return maxCheckEvery
	}
	return float32(min(max(int(checkInterval/per), 1), maxCheckEvery))
}

// agreed starts the wait for the next check, every boundaries from now.
func (c *stopCheck) agreed(every int, now time.Time) {
	c.every, c.in, c.last = every, every-1, now
}

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
	if !a.stopCheck.due() {
		return
	}
	now := time.Now()
	agree := []float32{0, a.stopCheck.proposal(now)}
	if workerinfo.StopRequested() {
		agree[0] = 1
	}
	if a.c.Size() > 1 {
		must(a.c.AllReduce(agree, "max"), "agree on a stop at the step boundary")
	}
	if agree[0] > 0 {
		a.stopAt(s)
	}
	a.stopCheck.agreed(int(agree[1]), now)
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
