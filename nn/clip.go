package nn

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors"
)

// ClipGradNorm scales the gradients of params in place so that their joint L2 norm is at most
// maxNorm, and returns the norm before clipping (torch.nn.utils.clip_grad_norm_: the scale is
// maxNorm/(norm+1e-6), applied only when below 1). Parameters without a gradient are skipped.
func ClipGradNorm(params []*tensors.Tensor, maxNorm float64) float64 {
	var sq float64
	for _, p := range params {
		if g := p.Grad(); g != nil {
			for _, v := range g.Float32s() {
				sq += float64(v) * float64(v)
			}
		}
	}
	norm := math.Sqrt(sq)
	coef := maxNorm / (norm + 1e-6)
	if coef >= 1 {
		return norm
	}
	for _, p := range params {
		if g := p.Grad(); g != nil {
			if g.DType() == tensors.Float32 && g.IsContiguous() {
				d := g.Data32()
				c := float32(coef)
				for i := range d {
					d[i] *= c
				}
			} else {
				tensors.NoGrad(func() { g.CopyFrom(g.MulScalar(coef)) })
			}
		}
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
		if g := p.Grad(); g != nil {
			g.CopyFrom(g.Clamp(-clipValue, clipValue))
		}
	}
}
