package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// AvgPool2d averages Kernel×Kernel windows of [N, C, H, W] (or [C, H, W]) input
// (torch.nn.AvgPool2d); the options' zero values are PyTorch's defaults (stride = kernel, no
// padding, floor rounding, padding counted in the divisor). It has no parameters:
// nn.AvgPool2d{Kernel: 2}.
type AvgPool2d struct {
	Kernel int
	tensors.AvgPool2dOptions
}

// Forward pools x.
func (p AvgPool2d) Forward(x *tensors.Tensor) *tensors.Tensor {
	return tensors.AvgPool2d(x, p.Kernel, p.AvgPool2dOptions)
}

// Parameters returns nothing.
func (AvgPool2d) Parameters() []*tensors.Tensor { return nil }

// NamedParameters returns nothing.
func (AvgPool2d) NamedParameters() []NamedParameter { return nil }

func (p AvgPool2d) String() string {
	s := p.Stride
	if s == 0 {
		s = p.Kernel
	}
	return fmt.Sprintf("AvgPool2d(kernel_size=%d, stride=%d, padding=%d)", p.Kernel, s, p.Padding)
}

// AdaptiveAvgPool2d averages [N, C, H, W] (or [C, H, W]) input into H×W outputs whatever the
// input's size (torch.nn.AdaptiveAvgPool2d): nn.AdaptiveAvgPool2d{H: 1, W: 1} is the global
// average pooling at the head of a ResNet.
type AdaptiveAvgPool2d struct{ H, W int }

// Forward pools x.
func (p AdaptiveAvgPool2d) Forward(x *tensors.Tensor) *tensors.Tensor {
	return tensors.AdaptiveAvgPool2d(x, p.H, p.W)
}

// Parameters returns nothing.
func (AdaptiveAvgPool2d) Parameters() []*tensors.Tensor { return nil }

// NamedParameters returns nothing.
func (AdaptiveAvgPool2d) NamedParameters() []NamedParameter { return nil }

func (p AdaptiveAvgPool2d) String() string {
	return fmt.Sprintf("AdaptiveAvgPool2d(output_size=(%d, %d))", p.H, p.W)
}
