package accelerate

import (
	"errors"
	"fmt"
	"math"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// Backward runs the backward pass of loss in place of loss.Backward(): it
// divides the loss by the accumulation steps, scales it under fp16, and on
// sync steps averages the gradients across processes (in buckets, overlapped
// with the backward pass).
//
// A nil loss panics with what usually causes it: a model that computed none
// (a transformers model without labels in its Inputs, or without a head for
// its task).
func (a *Accelerator) Backward(loss *tensors.Tensor) {
	if loss == nil {
		panic("accelerate: Backward: the loss is nil: the forward pass computed none. A transformers model computes its loss " +
			"only from Inputs.Labels (a batch's \"labels\") and with a head for its task: load it with " +
			"transformers.Options{Task: transformers.SequenceClassification, NumLabels: n} (the default Task is the base model, which has no head)")
	}
	if a.cfg.GradientAccumulationSteps > 1 {
		loss = loss.DivScalar(float64(a.cfg.GradientAccumulationSteps))
	}
	if a.scaler != nil {
		loss = loss.MulScalar(a.scaler.scale)
	}
	defer a.suggestFSDP("Backward")
	var armed []*reducer
	for _, m := range a.models {
		if m.red != nil && !m.noSync && a.syncGradients {
			armed = append(armed, m.red)
		}
	}
	a.joinRound(armed)
	for _, r := range armed {
		r.begin()
	}
	var sharded []*sharder
	for _, m := range a.models {
		if m.fsdp != nil {
			m.fsdp.beginBackward(!m.noSync && a.syncGradients)
			sharded = append(sharded, m.fsdp)
		}
	}
	func() {
		defer func() {
			for _, s := range sharded {
				s.endBackward()
			}
			for _, r := range armed {
				if r.active { // the backward pass panicked: let the workers end
					r.active = false
					close(r.work)
					<-r.done
				}
			}
		}()
		loss.Backward()
		for _, r := range armed {
			if err := r.finish(); err != nil {
				if errors.Is(err, tensors.ErrOutOfMemory) {
					panic(fmt.Errorf("accelerate: Backward: %w", err)) // kept an error for suggestFSDP and FindExecutableBatchSize
				}
				must(err, "Backward")
			}
		}
		for _, s := range sharded {
			s.finishBackward()
		}
	}()
}

// Accumulate runs one training step (forward, Backward, optimizer step) as
// Accelerate's `with accelerator.accumulate(model):`. Gradients are
// synchronised and the prepared optimizer and scheduler act only every
// GradientAccumulationSteps calls and at the last batch of a prepared loader.
func (a *Accelerator) Accumulate(m nn.Module, fn func()) {
	a.doSync()
	if a.syncGradients {
		fn()
		return
	}
	a.NoSync(m, fn)
}

// doSync advances the accumulation counter (Accelerate's _do_sync).
func (a *Accelerator) doSync() {
	if a.endOfDataloader() {
		a.step = 0
		a.syncGradients = true
		return
	}
	a.step++
	a.syncGradients = a.step%a.cfg.GradientAccumulationSteps == 0
}

// NoSync runs fn with the gradient all-reduce of m switched off, so gradients
// accumulate locally (DDP's no_sync). Outside Accumulate the optimizer still steps.
func (a *Accelerator) NoSync(m nn.Module, fn func()) {
	w, ok := prepared(m)
	if !ok || (w.red == nil && w.fsdp == nil) {
		fn()
		return
	}
	prev := w.noSync
	w.noSync = true
	defer func() { w.noSync = prev }()
	fn()
}

// Autocast runs fn with matrix products in the configured mixed precision:
// Go's form of `with accelerator.autocast():`, for computation outside a
// prepared model (its Forward already runs under it). Without mixed precision
// it just runs fn.
//
//	acc.Autocast(func() { logits = head.Forward(features) })
func (a *Accelerator) Autocast(fn func()) {
	switch a.cfg.MixedPrecision {
	case "bf16":
		tensors.Autocast(tensors.BFloat16, fn)
	case "fp16":
		tensors.Autocast(tensors.Float16, fn)
	default:
		fn()
	}
}

// ClipGradNorm scales the gradients of params so that their global L2 norm is
// at most maxNorm, and returns the norm before clipping. Under fp16 the
// gradients of every prepared optimizer are unscaled first (Accelerate's
// unscale_gradients). It does nothing on steps that do not sync.
func (a *Accelerator) ClipGradNorm(params []*tensors.Tensor, maxNorm float64) float64 {
	if !a.syncGradients {
		return 0
	}
	if maxNorm <= 0 || math.IsNaN(maxNorm) {
		panic(fmt.Sprintf("accelerate: ClipGradNorm: maxNorm is %v; use a positive number", maxNorm))
	}
	a.unscaleGradients(params)
	if s := a.sharderOf(params); s != nil {
		shards, other := s.shards(params)
		if len(other) > 0 {
			panic(fmt.Sprintf("accelerate: ClipGradNorm: %d of the parameters are not the FSDP model's; clip one model's parameters at a time", len(other)))
		}
		return s.clipGradNorm(shards, maxNorm)
	}
	norm := nn.ClipGradNorm(params, maxNorm)
	return norm
}

// sharderOf returns the FSDP sharding that ts belong to, as a prepared model's whole
// parameters (their gradients are on its shards) or as the shards an optimizer steps (nil
// when none is sharded).
func (a *Accelerator) sharderOf(ts []*tensors.Tensor) *sharder {
	for _, m := range a.models {
		if m.fsdp == nil {
			continue
		}
		for _, t := range ts {
			_, whole := m.fsdp.shardOf[t]
			_, shard := m.fsdp.paramOf[t]
			if whole || shard {
				return m.fsdp
			}
		}
	}
	return nil
}

// ClipGradValue clamps each gradient of params to [−clipValue, clipValue]
// (Accelerate's clip_grad_value_): under fp16 the gradients of every prepared
// optimizer are unscaled first, so clipValue is in the gradients' true units.
// It does nothing on steps that do not sync (the gradients are not complete
// yet); use it between Backward and the optimizer's Step:
//
//	acc.Backward(loss)
//	acc.ClipGradValue(model.Parameters(), 1.0)
//	opt.Step()
func (a *Accelerator) ClipGradValue(params []*tensors.Tensor, clipValue float64) {
	if !(clipValue >= 0) {
		panic(fmt.Sprintf("accelerate: ClipGradValue: clipValue is %v; use a value ≥ 0", clipValue))
	}
	if !a.syncGradients {
		return
	}
	a.unscaleGradients(params)
	if s := a.sharderOf(params); s != nil {
		shards, other := s.shards(params)
		params = append(shards, other...)
	}
	nn.ClipGradValue(params, clipValue)
}

// unscaleGradients divides, under fp16, the gradients of every prepared
// optimizer's parameters and of extra by the loss scale, once per step.
func (a *Accelerator) unscaleGradients(extra []*tensors.Tensor) {
	if a.scaler == nil || a.scaler.unscaled {
		return
	}
	seen := map[*tensors.Tensor]bool{}
	var ps []*tensors.Tensor
	add := func(list []*tensors.Tensor) {
		for _, p := range list {
			if !seen[p] {
				seen[p] = true
				ps = append(ps, p)
			}
		}
	}
	for _, o := range a.optimizers {
		add(o.inner.Params())
	}
	add(extra)
	a.scaler.unscale(ps)
}
