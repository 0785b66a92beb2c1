package tensors

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// node records the op that produced a tensor: its inputs and how to map the output's gradient
// to theirs. backward returns one gradient per input (nil where none flows).
//
// A node keeps a reference on the storage of its inputs, its output and any tensor it saved
// (held), so their memory stays valid for the backward pass even when their handles were
// released; the references go when the node's backward has run.
type node struct {
	op       string
	inputs   []*Tensor
	backward func(g *Tensor) []*Tensor
	held     []*storage
	freed    bool
}

// free drops what the node kept once its backward pass has run.
func (n *node) free() {
	n.freed = true
	n.backward = nil
	n.inputs = nil
	for _, s := range n.held {
		s.drop()
	}
	n.held = nil
}

// noGradDepth > 0 disables recording. It is process-wide (Go has no goroutine-local state):
// NoGrad in one goroutine also stops recording in others while it runs.
var noGradDepth atomic.Int32

// IsGradEnabled reports whether ops currently record autograd history.
func IsGradEnabled() bool { return noGradDepth.Load() == 0 }

// NoGrad runs fn without recording autograd history (evaluation, optimizer updates).
func NoGrad(fn func()) {
	noGradDepth.Add(1)
	defer noGradDepth.Add(-1)
	fn()
}

// record attaches a node to out when grad is enabled and some input requires grad. backward
// may read the inputs, out, and the tensors listed in saved (those that are not inputs: class
// targets, indices, masks, state the op computed): the node holds their storage until it has
// run.
func record(out *Tensor, op string, inputs []*Tensor, backward func(g *Tensor) []*Tensor, saved ...*Tensor) {
	if noGradDepth.Load() != 0 {
		return
	}
	for _, in := range inputs {
		if in != nil && in.requiresGrad {
			n := &node{op: op, inputs: inputs, backward: backward}
			n.held = make([]*storage, 0, len(inputs)+len(saved)+1)
			for _, ts := range [][]*Tensor{inputs, saved, {out}} {
				for _, t := range ts {
					if t != nil {
						t.st.retain()
						n.held = append(n.held, t.st)
					}
				}
			}
			out.requiresGrad = true
			out.node = n
			return
		}
	}
}

// RequiresGrad reports whether gradients are computed for t.
func (t *Tensor) RequiresGrad() bool { return t.requiresGrad }

// SetRequiresGrad marks a leaf tensor as a parameter whose gradient Backward computes, and
// returns t.
func (t *Tensor) SetRequiresGrad(b bool) *Tensor {
	if t.node != nil && !b {
		panic("tensors: SetRequiresGrad(false) on a tensor computed by an op; use Detach to cut it from the graph")
	}
	if b && !t.dtype.isFloat() {
		panic(fmt.Sprintf("tensors: SetRequiresGrad: only floating-point tensors can require gradients, have %s", t.dtype))
	}
	t.requiresGrad = b
	return t
}

// Grad returns the accumulated gradient, nil until a backward pass reaches t. The result is the
// caller's to keep: it stays valid after ZeroGrad (whose memory recycling then skips it), and a
// later backward pass that accumulates into the gradient changes it, as in PyTorch. Repeated
// calls return the same tensor until the gradient is replaced.
func (t *Tensor) Grad() *Tensor {
	g := t.grad
	if g == nil {
		return nil
	}
	if t.gradOut == nil || t.gradOut.st != g.st {
		t.gradOut = g.view(g.shape, g.strides, g.offset)
	}
	return t.gradOut
}

// GradRef returns the gradient without handing it out: it is valid only until the next
// ZeroGrad, SetGrad or MoveTo of t, after which its memory may hold another tensor. Optimizers,
// gradient clipping and collectives, which use the gradient for a moment, read it this way so
// that ZeroGrad can recycle its memory; code that keeps a gradient uses Grad.
func (t *Tensor) GradRef() *Tensor { return t.grad }

// SetGrad replaces the gradient (nil clears it); g must have t's shape. g stays the caller's and
// is what Grad returns.
func (t *Tensor) SetGrad(g *Tensor) {
	if g != nil && !slices.Equal(g.shape, t.shape) {
		panic(fmt.Sprintf("tensors: SetGrad: gradient shape %v does not match tensor shape %v", g.shape, t.shape))
	}
	old := t.grad
	t.grad, t.gradOut = nil, g
	if g != nil {
		t.grad = g.view(g.shape, g.strides, g.offset)
	}
	old.release()
}

// ZeroGrad clears the gradient (PyTorch's set_to_none=True). Its memory goes to the next
// backward pass unless Grad handed it out.
func (t *Tensor) ZeroGrad() {
	g := t.grad
	t.grad, t.gradOut = nil, nil
	g.release()
}

// IsLeaf reports whether t was created by the user rather than by an op that records history.
func (t *Tensor) IsLeaf() bool { return t.node == nil }

// Detach returns a tensor sharing t's storage with no history and no gradient requirement.
func (t *Tensor) Detach() *Tensor {
	return t.view(t.shape, t.strides, t.offset)
}

// Clone returns a contiguous copy; gradients flow back to t.
func (t *Tensor) Clone() *Tensor {
	out := empty(t.dtype, t.dev, t.shape...)
	t.be().Copy(out.strided(), t.strided(), t.shape)
	record(out, "Clone", []*Tensor{t}, func(g *Tensor) []*Tensor { return []*Tensor{g} })
	return out
}

// HookHandle removes a hook registered with OnGradReady.
type HookHandle struct {
	t  *Tensor
	fn func(leaf *Tensor)
}

// OnGradReady registers fn, called once per backward pass on the leaf t as soon as its
// gradient for that pass is final (all contributions accumulated into Grad), before Backward
// returns. Leaves nearer the loss become ready first. A leaf that receives no gradient in a
// pass (not used by the loss) does not fire.
func (t *Tensor) OnGradReady(fn func(leaf *Tensor)) *HookHandle {
	if t.node != nil {
		panic("tensors: OnGradReady: only leaf tensors (parameters) have gradient-ready hooks")
	}
	h := &HookHandle{t: t, fn: fn}
	t.hooks = append(t.hooks, h)
	return h
}

// Remove unregisters the hook; further backward passes do not call it.
func (h *HookHandle) Remove() {
	if h == nil || h.t == nil {
		return
	}
	hs := h.t.hooks
	for i, x := range hs {
		if x == h {
			h.t.hooks = append(hs[:i:i], hs[i+1:]...)
			break
		}
	}
	h.t = nil
}
