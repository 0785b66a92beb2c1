package optim

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Optimizer updates a fixed list of parameters from their gradients. Step skips parameters whose
// gradient is nil, as PyTorch does.
type Optimizer interface {
	// Step applies one update to every parameter that has a gradient.
	Step()
	// ZeroGrad drops every parameter's gradient (PyTorch's zero_grad(set_to_none=True)).
	ZeroGrad()
	// LR returns the learning rate the next Step uses (of the first group when there are several).
	LR() float64
	// SetLR sets the learning rate (of every group when there are several).
	SetLR(lr float64)
	// Params returns the parameters, in the order given at construction (group by group).
	Params() []*tensors.Tensor
	// StateDict serialises the optimizer's hyper-parameters and per-parameter state.
	StateDict() ([]byte, error)
	// LoadStateDict restores what StateDict saved; it fails if the optimizer kind or the parameter
	// shapes differ.
	LoadStateDict(state []byte) error
}

// params is the parameter list shared by the optimizers.
type params []*tensors.Tensor

// checkParams panics with a clear message if ps cannot be optimised in place: optimizers update
// float32 CPU storage directly.
func checkParams(op string, ps []*tensors.Tensor) params {
	if len(ps) == 0 {
		panic(fmt.Sprintf("optim: %s: empty parameter list (pass model.Parameters())", op))
	}
	seen := make(map[*tensors.Tensor]int, len(ps))
	for i, p := range ps {
		if p == nil {
			panic(fmt.Sprintf("optim: %s: parameter %d is nil", op, i))
		}
		if j, dup := seen[p]; dup {
			panic(fmt.Sprintf("optim: %s: parameter %d is the same tensor as parameter %d (each parameter may appear once, in one group)", op, i, j))
		}
		seen[p] = i
		if p.DType() != tensors.Float32 {
			panic(fmt.Sprintf("optim: %s: parameter %d has dtype %v; optimizers update float32 master weights (keep parameters float32, use Autocast for lower precision)", op, i, p.DType()))
		}
		if p.Device().Type != "cpu" {
			panic(fmt.Sprintf("optim: %s: parameter %d is on %v; this optimizer runs on CPU parameters only", op, i, p.Device()))
		}
	}
	out := make(params, len(ps))
	copy(out, ps)
	return out
}

func (ps params) zeroGrad() {
	for _, p := range ps {
		p.ZeroGrad()
	}
}

func (ps params) list() []*tensors.Tensor {
	out := make([]*tensors.Tensor, len(ps))
	copy(out, ps)
	return out
}

// grad32 returns p's gradient as float32 values (the live storage when it is already contiguous
// float32), or nil when p has no gradient.
func grad32(p *tensors.Tensor) []float32 {
	g := p.Grad()
	if g == nil {
		return nil
	}
	if g.DType() != tensors.Float32 {
		g = g.AsType(tensors.Float32)
	}
	d := g.Contiguous().Data32()
	if len(d) != p.Numel() {
		panic(fmt.Sprintf("optim: gradient of shape %v does not match its parameter's shape %v", g.Shape(), p.Shape()))
	}
	return d
}

func checkLR(op string, lr float64) {
	if lr < 0 || lr != lr {
		panic(fmt.Sprintf("optim: %s: invalid learning rate %v (must be ≥ 0)", op, lr))
	}
}

// index returns the position of p in ps; it panics with op in the message when p is not there.
func (ps params) index(op string, p *tensors.Tensor) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	panic(fmt.Sprintf("optim: %s: the tensor is not one of this optimizer's parameters", op))
}

func checkDecay(op string, wd float64) {
	if wd < 0 || wd != wd {
		panic(fmt.Sprintf("optim: %s: invalid weight decay %v (must be ≥ 0)", op, wd))
	}
}

// chunkElems is how many elements one unit of parallel work updates.
var chunkElems = 1 << 14

// span is a range of one parameter's elements: the unit of parallel work of a step.
type span struct{ i, lo, hi int }

// spans splits every parameter into chunks of at most chunkElems elements.
func (ps params) spans() []span {
	var out []span
	for i, p := range ps {
		n := p.Numel()
		for lo := 0; lo < n; lo += chunkElems {
			out = append(out, span{i, lo, min(lo+chunkElems, n)})
		}
	}
	return out
}
