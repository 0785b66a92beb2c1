package optim_test

import (
	"fmt"

	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// Minimise (w − 3)² with SGD and momentum.
func ExampleNewSGD() {
	w := tensors.Zeros(1).SetRequiresGrad(true)
	opt := optim.NewSGD([]*tensors.Tensor{w}, optim.SGDConfig{LR: 0.1, Momentum: 0.5})
	for i := 0; i < 50; i++ {
		loss := w.SubScalar(3).Pow(2).Sum()
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
	}
	fmt.Printf("w = %.4f\n", w.Item())
	// Output: w = 3.0000
}

func ExampleNewLinearScheduleWithWarmup() {
	w := tensors.Zeros(1).SetRequiresGrad(true)
	opt := optim.NewAdamW([]*tensors.Tensor{w}, optim.AdamConfig{LR: 0.1})
	sched := optim.NewLinearScheduleWithWarmup(opt, 2, 6)
	for i := 0; i <= 6; i++ {
		fmt.Printf("step %d: lr %.3f\n", i, sched.LR())
		// opt.Step() would go here, then:
		sched.Step()
	}
	// Output:
	// step 0: lr 0.000
	// step 1: lr 0.050
	// step 2: lr 0.100
	// step 3: lr 0.075
	// step 4: lr 0.050
	// step 5: lr 0.025
	// step 6: lr 0.000
}
