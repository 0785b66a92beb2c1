package cpu

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// BenchmarkConv2dPaths runs the forward and backward passes of the MNIST example's first
// convolution (1→32 channels, 3×3, 28×28, batch 64: the weight gradient only) and of a stride-2
// ResNet convolution (16→32, 3×3, padding 1, 28×28: both gradients) on the direct kernels where
// they apply and on the by-columns path, which takes every convolution the direct kernels do not
// (strides above 1, amd64 CPUs without AVX-512).
func BenchmarkConv2dPaths(b *testing.B) {
	for _, s := range []struct {
		name      string
		p         backend.ConvParams
		inputGrad bool
	}{
		{"mnist-conv1", backend.ConvParams{Batch: 64, C: 1, H: 28, W: 28, Out: 32, KH: 3, KW: 3, Stride: 1, Pad: 0, OH: 26, OW: 26}, false},
		{"resnet-stride2", backend.ConvParams{Batch: 64, C: 16, H: 28, W: 28, Out: 32, KH: 3, KW: 3, Stride: 2, Pad: 1, OH: 14, OW: 14}, true},
	} {
		for _, columns := range []bool{false, true} {
			name := s.name + "/direct"
			if columns {
				name = s.name + "/columns"
			}
			b.Run(name, func(b *testing.B) {
				c := New()
				c.columnsOnly = columns
				p := s.p
				x := c.Alloc(backend.F32, p.Batch*p.C*p.H*p.W)
				w := c.Alloc(backend.F32, p.Out*p.C*p.KH*p.KW)
				y := c.Alloc(backend.F32, p.Batch*p.Out*p.OH*p.OW)
				gw := c.Alloc(backend.F32, p.Out*p.C*p.KH*p.KW)
				var gx *backend.Buffer
				if s.inputGrad {
					gx = c.Alloc(backend.F32, p.Batch*p.C*p.H*p.W)
				}
				for range b.N {
					c.Conv2d(backend.F32, y, x, w, nil, p)
					c.Conv2dGrad(backend.F32, gx, gw, y, x, w, p)
				}
			})
		}
	}
}
