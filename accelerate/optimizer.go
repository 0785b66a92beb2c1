package accelerate

import (
	"fmt"

	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// optimizer is a prepared optimizer: it steps and zeroes gradients only on
// sync steps, and under fp16 unscales the gradients and skips the step when
// they overflowed.
type optimizer struct {
	inner   optim.Optimizer
	acc     *Accelerator
	skipped bool
}

// Step updates the parameters on sync steps.
func (o *optimizer) Step() {
	a := o.acc
	if !a.syncGradients {
		return
	}
	defer a.suggestFSDP("optimizer step")
	o.skipped = false
	if s := a.scaler; s != nil {
		s.unscale(o.inner.Params())
		if s.foundInf {
			o.skipped = true
		} else {
			o.inner.Step()
		}
		s.update()
	} else {
		o.inner.Step()
	}
	if !o.skipped {
		for _, m := range a.models {
			if m.fsdp != nil {
				m.fsdp.evictAll() // the gathered parameters are stale now; the next use gathers the new shards
			}
		}
	}
	a.stepWasSkipped = o.skipped
	if !o.skipped && o == a.optimizers[0] {
		a.optimizerSteps++
		a.worker.SetSteps(a.optimizerSteps) // for the launcher's status table
	}
}

// ZeroGrad drops the gradients on sync steps (they accumulate otherwise).
func (o *optimizer) ZeroGrad() {
	if o.acc.syncGradients {
		o.inner.ZeroGrad()
	}
}

// LR returns the wrapped optimizer's learning rate.
func (o *optimizer) LR() float64 { return o.inner.LR() }

// SetLR sets the wrapped optimizer's learning rate.
func (o *optimizer) SetLR(lr float64) { o.inner.SetLR(lr) }

// Params returns the wrapped optimizer's parameters.
func (o *optimizer) Params() []*tensors.Tensor { return o.inner.Params() }

// ParamGroups returns the wrapped optimizer's parameter groups (one group of every parameter when
// it has none).
func (o *optimizer) ParamGroups() []optim.ParamGroup {
	if g, ok := o.inner.(optim.Grouped); ok {
		return g.ParamGroups()
	}
	return []optim.ParamGroup{{Params: o.inner.Params(), LR: o.inner.LR()}}
}

// SetGroupLR sets the learning rate of one of the wrapped optimizer's groups.
func (o *optimizer) SetGroupLR(i int, lr float64) {
	if g, ok := o.inner.(optim.Grouped); ok {
		g.SetGroupLR(i, lr)
		return
	}
	if i != 0 {
		panic(fmt.Sprintf("accelerate: SetGroupLR: group %d out of range (the optimizer has 1 group)", i))
	}
	o.inner.SetLR(lr)
}

// StateDict serialises the wrapped optimizer.
func (o *optimizer) StateDict() ([]byte, error) { return o.inner.StateDict() }

// LoadStateDict restores the wrapped optimizer.
func (o *optimizer) LoadStateDict(b []byte) error { return o.inner.LoadStateDict(b) }

// scheduler is a prepared scheduler: with StepSchedulerWithOptimizer it steps
// only when its optimizer really stepped, NumProcesses times (once with
// SplitBatches), so the schedule counts samples as one process would.
type scheduler struct {
	inner optim.Scheduler
	acc   *Accelerator
}

// Step advances the schedule as Accelerate's AcceleratedScheduler does.
func (s *scheduler) Step() {
	a := s.acc
	if !a.cfg.stepWithOpt {
		s.inner.Step()
		return
	}
	if !a.syncGradients {
		return
	}
	for _, o := range a.optimizers {
		if o.skipped {
			return
		}
	}
	n := a.c.Size()
	if a.cfg.SplitBatches {
		n = 1
	}
	for i := 0; i < n; i++ {
		s.inner.Step()
	}
}

// LR returns the learning rate last set.
func (s *scheduler) LR() float64 { return s.inner.LR() }

// StateDict serialises the wrapped scheduler.
func (s *scheduler) StateDict() ([]byte, error) { return s.inner.StateDict() }

// LoadStateDict restores the wrapped scheduler.
func (s *scheduler) LoadStateDict(b []byte) error { return s.inner.LoadStateDict(b) }
