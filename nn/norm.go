package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// GroupNorm normalises [N, C, …] input over groups of C/Groups channels (and every dim after
// them), then scales and shifts each channel by Weight and Bias (torch.nn.GroupNorm). Its
// statistics are each sample's own: the same in training and evaluation.
type GroupNorm struct {
	Groups, Channels int
	Eps              float64
	Weight, Bias     *tensors.Tensor // nil without affine
}

// NewGroupNorm returns a GroupNorm of channels channels in groups groups with PyTorch's defaults
// (eps 1e-5, weight ones, bias zeros).
func NewGroupNorm(groups, channels int) *GroupNorm {
	if groups <= 0 || channels <= 0 || channels%groups != 0 {
		panic(fmt.Sprintf("nn: NewGroupNorm: %d channels do not split into %d groups", channels, groups))
	}
	return &GroupNorm{Groups: groups, Channels: channels, Eps: 1e-5,
		Weight: tensors.Ones(channels).SetRequiresGrad(true), Bias: tensors.Zeros(channels).SetRequiresGrad(true)}
}

// Forward normalises x.
func (g *GroupNorm) Forward(x *tensors.Tensor) *tensors.Tensor {
	if x.Dim() < 2 || x.Size(1) != g.Channels {
		panic(fmt.Sprintf("nn: GroupNorm: input of shape %v; want [N, %d, …]", x.Shape(), g.Channels))
	}
	return tensors.GroupNorm(x, g.Groups, g.Weight, g.Bias, g.Eps)
}

// Parameters returns weight then bias.
func (g *GroupNorm) Parameters() []*tensors.Tensor { return ParametersOf(g) }

// NamedParameters returns "weight" and "bias" (none without affine).
func (g *GroupNorm) NamedParameters() []NamedParameter {
	if g.Weight == nil {
		return nil
	}
	return []NamedParameter{{"weight", g.Weight}, {"bias", g.Bias}}
}

func (g *GroupNorm) String() string {
	return fmt.Sprintf("GroupNorm(%d, %d, eps=%g, affine=%v)", g.Groups, g.Channels, g.Eps, g.Weight != nil)
}

// float32Eps is torch.finfo(torch.float32).eps, RMSNorm's default ε.
const float32Eps = 1.1920928955078125e-07

// RMSNorm scales its input by the reciprocal root mean square over the trailing Shape dims, then
// by Weight (torch.nn.RMSNorm): y = x / √(mean(x²) + ε) · weight.
type RMSNorm struct {
	Shape []int
	// Eps is added to the mean square; 0 is PyTorch's default, float32's machine epsilon.
	Eps    float64
	Weight *tensors.Tensor // nil without elementwise affine
}

// NewRMSNorm returns an RMSNorm over the trailing dims shape with weight ones and PyTorch's
// default ε.
func NewRMSNorm(shape ...int) *RMSNorm {
	if len(shape) == 0 {
		panic("nn: NewRMSNorm: give the normalised shape, e.g. NewRMSNorm(512)")
	}
	for _, s := range shape {
		if s <= 0 {
			panic(fmt.Sprintf("nn: NewRMSNorm: shape %v has a non-positive dimension", shape))
		}
	}
	return &RMSNorm{Shape: append([]int(nil), shape...), Weight: tensors.Ones(shape...).SetRequiresGrad(true)}
}

// Forward normalises x.
func (r *RMSNorm) Forward(x *tensors.Tensor) *tensors.Tensor {
	eps := r.Eps
	if eps == 0 {
		eps = float32Eps
	}
	return tensors.RMSNorm(x, r.Shape, r.Weight, eps)
}

// Parameters returns the weight.
func (r *RMSNorm) Parameters() []*tensors.Tensor { return ParametersOf(r) }

// NamedParameters returns "weight" (none without elementwise affine).
func (r *RMSNorm) NamedParameters() []NamedParameter {
	if r.Weight == nil {
		return nil
	}
	return []NamedParameter{{"weight", r.Weight}}
}
