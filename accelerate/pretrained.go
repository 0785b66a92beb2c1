package accelerate

import (
	"github.com/goaccel/goaccel/transformers"
)

// pretrained is a prepared transformers.Model: the prepared model (gradient synchronisation,
// autocast, UnwrapModel, checkpoints) that still takes transformers' keyword arguments, so a
// variable declared as transformers.Model (what FromPretrained returns) keeps its Run after
// Prepare, as a model prepared by Accelerate is still called as model(**batch).
type pretrained struct {
	*model
	tm transformers.Model
}

// preparePretrained prepares m as prepareModel does and keeps its Run.
func (a *Accelerator) preparePretrained(m transformers.Model) transformers.Model {
	if p, ok := m.(*pretrained); ok {
		return p
	}
	return &pretrained{model: a.prepareModel(m), tm: m}
}

// Run runs the wrapped model's Run as Forward runs its Forward: under autocast with mixed
// precision (and, on several processes in training, after the broadcast of rank 0's buffers).
func (p *pretrained) Run(in transformers.Inputs) (out transformers.Output, err error) {
	p.call(func() { out, err = p.tm.Run(in) })
	return out, err
}

// PretrainedConfig returns the wrapped model's configuration.
func (p *pretrained) PretrainedConfig() transformers.Config { return p.tm.PretrainedConfig() }

// Architecture returns the wrapped model's architecture.
func (p *pretrained) Architecture() string { return p.tm.Architecture() }
