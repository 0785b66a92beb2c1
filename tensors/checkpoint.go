package tensors

import (
	"fmt"
	"slices"
)

// Checkpoint returns fn(x) without keeping the tensors fn computes on the way for the backward
// pass (PyTorch's torch.utils.checkpoint, activation checkpointing): the forward pass runs fn
// without recording history, and the backward pass runs it again, recording, to get the
// gradients of x and of params. Only x and the result are kept, so a model whose blocks are
// checkpointed holds one block's activations at a time in its backward pass instead of every
// block's, for the price of a second forward pass of each block.
//
// params lists every tensor requiring grad that fn uses besides x (a module's Parameters()):
// their gradients reach them through the checkpoint, accumulated into Grad with their
// gradient-ready hooks firing in turn, as if fn had run without it. A tensor requiring grad that
// fn uses and params does not list makes the backward pass panic with its shape: its gradient
// would be lost. fn must compute the same thing twice: the default generator (Dropout) is put
// back to its state of the first run for the second, and the autocast type in force at the
// first run is in force again.
//
// Without grad enabled, or when neither x nor any of params requires grad, Checkpoint is fn(x).
func Checkpoint(fn func(x *Tensor) *Tensor, x *Tensor, params []*Tensor) *Tensor {
	needs := x.requiresGrad
	seen := make(map[*Tensor]bool, len(params))
	uniq := make([]*Tensor, 0, len(params))
	for _, p := range params {
		if !seen[p] && p != x { // a tied weight listed twice gets its gradient once
			seen[p] = true
			uniq = append(uniq, p)
			needs = needs || p.requiresGrad
		}
	}
	params = uniq
	if !IsGradEnabled() || !needs {
		return fn(x)
	}
	rng := defaultGen.State()
	cast := autocastDT.Load()
	var out *Tensor
	NoGrad(func() { out = fn(x) })
	if out == nil {
		panic("tensors: Checkpoint: the function returned nil")
	}
	inputs := append([]*Tensor{x}, params...)
	record(out, "Checkpoint", inputs, func(g *Tensor) []*Tensor {
		return recompute(fn, x, params, g, rng, cast)
	})
	return out
}

// recompute runs fn(x) again with history, under the generator state and autocast type of the
// first run, and returns the gradients of x and params for the upstream gradient g.
func recompute(fn func(*Tensor) *Tensor, x *Tensor, params []*Tensor, g *Tensor, rng []byte, cast int32) []*Tensor {
	now := defaultGen.State()
	if err := defaultGen.SetState(rng); err != nil {
		panic(fmt.Sprintf("tensors: Checkpoint: %v", err))
	}
	prevCast := autocastDT.Swap(cast)
	depth := noGradDepth.Swap(0) // the backward pass records nothing; the recomputation must
	// The parameters may be in the outer pass already (a weight used outside fn too): their
	// bookkeeping is set aside while the inner pass runs.
	saved := make([]*backwardState, len(params))
	for i, p := range params {
		saved[i], p.bw = p.bw, nil
	}
	xd := x.Detach()
	xd.requiresGrad = x.requiresGrad
	defer func() {
		for i, p := range params {
			p.bw = saved[i]
		}
		noGradDepth.Store(depth)
		autocastDT.Store(prevCast)
		if err := defaultGen.SetState(now); err != nil {
			panic(fmt.Sprintf("tensors: Checkpoint: %v", err))
		}
		xd.release()
	}()
	out := fn(xd)
	if out == nil || !slices.Equal(out.shape, g.shape) {
		panic(fmt.Sprintf("tensors: Checkpoint: the recomputation returned %v where the first run returned %v; the function must compute the same thing twice", shapeOf(out), g.shape))
	}
	capture := make(map[*Tensor]*Tensor, len(params)+1)
	capture[xd] = nil
	for _, p := range params {
		capture[p] = nil
	}
	if out.requiresGrad {
		noGradDepth.Store(depth) // the inner pass runs without recording, as the outer does
		out.propagate(g, capture)
	}
	out.release()
	grads := make([]*Tensor, 1+len(params))
	grads[0] = capture[xd]
	for i, p := range params {
		grads[1+i] = capture[p]
	}
	return grads
}

func shapeOf(t *Tensor) any {
	if t == nil {
		return "nil"
	}
	return t.shape
}
