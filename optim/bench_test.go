package optim

import (
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

const benchN = 1 << 20

func benchParam() []*tensors.Tensor {
	p := tensors.Randn(benchN).SetRequiresGrad(true)
	p.SetGrad(tensors.Randn(benchN))
	return []*tensors.Tensor{p}
}

func benchStep(b *testing.B, opt Optimizer) {
	opt.Step()
	b.SetBytes(4 * benchN)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		opt.Step()
	}
}

// BenchmarkAXPYBaseline is one p -= lr·g pass over the same number of floats: the memory-bound
// floor to compare the optimizer steps with in the same run.
func BenchmarkAXPYBaseline(b *testing.B) {
	w, g := make([]float32, benchN), make([]float32, benchN)
	b.SetBytes(4 * benchN)
	for i := 0; i < b.N; i++ {
		for j, gj := range g {
			w[j] -= 0.1 * gj
		}
	}
}

func BenchmarkSGDMomentumStep(b *testing.B) {
	benchStep(b, NewSGD(benchParam(), SGDConfig{LR: 0.1, Momentum: 0.9}))
}

func BenchmarkAdamWStep(b *testing.B) {
	benchStep(b, NewAdamW(benchParam(), AdamConfig{LR: 1e-3, WeightDecay: 0.01}))
}
