package nn

import (
	"math"

	"github.com/goaccel/goaccel/tensors"
)

// uniformParam returns a float32 leaf parameter drawn from U(-bound, bound) with the process-wide
// generator (PyTorch's kaiming_uniform_(a=√5) for weights and its bias rule both reduce to
// bound = 1/√fan_in).
func uniformParam(bound float64, shape ...int) *tensors.Tensor {
	var t *tensors.Tensor
	tensors.NoGrad(func() { t = tensors.Rand(shape...).MulScalar(2 * bound).AddScalar(-bound) })
	return t.SetRequiresGrad(true)
}

// kaimingBound is the bound of kaiming_uniform_(a=√5) for fan_in inputs: gain √(2/(1+5)) times
// √3/√fan_in, which is 1/√fan_in.
func kaimingBound(fanIn int) float64 {
	if fanIn <= 0 {
		return 0
	}
	gain := math.Sqrt(2.0 / (1 + 5.0))
	return gain * math.Sqrt(3.0/float64(fanIn))
}

// biasBound is PyTorch's bias bound for Linear and Conv: 1/√fan_in.
func biasBound(fanIn int) float64 {
	if fanIn <= 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(fanIn))
}
