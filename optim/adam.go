package optim

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/optim/internal/parallel"
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
type Adam struct {
	params    params
	cfg       AdamConfig
	decoupled bool
	kind      string
	decay     []float64 // per-parameter weight decay, cfg.WeightDecay unless set
	m, v      [][]float32
	steps     []int64

	// Per-step working set, filled serially and then read by the parallel chunk updates.
	spans    []span
	gs, ws   [][]float32 // gradient (nil: skip) and weights of each parameter this step
	nss, bc2 []float32   // −lr/(1−β1ᵗ) and √(1−β2ᵗ) of each parameter this step
	run      parallel.Runner
	update   func(c int)
}

// NewAdam returns an Adam optimizer over ps (weight decay as an L2 term added to the gradient).
// It panics on invalid hyper-parameters or parameters that are not float32 CPU tensors.
func NewAdam(ps []*tensors.Tensor, cfg AdamConfig) *Adam {
	return newAdam("Adam", ps, cfg, false)
}

// NewAdamW returns an AdamW optimizer over ps (decoupled weight decay).
func NewAdamW(ps []*tensors.Tensor, cfg AdamConfig) *Adam {
	return newAdam("AdamW", ps, cfg, true)
}

func newAdam(kind string, ps []*tensors.Tensor, cfg AdamConfig, decoupled bool) *Adam {
	cfg = cfg.withDefaults("New" + kind)
	o := &Adam{params: checkParams("New"+kind, ps), cfg: cfg, decoupled: decoupled, kind: kind}
	o.decay = fill(len(o.params), cfg.WeightDecay)
	o.m = make([][]float32, len(o.params))
	o.v = make([][]float32, len(o.params))
	o.steps = make([]int64, len(o.params))
	for i, p := range o.params {
		o.m[i] = make([]float32, p.Numel())
		o.v[i] = make([]float32, p.Numel())
	}
	o.spans = o.params.spans()
	o.gs = make([][]float32, len(o.params))
	o.ws = make([][]float32, len(o.params))
	o.nss = make([]float32, len(o.params))
	o.bc2 = make([]float32, len(o.params))
	o.update = o.updateSpan
	return o
}

// Step applies one update to every parameter that has a gradient. Arithmetic is float32 with
// float32-rounded scalars, in PyTorch's order of operations; large parameters are updated in
// chunks on all cores (each element's update is independent, so the result does not depend on it).
func (o *Adam) Step() {
	c := o.cfg
	for i, p := range o.params {
		o.gs[i] = grad32(p)
		if o.gs[i] == nil {
			continue
		}
		o.ws[i] = p.Data32()
		o.steps[i]++
		t := float64(o.steps[i])
		o.nss[i] = float32(-(c.LR / (1 - math.Pow(c.Beta1, t))))
		o.bc2[i] = float32(math.Sqrt(1 - math.Pow(c.Beta2, t)))
	}
	o.run.Run(len(o.spans), o.update)
	for i := range o.gs {
		o.gs[i], o.ws[i] = nil, nil
	}
}

// updateSpan updates one chunk of one parameter.
func (o *Adam) updateSpan(k int) {
	sp := o.spans[k]
	i := sp.i
	g := o.gs[i]
	if g == nil {
		return
	}
	c := o.cfg
	b1, b2 := float32(c.Beta1), float32(c.Beta2)
	ob1, ob2 := float32(1-c.Beta1), float32(1-c.Beta2)
	eps, nss, bc2 := float32(c.Eps), o.nss[i], o.bc2[i]
	g = g[sp.lo:sp.hi]
	w := o.ws[i][sp.lo:sp.hi]
	m := o.m[i][sp.lo:sp.hi]
	v := o.v[i][sp.lo:sp.hi]
	w, m, v = w[:len(g)], m[:len(g)], v[:len(g)]
	shrink := float32(1)
	wd := float32(o.decay[i])
	if o.decoupled {
		shrink = float32(1 - c.LR*o.decay[i])
		wd = 0
	}
	if wd == 0 {
		k := adamConsts{b1, ob1, b2, ob2, bc2, eps, nss, shrink}
		adamUpdate(w, g, m, v, &k)
		return
	}
	for j, gj := range g { // Adam's L2 term, folded into the gradient
		gj += wd * w[j]
		m[j] = m[j]*b1 + ob1*gj
		v[j] = v[j]*b2 + ob2*gj*gj
		w[j] += nss * (m[j] / (float32(math.Sqrt(float64(v[j])))/bc2 + eps))
	}
}

// SetWeightDecay sets the weight decay of one parameter (e.g. 0 for biases and norm weights),
// overriding Config().WeightDecay for it. It panics if p is not one of the parameters.
func (o *Adam) SetWeightDecay(p *tensors.Tensor, wd float64) {
	checkDecay(o.kind+".SetWeightDecay", wd)
	o.decay[o.params.index(o.kind+".SetWeightDecay", p)] = wd
}

// ZeroGrad drops every parameter's gradient.
func (o *Adam) ZeroGrad() { o.params.zeroGrad() }

// LR returns the learning rate.
func (o *Adam) LR() float64 { return o.cfg.LR }

// SetLR sets the learning rate.
func (o *Adam) SetLR(lr float64) { checkLR(o.kind+".SetLR", lr); o.cfg.LR = lr }

// Params returns the optimised parameters.
func (o *Adam) Params() []*tensors.Tensor { return o.params.list() }

// Config returns the current hyper-parameters (LR included, defaults filled in).
func (o *Adam) Config() AdamConfig { return o.cfg }

// StateDict serialises the hyper-parameters, step counts and moment estimates.
func (o *Adam) StateDict() ([]byte, error) {
	st := newState(o.kind, o.params)
	st.Decays = o.decay
	st.Hyper = map[string]float64{"lr": o.cfg.LR, "beta1": o.cfg.Beta1, "beta2": o.cfg.Beta2,
		"eps": o.cfg.Eps, "weight_decay": o.cfg.WeightDecay}
	copy(st.Steps, o.steps)
	for i := range o.params {
		if o.steps[i] > 0 {
			st.Buffers[i] = map[string][]float32{"exp_avg": o.m[i], "exp_avg_sq": o.v[i]}
		}
	}
	return st.encode()
}

// LoadStateDict restores a state saved by an optimizer of the same kind (Adam or AdamW) over
// parameters of the same shapes.
func (o *Adam) LoadStateDict(b []byte) error {
	st, err := decodeState(b, o.kind, o.params)
	if err != nil {
		return err
	}
	m := make([][]float32, len(o.params))
	v := make([][]float32, len(o.params))
	for i, p := range o.params {
		m[i] = make([]float32, p.Numel())
		v[i] = make([]float32, p.Numel())
		if st.Steps[i] == 0 {
			continue
		}
		if err := copyBuf(m[i], st.Buffers[i]["exp_avg"], i, "exp_avg"); err != nil {
			return err
		}
		if err := copyBuf(v[i], st.Buffers[i]["exp_avg_sq"], i, "exp_avg_sq"); err != nil {
			return err
		}
	}
	o.cfg = AdamConfig{LR: st.Hyper["lr"], Beta1: st.Hyper["beta1"], Beta2: st.Hyper["beta2"],
		Eps: st.Hyper["eps"], WeightDecay: st.Hyper["weight_decay"]}
	o.decay = st.decays(o.cfg.WeightDecay)
	o.m, o.v = m, v
	copy(o.steps, st.Steps)
	return nil
}
