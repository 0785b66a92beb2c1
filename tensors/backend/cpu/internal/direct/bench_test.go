package direct

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkImage measures one image of the convolution of tensors' BenchmarkConv2dForwardBackward
// (16 channels of 28×28, 32 filters of 3×3, padding 1) on one core: forward, weight gradient and
// input gradient, each direct, by Winograd and planar, in GFLOP/s of the direct form's multiply-adds.
func BenchmarkImage(b *testing.B) {
	if !Available() {
		b.Skip("no convolution kernels on this CPU (AVX-512 or NEON)")
	}
	s := Shape{C: 16, H: 28, W: 28, Out: 32, KH: 3, KW: 3, PadH: 1, PadW: 1}
	r := rand.New(rand.NewPCG(1, 2))
	x, w, gy := randoms(r, s.C*s.H*s.W), randoms(r, s.Out*s.Taps()), randoms(r, s.Out*s.OH()*s.OW())
	flops := 2 * float64(s.Out*s.Taps()*s.OH()*s.OW())
	report := func(b *testing.B) {
		b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	}
	image := func(name string, p ImagePlan, y, x []float32) {
		b.Run(name, func(b *testing.B) {
			scratch := make([]float32, p.ScratchLen())
			for b.Loop() {
				p.Image(y, x, scratch)
			}
			report(b)
		})
	}
	weights := func(name string, p WeightGradPlan) {
		b.Run(name, func(b *testing.B) {
			acc, scratch := make([]float32, p.AccLen()), make([]float32, p.ScratchLen())
			for b.Loop() {
				p.AddWeightGrad(acc, x, gy, scratch)
			}
			report(b)
		})
	}
	bias, y, gx := make([]float32, s.Out), make([]float32, len(gy)), make([]float32, len(x))
	image("forward/direct", NewForward(s, w, bias), y, x)
	image("forward/winograd", NewWinogradForward(s, w, bias), y, x)
	image("forward/planar", NewPlanarForward(s, w, bias), y, x)
	weights("weightgrad/direct", NewWeightGrad(s))
	weights("weightgrad/winograd", NewWinogradWeightGrad(s))
	weights("weightgrad/planar", NewPlanarWeightGrad(s))
	image("inputgrad/direct", NewInputGrad(s, w), gx, gy)
	image("inputgrad/winograd", NewWinogradInputGrad(s, w), gx, gy)
	image("inputgrad/planar", NewPlanarInputGrad(s, w), gx, gy)
}

// BenchmarkImageParallel runs the forward of BenchmarkImage on every core at once, an image per
// call: against BenchmarkImage/forward it shows how the kernels scale with cores.
func BenchmarkImageParallel(b *testing.B) {
	if !Available() {
		b.Skip("no convolution kernels on this CPU (AVX-512 or NEON)")
	}
	s := Shape{C: 16, H: 28, W: 28, Out: 32, KH: 3, KW: 3, PadH: 1, PadW: 1}
	r := rand.New(rand.NewPCG(1, 2))
	x, w := randoms(r, s.C*s.H*s.W), randoms(r, s.Out*s.Taps())
	for _, p := range []ImagePlan{NewForward(s, w, make([]float32, s.Out)), NewWinogradForward(s, w, make([]float32, s.Out))} {
		b.Run(fmt.Sprintf("%T", p)[8:], func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				y, scratch := make([]float32, s.Out*s.OH()*s.OW()), make([]float32, p.ScratchLen())
				for pb.Next() {
					p.Image(y, x, scratch)
				}
			})
		})
	}
}
