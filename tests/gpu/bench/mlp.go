package main

import (
	"fmt"
	"os"
	"time"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// mlpStep returns the milliseconds per training step (forward, backward, AdamW) of the MLP.
func mlpStep(dev tensors.Device, steps int) float64 {
	tensors.ManualSeed(0)
	m := nn.NewSequential(nn.NewLinear(784, 512), nn.ReLU{}, nn.NewLinear(512, 512), nn.ReLU{}, nn.NewLinear(512, 10))
	nn.MoveTo(m, dev)
	opt := optim.NewAdamW(m.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	x := tensors.Randn(128, 784).To(dev)
	y := tensors.RandInt(0, 10, 128).To(dev)
	step := func() {
		loss := tensors.CrossEntropy(m.Forward(x), y)
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
		loss.Release()
	}
	for i := 0; i < 20; i++ {
		step()
	}
	sync()
	start := time.Now()
	for i := 0; i < steps; i++ {
		step()
	}
	sync()
	ms := float64(time.Since(start).Microseconds()) / 1000 / float64(steps)
	fmt.Fprintf(os.Stderr, "gpubench: %d MLP steps in %.1f ms\n", steps, ms*float64(steps))
	return ms
}
