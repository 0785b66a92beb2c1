// Package optim holds the optimizers (SGD, Adam, AdamW, Adadelta, RMSprop, Adagrad) and
// learning-rate schedulers of goaccel, with PyTorch's exact update formulas and transformers'
// schedule shapes.
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
// Parameter groups give sets of parameters their own learning rate and weight decay, as PyTorch's
// param_groups do; the usual use exempts biases and LayerNorm weights from weight decay:
//
//	opt := optim.NewAdamWGroups(optim.DecayGroups(model.Parameters(), 0.1), optim.AdamConfig{LR: 3e-4})
//
// Schedulers set every group's learning rate from that group's initial one.
//
// Steps run compiled, in place, as one fused multi-tensor update per device (tensors.AdamStep,
// tensors.SGDStep, tensors.AdadeltaStep, …) on whatever device the parameters live: the state (moment estimates, momentum
// buffers) is created on first use next to each parameter and follows it when the model moves
// (nn.MoveTo, or Prepare of package accelerate). On the CPU a step allocates nothing once the
// state exists.
//
// State dicts (StateDict/LoadStateDict, what accelerate writes to optimizer.bin and scheduler.bin)
// are JSON in the layout of PyTorch's state_dict(): an optimizer's has "state" (per parameter
// index: "step" and its buffers: exp_avg/exp_avg_sq, momentum_buffer, square_avg/acc_delta,
// square_avg/momentum_buffer/grad_avg or sum) and "param_groups" (lr, weight_decay, betas, eps or
// momentum, dampening, nesterov, rho, alpha, centered, lr_decay, initial_accumulator_value, … and
// the group's "params" indices);
// a tensor is {"dtype": "F32", "shape": [...], "data": base64 of its little-endian float32 values},
// and goaccel's own checks (kind, parameter shapes) sit under "goaccel". From Python:
//
//	sd = json.load(open("optimizer.bin"))
//	for st in sd["state"].values():
//	    for k, v in st.items():
//	        if isinstance(v, dict):
//	            st[k] = torch.frombuffer(bytearray(base64.b64decode(v["data"])), dtype=torch.float32).reshape(v["shape"])
//	        elif k == "step":
//	            st[k] = torch.tensor(float(v))
//	sd["state"] = {int(k): v for k, v in sd["state"].items()}
//	optimizer.load_state_dict(sd)
//
// A PyTorch state dict encoded the same way loads into the matching goaccel optimizer
// (testdata/gen_optim.py does it). States written by earlier goaccel versions (gob) still load.
//
// Files:
//   - adadelta.go: AdadeltaConfig and Adadelta (NewAdadelta, NewAdadeltaGroups).
//   - adagrad.go: AdagradConfig and Adagrad (NewAdagrad, NewAdagradGroups; learning-rate decay,
//     initial accumulator).
//   - adam.go: AdamConfig and Adam (NewAdam, NewAdamW and their *Groups forms, Step, ZeroGrad,
//     learning rates, StateDict and LoadStateDict).
//   - group.go: ParamGroup, Grouped and DecayGroups.
//   - optimizer.go: Optimizer, and the parameter list and per-parameter state every optimizer
//     shares (created on first use, following the parameter's device).
//   - replace.go: ParamReplacer, an optimizer pointed at new tensors (accelerate's FSDP shards).
//   - rmsprop.go: RMSpropConfig and RMSprop (NewRMSprop, NewRMSpropGroups; momentum, centered).
//   - scheduler.go: Scheduler and LambdaLR, with transformers' schedules (constant, linear and
//     cosine with warmup, cosine over several cycles) and StepLR.
//   - sgd.go: SGDConfig and SGD (NewSGD, NewSGDGroups, momentum, Nesterov, weight decay).
//   - state.go: the JSON state dict in PyTorch's layout, and its checks when loading.
//   - state_legacy.go: reading the gob state dicts of earlier versions.
package optim
