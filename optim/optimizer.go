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
// float32 master weights, on whatever device each parameter lives (the state follows it).
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

// stateFor returns the optimizer state tensor *st of parameter p, created as zeros on first use
// and moved to p's device when p moved since (a model prepared after the optimizer was made).
func stateFor(st **tensors.Tensor, p *tensors.Tensor) *tensors.Tensor {
	switch {
	case *st == nil:
		*st = tensors.ZerosLike(p)
	case (*st).Device() != p.Device():
		(*st).MoveTo(p.Device())
	}
	return *st
}

// stateTensor returns values saved in a state dict as a state tensor on p's device.
func stateTensor(p *tensors.Tensor, vals []float32) *tensors.Tensor {
	return tensors.New(vals, p.Shape()...).To(p.Device())
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
