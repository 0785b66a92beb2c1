package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Linear is a fully connected layer y = x·Wᵀ + b with Weight [out, in] and Bias [out] (nil without
// bias), torch.nn.Linear.
type Linear struct {
	Weight *tensors.Tensor
	Bias   *tensors.Tensor
}

// NewLinear returns a Linear layer with bias, initialised as PyTorch does: weight and bias uniform in
// ±1/√in.
func NewLinear(in, out int) *Linear {
	l := NewLinearNoBias(in, out)
	l.Bias = uniformParam(biasBound(in), out)
	return l
}

// NewLinearNoBias returns a Linear layer without bias.
func NewLinearNoBias(in, out int) *Linear {
	if in <= 0 || out <= 0 {
		panic(fmt.Sprintf("nn: NewLinear: in and out must be positive, got %d and %d", in, out))
	}
	return &Linear{Weight: uniformParam(kaimingBound(in), out, in)}
}

// Forward computes x·Wᵀ + b over the last dimension of x.
func (l *Linear) Forward(x *tensors.Tensor) *tensors.Tensor {
	return tensors.Linear(x, l.Weight, l.Bias)
}

// Parameters returns weight then bias.
func (l *Linear) Parameters() []*tensors.Tensor { return ParametersOf(l) }

// NamedParameters returns "weight" and, with a bias, "bias".
func (l *Linear) NamedParameters() []NamedParameter {
	ps := []NamedParameter{{"weight", l.Weight}}
	if l.Bias != nil {
		ps = append(ps, NamedParameter{"bias", l.Bias})
	}
	return ps
}

// String describes the layer as PyTorch prints it.
func (l *Linear) String() string {
	s := l.Weight.Shape()
	bias := "False"
	if l.Bias != nil {
		bias = "True"
	}
	return fmt.Sprintf("Linear(in_features=%d, out_features=%d, bias=%s)", s[1], s[0], bias)
}
