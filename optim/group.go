package optim

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// ParamGroup is a set of parameters with their own learning rate and weight decay: one entry of
// PyTorch's param_groups. The usual use is "no weight decay for biases and norm weights":
//
//	opt := optim.NewAdamWGroups([]optim.ParamGroup{
//		{Params: matrices, WeightDecay: 0.1},
//		{Params: vectors, WeightDecay: 0}, // biases, LayerNorm weights and biases
//	}, optim.AdamConfig{LR: 3e-4})
//
// DecayGroups builds those two groups from a model's parameters.
type ParamGroup struct {
	// Params are the group's parameters; a parameter may belong to one group only.
	Params []*tensors.Tensor
	// LR is the group's learning rate; 0 takes the optimizer's (its config's LR).
	LR float64
	// WeightDecay is the group's weight decay, taken as given: 0 means none for this group,
	// whatever the optimizer's config says (as a PyTorch group with "weight_decay": 0.0).
	WeightDecay float64
}

// Grouped is implemented by optimizers with parameter groups: SGD, Adam, AdamW and the optimizers
// that accelerate.Prepare returns. Schedulers set the learning rate of each group from its own
// initial value, as PyTorch's do; with an Optimizer that is not Grouped they act on LR/SetLR.
type Grouped interface {
	Optimizer
	// ParamGroups returns each group's parameters and current learning rate and weight decay.
	ParamGroups() []ParamGroup
	// SetGroupLR sets the learning rate of group i (ParamGroups' order).
	SetGroupLR(i int, lr float64)
}

// DecayGroups splits params into the two groups of the usual GPT recipe: tensors of two or more
// dimensions (the weights of linear, convolution and embedding layers) decay by weightDecay; vectors
// and scalars (biases, LayerNorm weights and biases) do not. The order of params is kept within
// each group; a group with no parameters is left out.
func DecayGroups(params []*tensors.Tensor, weightDecay float64) []ParamGroup {
	checkDecay("DecayGroups", weightDecay)
	var decay, plain []*tensors.Tensor
	for i, p := range params {
		if p == nil {
			panic(fmt.Sprintf("optim: DecayGroups: parameter %d is nil", i))
		}
		if p.Dim() >= 2 {
			decay = append(decay, p)
		} else {
			plain = append(plain, p)
		}
	}
	var out []ParamGroup
	if len(decay) > 0 {
		out = append(out, ParamGroup{Params: decay, WeightDecay: weightDecay})
	}
	if len(plain) > 0 {
		out = append(out, ParamGroup{Params: plain, WeightDecay: 0})
	}
	return out
}

// groups is the parameter bookkeeping shared by the optimizers: every parameter in group order,
// the group of each, and each group's learning rate and weight decay.
type groups struct {
	params params
	of     []int     // group index of each parameter
	lrs    []float64 // learning rate of each group
	decays []float64 // weight decay of each group
	sizes  []int     // parameters in each group
	decay  []float64 // weight decay of each parameter: its group's unless SetWeightDecay changed it
}

// newGroups validates gs (groups with LR 0 take lr) and panics with op and the group index on an
// invalid value.
func newGroups(op string, gs []ParamGroup, lr float64) groups {
	if len(gs) == 0 {
		panic(fmt.Sprintf("optim: %s: no parameter groups (pass model.Parameters() or at least one ParamGroup)", op))
	}
	var g groups
	var all []*tensors.Tensor
	for i, pg := range gs {
		glr := pg.LR
		if glr == 0 {
			glr = lr
		}
		checkLR(fmt.Sprintf("%s: group %d", op, i), glr)
		checkDecay(fmt.Sprintf("%s: group %d", op, i), pg.WeightDecay)
		g.lrs = append(g.lrs, glr)
		g.decays = append(g.decays, pg.WeightDecay)
		g.sizes = append(g.sizes, len(pg.Params))
		for range pg.Params {
			g.of = append(g.of, i)
			g.decay = append(g.decay, pg.WeightDecay)
		}
		all = append(all, pg.Params...)
	}
	g.params = checkParams(op, all)
	return g
}

// single is one group of ps with lr and weight decay wd: what NewSGD, NewAdam and NewAdamW build.
func single(op string, ps []*tensors.Tensor, lr, wd float64) groups {
	return newGroups(op, []ParamGroup{{Params: ps, LR: lr, WeightDecay: wd}}, lr)
}

// paramGroups returns a copy of the groups.
func (g *groups) paramGroups() []ParamGroup {
	out := make([]ParamGroup, len(g.lrs))
	start := 0
	for i, n := range g.sizes {
		out[i] = ParamGroup{Params: g.params[start : start+n].list(), LR: g.lrs[i], WeightDecay: g.decays[i]}
		start += n
	}
	return out
}

// setLR sets every group's learning rate.
func (g *groups) setLR(op string, lr float64) {
	checkLR(op, lr)
	for i := range g.lrs {
		g.lrs[i] = lr
	}
}

// setGroupLR sets group i's learning rate.
func (g *groups) setGroupLR(op string, i int, lr float64) {
	if i < 0 || i >= len(g.lrs) {
		panic(fmt.Sprintf("optim: %s: group %d out of range (the optimizer has %d groups)", op, i, len(g.lrs)))
	}
	checkLR(op, lr)
	g.lrs[i] = lr
}

// setWeightDecay overrides the weight decay of one parameter.
func (g *groups) setWeightDecay(op string, p *tensors.Tensor, wd float64) {
	checkDecay(op, wd)
	g.decay[g.params.index(op, p)] = wd
}

// lr returns the learning rate of parameter i.
func (g *groups) lr(i int) float64 { return g.lrs[g.of[i]] }
