package nn_test

import (
	"testing"

	"github.com/goaccel/goaccel/internal/cputime"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// BenchmarkMLPTrainStep is issue 3's reference step: MLP 784-512-512-10, batch 128, AdamW, cross
// entropy (forward, backward, optimizer step, zero grad). bench/tensors.sh runs it beside the same
// step in PyTorch (bench/tensors_torch.py, AdamW with foreach=True, 1 and 2 threads).
func BenchmarkMLPTrainStep(b *testing.B) {
	tensors.ManualSeed(0)
	m := nn.NewSequential(nn.NewLinear(784, 512), nn.ReLU{}, nn.NewLinear(512, 512), nn.ReLU{}, nn.NewLinear(512, 10))
	opt := optim.NewAdamW(m.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	x := tensors.Randn(128, 784)
	y := tensors.RandInt(0, 10, 128)
	step := func() {
		loss := nn.CrossEntropy(m.Forward(x), y)
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
	}
	step()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.ReportMetric(float64(cputime.Process()-c0)/1e6/float64(b.N), "cpu-ms/op")
}

// BenchmarkAdamWStepMLP times only the optimizer update over the MLP's 669,706 parameters.
func BenchmarkAdamWStepMLP(b *testing.B) {
	m := nn.NewSequential(nn.NewLinear(784, 512), nn.ReLU{}, nn.NewLinear(512, 512), nn.ReLU{}, nn.NewLinear(512, 10))
	ps := m.Parameters()
	for _, p := range ps {
		p.SetGrad(tensors.OnesLike(p))
	}
	opt := optim.NewAdamW(ps, optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	opt.Step()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		opt.Step()
	}
}
