// Command train is a small data-parallel training program for the launch
// tests: it reports the precision and group size it got and whether it learned.
package main

import (
	"fmt"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

func main() {
	accelerate.SetSeed(1, false)
	acc := accelerate.New(accelerate.Config{})
	x := tensors.Randn(64, 3)
	y := x.MatMul(tensors.New([]float32{1, -2, 0.5}, 3, 1))
	var model nn.Module = nn.NewLinear(3, 1)
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.1})
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 8, Shuffle: true})
	acc.Prepare(&model, &opt, &loader)
	var first, last float64
	for epoch := 0; epoch < 10; epoch++ {
		for loader.Next() {
			xb, yb := loader.Batch()
			loss := tensors.MSE(model.Forward(xb), yb)
			acc.Backward(loss)
			opt.Step()
			opt.ZeroGrad()
			l := acc.Reduce(loss.Detach(), "mean").Item()
			if first == 0 {
				first = l
			}
			last = l
		}
	}
	acc.Print(fmt.Sprintf("precision=%s procs=%d learned=%t", acc.MixedPrecision(), acc.NumProcesses(), last < first/10))
	acc.EndTraining()
}
