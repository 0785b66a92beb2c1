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
	timeSteps(b, func() {
		loss := nn.CrossEntropy(m.Forward(x), y)
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
	})
}

// timeSteps runs step once to warm up, then b.N times, reporting allocations and process CPU
// milliseconds per step beside the wall time.
func timeSteps(b *testing.B, step func()) {
	step()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.ReportMetric(float64(cputime.Process()-c0)/1e6/float64(b.N), "cpu-ms/op")
}

// gptStep returns one language-model training step of m on tokens x [batch, n] and next-token
// targets y [batch·n]: forward, cross entropy, backward, the optimizer's step, zero grad, with
// every intermediate released.
func gptStep(m *nn.GPT, opt optim.Optimizer, x, y *tensors.Tensor) func() {
	batch, n := x.Size(0), x.Size(1)
	return func() {
		logits := m.Forward(x)
		flat := logits.Reshape(batch*n, logits.Size(-1))
		loss := nn.CrossEntropy(flat, y)
		logits.Release()
		flat.Release()
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
		loss.Release()
	}
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

// gptBenchConfig is notebooks/char_gpt.ipynb's model: about 0.8 M parameters.
var gptBenchConfig = nn.GPTConfig{VocabSize: 96, BlockSize: 64, Layers: 4, Heads: 4, Embed: 128, Bias: true}

// BenchmarkGPTTrainStep is one training step of the notebook's character GPT at its batch of
// 16 × 64 tokens: forward, cross entropy, backward, AdamW (nanoGPT's decay groups), zero grad.
// bench/gpt.sh runs it beside the same step in PyTorch (bench/gpt_torch.py).
func BenchmarkGPTTrainStep(b *testing.B) {
	tensors.ManualSeed(0)
	m := nn.NewGPT(gptBenchConfig)
	opt := optim.NewAdamWGroups(optim.DecayGroups(m.Parameters(), 0.1), optim.AdamConfig{LR: 1e-3, Beta1: 0.9, Beta2: 0.99})
	const batch, n = 16, 64
	x := tensors.RandInt(0, int64(gptBenchConfig.VocabSize), batch, n)
	y := tensors.RandInt(0, int64(gptBenchConfig.VocabSize), batch*n)
	timeSteps(b, gptStep(m, opt, x, y))
}
