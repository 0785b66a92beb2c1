package optim

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// RMSpropConfig holds RMSprop's hyper-parameters; a zero LR, Alpha or Eps means PyTorch's default
// (0.01, 0.99, 1e-8).
type RMSpropConfig struct {
	LR          float64
	Alpha       float64 // decay of the running average of squared gradients
	Eps         float64 // added to the root of the average
	WeightDecay float64 // L2 penalty added to the gradient
	Momentum    float64 // momentum factor, 0 disables momentum
	Centered    bool    // normalise by the estimated variance (subtract the squared mean gradient)
}

func (c RMSpropConfig) withDefaults(op string) RMSpropConfig {
	if c.LR == 0 {
		c.LR = 0.01
	}
	if c.Alpha == 0 {
		c.Alpha = 0.99
	}
	if c.Eps == 0 {
		c.Eps = 1e-8
	}
	checkLR(op, c.LR)
	if c.Alpha < 0 || c.Eps < 0 || c.Momentum < 0 {
		panic(fmt.Sprintf("optim: %s: invalid Alpha %v, Eps %v or Momentum %v (must be ≥ 0)", op, c.Alpha, c.Eps, c.Momentum))
	}
	checkDecay(op, c.WeightDecay)
	return c
}

// RMSprop is torch.optim.RMSprop. Per parameter, with the running average of squared gradients s
// (square_avg), and optionally a momentum buffer b and a running average gradient m (grad_avg):
//
//	g ← grad + wd·p
//	s ← α·s + (1−α)·g²
//	r ← √s + ε,  or, centered:  m ← α·m + (1−α)·g,  r ← √(s − m²) + ε
//	b ← μ·b + g/r,  p ← p − lr·b   with momentum;   p ← p − lr·g/r   without
//
// The learning rate and weight decay are per parameter group (NewRMSpropGroups).
type RMSprop struct {
	groups
	cfg          RMSpropConfig
	sq, mom, avg []*tensors.Tensor // square_avg, momentum_buffer and grad_avg, nil until the first step (or unused)
	steps        []int64
	ps, gs       []*tensors.Tensor
	ss, ms, as   []*tensors.Tensor
	cs           []tensors.RMSpropStepConfig
}

// NewRMSprop returns an RMSprop optimizer over ps. It panics on invalid hyper-parameters or
// parameters that are not float32 tensors.
func NewRMSprop(ps []*tensors.Tensor, cfg RMSpropConfig) *RMSprop {
	return newRMSprop("NewRMSprop", false, nil, ps, cfg)
}

// NewRMSpropGroups returns an RMSprop optimizer over parameter groups, each with its own learning
// rate and weight decay (cfg.WeightDecay is not used); cfg gives the rest.
func NewRMSpropGroups(groups []ParamGroup, cfg RMSpropConfig) *RMSprop {
	return newRMSprop("NewRMSpropGroups", true, groups, nil, cfg)
}

func newRMSprop(op string, grouped bool, gs []ParamGroup, ps []*tensors.Tensor, cfg RMSpropConfig) *RMSprop {
	cfg = cfg.withDefaults(op)
	o := &RMSprop{cfg: cfg}
	if grouped {
		o.groups = newGroups(op, gs, cfg.LR)
	} else {
		o.groups = single(op, ps, cfg.LR, cfg.WeightDecay)
	}
	n := len(o.params)
	o.sq, o.mom, o.avg, o.steps = make([]*tensors.Tensor, n), make([]*tensors.Tensor, n), make([]*tensors.Tensor, n), make([]int64, n)
	return o
}

// Step applies one update to every parameter that has a gradient, as one fused update per device.
func (o *RMSprop) Step() {
	ps, gs, ss, ms, as, cs := o.ps[:0], o.gs[:0], o.ss[:0], o.ms[:0], o.as[:0], o.cs[:0]
	c := o.cfg
	for i, p := range o.params {
		g := p.GradRef()
		if g == nil {
			continue
		}
		o.steps[i]++
		var b, m *tensors.Tensor
		if c.Momentum > 0 {
			b = stateFor(&o.mom[i], p)
		}
		if c.Centered {
			m = stateFor(&o.avg[i], p)
		}
		ps, gs, ss, ms, as = append(ps, p), append(gs, g), append(ss, stateFor(&o.sq[i], p)), append(ms, b), append(as, m)
		cs = append(cs, tensors.RMSpropStepConfig{LR: o.lr(i), Alpha: c.Alpha, Eps: c.Eps, WeightDecay: o.decay[i], Momentum: c.Momentum, Centered: c.Centered})
	}
	tensors.RMSpropStep(ps, gs, ss, ms, as, cs)
	clear(gs)
	o.ps, o.gs, o.ss, o.ms, o.as, o.cs = ps, gs, ss, ms, as, cs
}

// SetWeightDecay sets the weight decay of one parameter, overriding its group's.
func (o *RMSprop) SetWeightDecay(p *tensors.Tensor, wd float64) {
	o.setWeightDecay("RMSprop.SetWeightDecay", p, wd)
}

// ZeroGrad drops every parameter's gradient.
func (o *RMSprop) ZeroGrad() { o.params.zeroGrad() }

// LR returns the learning rate (of the first group).
func (o *RMSprop) LR() float64 { return o.lrs[0] }

// SetLR sets the learning rate of every group.
func (o *RMSprop) SetLR(lr float64) { o.setLR("RMSprop.SetLR", lr) }

// ParamGroups returns each group's parameters, learning rate and weight decay.
func (o *RMSprop) ParamGroups() []ParamGroup { return o.paramGroups() }

// SetGroupLR sets the learning rate of group i.
func (o *RMSprop) SetGroupLR(i int, lr float64) { o.setGroupLR("RMSprop.SetGroupLR", i, lr) }

// Params returns the optimised parameters.
func (o *RMSprop) Params() []*tensors.Tensor { return o.params.list() }

// Config returns the hyper-parameters, defaults filled in; LR and WeightDecay are the first group's.
func (o *RMSprop) Config() RMSpropConfig {
	c := o.cfg
	c.LR, c.WeightDecay = o.lrs[0], o.decays[0]
	return c
}

// StateDict serialises the groups' hyper-parameters and each parameter's step, square_avg and,
// with momentum or centering, momentum_buffer and grad_avg, in the layout of PyTorch's
// optimizer.state_dict().
func (o *RMSprop) StateDict() ([]byte, error) {
	sd := newStateDict("RMSprop", &o.groups)
	for gi := range sd.ParamGroups {
		g := &sd.ParamGroups[gi]
		g.Alpha, g.Eps, g.Momentum, g.Centered = ptr(o.cfg.Alpha), ptr(o.cfg.Eps), ptr(o.cfg.Momentum), ptr(o.cfg.Centered)
	}
	for i, p := range o.params {
		if o.steps[i] == 0 || o.sq[i] == nil {
			continue
		}
		bufs := map[string][]float32{"square_avg": o.sq[i].Float32s()}
		if o.cfg.Momentum > 0 {
			bufs["momentum_buffer"] = o.mom[i].Float32s()
		}
		if o.cfg.Centered {
			bufs["grad_avg"] = o.avg[i].Float32s()
		}
		sd.set(i, o.steps[i], p.Shape(), bufs)
	}
	return sd.encode()
}

// LoadStateDict restores a state saved by an RMSprop optimizer with the same groups of parameters
// of the same shapes, or a PyTorch RMSprop state dict in this package's layout. Alpha, eps,
// momentum and centered come from the first group (they are per optimizer here).
func (o *RMSprop) LoadStateDict(b []byte) error {
	ld, err := decodeState(b, "RMSprop", &o.groups)
	if err != nil {
		return err
	}
	cfg := o.cfg
	g0 := ld.groups[0]
	cfg.Alpha, cfg.Eps = derefOr(g0.Alpha, cfg.Alpha), derefOr(g0.Eps, cfg.Eps)
	cfg.Momentum, cfg.Centered = derefOr(g0.Momentum, cfg.Momentum), derefOr(g0.Centered, cfg.Centered)
	for gi, gs := range ld.groups {
		if derefOr(gs.Alpha, cfg.Alpha) != cfg.Alpha || derefOr(gs.Eps, cfg.Eps) != cfg.Eps ||
			derefOr(gs.Momentum, cfg.Momentum) != cfg.Momentum || derefOr(gs.Centered, cfg.Centered) != cfg.Centered {
			return fmt.Errorf("optim: load RMSprop state: group %d has other alpha, eps, momentum or centered than group 0; goaccel's RMSprop shares them across groups", gi)
		}
	}
	names := []string{"square_avg"}
	if cfg.Momentum > 0 {
		names = append(names, "momentum_buffer")
	}
	if cfg.Centered {
		names = append(names, "grad_avg")
	}
	n := len(o.params)
	sq, mom, avg := make([]*tensors.Tensor, n), make([]*tensors.Tensor, n), make([]*tensors.Tensor, n)
	for i, p := range o.params {
		bufs, err := ld.buffers(i, "RMSprop", p, names...)
		if err != nil {
			return err
		}
		if bufs == nil {
			continue
		}
		sq[i] = bufs[0]
		k := 1
		if cfg.Momentum > 0 {
			mom[i], k = bufs[k], k+1
		}
		if cfg.Centered {
			avg[i] = bufs[k]
		}
	}
	ld.apply(&o.groups)
	o.cfg, o.sq, o.mom, o.avg = cfg, sq, mom, avg
	copy(o.steps, ld.steps)
	return nil
}
