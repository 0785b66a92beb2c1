package optim

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// AdagradConfig holds Adagrad's hyper-parameters; a zero LR or Eps means PyTorch's default (0.01,
// 1e-10).
type AdagradConfig struct {
	LR                      float64
	LRDecay                 float64 // the rate at step t is lr/(1 + (t−1)·LRDecay)
	WeightDecay             float64 // L2 penalty added to the gradient
	InitialAccumulatorValue float64 // the sum of squared gradients starts here
	Eps                     float64 // added to the root of the sum
}

func (c AdagradConfig) withDefaults(op string) AdagradConfig {
	if c.LR == 0 {
		c.LR = 0.01
	}
	if c.Eps == 0 {
		c.Eps = 1e-10
	}
	checkLR(op, c.LR)
	if c.LRDecay < 0 || c.InitialAccumulatorValue < 0 || c.Eps < 0 {
		panic(fmt.Sprintf("optim: %s: invalid LRDecay %v, InitialAccumulatorValue %v or Eps %v (must be ≥ 0)", op, c.LRDecay, c.InitialAccumulatorValue, c.Eps))
	}
	checkDecay(op, c.WeightDecay)
	return c
}

// Adagrad is torch.optim.Adagrad. Per parameter, with the sum of squared gradients s (sum, which
// starts at InitialAccumulatorValue) and step t:
//
//	g ← grad + wd·p
//	s ← s + g²
//	p ← p − lr/(1 + (t−1)·lr_decay) · g/(√s + ε)
//
// The learning rate and weight decay are per parameter group (NewAdagradGroups).
type Adagrad struct {
	groups
	cfg    AdagradConfig
	sum    []*tensors.Tensor // the sums, made at construction (as PyTorch's) on each parameter's device
	steps  []int64
	ps, gs []*tensors.Tensor
	ss     []*tensors.Tensor
	cs     []tensors.AdagradStepConfig
}

// NewAdagrad returns an Adagrad optimizer over ps. It panics on invalid hyper-parameters or
// parameters that are not float32 tensors.
func NewAdagrad(ps []*tensors.Tensor, cfg AdagradConfig) *Adagrad {
	return newAdagrad("NewAdagrad", false, nil, ps, cfg)
}

// NewAdagradGroups returns an Adagrad optimizer over parameter groups, each with its own learning
// rate and weight decay (cfg.WeightDecay is not used); cfg gives the rest.
func NewAdagradGroups(groups []ParamGroup, cfg AdagradConfig) *Adagrad {
	return newAdagrad("NewAdagradGroups", true, groups, nil, cfg)
}

func newAdagrad(op string, grouped bool, gs []ParamGroup, ps []*tensors.Tensor, cfg AdagradConfig) *Adagrad {
	cfg = cfg.withDefaults(op)
	o := &Adagrad{cfg: cfg}
	if grouped {
		o.groups = newGroups(op, gs, cfg.LR)
	} else {
		o.groups = single(op, ps, cfg.LR, cfg.WeightDecay)
	}
	n := len(o.params)
	o.sum, o.steps = make([]*tensors.Tensor, n), make([]int64, n)
	for i, p := range o.params {
		o.sum[i] = tensors.FullLike(p.Detach(), cfg.InitialAccumulatorValue)
	}
	return o
}

// Step applies one update to every parameter that has a gradient, as one fused update per device.
func (o *Adagrad) Step() {
	ps, gs, ss, cs := o.ps[:0], o.gs[:0], o.ss[:0], o.cs[:0]
	for i, p := range o.params {
		g := p.GradRef()
		if g == nil {
			continue
		}
		o.steps[i]++
		clr := o.lr(i) / (1 + float64(o.steps[i]-1)*o.cfg.LRDecay)
		ps, gs, ss = append(ps, p), append(gs, g), append(ss, stateFor(&o.sum[i], p))
		cs = append(cs, tensors.AdagradStepConfig{LR: clr, Eps: o.cfg.Eps, WeightDecay: o.decay[i]})
	}
	tensors.AdagradStep(ps, gs, ss, cs)
	clear(gs)
	o.ps, o.gs, o.ss, o.cs = ps, gs, ss, cs
}

// SetWeightDecay sets the weight decay of one parameter, overriding its group's.
func (o *Adagrad) SetWeightDecay(p *tensors.Tensor, wd float64) {
	o.setWeightDecay("Adagrad.SetWeightDecay", p, wd)
}

// ZeroGrad drops every parameter's gradient.
func (o *Adagrad) ZeroGrad() { o.params.zeroGrad() }

// LR returns the learning rate (of the first group).
func (o *Adagrad) LR() float64 { return o.lrs[0] }

// SetLR sets the learning rate of every group.
func (o *Adagrad) SetLR(lr float64) { o.setLR("Adagrad.SetLR", lr) }

// ParamGroups returns each group's parameters, learning rate and weight decay.
func (o *Adagrad) ParamGroups() []ParamGroup { return o.paramGroups() }

// SetGroupLR sets the learning rate of group i.
func (o *Adagrad) SetGroupLR(i int, lr float64) { o.setGroupLR("Adagrad.SetGroupLR", i, lr) }

// Params returns the optimised parameters.
func (o *Adagrad) Params() []*tensors.Tensor { return o.params.list() }

// Config returns the hyper-parameters, defaults filled in; LR and WeightDecay are the first group's.
func (o *Adagrad) Config() AdagradConfig {
	c := o.cfg
	c.LR, c.WeightDecay = o.lrs[0], o.decays[0]
	return c
}

// StateDict serialises the groups' hyper-parameters and every parameter's step and sum (from the
// start, as PyTorch's Adagrad makes its state at construction), in the layout of PyTorch's
// optimizer.state_dict().
func (o *Adagrad) StateDict() ([]byte, error) {
	sd := newStateDict("Adagrad", &o.groups)
	for gi := range sd.ParamGroups {
		g := &sd.ParamGroups[gi]
		g.LRDecay, g.InitialAcc, g.Eps = ptr(o.cfg.LRDecay), ptr(o.cfg.InitialAccumulatorValue), ptr(o.cfg.Eps)
	}
	for i, p := range o.params {
		sd.set(i, o.steps[i], p.Shape(), map[string][]float32{"sum": o.sum[i].Float32s()})
	}
	return sd.encode()
}

// LoadStateDict restores a state saved by an Adagrad optimizer with the same groups of parameters
// of the same shapes, or a PyTorch Adagrad state dict in this package's layout. lr_decay,
// initial_accumulator_value and eps come from the first group (they are per optimizer here).
func (o *Adagrad) LoadStateDict(b []byte) error {
	ld, err := decodeState(b, "Adagrad", &o.groups)
	if err != nil {
		return err
	}
	cfg := o.cfg
	g0 := ld.groups[0]
	cfg.LRDecay, cfg.InitialAccumulatorValue, cfg.Eps = derefOr(g0.LRDecay, cfg.LRDecay), derefOr(g0.InitialAcc, cfg.InitialAccumulatorValue), derefOr(g0.Eps, cfg.Eps)
	for gi, gs := range ld.groups {
		if derefOr(gs.LRDecay, cfg.LRDecay) != cfg.LRDecay || derefOr(gs.InitialAcc, cfg.InitialAccumulatorValue) != cfg.InitialAccumulatorValue || derefOr(gs.Eps, cfg.Eps) != cfg.Eps {
			return fmt.Errorf("optim: load Adagrad state: group %d has other lr_decay, initial_accumulator_value or eps than group 0; goaccel's Adagrad shares them across groups", gi)
		}
	}
	sum := make([]*tensors.Tensor, len(o.params))
	for i, p := range o.params {
		vals, ok, err := ld.buffer(i, "sum", p.Shape(), p.Numel())
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("optim: load Adagrad state: parameter %d has no sum", i)
		}
		sum[i] = stateTensor(p, vals)
	}
	ld.apply(&o.groups)
	o.cfg, o.sum = cfg, sum
	copy(o.steps, ld.steps)
	return nil
}
