package accelerate

import (
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// instant is a two-process group whose all-reduce costs nothing: it isolates
// the Accelerator's own per-step overhead (bucket copies, hooks, averaging).
type instant struct{ solo }

func (instant) Size() int                         { return 2 }
func (instant) AllReduce([]float32, string) error { return nil }

func (instant) AllReduceCoalesced([][]float32, string) error { return nil }

func benchStep(b *testing.B, c comm) {
	acc := newWithComm(withCfg(Config{}), c)
	tensors.ManualSeed(0)
	var model nn.Module = nn.NewSequential(nn.NewLinear(784, 512), &nn.ReLU{}, nn.NewLinear(512, 512), &nn.ReLU{}, nn.NewLinear(512, 10))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3})
	acc.Prepare(&model, &opt)
	x := tensors.Randn(64, 784)
	y := tensors.RandInt(0, 10, 64)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		acc.Backward(tensors.CrossEntropy(model.Forward(x), y))
		opt.Step()
		opt.ZeroGrad()
	}
}

// BenchmarkStepMLP compares one training step of the MLP 784-512-512-10 at
// batch 64 on one process with the same step under a two-process wrapper
// whose all-reduce is free: the difference is the data-parallel overhead.
func BenchmarkStepMLP(b *testing.B) {
	b.Run("one-process", func(b *testing.B) { benchStep(b, solo{}) })
	b.Run("ddp-overhead", func(b *testing.B) { benchStep(b, instant{}) })
}
