package tensors

import (
	"fmt"
	"sync/atomic"

	"github.com/goaccel/goaccel/internal/backend"
)

// node records the op that produced a tensor: its inputs and how to map the output's gradient
// to theirs. backward returns one gradient per input (nil where none flows).
type node struct {
	op       string
	inputs   []*Tensor
	backward func(g *Tensor) []*Tensor
	freed    bool
}

// backwardState is a tensor's bookkeeping during one backward pass.
type backwardState struct {
	deps  int     // consumers whose gradient has not arrived yet
	grad  *Tensor // gradient accumulated so far
	owned bool    // grad's buffer belongs to this pass alone (may be updated in place / reused)
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

// record attaches a node to out when grad is enabled and some input requires grad.
func record(out *Tensor, op string, inputs []*Tensor, backward func(g *Tensor) []*Tensor) {
	if noGradDepth.Load() != 0 {
		return
	}
	for _, in := range inputs {
		if in != nil && in.requiresGrad {
			out.requiresGrad = true
			out.node = &node{op: op, inputs: inputs, backward: backward}
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

// Grad returns the accumulated gradient, nil until a backward pass reaches t.
func (t *Tensor) Grad() *Tensor { return t.grad }

// SetGrad replaces the gradient (nil clears it); g must have t's shape.
func (t *Tensor) SetGrad(g *Tensor) {
	if g != nil && !sameShape(g.shape, t.shape) {
		panic(fmt.Sprintf("tensors: SetGrad: gradient shape %v does not match tensor shape %v", g.shape, t.shape))
	}
	t.grad = g
}

// ZeroGrad clears the gradient (PyTorch's set_to_none=True).
func (t *Tensor) ZeroGrad() { t.grad = nil }

// IsLeaf reports whether t was created by the user rather than by an op that records history.
func (t *Tensor) IsLeaf() bool { return t.node == nil }

// Detach returns a tensor sharing t's storage with no history and no gradient requirement.
func (t *Tensor) Detach() *Tensor {
	return &Tensor{buf: t.buf, dev: t.dev, dtype: t.dtype, shape: t.shape, strides: t.strides, offset: t.offset}
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

// Backward computes the gradient of the one-element tensor t with respect to every leaf that
// requires grad, accumulating into their Grad. The graph is freed afterwards.
func (t *Tensor) Backward() {
	if t.Numel() != 1 {
		panic(fmt.Sprintf("tensors: Backward: output has shape %v; call Backward on a one-element loss or use BackwardWith(gradient)", t.shape))
	}
	t.BackwardWith(OnesLike(t))
}

// BackwardWith runs the backward pass from t with upstream gradient grad (t's shape).
func (t *Tensor) BackwardWith(grad *Tensor) {
	if !t.requiresGrad {
		panic("tensors: Backward: tensor does not require grad (no input had SetRequiresGrad(true), or it was computed under NoGrad)")
	}
	if !sameShape(grad.shape, t.shape) {
		panic(fmt.Sprintf("tensors: BackwardWith: gradient shape %v does not match output shape %v", grad.shape, t.shape))
	}
	if grad.dtype != t.dtype {
		grad = grad.convertTo(t.dtype)
	}
	noGradDepth.Add(1)
	defer noGradDepth.Add(-1)

	graph := collect(t)
	defer func() {
		for _, x := range graph {
			x.bw = nil
		}
	}()
	t.bw.grad = grad
	stack := []*Tensor{t}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		st := x.bw
		if x.node == nil {
			if st.grad != nil {
				if !x.accumulateLeaf(st.grad, st.owned) && st.owned {
					st.grad.be().Release(st.grad.buf) // added into an existing Grad; the buffer is free
				}
				for _, h := range append([]*HookHandle(nil), x.hooks...) {
					h.fn(x)
				}
			}
			continue
		}
		n := x.node
		if n.freed {
			panic(fmt.Sprintf("tensors: Backward: the graph through %s was already used by a backward pass and freed; recompute the forward pass", n.op))
		}
		var grads []*Tensor
		if st.grad != nil {
			grads = n.backward(st.grad)
		}
		for i, in := range n.inputs {
			if in == nil || !in.requiresGrad {
				continue
			}
			if i < len(grads) && grads[i] != nil {
				in.bw.add(grads[i], st.grad, grads, n.op, in)
			}
			in.bw.deps--
			if in.bw.deps == 0 {
				stack = append(stack, in)
			}
		}
		if st.owned && st.grad != nil && !sharesBuffer(st.grad.buf, grads) {
			st.grad.be().Release(st.grad.buf)
		}
		st.grad = nil
		n.freed = true
		n.backward = nil
		n.inputs = nil
	}
}

// collect finds every tensor requiring grad reachable from root and counts, for each, the
// consumers that will send it a gradient.
func collect(root *Tensor) []*Tensor {
	root.bw = &backwardState{}
	graph := []*Tensor{root}
	stack := []*Tensor{root}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.node == nil {
			continue
		}
		for _, in := range x.node.inputs {
			if in == nil || !in.requiresGrad {
				continue
			}
			if in.bw == nil {
				in.bw = &backwardState{}
				graph = append(graph, in)
				stack = append(stack, in)
			}
			in.bw.deps++
		}
	}
	return graph
}

func sharesBuffer(b *backend.Buffer, ts []*Tensor) bool {
	for _, t := range ts {
		if t != nil && t.buf == b {
			return true
		}
	}
	return false
}

// isFresh reports whether gi (returned by a backward function called with upstream g) is a
// contiguous buffer no other tensor in this step references, so it can be taken over.
func isFresh(gi, g *Tensor, grads []*Tensor) bool {
	if gi.buf == g.buf || gi.offset != 0 || gi.buf.Len != gi.Numel() || !gi.isContiguous() {
		return false
	}
	seen := 0
	for _, o := range grads {
		if o != nil && o.buf == gi.buf {
			seen++
		}
	}
	return seen == 1
}

// add accumulates one gradient contribution.
// A gradient lives on its input's device (To's backward moves it there).
func (st *backwardState) add(gi, g *Tensor, grads []*Tensor, op string, in *Tensor) {
	if !sameShape(gi.shape, in.shape) {
		panic(fmt.Sprintf("tensors: internal error: %s backward produced gradient %v for input %v", op, gi.shape, in.shape))
	}
	if gi.dtype != in.dtype {
		gi = gi.convertTo(in.dtype)
	}
	fresh := isFresh(gi, g, grads)
	be := gi.be()
	switch {
	case st.grad == nil:
		st.grad, st.owned = gi, fresh
	case st.owned:
		be.Binary(backend.Add, st.grad.buf, st.grad.strided(), gi.strided(), st.grad.shape)
	default:
		sum := empty(gi.dtype, gi.dev, gi.shape...)
		be.Binary(backend.Add, sum.buf, st.grad.strided(), gi.strided(), gi.shape)
		st.grad, st.owned = sum, true
	}
}

// accumulateLeaf adds g into the leaf's Grad and reports whether it kept g's buffer (it takes
// over an owned g when the leaf had no gradient yet).
func (t *Tensor) accumulateLeaf(g *Tensor, owned bool) bool {
	switch {
	case t.grad == nil && owned:
		t.grad = g
		return true
	case t.grad == nil:
		t.grad = g.contig()
		if t.grad == g {
			t.grad = g.convertTo(g.dtype)
		}
	case t.grad.isContiguous() && t.grad.offset == 0 && t.grad.dtype == g.dtype:
		t.be().Binary(backend.Add, t.grad.buf, t.grad.strided(), g.strided(), t.shape)
	default:
		t.grad = binary(backend.Add, "Backward", t.grad, g)
	}
	return false
}
