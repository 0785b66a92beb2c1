// Package optim holds the optimizers (SGD, Adam, AdamW) and learning-rate schedulers of goaccel,
// with PyTorch's exact update formulas and transformers' schedule shapes.
//
// An optimizer updates its parameters in place from their gradients:
//
//	opt := optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
//	sched := optim.NewLinearScheduleWithWarmup(opt, 100, 1000)
//	for loader.Next() {
//		x, y := loader.Batch()
//		loss := nn.CrossEntropy(model.Forward(x), y)
//		loss.Backward()
//		opt.Step()
//		sched.Step()
//		opt.ZeroGrad()
//	}
//
// Weight decay is set per optimizer and can be overridden per parameter, e.g. to exempt biases:
// opt.SetWeightDecay(p, 0). Parameter groups with separate learning rates are not supported.
//
// Steps run compiled, in place on the parameters' float32 storage, and allocate nothing once the
// optimizer state exists. State dicts (StateDict/LoadStateDict) are byte slices for checkpoints.
package optim
