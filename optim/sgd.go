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
type SGD struct {
	params params
	cfg    SGDConfig
	decay  []float64   // per-parameter weight decay, cfg.WeightDecay unless set
	bufs   [][]float32 // momentum buffers, allocated at construction when Momentum ≠ 0
	has    []bool      // whether bufs[i] holds a value yet (PyTorch starts it at the first gradient)

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
	checkLR("NewSGD", cfg.LR)
	if cfg.Momentum < 0 {
		panic(fmt.Sprintf("optim: NewSGD: invalid Momentum %v (must be ≥ 0)", cfg.Momentum))
	}
	if cfg.WeightDecay < 0 {
		panic(fmt.Sprintf("optim: NewSGD: invalid WeightDecay %v (must be ≥ 0)", cfg.WeightDecay))
	}
	if cfg.Nesterov && (cfg.Momentum <= 0 || cfg.Dampening != 0) {
		panic("optim: NewSGD: Nesterov momentum requires Momentum > 0 and Dampening 0")
	}
	o := &SGD{params: checkParams("NewSGD", ps), cfg: cfg}
	o.decay = fill(len(o.params), cfg.WeightDecay)
	o.spans = o.params.spans()
	o.gs = make([][]float32, len(o.params))
	o.ws = make([][]float32, len(o.params))
	o.first = make([]bool, len(o.params))
	o.update = o.updateSpan
	if cfg.Momentum != 0 {
		o.bufs = make([][]float32, len(o.params))
		o.has = make([]bool, len(o.params))
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
	lr := float32(o.cfg.LR)
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
// overriding Config().WeightDecay for it. It panics if p is not one of the parameters.
func (o *SGD) SetWeightDecay(p *tensors.Tensor, wd float64) {
	checkDecay("SGD.SetWeightDecay", wd)
	o.decay[o.params.index("SGD.SetWeightDecay", p)] = wd
}

// ZeroGrad drops every parameter's gradient.
func (o *SGD) ZeroGrad() { o.params.zeroGrad() }

// LR returns the learning rate.
func (o *SGD) LR() float64 { return o.cfg.LR }

// SetLR sets the learning rate.
func (o *SGD) SetLR(lr float64) { checkLR("SGD.SetLR", lr); o.cfg.LR = lr }

// Params returns the optimised parameters.
func (o *SGD) Params() []*tensors.Tensor { return o.params.list() }

// Config returns the current hyper-parameters (LR included).
func (o *SGD) Config() SGDConfig { return o.cfg }

// StateDict serialises the hyper-parameters and momentum buffers.
func (o *SGD) StateDict() ([]byte, error) {
	st := newState("SGD", o.params)
	st.Decays = o.decay
	st.Hyper = map[string]float64{"lr": o.cfg.LR, "momentum": o.cfg.Momentum, "dampening": o.cfg.Dampening,
		"weight_decay": o.cfg.WeightDecay, "nesterov": b2f(o.cfg.Nesterov)}
	for i := range o.params {
		if o.bufs != nil && o.has[i] {
			st.Buffers[i] = map[string][]float32{"momentum_buffer": o.bufs[i]}
		}
	}
	return st.encode()
}

// LoadStateDict restores a state saved by an SGD optimizer over parameters of the same shapes.
func (o *SGD) LoadStateDict(b []byte) error {
	st, err := decodeState(b, "SGD", o.params)
	if err != nil {
		return err
	}
	cfg := SGDConfig{LR: st.Hyper["lr"], Momentum: st.Hyper["momentum"], Dampening: st.Hyper["dampening"],
		WeightDecay: st.Hyper["weight_decay"], Nesterov: st.Hyper["nesterov"] != 0}
	bufs := make([][]float32, len(o.params))
	has := make([]bool, len(o.params))
	for i, p := range o.params {
		bufs[i] = make([]float32, p.Numel())
		if mb, ok := st.Buffers[i]["momentum_buffer"]; ok {
			if err := copyBuf(bufs[i], mb, i, "momentum_buffer"); err != nil {
				return err
			}
			has[i] = true
		}
	}
	o.cfg = cfg
	o.decay = st.decays(cfg.WeightDecay)
	if cfg.Momentum != 0 {
		o.bufs, o.has = bufs, has
	} else {
		o.bufs, o.has = nil, nil
	}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
