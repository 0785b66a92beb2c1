package nn

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors"
)

// ClipGradNorm scales the gradients of params in place so that their joint L2 norm is at most
// maxNorm, and returns the norm before clipping (torch.nn.utils.clip_grad_norm_: the scale is
// maxNorm/(norm+1e-6), applied only when below 1). Parameters without a gradient are skipped. The
// work runs on the gradients' device; only the norm is read back.
func ClipGradNorm(params []*tensors.Tensor, maxNorm float64) float64 {
	grads := gradRefs(params)
	norm := math.Sqrt(tensors.SumSquares(grads))
	if coef := maxNorm / (norm + 1e-6); coef < 1 {
		tensors.ScaleInPlace(grads, coef)
	}
	return norm
}

// ClipGradValue clamps every gradient of params in place to [−clipValue, clipValue]
// (torch.nn.utils.clip_grad_value_). Parameters without a gradient are skipped; a NaN gradient
// stays NaN. It panics when clipValue is negative or NaN. The clamp is a tensor op, so it runs
// wherever the gradients live.
func ClipGradValue(params []*tensors.Tensor, clipValue float64) {
	if !(clipValue >= 0) {
		panic(fmt.Sprintf("nn: ClipGradValue: clipValue is %v; use a value ≥ 0 (gradients are clamped to [−clipValue, clipValue])", clipValue))
	}
	for _, p := range params {
		if g := p.GradRef(); g != nil {
			c := g.Clamp(-clipValue, clipValue)
			g.CopyFrom(c)
			c.Release()
		}
	}
}

// Grads returns the gradients of params (nil where a parameter has none), as Grad does.
func Grads(params []*tensors.Tensor) []*tensors.Tensor {
	out := make([]*tensors.Tensor, len(params))
	for i, p := range params {
		out[i] = p.Grad()
	}
	return out
}

// gradRefs is Grads for a moment's use (tensors.Tensor.GradRef).
func gradRefs(params []*tensors.Tensor) []*tensors.Tensor {
	out := make([]*tensors.Tensor, len(params))
	for i, p := range params {
		out[i] = p.GradRef()
	}
	return out
}
