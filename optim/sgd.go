package optim

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// SGDConfig holds SGD's hyper-parameters; the zero value of every field but LR is PyTorch's default.
type SGDConfig struct {
	LR          float64 // learning rate (required, > 0 to make progress)
	Momentum    float64 // momentum factor, 0 disables momentum
	Dampening   float64 // dampening for momentum
	Nesterov    bool    // Nesterov momentum (needs Momentum > 0 and Dampening 0)
	WeightDecay float64 // L2 penalty added to the gradient
}

// SGD is stochastic gradient descent with optional momentum, Nesterov momentum and weight decay,
// following torch.optim.SGD:
//
//	g ← grad + wd·p
//	b ← g (first step), else b ← μ·b + (1−dampening)·g
//	g ← g + μ·b (Nesterov) or b
//	p ← p − lr·g
//
// The learning rate and weight decay are per parameter group (NewSGDGroups).
type SGD struct {
	groups
	cfg  SGDConfig
	bufs []*tensors.Tensor // momentum buffers on each parameter's device, nil until its first step

	// Per-step lists handed to tensors.SGDStep, reused between steps.
	ps, gs, bs []*tensors.Tensor
	cs         []tensors.SGDStepConfig
}

// NewSGD returns an SGD optimizer over ps. It panics on invalid hyper-parameters or parameters that
// are not float32 tensors.
func NewSGD(ps []*tensors.Tensor, cfg SGDConfig) *SGD {
	return newSGD("NewSGD", false, nil, ps, cfg)
}

// NewSGDGroups returns an SGD optimizer over parameter groups, each with its own learning rate and
// weight decay (cfg.WeightDecay is not used: each group says its own); cfg gives the rest.
func NewSGDGroups(groups []ParamGroup, cfg SGDConfig) *SGD {
	return newSGD("NewSGDGroups", true, groups, nil, cfg)
}

func newSGD(op string, grouped bool, gs []ParamGroup, ps []*tensors.Tensor, cfg SGDConfig) *SGD {
	checkLR(op, cfg.LR)
	if cfg.Momentum < 0 {
		panic(fmt.Sprintf("optim: %s: invalid Momentum %v (must be ≥ 0)", op, cfg.Momentum))
	}
	if cfg.WeightDecay < 0 {
		panic(fmt.Sprintf("optim: %s: invalid WeightDecay %v (must be ≥ 0)", op, cfg.WeightDecay))
	}
	if cfg.Nesterov && (cfg.Momentum <= 0 || cfg.Dampening != 0) {
		panic(fmt.Sprintf("optim: %s: Nesterov momentum requires Momentum > 0 and Dampening 0", op))
	}
	o := &SGD{cfg: cfg}
	if grouped {
		o.groups = newGroups(op, gs, cfg.LR)
	} else {
		o.groups = single(op, ps, cfg.LR, cfg.WeightDecay)
	}
	o.bufs = make([]*tensors.Tensor, len(o.params))
	return o
}

// Step applies one SGD update to every parameter that has a gradient, as one fused update per
// device (large parameters in chunks on all cores on the CPU).
func (o *SGD) Step() {
	ps, gs, bs, cs := o.ps[:0], o.gs[:0], o.bs[:0], o.cs[:0]
	for i, p := range o.params {
		g := p.GradRef()
		if g == nil {
			continue
		}
		c := tensors.SGDStepConfig{LR: o.lr(i), WeightDecay: o.decay[i]}
		var b *tensors.Tensor
		if o.cfg.Momentum != 0 {
			c.First = o.bufs[i] == nil
			c.Momentum, c.Dampening, c.Nesterov = o.cfg.Momentum, o.cfg.Dampening, o.cfg.Nesterov
			b = stateFor(&o.bufs[i], p)
		}
		ps, gs, bs, cs = append(ps, p), append(gs, g), append(bs, b), append(cs, c)
	}
	tensors.SGDStep(ps, gs, bs, cs)
	clear(gs) // do not keep this step's gradients alive
	o.ps, o.gs, o.bs, o.cs = ps, gs, bs, cs
}

// SetWeightDecay sets the weight decay of one parameter (e.g. 0 for biases and norm weights),
// overriding its group's. It panics if p is not one of the parameters. Parameter groups
// (NewSGDGroups, DecayGroups) are the usual way to do this.
func (o *SGD) SetWeightDecay(p *tensors.Tensor, wd float64) {
	o.setWeightDecay("SGD.SetWeightDecay", p, wd)
}

// ZeroGrad drops every parameter's gradient.
func (o *SGD) ZeroGrad() { o.params.zeroGrad() }

// LR returns the learning rate (of the first group).
func (o *SGD) LR() float64 { return o.lrs[0] }

// SetLR sets the learning rate of every group.
func (o *SGD) SetLR(lr float64) { o.setLR("SGD.SetLR", lr) }

// ParamGroups returns each group's parameters, learning rate and weight decay.
func (o *SGD) ParamGroups() []ParamGroup { return o.paramGroups() }

// SetGroupLR sets the learning rate of group i.
func (o *SGD) SetGroupLR(i int, lr float64) { o.setGroupLR("SGD.SetGroupLR", i, lr) }

// Params returns the optimised parameters.
func (o *SGD) Params() []*tensors.Tensor { return o.params.list() }

// Config returns the current hyper-parameters; LR and WeightDecay are the first group's.
func (o *SGD) Config() SGDConfig {
	c := o.cfg
	c.LR, c.WeightDecay = o.lrs[0], o.decays[0]
	return c
}

// StateDict serialises the groups' hyper-parameters and the momentum buffers, in the layout of
// PyTorch's optimizer.state_dict() (see the package documentation).
func (o *SGD) StateDict() ([]byte, error) {
	sd := newStateDict("SGD", &o.groups)
	for gi := range sd.ParamGroups {
		g := &sd.ParamGroups[gi]
		g.Momentum, g.Dampening, g.Nesterov = ptr(o.cfg.Momentum), ptr(o.cfg.Dampening), ptr(o.cfg.Nesterov)
	}
	for i, p := range o.params {
		if b := o.bufs[i]; b != nil && o.cfg.Momentum != 0 {
			sd.set(i, -1, p.Shape(), map[string][]float32{"momentum_buffer": b.Float32s()})
		}
	}
	return sd.encode()
}

// LoadStateDict restores a state saved by an SGD optimizer with the same groups of parameters of
// the same shapes, or a PyTorch SGD state dict in this package's layout. Momentum, dampening and
// Nesterov come from the first group (they are per optimizer here).
func (o *SGD) LoadStateDict(b []byte) error {
	ld, err := decodeState(b, "SGD", &o.groups)
	if err != nil {
		return err
	}
	g0 := ld.groups[0]
	cfg := o.cfg
	cfg.Momentum, cfg.Dampening, cfg.Nesterov = deref(g0.Momentum), deref(g0.Dampening), deref(g0.Nesterov)
	for gi, gs := range ld.groups {
		if deref(gs.Momentum) != cfg.Momentum || deref(gs.Dampening) != cfg.Dampening || deref(gs.Nesterov) != cfg.Nesterov {
			return fmt.Errorf("optim: load SGD state: group %d has other momentum, dampening or nesterov than group 0; goaccel's SGD shares them across groups", gi)
		}
	}
	bufs := make([]*tensors.Tensor, len(o.params))
	for i, p := range o.params {
		vals, has, err := ld.buffer(i, "momentum_buffer", p.Shape(), p.Numel())
		if err != nil {
			return err
		}
		if has && cfg.Momentum != 0 {
			bufs[i] = stateTensor(p, vals)
		}
	}
	ld.apply(&o.groups)
	o.cfg = cfg
	o.bufs = bufs
	return nil
}

// deref returns *p, or the zero value for nil (a key absent from a state dict).
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
