package nn

import (
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
