package tensors

import (
	"fmt"
	"sync"

	"github.com/goaccel/goaccel/tensors/backend"
)

// In-place multi-tensor updates for optimizers and training utilities (PyTorch's fused and
// foreach kernels). They run outside autograd, on the tensors' device, one fused kernel per
// device where the device has one; they panic when a list's tensors do not match.

// AdamStepConfig is one parameter's constants for AdamStep. The arithmetic is float32 in
// PyTorch's order; the constants are rounded to float32 as written here.
type AdamStepConfig struct {
	Beta1, Beta2, Eps float64
	StepSize          float64 // −lr/(1−β1ᵗ)
	BiasCorrection2   float64 // √(1−β2ᵗ)
	Shrink            float64 // AdamW's decoupled decay 1−lr·wd; 1 for Adam
	L2                float64 // Adam's weight decay, added to the gradient as L2·w; 0 for AdamW
}

// AdamStep applies one Adam update to every params[i] from grads[i] and its moment estimates
// expAvg[i], expAvgSq[i] (float32 tensors of the parameter's shape on its device, updated in
// place):
//
//	g ← g + L2·w;  m ← β1·m + (1−β1)·g;  v ← β2·v + (1−β2)·g²;  w ← w·Shrink + StepSize·m/(√v/BC2 + ε)
func AdamStep(params, grads, expAvg, expAvgSq []*Tensor, cfg []AdamStepConfig) {
	defer opSpanOf("AdamStep", params).End()
	checkLists("AdamStep", params, grads, expAvg, expAvgSq)
	if len(cfg) != len(params) {
		panic(fmt.Sprintf("tensors: AdamStep: %d configs for %d parameters", len(cfg), len(params)))
	}
	u := getUpdate()
	defer putUpdate(u)
	for u.next(params) {
		g, m, v := u.vecs(&u.g, "grad", grads, false), u.vecs(&u.m, "exp_avg", expAvg, true), u.vecs(&u.v, "exp_avg_sq", expAvgSq, true)
		sc := u.adam[:0]
		for _, i := range u.idx {
			c := cfg[i]
			sc = append(sc, backend.AdamScalars{Beta1: float32(c.Beta1), OneMinusBeta1: float32(1 - c.Beta1),
				Beta2: float32(c.Beta2), OneMinusBeta2: float32(1 - c.Beta2), BC2: float32(c.BiasCorrection2),
				Eps: float32(c.Eps), StepSize: float32(c.StepSize), Shrink: float32(c.Shrink), L2: float32(c.L2)})
		}
		u.adam = sc
		u.be.AdamStep(u.w, g, m, v, sc)
		u.finish()
	}
}

// SGDStepConfig is one parameter's constants for SGDStep (torch.optim.SGD).
type SGDStepConfig struct {
	LR, WeightDecay, Momentum, Dampening float64
	Nesterov                             bool
	First                                bool // the momentum buffer starts from this gradient
}

// SGDStep applies one SGD update to every params[i] from grads[i]; momentum[i] is its momentum
// buffer (updated in place), or nil for plain SGD:
//
//	g ← g + wd·w;  b ← g (First) or μ·b + (1−dampening)·g;  g ← g + μ·b (Nesterov) or b;  w ← w − lr·g
func SGDStep(params, grads, momentum []*Tensor, cfg []SGDStepConfig) {
	defer opSpanOf("SGDStep", params).End()
	if len(momentum) != len(params) || len(cfg) != len(params) {
		panic(fmt.Sprintf("tensors: SGDStep: %d parameters, %d momentum buffers, %d configs", len(params), len(momentum), len(cfg)))
	}
	checkLists("SGDStep", params, grads)
	u := getUpdate()
	defer putUpdate(u)
	for u.next(params) {
		g, b := u.vecs(&u.g, "grad", grads, false), u.vecs(&u.m, "momentum", momentum, true)
		sc := u.sgd[:0]
		for _, i := range u.idx {
			c := cfg[i]
			sc = append(sc, backend.SGDScalars{LR: float32(c.LR), WeightDecay: float32(c.WeightDecay),
				Momentum: float32(c.Momentum), OneMinusDampening: float32(1 - c.Dampening), Nesterov: c.Nesterov, First: c.First})
		}
		u.sgd = sc
		u.be.SGDStep(u.w, g, b, sc)
		u.finish()
	}
}

// SumSquares returns Σ x² over every element of ts (nil entries skipped), accumulated in float64:
// the squared L2 norm that gradient clipping needs. It reads one number back per device.
func SumSquares(ts []*Tensor) float64 {
	defer opSpanOf("SumSquares", ts).End()
	var total float64
	u := getUpdate()
	defer putUpdate(u)
	for u.next(ts) {
		dst := u.be.AllocUninit(backend.F64, 1)
		u.be.SumSquares(dst, u.w)
		u.finish()
		r := &Tensor{st: newStorage(u.be, dst), dev: u.dev, dtype: Float64, shape: []int{}, strides: []int{}}
		total += r.Item()
		r.release()
	}
	return total
}

// ScaleInPlace multiplies every tensor of ts (nil entries skipped) by v in place, outside
// autograd.
func ScaleInPlace(ts []*Tensor, v float64) {
	defer opSpanOf("ScaleInPlace", ts).End()
	for _, t := range ts {
		if t == nil {
			continue
		}
		if t.isContiguous() && t.offset == 0 && t.buf().Len == t.Numel() && (t.dtype == Float32 || t.dtype == Float64) {
			t.be().Unary(backend.MulScalar, t.buf(), t.buf(), v, 0)
			continue
		}
		c := t.computable().Detach()
		s := c.MulScalar(v)
		t.CopyFrom(s)
		c.release()
		s.release()
	}
}

// ScaleCheckFinite multiplies every tensor of ts (nil entries skipped) by v in place and reports
// whether all of their elements were finite before (PyTorch's
// _amp_foreach_non_finite_check_and_unscale_, for loss scaling). It reads one number back per
// device.
func ScaleCheckFinite(ts []*Tensor, v float64) bool {
	defer opSpanOf("ScaleCheckFinite", ts).End()
	finite := true
	u := getUpdate()
	defer putUpdate(u)
	for u.next(ts) {
		found := u.be.Alloc(backend.F32, 1)
		u.be.ScaleCheck(u.w, v, found)
		u.finish()
		r := &Tensor{st: newStorage(u.be, found), dev: u.dev, dtype: Float32, shape: []int{}, strides: []int{}}
		finite = finite && r.Item() == 0
		r.release()
	}
	return finite
}

func checkLists(op string, params []*Tensor, lists ...[]*Tensor) {
	for _, l := range lists {
		if len(l) != len(params) {
			panic(fmt.Sprintf("tensors: %s: lists of %d and %d tensors", op, len(params), len(l)))
		}
	}
}

// update walks a multi-tensor update one device at a time and holds the float32 vectors handed to
// that device's backend. Updates are pooled, so a warm step allocates nothing.
type update struct {
	be   backend.Backend
	dev  Device
	done []bool // tensors already handed to a device
	idx  []int  // this device's share of the list

	w, g, m, v, x []backend.Vec
	adam          []backend.AdamScalars
	sgd           []backend.SGDScalars
	adadelta      []backend.AdadeltaScalars
	rmsprop       []backend.RMSpropScalars
	adagrad       []backend.AdagradScalars
	back          []*Tensor // pairs {destination, copy} written back by finish
}

var updates = sync.Pool{New: func() any { return new(update) }}

func getUpdate() *update { return updates.Get().(*update) }

func putUpdate(u *update) {
	clear(u.w)
	clear(u.g)
	clear(u.m)
	clear(u.v)
	clear(u.x)
	clear(u.back[:cap(u.back)])
	u.be, u.done = nil, u.done[:0]
	updates.Put(u)
}

// next selects the next device's share of ts (nil entries skipped) as u.idx and u.w, the primary
// tensors (written back by finish); it reports false when every tensor was handed out.
func (u *update) next(ts []*Tensor) bool {
	if len(u.done) != len(ts) {
		u.done = append(u.done[:0], make([]bool, len(ts))...)
	}
	u.idx = u.idx[:0]
	for i, t := range ts {
		if u.done[i] || t == nil {
			continue
		}
		if len(u.idx) == 0 {
			u.dev, u.be = t.dev, t.be()
		} else if !sameDevice(t.dev, u.dev) {
			continue
		}
		u.done[i] = true
		u.idx = append(u.idx, i)
	}
	if len(u.idx) == 0 {
		return false
	}
	u.w = u.w[:0]
	u.back = u.back[:0]
	u.w = u.vecs(&u.w, "tensor", ts, true)
	return true
}

// vecs fills *dst with ts[u.idx] as float32 vectors on the update's device. Tensors that are not
// contiguous float32 storage become copies, written back by finish when inPlace; nil entries
// become empty vectors.
func (u *update) vecs(dst *[]backend.Vec, what string, ts []*Tensor, inPlace bool) []backend.Vec {
	out := (*dst)[:0]
	for k, i := range u.idx {
		t := ts[i]
		if t == nil {
			out = append(out, backend.Vec{})
			continue
		}
		if !sameDevice(t.dev, u.dev) {
			panic(fmt.Sprintf("tensors: %s %d is on %s, its parameter on %s", what, i, t.dev, u.dev))
		}
		if dst != &u.w && t.Numel() != u.w[k].Len {
			panic(fmt.Sprintf("tensors: %s %d has shape %v, %d elements; its parameter has %d", what, i, t.shape, t.Numel(), u.w[k].Len))
		}
		c := t
		if t.dtype != Float32 || !t.isContiguous() {
			c = t.convertTo(Float32)
			back := t
			if !inPlace {
				back = nil // a read-only copy: released by finish, not written back
			}
			u.back = append(u.back, back, c)
		}
		out = append(out, backend.Vec{Buf: c.buf(), Off: c.offset, Len: c.Numel()})
	}
	*dst = out
	return out
}

// finish writes the copies back into their tensors.
func (u *update) finish() {
	for k := 0; k+1 < len(u.back); k += 2 {
		t, c := u.back[k], u.back[k+1]
		if t != nil {
			t.be().Copy(t.strided(), c.strided(), t.shape)
		}
		c.release()
	}
	u.back = u.back[:0]
}
