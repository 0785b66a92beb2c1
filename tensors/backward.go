package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// backwardState is a tensor's bookkeeping during one backward pass. grad is a handle the pass
// owns: it is released once used, and updated in place when nothing else shares its storage.
type backwardState struct {
	deps int     // consumers whose gradient has not arrived yet
	grad *Tensor // gradient accumulated so far
}

// Backward computes the gradient of the one-element tensor t with respect to every leaf that
// requires grad, accumulating into their Grad. The graph is freed afterwards.
func (t *Tensor) Backward() {
	if t.Numel() != 1 {
		panic(fmt.Sprintf("tensors: Backward: output has shape %v; call Backward on a one-element loss or use BackwardWith(gradient)", t.shape))
	}
	one := OnesLike(t)
	t.BackwardWith(one)
	one.release()
}

// BackwardWith runs the backward pass from t with upstream gradient grad (t's shape).
func (t *Tensor) BackwardWith(grad *Tensor) {
	if !t.requiresGrad {
		panic("tensors: Backward: tensor does not require grad (no input had SetRequiresGrad(true), or it was computed under NoGrad)")
	}
	if !slices.Equal(grad.shape, t.shape) {
		panic(fmt.Sprintf("tensors: BackwardWith: gradient shape %v does not match output shape %v", grad.shape, t.shape))
	}
	noGradDepth.Add(1)
	defer noGradDepth.Add(-1)
	defer opSpan("Backward", t).End()

	graph := collect(t)
	defer func() {
		for _, x := range graph {
			x.bw = nil
		}
	}()
	// The pass works on a handle of its own: the caller's gradient stays the caller's.
	if grad.dtype != t.dtype {
		t.bw.grad = grad.convertTo(t.dtype)
	} else {
		t.bw.grad = grad.view(grad.shape, grad.strides, grad.offset)
	}
	stack := []*Tensor{t}
	var handed []*Tensor
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		st := x.bw
		if x.node == nil {
			if st.grad != nil {
				x.accumulateLeaf(st.grad)
				st.grad = nil
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
			span := backwardSpan(n.op, st.grad)
			grads = n.backward(st.grad)
			span.End()
		}
		handed = handed[:0]
		for i, in := range n.inputs {
			if in == nil || !in.requiresGrad {
				continue
			}
			if i < len(grads) && grads[i] != nil {
				gi := grads[i]
				if gi == st.grad || containsTensor(handed, gi) {
					// One handle per holder: the same gradient flows to several inputs.
					gi = gi.view(gi.shape, gi.strides, gi.offset)
				} else {
					handed = append(handed, gi)
				}
				in.bw.add(gi, n.op, in)
			}
			in.bw.deps--
			if in.bw.deps == 0 {
				stack = append(stack, in)
			}
		}
		for _, gi := range grads {
			if gi != nil && gi != st.grad && !containsTensor(handed, gi) {
				gi.release() // computed for an input that needs none
			}
		}
		st.grad.release()
		st.grad = nil
		n.free()
	}
}

func containsTensor(ts []*Tensor, t *Tensor) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
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

// exclusive reports whether t is the only handle on a storage it covers whole and contiguously,
// so it may be updated in place or kept as a gradient without anyone else seeing it.
func (t *Tensor) exclusive() bool {
	return t.st.refs.Load() == 1 && !t.st.exported.Load() && t.offset == 0 &&
		t.st.buf != nil && t.st.buf.Len == t.Numel() && t.isContiguous()
}

// add accumulates one gradient contribution gi, a handle the pass now owns. A gradient lives on
// its input's device (To's backward moves it there).
func (st *backwardState) add(gi *Tensor, op string, in *Tensor) {
	if !slices.Equal(gi.shape, in.shape) {
		panic(fmt.Sprintf("tensors: internal error: %s backward produced gradient %v for input %v", op, gi.shape, in.shape))
	}
	if gi.dtype != in.dtype {
		c := gi.convertTo(in.dtype)
		gi.release()
		gi = c
	}
	switch {
	case st.grad == nil:
		st.grad = gi
	case st.grad.exclusive():
		gi.be().Binary(backend.Add, st.grad.buf(), st.grad.strided(), gi.strided(), st.grad.shape)
		gi.release()
	default:
		sum := empty(gi.dtype, gi.dev, gi.shape...)
		gi.be().Binary(backend.Add, sum.buf(), st.grad.strided(), gi.strided(), gi.shape)
		st.grad.release()
		gi.release()
		st.grad = sum
	}
}

// accumulateLeaf adds g, a handle the pass owns, into the leaf's Grad: it becomes the Grad when
// the leaf had none and g is exclusively its own storage.
func (t *Tensor) accumulateLeaf(g *Tensor) {
	switch {
	case t.grad == nil && g.exclusive():
		t.grad = g
		return
	case t.grad == nil:
		t.grad = g.convertTo(g.dtype)
	case t.grad.isContiguous() && t.grad.offset == 0 && t.grad.dtype == g.dtype:
		t.be().Binary(backend.Add, t.grad.buf(), t.grad.strided(), g.strided(), t.shape)
	default:
		sum := binary(backend.Add, "Backward", t.grad, g)
		t.grad.release()
		t.grad = sum
	}
	g.release()
}
