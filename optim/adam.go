package optim

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors"
)

// AdamConfig holds Adam's and AdamW's hyper-parameters. Zero Beta1, Beta2 and Eps mean PyTorch's
// defaults (0.9, 0.999, 1e-8); a zero LR means 1e-3. WeightDecay is taken as given, zero included:
// note that PyTorch's AdamW defaults to 0.01, so set it explicitly for the same behaviour.
type AdamConfig struct {
	LR          float64
	Beta1       float64
	Beta2       float64
	Eps         float64
	WeightDecay float64
}

func (c AdamConfig) withDefaults(op string) AdamConfig {
	if c.LR == 0 {
		c.LR = 1e-3
	}
	if c.Beta1 == 0 {
		c.Beta1 = 0.9
	}
	if c.Beta2 == 0 {
		c.Beta2 = 0.999
	}
	if c.Eps == 0 {
		c.Eps = 1e-8
	}
	checkLR(op, c.LR)
	if c.Beta1 < 0 || c.Beta1 >= 1 {
		panic(fmt.Sprintf("optim: %s: invalid Beta1 %v (must be in [0, 1))", op, c.Beta1))
	}
	if c.Beta2 < 0 || c.Beta2 >= 1 {
		panic(fmt.Sprintf("optim: %s: invalid Beta2 %v (must be in [0, 1))", op, c.Beta2))
	}
	if c.Eps < 0 {
		panic(fmt.Sprintf("optim: %s: invalid Eps %v (must be ≥ 0)", op, c.Eps))
	}
	if c.WeightDecay < 0 {
		panic(fmt.Sprintf("optim: %s: invalid WeightDecay %v (must be ≥ 0)", op, c.WeightDecay))
	}
	return c
}

// Adam is the Adam optimizer (torch.optim.Adam, amsgrad off). With Decoupled it is AdamW
// (torch.optim.AdamW): weight decay shrinks the weights directly (p ← p·(1 − lr·wd)) instead of being
// added to the gradient as an L2 term (g ← g + wd·p). Per step t:
//
//	m ← β1·m + (1−β1)·g        v ← β2·v + (1−β2)·g²
//	p ← p − lr/(1−β1ᵗ) · m / (√v/√(1−β2ᵗ) + ε)
//
// The learning rate and weight decay are per parameter group (NewAdamWGroups).
type Adam struct {
	groups
	cfg       AdamConfig
	decoupled bool
	kind      string
	m, v      []*tensors.Tensor // moment estimates on each parameter's device, nil until its first step
	steps     []int64

	// Per-step lists handed to tensors.AdamStep, reused between steps.
	ps, gs, ms, vs []*tensors.Tensor
	cs             []tensors.AdamStepConfig
}

// NewAdam returns an Adam optimizer over ps (weight decay as an L2 term added to the gradient).
// It panics on invalid hyper-parameters or parameters that are not float32 tensors.
func NewAdam(ps []*tensors.Tensor, cfg AdamConfig) *Adam {
	return newAdam("Adam", false, nil, ps, cfg, false)
}

// NewAdamW returns an AdamW optimizer over ps (decoupled weight decay).
func NewAdamW(ps []*tensors.Tensor, cfg AdamConfig) *Adam {
	return newAdam("AdamW", false, nil, ps, cfg, true)
}

// NewAdamGroups returns an Adam optimizer over parameter groups, each with its own learning rate
// and weight decay (cfg.WeightDecay is not used: each group says its own); cfg gives the rest.
func NewAdamGroups(groups []ParamGroup, cfg AdamConfig) *Adam {
	return newAdam("Adam", true, groups, nil, cfg, false)
}

// NewAdamWGroups returns an AdamW optimizer over parameter groups, as torch.optim.AdamW given a
// list of dicts:
//
//	opt := optim.NewAdamWGroups(optim.DecayGroups(model.Parameters(), 0.1), optim.AdamConfig{LR: 3e-4})
func NewAdamWGroups(groups []ParamGroup, cfg AdamConfig) *Adam {
	return newAdam("AdamW", true, groups, nil, cfg, true)
}

func newAdam(kind string, grouped bool, gs []ParamGroup, ps []*tensors.Tensor, cfg AdamConfig, decoupled bool) *Adam {
	op := "New" + kind
	cfg = cfg.withDefaults(op)
	o := &Adam{cfg: cfg, decoupled: decoupled, kind: kind}
	if grouped {
		o.groups = newGroups(op+"Groups", gs, cfg.LR)
	} else {
		o.groups = single(op, ps, cfg.LR, cfg.WeightDecay)
	}
	n := len(o.params)
	o.m, o.v = make([]*tensors.Tensor, n), make([]*tensors.Tensor, n)
	o.steps = make([]int64, n)
	return o
}

// Step applies one update to every parameter that has a gradient, as one fused update per device.
// Arithmetic is float32 with float32-rounded scalars, in PyTorch's order of operations; on the CPU
// large parameters are updated in chunks on all cores (each element's update is independent, so
// the result does not depend on it).
func (o *Adam) Step() {
	c := o.cfg
	ps, gs, ms, vs, cs := o.ps[:0], o.gs[:0], o.ms[:0], o.vs[:0], o.cs[:0]
	for i, p := range o.params {
		g := p.GradRef()
		if g == nil {
			continue
		}
		o.steps[i]++
		t := float64(o.steps[i])
		lr := o.lr(i)
		k := tensors.AdamStepConfig{Beta1: c.Beta1, Beta2: c.Beta2, Eps: c.Eps,
			StepSize: -(lr / (1 - math.Pow(c.Beta1, t))), BiasCorrection2: math.Sqrt(1 - math.Pow(c.Beta2, t)), Shrink: 1}
		if o.decoupled {
			k.Shrink = 1 - lr*o.decay[i]
		} else {
			k.L2 = o.decay[i]
		}
		ps, gs, cs = append(ps, p), append(gs, g), append(cs, k)
		ms, vs = append(ms, stateFor(&o.m[i], p)), append(vs, stateFor(&o.v[i], p))
	}
	tensors.AdamStep(ps, gs, ms, vs, cs)
	clear(gs) // do not keep this step's gradients alive
	o.ps, o.gs, o.ms, o.vs, o.cs = ps, gs, ms, vs, cs
}

// SetWeightDecay sets the weight decay of one parameter (e.g. 0 for biases and norm weights),
// overriding its group's. It panics if p is not one of the parameters. Parameter groups
// (NewAdamWGroups, DecayGroups) are the usual way to do this.
func (o *Adam) SetWeightDecay(p *tensors.Tensor, wd float64) {
	o.setWeightDecay(o.kind+".SetWeightDecay", p, wd)
}

// ZeroGrad drops every parameter's gradient.
func (o *Adam) ZeroGrad() { o.params.zeroGrad() }

// LR returns the learning rate (of the first group).
func (o *Adam) LR() float64 { return o.lrs[0] }

// SetLR sets the learning rate of every group.
func (o *Adam) SetLR(lr float64) { o.setLR(o.kind+".SetLR", lr) }

// ParamGroups returns each group's parameters, learning rate and weight decay.
func (o *Adam) ParamGroups() []ParamGroup { return o.paramGroups() }

// SetGroupLR sets the learning rate of group i.
func (o *Adam) SetGroupLR(i int, lr float64) { o.setGroupLR(o.kind+".SetGroupLR", i, lr) }

// Params returns the optimised parameters.
func (o *Adam) Params() []*tensors.Tensor { return o.params.list() }

// Config returns the current hyper-parameters, defaults filled in; LR and WeightDecay are the
// first group's.
func (o *Adam) Config() AdamConfig {
	c := o.cfg
	c.LR, c.WeightDecay = o.lrs[0], o.decays[0]
	return c
}

// StateDict serialises the groups' hyper-parameters and each parameter's step count and moment
// estimates, in the layout of PyTorch's optimizer.state_dict() (see the package documentation).
func (o *Adam) StateDict() ([]byte, error) {
	sd := newStateDict(o.kind, &o.groups)
	for gi := range sd.ParamGroups {
		g := &sd.ParamGroups[gi]
		g.Betas, g.Eps = []float64{o.cfg.Beta1, o.cfg.Beta2}, ptr(o.cfg.Eps)
		g.Amsgrad, g.Capturable = ptr(false), ptr(false)
	}
	for i, p := range o.params {
		if o.steps[i] > 0 && o.m[i] != nil {
			sd.set(i, o.steps[i], p.Shape(), map[string][]float32{"exp_avg": o.m[i].Float32s(), "exp_avg_sq": o.v[i].Float32s()})
		}
	}
	return sd.encode()
}

// LoadStateDict restores a state saved by an optimizer of the same kind (Adam or AdamW) with the
// same groups of parameters of the same shapes, or a PyTorch Adam/AdamW state dict in this
// package's layout. Betas and eps come from the first group (they are per optimizer here).
func (o *Adam) LoadStateDict(b []byte) error {
	ld, err := decodeState(b, o.kind, &o.groups)
	if err != nil {
		return err
	}
	cfg := o.cfg
	g0 := ld.groups[0]
	if len(g0.Betas) == 2 {
		cfg.Beta1, cfg.Beta2 = g0.Betas[0], g0.Betas[1]
	}
	if g0.Eps != nil {
		cfg.Eps = *g0.Eps
	}
	for gi, gs := range ld.groups {
		if (len(gs.Betas) == 2 && (gs.Betas[0] != cfg.Beta1 || gs.Betas[1] != cfg.Beta2)) || (gs.Eps != nil && *gs.Eps != cfg.Eps) {
			return fmt.Errorf("optim: load %s state: group %d has other betas or eps than group 0; goaccel's Adam shares them across groups", o.kind, gi)
		}
	}
	n := len(o.params)
	m, v := make([]*tensors.Tensor, n), make([]*tensors.Tensor, n)
	for i, p := range o.params {
		mv, okM, err := ld.buffer(i, "exp_avg", p.Shape(), p.Numel())
		if err != nil {
			return err
		}
		vv, okV, err := ld.buffer(i, "exp_avg_sq", p.Shape(), p.Numel())
		if err != nil {
			return err
		}
		if okM != okV || okM != (ld.steps[i] > 0) {
			return fmt.Errorf("optim: load %s state: parameter %d has step %d but not both exp_avg and exp_avg_sq", o.kind, i, ld.steps[i])
		}
		if okM {
			m[i], v[i] = stateTensor(p, mv), stateTensor(p, vv)
		}
	}
	ld.apply(&o.groups)
	o.cfg = cfg
	o.m, o.v = m, v
	copy(o.steps, ld.steps)
	return nil
}
