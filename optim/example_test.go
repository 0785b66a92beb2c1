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

// The usual GPT recipe: weight decay on matrices only, a warm-up then cosine schedule that moves
// both groups' learning rates together.
func ExampleNewAdamWGroups() {
	w := tensors.Zeros(2, 2).SetRequiresGrad(true) // a linear layer's weight: decays
	b := tensors.Zeros(2).SetRequiresGrad(true)    // its bias: no decay
	gain := tensors.Ones(2).SetRequiresGrad(true)  // a LayerNorm weight: no decay
	groups := optim.DecayGroups([]*tensors.Tensor{w, b, gain}, 0.1)
	groups[1].LR = 2e-3 // a group may also have its own learning rate
	opt := optim.NewAdamWGroups(groups, optim.AdamConfig{LR: 1e-3})
	sched := optim.NewCosineScheduleWithWarmup(opt, 2, 10)
	for i, g := range opt.ParamGroups() {
		fmt.Printf("group %d: %d tensors, weight decay %.1f\n", i, len(g.Params), g.WeightDecay)
	}
	for step := 0; step < 3; step++ {
		sched.Step()
	}
	fmt.Printf("learning rates after 3 steps: %.6f %.6f\n", sched.LRs()[0], sched.LRs()[1])
	// Output:
	// group 0: 1 tensors, weight decay 0.1
	// group 1: 2 tensors, weight decay 0.0
	// learning rates after 3 steps: 0.000962 0.001924
}

// PyTorch's MNIST example trains with Adadelta at learning rate 1.0, stepping the rate down by
// 0.7 after each epoch.
func ExampleNewAdadelta() {
	w := tensors.New([]float32{1, -2}, 2).SetRequiresGrad(true)
	opt := optim.NewAdadelta([]*tensors.Tensor{w}, optim.AdadeltaConfig{LR: 1.0})
	sched := optim.NewStepLR(opt, 1, 0.7)
	for epoch := range 2 {
		w.Mul(w).Sum().Backward()
		opt.Step()
		opt.ZeroGrad()
		sched.Step()
		fmt.Printf("epoch %d: w %.5f, next lr %.2f\n", epoch+1, w.Float32s(), opt.LR())
	}
	// Output:
	// epoch 1: w [0.99684 -1.99684], next lr 0.70
	// epoch 2: w [0.99457 -1.99457], next lr 0.49
}
