package nn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/tensors"
)

// Sequential applies its layers in order. Its parameters are named by layer index, as PyTorch's
// nn.Sequential names them: "0.weight", "0.bias", "2.weight", ...
type Sequential struct {
	mode
	Layers []Module
}

// NewSequential returns a Sequential of the given layers.
func NewSequential(layers ...Module) *Sequential {
	for i, l := range layers {
		if l == nil {
			panic(fmt.Sprintf("nn: NewSequential: layer %d is nil", i))
		}
	}
	return &Sequential{Layers: layers}
}

// Append adds layers at the end.
func (s *Sequential) Append(layers ...Module) { s.Layers = append(s.Layers, layers...) }

// Forward applies every layer in order. An intermediate result that only this package's own
// layers have seen (they keep neither their input nor their output) is released as soon as the
// next layer has used it, so its memory returns for the next step once the backward pass is
// done with it; around a layer of another type (a cell's own module might keep what it is
// given) nothing is released.
func (s *Sequential) Forward(x *tensors.Tensor) *tensors.Tensor {
	private := false // x came from one of this package's layers and only they have seen it
	for _, l := range s.Layers {
		y := l.Forward(x)
		own := keepsNothing(l)
		if y == x { // passed through (Dropout in evaluation, a no-op Flatten)
			private = private && own
			continue
		}
		if private && own {
			x.Release()
		}
		x, private = y, own
	}
	return x
}

// keepsNothing reports whether m is one of this package's layers, which keep no reference to
// their input or output. It checks exact types: a cell's type that embeds one of them has its
// own Forward and may keep anything.
func keepsNothing(m Module) bool {
	switch m := m.(type) {
	case *Checkpointed: // keeps its input through the autograd node, as the layers' own nodes do
		return keepsNothing(m.Module)
	case *Linear, ReLU, *ReLU, GELU, *GELU, Tanh, *Tanh, Flatten, *Flatten, *Dropout, *LayerNorm,
		*Embedding, *Conv2d, *MaxPool2d, *Sequential, *MLP, *CausalSelfAttention, *TransformerBlock, *GPT,
		*BatchNorm1d, *BatchNorm2d, *SyncBatchNorm, AvgPool2d, *AvgPool2d, AdaptiveAvgPool2d,
		*AdaptiveAvgPool2d, *GroupNorm, *RMSNorm:
		return true
	}
	return false
}

// Parameters returns the layers' parameters in order.
func (s *Sequential) Parameters() []*tensors.Tensor { return ParametersOf(s) }

// NamedParameters returns the layers' parameters prefixed by the layer index.
func (s *Sequential) NamedParameters() []NamedParameter {
	var ps []NamedParameter
	for i, l := range s.Layers {
		ps = append(ps, Prefixed(strconv.Itoa(i), l)...)
	}
	return ps
}

// NamedBuffers returns the layers' buffers prefixed by the layer index.
func (s *Sequential) NamedBuffers() []NamedParameter {
	var bs []NamedParameter
	for i, l := range s.Layers {
		bs = append(bs, PrefixedBuffers(strconv.Itoa(i), l)...)
	}
	return bs
}

// Train sets the mode of the Sequential and of every layer.
func (s *Sequential) Train(on bool) {
	s.mode.Train(on)
	for _, l := range s.Layers {
		SetTraining(l, on)
	}
}

// String lists the layers as PyTorch prints a Sequential.
func (s *Sequential) String() string {
	var b strings.Builder
	b.WriteString("Sequential(\n")
	for i, l := range s.Layers {
		fmt.Fprintf(&b, "  (%d): %s\n", i, describe(l))
	}
	b.WriteString(")")
	return b.String()
}

func describe(m Module) string {
	if s, ok := m.(fmt.Stringer); ok {
		return strings.ReplaceAll(s.String(), "\n", "\n  ")
	}
	name := fmt.Sprintf("%T", m)
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name + "()"
}
