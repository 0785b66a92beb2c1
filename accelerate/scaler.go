package accelerate

import (
	"github.com/goaccel/goaccel/tensors"
)

// lossScaler is PyTorch's GradScaler: the loss is multiplied by scale before
// the backward pass; a step whose gradients hold inf/NaN is skipped and
// multiplies the scale by the backoff factor (0.5 by default); GrowthInterval
// good steps in a row (2000) multiply it by the growth factor (2).
type lossScaler struct {
	cfg      GradScalerKwargs // resolved
	scale    float64
	growth   int  // good steps since the last change
	unscaled bool // gradients already divided by scale this step
	foundInf bool
}

func newLossScaler(cfg GradScalerKwargs) *lossScaler {
	return &lossScaler{cfg: cfg, scale: cfg.InitScale}
}

// unscale divides every gradient by the scale once per step, on the gradients'
// device, and records whether any is inf/NaN (one value read back).
func (s *lossScaler) unscale(params []*tensors.Tensor) {
	if s.unscaled {
		return
	}
	s.unscaled = true
	grads := make([]*tensors.Tensor, len(params))
	for i, p := range params {
		grads[i] = p.GradRef() // read for this moment only: ZeroGrad may recycle them
	}
	if !tensors.ScaleCheckFinite(grads, 1/s.scale) {
		s.foundInf = true
	}
}

// update adjusts the scale after a step and resets the per-step state.
func (s *lossScaler) update() {
	if s.foundInf {
		s.scale *= s.cfg.BackoffFactor
		s.growth = 0
	} else if s.growth++; s.growth == s.cfg.GrowthInterval {
		s.scale *= s.cfg.GrowthFactor
		s.growth = 0
	}
	s.unscaled, s.foundInf = false, false
}
