package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Embedding maps int64 indices to rows of Weight [num, dim] (torch.nn.Embedding).
type Embedding struct {
	Weight *tensors.Tensor
}

// NewEmbedding returns an Embedding of num vectors of size dim, initialised N(0, 1) as PyTorch does.
func NewEmbedding(num, dim int) *Embedding {
	if num <= 0 || dim <= 0 {
		panic(fmt.Sprintf("nn: NewEmbedding: num and dim must be positive, got %d and %d", num, dim))
	}
	return &Embedding{Weight: tensors.Randn(num, dim).SetRequiresGrad(true)}
}

// Forward looks up the rows of the int64 indices x; the result has shape x.Shape() + [dim].
func (e *Embedding) Forward(x *tensors.Tensor) *tensors.Tensor { return tensors.Embedding(e.Weight, x) }

// Parameters returns the weight.
func (e *Embedding) Parameters() []*tensors.Tensor { return []*tensors.Tensor{e.Weight} }

// NamedParameters returns "weight".
func (e *Embedding) NamedParameters() []NamedParameter { return []NamedParameter{{"weight", e.Weight}} }

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
