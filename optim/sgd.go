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
type SGD struct {
	params params
	cfg    SGDConfig
	decay  []float64   // per-parameter weight decay, cfg.WeightDecay unless set
	bufs   [][]float32 // momentum buffers, allocated at construction when Momentum ≠ 0
	has    []bool      // whether bufs[i] holds a value yet (PyTorch starts it at the first gradient)
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
	if cfg.Momentum != 0 {
		o.bufs = make([][]float32, len(o.params))
		o.has = make([]bool, len(o.params))
		for i, p := range o.params {
			o.bufs[i] = make([]float32, p.Numel())
		}
	}
	return o
}

// Step applies one SGD update to every parameter that has a gradient.
func (o *SGD) Step() {
	lr := float32(o.cfg.LR)
	mom := float32(o.cfg.Momentum)
	damp := float32(1 - o.cfg.Dampening)
	for i, p := range o.params {
		g := grad32(p)
		if g == nil {
			continue
		}
		w := p.Data32()
		wd := float32(o.decay[i])
		if mom == 0 {
			for j, gj := range g {
				if wd != 0 {
					gj += wd * w[j]
				}
				w[j] -= lr * gj
			}
			continue
		}
		b := o.bufs[i]
		first := !o.has[i]
		o.has[i] = true
		for j, gj := range g {
			if wd != 0 {
				gj += wd * w[j]
			}
			if first {
				b[j] = gj
			} else {
				b[j] = b[j]*mom + damp*gj
			}
			if o.cfg.Nesterov {
				gj += mom * b[j]
			} else {
				gj = b[j]
			}
			w[j] -= lr * gj
		}
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
