package optim

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// AdadeltaConfig holds Adadelta's hyper-parameters; a zero LR, Rho or Eps means PyTorch's default
// (1.0, 0.9, 1e-6).
type AdadeltaConfig struct {
	LR          float64 // scales the update (PyTorch's default 1.0)
	Rho         float64 // decay of the running averages
	Eps         float64 // added inside both square roots
	WeightDecay float64 // L2 penalty added to the gradient
}

func (c AdadeltaConfig) withDefaults(op string) AdadeltaConfig {
	if c.LR == 0 {
		c.LR = 1
	}
	if c.Rho == 0 {
		c.Rho = 0.9
	}
	if c.Eps == 0 {
		c.Eps = 1e-6
	}
	checkLR(op, c.LR)
	if !(c.Rho >= 0 && c.Rho <= 1) {
		panic(fmt.Sprintf("optim: %s: invalid Rho %v (must be in [0, 1])", op, c.Rho))
	}
	if c.Eps < 0 {
		panic(fmt.Sprintf("optim: %s: invalid Eps %v (must be ≥ 0)", op, c.Eps))
	}
	checkDecay(op, c.WeightDecay)
	return c
}

// Adadelta is torch.optim.Adadelta, the optimizer of PyTorch's MNIST example (lr 1.0 with StepLR
// γ 0.7). Per parameter, with running averages s (square_avg) and a (acc_delta):
//
//	g ← grad + wd·p
//	s ← ρ·s + (1−ρ)·g²
//	δ ← √(a + ε) / √(s + ε) · g
//	a ← ρ·a + (1−ρ)·δ²
//	p ← p − lr·δ
//
// The learning rate and weight decay are per parameter group (NewAdadeltaGroups).
type Adadelta struct {
	groups
	cfg     AdadeltaConfig
	sq, acc []*tensors.Tensor // square_avg and acc_delta on each parameter's device, nil until its first step
	steps   []int64
	ps, gs  []*tensors.Tensor
	ss, as  []*tensors.Tensor
	cs      []tensors.AdadeltaStepConfig
}

// NewAdadelta returns an Adadelta optimizer over ps. It panics on invalid hyper-parameters or
// parameters that are not float32 tensors.
func NewAdadelta(ps []*tensors.Tensor, cfg AdadeltaConfig) *Adadelta {
	return newAdadelta("NewAdadelta", false, nil, ps, cfg)
}

// NewAdadeltaGroups returns an Adadelta optimizer over parameter groups, each with its own learning
// rate and weight decay (cfg.WeightDecay is not used); cfg gives the rest.
func NewAdadeltaGroups(groups []ParamGroup, cfg AdadeltaConfig) *Adadelta {
	return newAdadelta("NewAdadeltaGroups", true, groups, nil, cfg)
}

func newAdadelta(op string, grouped bool, gs []ParamGroup, ps []*tensors.Tensor, cfg AdadeltaConfig) *Adadelta {
	cfg = cfg.withDefaults(op)
	o := &Adadelta{cfg: cfg}
	if grouped {
		o.groups = newGroups(op, gs, cfg.LR)
	} else {
		o.groups = single(op, ps, cfg.LR, cfg.WeightDecay)
	}
	n := len(o.params)
	o.sq, o.acc, o.steps = make([]*tensors.Tensor, n), make([]*tensors.Tensor, n), make([]int64, n)
	return o
}

// Step applies one update to every parameter that has a gradient, as one fused update per device
// (float32 in PyTorch's order of operations).
func (o *Adadelta) Step() {
	ps, gs, ss, as, cs := o.ps[:0], o.gs[:0], o.ss[:0], o.as[:0], o.cs[:0]
	for i, p := range o.params {
		g := p.GradRef()
		if g == nil {
			continue
		}
		o.steps[i]++
		ps, gs = append(ps, p), append(gs, g)
		ss, as = append(ss, stateFor(&o.sq[i], p)), append(as, stateFor(&o.acc[i], p))
		cs = append(cs, tensors.AdadeltaStepConfig{LR: o.lr(i), Rho: o.cfg.Rho, Eps: o.cfg.Eps, WeightDecay: o.decay[i]})
	}
	tensors.AdadeltaStep(ps, gs, ss, as, cs)
	clear(gs)
	o.ps, o.gs, o.ss, o.as, o.cs = ps, gs, ss, as, cs
}

// SetWeightDecay sets the weight decay of one parameter, overriding its group's.
func (o *Adadelta) SetWeightDecay(p *tensors.Tensor, wd float64) {
	o.setWeightDecay("Adadelta.SetWeightDecay", p, wd)
}

// ZeroGrad drops every parameter's gradient.
func (o *Adadelta) ZeroGrad() { o.params.zeroGrad() }

// LR returns the learning rate (of the first group).
func (o *Adadelta) LR() float64 { return o.lrs[0] }

// SetLR sets the learning rate of every group.
func (o *Adadelta) SetLR(lr float64) { o.setLR("Adadelta.SetLR", lr) }

// ParamGroups returns each group's parameters, learning rate and weight decay.
func (o *Adadelta) ParamGroups() []ParamGroup { return o.paramGroups() }

// SetGroupLR sets the learning rate of group i.
func (o *Adadelta) SetGroupLR(i int, lr float64) { o.setGroupLR("Adadelta.SetGroupLR", i, lr) }

// Params returns the optimised parameters.
func (o *Adadelta) Params() []*tensors.Tensor { return o.params.list() }

// Config returns the hyper-parameters, defaults filled in; LR and WeightDecay are the first group's.
func (o *Adadelta) Config() AdadeltaConfig {
	c := o.cfg
	c.LR, c.WeightDecay = o.lrs[0], o.decays[0]
	return c
}

// StateDict serialises the groups' hyper-parameters and each parameter's step, square_avg and
// acc_delta, in the layout of PyTorch's optimizer.state_dict() (see the package documentation).
func (o *Adadelta) StateDict() ([]byte, error) {
	sd := newStateDict("Adadelta", &o.groups)
	for gi := range sd.ParamGroups {
		g := &sd.ParamGroups[gi]
		g.Rho, g.Eps = ptr(o.cfg.Rho), ptr(o.cfg.Eps)
	}
	for i, p := range o.params {
		if o.steps[i] > 0 && o.sq[i] != nil {
			sd.set(i, o.steps[i], p.Shape(), map[string][]float32{"square_avg": o.sq[i].Float32s(), "acc_delta": o.acc[i].Float32s()})
		}
	}
	return sd.encode()
}

// LoadStateDict restores a state saved by an Adadelta optimizer with the same groups of parameters
// of the same shapes, or a PyTorch Adadelta state dict in this package's layout. Rho and eps come
// from the first group (they are per optimizer here).
func (o *Adadelta) LoadStateDict(b []byte) error {
	ld, err := decodeState(b, "Adadelta", &o.groups)
	if err != nil {
		return err
	}
	cfg := o.cfg
	g0 := ld.groups[0]
	cfg.Rho, cfg.Eps = derefOr(g0.Rho, cfg.Rho), derefOr(g0.Eps, cfg.Eps)
	for gi, gs := range ld.groups {
		if derefOr(gs.Rho, cfg.Rho) != cfg.Rho || derefOr(gs.Eps, cfg.Eps) != cfg.Eps {
			return fmt.Errorf("optim: load Adadelta state: group %d has other rho or eps than group 0; goaccel's Adadelta shares them across groups", gi)
		}
	}
	n := len(o.params)
	sq, acc := make([]*tensors.Tensor, n), make([]*tensors.Tensor, n)
	for i, p := range o.params {
		bufs, err := ld.buffers(i, "Adadelta", p, "square_avg", "acc_delta")
		if err != nil {
			return err
		}
		if bufs != nil {
			sq[i], acc[i] = bufs[0], bufs[1]
		}
	}
	ld.apply(&o.groups)
	o.cfg, o.sq, o.acc = cfg, sq, acc
	copy(o.steps, ld.steps)
	return nil
}
