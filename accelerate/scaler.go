package accelerate

import (
	"math"

	"github.com/goaccel/goaccel/tensors"
)

// lossScaler is PyTorch's GradScaler with its defaults: the loss is multiplied
// by scale before the backward pass; a step whose gradients hold inf/NaN is
// skipped and halves the scale; 2000 good steps in a row double it.
type lossScaler struct {
	scale    float64
	growth   int  // good steps since the last change
	unscaled bool // gradients already divided by scale this step
	foundInf bool
}

const (
	initScale      = 65536
	growthFactor   = 2
	backoffFactor  = 0.5
	growthInterval = 2000
)

func newLossScaler() *lossScaler { return &lossScaler{scale: initScale} }

// unscale divides every gradient by the scale once per step and records whether any is inf/NaN.
func (s *lossScaler) unscale(params []*tensors.Tensor) {
	if s.unscaled {
		return
	}
	s.unscaled = true
	inv := float32(1 / s.scale)
	for _, p := range params {
		g := p.Grad()
		if g == nil {
			continue
		}
		vals := g.Float32s()
		for i, v := range vals {
			if math.IsInf(float64(v), 0) || v != v {
				s.foundInf = true
			}
			vals[i] = v * inv
		}
		setGrad(p, vals)
	}
}

// update adjusts the scale after a step and resets the per-step state.
func (s *lossScaler) update() {
	if s.foundInf {
		s.scale *= backoffFactor
		s.growth = 0
	} else if s.growth++; s.growth == growthInterval {
		s.scale *= growthFactor
		s.growth = 0
	}
	s.unscaled, s.foundInf = false, false
}
