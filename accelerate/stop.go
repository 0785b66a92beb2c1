package accelerate

import (
	"fmt"
	"os"
	"time"

	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/tensors"
)

// A launcher asks its workers to stop (Worker.RequestStop of the process's
// host, from the control pipe), in one of two modes:
//
//   - save (an interrupt: the notebook's ■ button, Ctrl-C or SIGTERM to
//     goaccel launch, notebook_launcher.Stop): every rank saves the next
//     automatic checkpoint and leaves; the launch reports the folder and
//     --resume continues from it;
//   - finish (a notebook's Stop button): the training pass ends, evaluation
//     under tensors.NoGrad runs in full, later training passes end at once
//     and the launched function returns what it has; when the run has a
//     project folder (Config.ProjectDir) the next automatic checkpoint is
//     saved first, and rank 0 says where.
//
// Each worker's Accelerator answers at a step boundary: the moment a
// prepared loader is asked for its next batch (data.PassStopper), the step
// before it complete, its optimizer step taken. Every rank must act at the
// same boundary (saving is collective, and a rank that ends its pass alone
// leaves its peers in a collective), so the ranks all-reduce the largest
// mode any was asked; the request reaches them at slightly different
// times, the answer is the same everywhere. One such all-reduce is a
// synchronisation of its own (it cost 0.3 ms a step beside MNIST's 2 ms
// step on two loaded cores), so the ranks agree at a boundary about every
// checkInterval of training, not at every one: the same all-reduce carries
// each rank's proposal for how many batches to the next check, and the
// largest wins on every rank. Only under a launcher that can ask
// (Worker.Controlled).

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

// watchBoundaries tells the launcher that a prepared loader's boundaries
// answer its stop requests (the first interrupt then stops gracefully).
func (a *Accelerator) watchBoundaries() {
	if a.worker.Controlled() {
		a.worker.SetStoppable()
	}
}

// StopPass is the prepared loader's step boundary (data.PassStopper),
// before it hands out its next batch: the ranks agree on a stop there when
// a check is due; a finish ends a training pass (one with gradients on),
// and a save does not return.
func (s *shardSampler) StopPass() bool {
	a := s.acc
	if !a.worker.Controlled() {
		return false
	}
	if a.stopAgreed < workerinfo.StopSave {
		a.atBoundary(s)
	}
	return a.stopAgreed == workerinfo.StopFinish && tensors.IsGradEnabled()
}

// atBoundary agrees with the other ranks on a stop before the batch the
// loader s is about to return (its Position does not count it yet), when a
// check is due, and acts on what they agreed.
func (a *Accelerator) atBoundary(s *shardSampler) {
	if !a.syncGradients {
		return // mid-accumulation: the gradients added up so far are in no checkpoint
	}
	if !s.spec.even && s.loader.Position() >= s.common {
		return // the last, short round: not every rank takes a batch here
	}
	if !a.stopCheck.due() {
		return
	}
	now := time.Now()
	agree := []float32{float32(a.worker.RequestedStop()), a.stopCheck.proposal(now)}
	if a.c.Size() > 1 {
		must(a.c.AllReduce(agree, "max"), "agree on a stop at the step boundary")
	}
	a.stopCheck.agreed(int(agree[1]), now)
	switch mode := workerinfo.StopMode(agree[0]); {
	case mode == workerinfo.StopSave:
		a.stopAt()
	case mode == workerinfo.StopFinish && a.stopAgreed == workerinfo.NoStop:
		a.finishAt()
	}
}

// finishAt ends the training where the ranks agreed to finish: with a
// project folder the state is saved first (the loader about to hand out a
// batch resumes at that batch), and rank 0 says so.
func (a *Accelerator) finishAt() {
	a.stopAgreed = workerinfo.StopFinish
	saved := "no checkpoint saved: the Accelerator has no Config.ProjectDir"
	if a.cfg.ProjectDir != "" {
		dir, err := a.saveForStop()
		must(err, "save the state on a stop request")
		saved = "the state is saved in " + dir + " (a launch with --resume continues from there)"
	}
	if a.IsMainProcess() {
		fmt.Fprintf(os.Stderr, "accelerate: stop requested: training ends here on every process%s; %s\n", a.stepsDone(), saved)
	}
}

// stepsDone says how many optimizer steps the training took, for a stop's
// message ("" without a prepared optimizer).
func (a *Accelerator) stepsDone() string {
	if len(a.optimizers) == 0 {
		return ""
	}
	return fmt.Sprintf(", after %d optimizer steps", a.optimizerSteps)
}

// stopAt saves the state, with the loader that is at its boundary resuming
// at the batch it was about to return, tells the launcher where, leaves
// the group and ends the process.
func (a *Accelerator) stopAt() {
	a.stopAgreed = workerinfo.StopSave
	a.worker.SetPhase(workerinfo.PhaseSaving)
	dir, err := a.saveForStop()
	must(err, "save the state on a stop request")
	for _, t := range a.trackers {
		_ = t.Finish()
	}
	a.worker.Stopped(dir, a.optimizerSteps)
	if err := a.worker.Leave(); err != nil {
		fmt.Fprintf(os.Stderr, "accelerate: leave the process group after stopping: %v\n", err)
	}
	os.Exit(0)
}

// StopRequested reports whether the launcher asked the run to stop and
// every process agreed: the same answer on every process, and once true it
// stays true. A training loop over a prepared loader needs no call: its
// pass ends at the agreed step by itself (a Stop button), or the process
// saves and leaves there (an interrupt). Call it where a loop goes on
// otherwise:
//
//	for epoch := loader.Epoch(); epoch < cfg.Epochs && !acc.StopRequested(); epoch++ { … }
//
// With a prepared loader it reports what the ranks agreed at its step
// boundaries and costs no collective. Without one, under a launcher that
// can ask, each call is a one-number all-reduce (call it at a step
// boundary, the same number of times on every process). Outside such a
// launcher it is false and costs nothing.
func (a *Accelerator) StopRequested() bool {
	if a.stopAgreed != workerinfo.NoStop {
		return true
	}
	if !a.worker.Controlled() || len(a.samplers) > 0 {
		return false
	}
	flag := []float32{float32(a.worker.RequestedStop())}
	if a.c.Size() > 1 {
		must(a.c.AllReduce(flag, "max"), "StopRequested")
	}
	if flag[0] == 0 {
		return false
	}
	a.stopAgreed = workerinfo.StopFinish // no loader to resume from: the loop ends, the function returns
	if a.IsMainProcess() {
		fmt.Fprintf(os.Stderr, "accelerate: stop requested: training ends here on every process%s\n", a.stepsDone())
	}
	return true
}
