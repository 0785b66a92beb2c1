package data_test

import (
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/cputime"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// randomShift is a per-sample augmentation of an MNIST image [1 28 28]: a random translation by up
// to two pixels (zero padding, then a random crop, as torchvision's RandomCrop(28, padding=2)) and
// a little Gaussian noise, drawing from its own generator.
func randomShift(seed uint64) func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
	g := tensors.NewGenerator(seed)
	return func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
		side := tensors.Zeros(1, 28, 2)
		x = tensors.Cat([]*tensors.Tensor{side, x, side}, 2)
		top := tensors.Zeros(1, 2, 32)
		x = tensors.Cat([]*tensors.Tensor{top, x, top}, 1)
		i, j := int(g.Uint64()%5), int(g.Uint64()%5)
		x = x.Slice(1, i, i+28).Slice(2, j, j+28).Contiguous()
		return x.Add(g.Randn(1, 28, 28).MulScalar(0.05)), y
	}
}

// BenchmarkMNISTTrainingWithTransform is one training step (MLP 784-512-512-10, AdamW, batch 128)
// on MNIST with a per-sample augmentation, with batches prepared in Next (sync) and on the
// Loader's prefetch goroutine (prefetch2, the default): the difference is the data preparation
// that prefetching hides behind the step. next-ms/op is the time the step spent in Next, preparing
// its batch (sync) or waiting for it (prefetch2).
//
//	go test -run '^$' -bench MNISTTrainingWithTransform -benchtime 200x -count 3 ./data/
func BenchmarkMNISTTrainingWithTransform(b *testing.B) {
	train, err := data.MNIST("train")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		prefetch int
	}{{"sync", data.NoPrefetch}, {"prefetch2", 0}} {
		b.Run(c.name, func(b *testing.B) {
			tensors.ManualSeed(0)
			model := nn.NewSequential(&nn.Flatten{}, nn.NewLinear(784, 512), nn.ReLU{}, nn.NewLinear(512, 512), nn.ReLU{}, nn.NewLinear(512, 10))
			opt := optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
			ds := data.WithTransform(train, randomShift(1))
			loader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1, Prefetch: c.prefetch})
			defer loader.Reset()
			var inNext time.Duration // time the step waited for its batch
			step := func() {
				t0 := time.Now()
				if !loader.Next() {
					loader.Next()
				}
				inNext += time.Since(t0)
				x, y := loader.Batch()
				loss := nn.CrossEntropy(model.Forward(x), y)
				loss.Backward()
				opt.Step()
				opt.ZeroGrad()
			}
			for range 3 {
				step()
			}
			b.ReportAllocs()
			b.ResetTimer()
			inNext = 0
			c0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				step()
			}
			b.ReportMetric(float64(cputime.Process()-c0)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(inNext)/1e6/float64(b.N), "next-ms/op")
		})
	}
}
