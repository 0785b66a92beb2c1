package main

import (
	"fmt"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// minMNISTAccuracy is what the MLP must reach on MNIST's test set after three epochs.
const minMNISTAccuracy = 0.97

// mnist trains the MLP 784-512-512-10 on MNIST's training set for epochs through an Accelerator
// on the GPU it picks (cuda:0) with mixed precision mp ("no" or "bf16"), AdamW (lr 1e-3, weight
// decay 0.01) and batches of 128, and returns the accuracy on the 10,000 test images and the
// training time.
func mnist(mp string, epochs int) (float64, time.Duration, error) {
	train, err := data.MNIST("train")
	if err != nil {
		return 0, 0, err
	}
	test, err := data.MNIST("test")
	if err != nil {
		return 0, 0, err
	}
	acc := accelerate.New(accelerate.Config{MixedPrecision: mp})
	if acc.Device() != tensors.CUDA(0) {
		return 0, 0, fmt.Errorf("the Accelerator trains on %s, want cuda:0", acc.Device())
	}
	tensors.ManualSeed(0)
	var model nn.Module = nn.NewSequential(nn.Flatten{}, nn.NewLinear(784, 512), nn.ReLU{}, nn.NewLinear(512, 512), nn.ReLU{}, nn.NewLinear(512, 10))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
	acc.Prepare(&model, &opt, &loader)
	start := time.Now()
	for e := 0; e < epochs; e++ {
		for loader.Next() {
			x, y := loader.Batch()
			loss := tensors.CrossEntropy(model.Forward(x), y)
			acc.Backward(loss)
			opt.Step()
			opt.ZeroGrad()
			loss.Release()
		}
	}
	sync()
	took := time.Since(start)
	nn.SetTraining(model, false)
	correct, total := 0, 0
	tl := data.NewLoader(test, data.LoaderConfig{BatchSize: 1000})
	tensors.NoGrad(func() {
		for tl.Next() {
			x, y := tl.Batch()
			pred := model.Forward(x.To(acc.Device())).ArgMax(1, false).Int64s()
			for i, v := range y.Int64s() {
				if pred[i] == v {
					correct++
				}
				total++
			}
		}
	})
	return float64(correct) / float64(total), took, nil
}
