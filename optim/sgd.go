package optim

import (
	"fmt"

	"github.com/goaccel/goaccel/optim/internal/parallel"
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
	bufs [][]float32 // momentum buffers, allocated at construction when Momentum ≠ 0
	has  []bool      // whether bufs[i] holds a value yet (PyTorch starts it at the first gradient)

	// Per-step working set, filled serially and then read by the parallel chunk updates.
	spans  []span
	gs, ws [][]float32 // gradient (nil: skip) and weights of each parameter this step
	first  []bool      // this step starts the momentum buffer
	run    parallel.Runner
	update func(c int)
}

// NewSGD returns an SGD optimizer over ps. It panics on invalid hyper-parameters or parameters that
// are not float32 CPU tensors.
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
	n := len(o.params)
	o.spans = o.params.spans()
	o.gs, o.ws = make([][]float32, n), make([][]float32, n)
	o.first = make([]bool, n)
	o.update = o.updateSpan
	if cfg.Momentum != 0 {
		o.bufs = make([][]float32, n)
		o.has = make([]bool, n)
		for i, p := range o.params {
			o.bufs[i] = make([]float32, p.Numel())
		}
	}
	return o
}

// Step applies one SGD update to every parameter that has a gradient (large parameters in chunks
// on all cores).
func (o *SGD) Step() {
	for i, p := range o.params {
		o.gs[i] = grad32(p)
		if o.gs[i] == nil {
			continue
		}
		o.ws[i] = p.Data32()
		if o.bufs != nil {
			o.first[i] = !o.has[i]
			o.has[i] = true
		}
	}
	o.run.Run(len(o.spans), o.update)
	for i := range o.gs {
		o.gs[i], o.ws[i] = nil, nil
	}
}

// updateSpan updates one chunk of one parameter.
func (o *SGD) updateSpan(k int) {
	sp := o.spans[k]
	i := sp.i
	g := o.gs[i]
	if g == nil {
		return
	}
	g = g[sp.lo:sp.hi]
	w := o.ws[i][sp.lo:sp.hi]
	w = w[:len(g)]
	lr := float32(o.lr(i))
	wd := float32(o.decay[i])
	if o.bufs == nil {
		for j, gj := range g {
			if wd != 0 {
				gj += wd * w[j]
			}
			w[j] -= lr * gj
		}
		return
	}
	mom := float32(o.cfg.Momentum)
	damp := float32(1 - o.cfg.Dampening)
	b := o.bufs[i][sp.lo:sp.hi]
	b = b[:len(g)]
	first, nesterov := o.first[i], o.cfg.Nesterov
	for j, gj := range g {
		if wd != 0 {
			gj += wd * w[j]
		}
		if first {
			b[j] = gj
		} else {
			b[j] = b[j]*mom + damp*gj
		}
		if nesterov {
			gj += mom * b[j]
		} else {
			gj = b[j]
		}
		w[j] -= lr * gj
	}
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
		if o.bufs != nil && o.has[i] {
			sd.set(i, -1, p.Shape(), map[string][]float32{"momentum_buffer": o.bufs[i]})
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
	n := len(o.params)
	bufs := make([][]float32, n)
	has := make([]bool, n)
	for i, p := range o.params {
		if bufs[i], has[i], err = ld.buffer(i, "momentum_buffer", p.Shape(), p.Numel()); err != nil {
			return err
		}
		if !has[i] {
			bufs[i] = make([]float32, p.Numel())
		}
	}
	ld.apply(&o.groups)
	o.cfg = cfg
	if cfg.Momentum != 0 {
		o.bufs, o.has = bufs, has
	} else {
		o.bufs, o.has = nil, nil
	}
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
