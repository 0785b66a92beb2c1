package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// LayerNorm normalises over the last len(Shape) dimensions, then scales by Weight and shifts by Bias
// (torch.nn.LayerNorm with elementwise_affine).
type LayerNorm struct {
	Shape  []int
	Eps    float64
	Weight *tensors.Tensor
	Bias   *tensors.Tensor
}

// NewLayerNorm returns a LayerNorm over the trailing dimensions shape, with eps 1e-5, weight ones
// and bias zeros.
func NewLayerNorm(shape ...int) *LayerNorm {
	if len(shape) == 0 {
		panic("nn: NewLayerNorm: give the normalised shape, e.g. NewLayerNorm(512)")
	}
	for _, s := range shape {
		if s <= 0 {
			panic(fmt.Sprintf("nn: NewLayerNorm: shape %v has a non-positive dimension", shape))
		}
	}
	return &LayerNorm{
		Shape:  append([]int(nil), shape...),
		Eps:    1e-5,
		Weight: tensors.Ones(shape...).SetRequiresGrad(true),
		Bias:   tensors.Zeros(shape...).SetRequiresGrad(true),
	}
}

// Forward normalises x.
func (l *LayerNorm) Forward(x *tensors.Tensor) *tensors.Tensor {
	return tensors.LayerNorm(x, l.Shape, l.Weight, l.Bias, l.Eps)
}

// Parameters returns weight then bias.
func (l *LayerNorm) Parameters() []*tensors.Tensor { return ParametersOf(l) }

// NamedParameters returns "weight" and "bias".
func (l *LayerNorm) NamedParameters() []NamedParameter {
	var ps []NamedParameter
	if l.Weight != nil {
		ps = append(ps, NamedParameter{"weight", l.Weight})
	}
	if l.Bias != nil {
		ps = append(ps, NamedParameter{"bias", l.Bias})
	}
	return ps
}
