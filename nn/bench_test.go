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

// gptBenchSizes are the two models bench/gpt.sh compares with PyTorch: notebooks/char_gpt.ipynb's
// character GPT (about 0.8 M parameters, batch 16 × 64 tokens) and nanoGPT's shakespeare-char
// configuration (about 10.7 M parameters, batch 8 × 256 tokens).
var gptBenchSizes = []struct {
	name  string
	cfg   nn.GPTConfig
	batch int
}{
	{"char", nn.GPTConfig{VocabSize: 96, BlockSize: 64, Layers: 4, Heads: 4, Embed: 128, Bias: true}, 16},
	{"shakespeare", nn.GPTConfig{VocabSize: 65, BlockSize: 256, Layers: 6, Heads: 6, Embed: 384, Bias: true}, 8},
}

// BenchmarkGPTTrainStep is one language-model training step written as a user writes it (no
// Release): forward, cross entropy, backward, AdamW with nanoGPT's decay groups, zero grad; for
// each size of gptBenchSizes in float32 (f32) and under bfloat16 autocast (bf16). bench/gpt.sh
// runs it beside the same step in PyTorch (bench/gpt_torch.py).
func BenchmarkGPTTrainStep(b *testing.B) {
	for _, size := range gptBenchSizes {
		for _, bf16 := range []bool{false, true} {
			name := size.name + "_f32"
			if bf16 {
				name = size.name + "_bf16"
			}
			b.Run(name, func(b *testing.B) {
				tensors.ManualSeed(0)
				m := nn.NewGPT(size.cfg)
				opt := optim.NewAdamWGroups(optim.DecayGroups(m.Parameters(), 0.1), optim.AdamConfig{LR: 1e-3, Beta1: 0.9, Beta2: 0.99})
				n := size.cfg.BlockSize
				x := tensors.RandInt(0, int64(size.cfg.VocabSize), size.batch, n)
				y := tensors.RandInt(0, int64(size.cfg.VocabSize), size.batch*n)
				step := func() {
					var loss *tensors.Tensor
					forward := func() {
						logits := m.Forward(x)
						loss = nn.CrossEntropy(logits.Reshape(size.batch*n, size.cfg.VocabSize), y)
					}
					if bf16 {
						tensors.Autocast(tensors.BFloat16, forward)
					} else {
						forward()
					}
					loss.Backward()
					opt.Step()
					opt.ZeroGrad()
				}
				timeSteps(b, step)
			})
		}
	}
}
