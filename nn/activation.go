package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// ReLU applies max(0, x) elementwise. It has no parameters: use it as nn.ReLU{}.
type ReLU struct{}

// Forward applies ReLU.
func (ReLU) Forward(x *tensors.Tensor) *tensors.Tensor { return x.ReLU() }

// Parameters returns nothing.
func (ReLU) Parameters() []*tensors.Tensor { return nil }

// NamedParameters returns nothing.
func (ReLU) NamedParameters() []NamedParameter { return nil }

// GELU applies the Gaussian error linear unit elementwise: the exact, erf-based form as
// nn.GELU{} (PyTorch's default), the tanh approximation of GPT-2 as nn.GELU{Approximate: "tanh"}.
type GELU struct {
	Approximate string // "" or "none": exact; "tanh": the tanh approximation
}

// Forward applies GELU.
func (g GELU) Forward(x *tensors.Tensor) *tensors.Tensor {
	switch g.Approximate {
	case "", "none":
		return x.GELU()
	case "tanh":
		return x.GELUTanh()
	}
	panic(fmt.Sprintf("nn: GELU: Approximate is %q; use \"none\" or \"tanh\"", g.Approximate))
}

// Parameters returns nothing.
func (GELU) Parameters() []*tensors.Tensor { return nil }

// NamedParameters returns nothing.
func (GELU) NamedParameters() []NamedParameter { return nil }

// Tanh applies tanh elementwise. Use it as nn.Tanh{}.
type Tanh struct{}

// Forward applies tanh.
func (Tanh) Forward(x *tensors.Tensor) *tensors.Tensor { return x.Tanh() }

// Parameters returns nothing.
func (Tanh) Parameters() []*tensors.Tensor { return nil }

// NamedParameters returns nothing.
func (Tanh) NamedParameters() []NamedParameter { return nil }

// Flatten merges dimensions StartDim..EndDim (negative counts from the end) into one. The zero value
// nn.Flatten{} is PyTorch's default, flattening everything but the batch dimension (1..-1).
type Flatten struct {
	StartDim, EndDim int
}

// Forward flattens x.
func (f Flatten) Forward(x *tensors.Tensor) *tensors.Tensor {
	s, e := f.StartDim, f.EndDim
	if s == 0 && e == 0 {
		s, e = 1, -1
	}
	return x.Flatten(s, e)
}

// Parameters returns nothing.
func (Flatten) Parameters() []*tensors.Tensor { return nil }

// NamedParameters returns nothing.
func (Flatten) NamedParameters() []NamedParameter { return nil }

// Dropout zeroes each element with probability P during training and scales the rest by 1/(1−P);
// in evaluation mode it is the identity.
type Dropout struct {
	mode
	P float64
}

// NewDropout returns a Dropout layer in training mode. It panics unless 0 ≤ p < 1.
func NewDropout(p float64) *Dropout {
	if p < 0 || p >= 1 || p != p {
		panic(fmt.Sprintf("nn: NewDropout: probability %v must be in [0, 1)", p))
	}
	return &Dropout{P: p}
}

// Forward applies dropout in training mode and returns x unchanged in evaluation mode.
func (d *Dropout) Forward(x *tensors.Tensor) *tensors.Tensor {
	if !d.Training() || d.P == 0 {
		return x
	}
	return tensors.Dropout(x, d.P, true)
}

// Parameters returns nothing.
func (d *Dropout) Parameters() []*tensors.Tensor { return nil }

// NamedParameters returns nothing.
func (d *Dropout) NamedParameters() []NamedParameter { return nil }
