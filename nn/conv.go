package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Conv2d is a 2-D convolution over NCHW input with Weight [out, in, k, k] and Bias [out]
// (torch.nn.Conv2d with square kernels, equal stride and padding on both axes).
type Conv2d struct {
	Weight  *tensors.Tensor
	Bias    *tensors.Tensor
	Stride  int
	Padding int
}

// NewConv2d returns a Conv2d from in to out channels with a kernel×kernel filter, initialised as
// PyTorch does (weight and bias uniform in ±1/√(in·kernel²)). PyTorch's defaults are stride 1,
// padding 0.
func NewConv2d(in, out, kernel, stride, padding int) *Conv2d {
	if in <= 0 || out <= 0 || kernel <= 0 {
		panic(fmt.Sprintf("nn: NewConv2d: in, out and kernel must be positive, got %d, %d, %d", in, out, kernel))
	}
	if stride <= 0 || padding < 0 {
		panic(fmt.Sprintf("nn: NewConv2d: stride must be positive and padding non-negative, got %d and %d", stride, padding))
	}
	fanIn := in * kernel * kernel
	return &Conv2d{
		Weight:  uniformParam(kaimingBound(fanIn), out, in, kernel, kernel),
		Bias:    uniformParam(biasBound(fanIn), out),
		Stride:  stride,
		Padding: padding,
	}
}

// Forward convolves x [N, in, H, W].
func (c *Conv2d) Forward(x *tensors.Tensor) *tensors.Tensor {
	return tensors.Conv2d(x, c.Weight, c.Bias, c.Stride, c.Padding)
}

// Parameters returns weight then bias.
func (c *Conv2d) Parameters() []*tensors.Tensor { return ParametersOf(c) }

// NamedParameters returns "weight" and, with a bias, "bias".
func (c *Conv2d) NamedParameters() []NamedParameter {
	ps := []NamedParameter{{"weight", c.Weight}}
	if c.Bias != nil {
		ps = append(ps, NamedParameter{"bias", c.Bias})
	}
	return ps
}

// String describes the layer as PyTorch prints it.
func (c *Conv2d) String() string {
	s := c.Weight.Shape()
	return fmt.Sprintf("Conv2d(%d, %d, kernel_size=(%d, %d), stride=(%d, %d), padding=(%d, %d))",
		s[1], s[0], s[2], s[3], c.Stride, c.Stride, c.Padding, c.Padding)
}

// MaxPool2d takes the maximum over Kernel×Kernel windows moved by Stride (torch.nn.MaxPool2d).
type MaxPool2d struct {
	Kernel, Stride int
}

// NewMaxPool2d returns a MaxPool2d with stride equal to the kernel size (PyTorch's default).
func NewMaxPool2d(kernel int) *MaxPool2d {
	if kernel <= 0 {
		panic(fmt.Sprintf("nn: NewMaxPool2d: kernel must be positive, got %d", kernel))
	}
	return &MaxPool2d{Kernel: kernel, Stride: kernel}
}

// Forward pools x [N, C, H, W].
func (p *MaxPool2d) Forward(x *tensors.Tensor) *tensors.Tensor {
	return tensors.MaxPool2d(x, p.Kernel, p.Stride)
}

// Parameters returns nothing.
func (p *MaxPool2d) Parameters() []*tensors.Tensor { return nil }

// NamedParameters returns nothing.
func (p *MaxPool2d) NamedParameters() []NamedParameter { return nil }
