package cpu

import (
	"math"
	"sync"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/parallel"
)

// chunkElems is how many elements one unit of an optimizer step's parallel work updates (a
// variable for tests).
var chunkElems = 1 << 14

// span is a range of one parameter's elements: the unit of parallel work of a step.
type span struct{ i, lo, hi int }

// step is the working set of one multi-tensor update; steps are pooled so that a step allocates
// nothing once warm.
type step struct {
	run   parallel.Runner
	spans []span
	fn    func(k int)

	w, g, m, v, x []backend.Vec
	adam          []backend.AdamScalars
	sgd           []backend.SGDScalars
	adadelta      []backend.AdadeltaScalars
	rmsprop       []backend.RMSpropScalars
	adagrad       []backend.AdagradScalars
}

var steps = sync.Pool{New: func() any {
	s := &step{}
	s.fn = s.chunk
	return s
}}

// split fills s.spans with chunks of every vector of w.
func (s *step) split(w []backend.Vec) {
	s.spans = s.spans[:0]
	for i, v := range w {
		for lo := 0; lo < v.Len; lo += chunkElems {
			s.spans = append(s.spans, span{i, lo, min(lo+chunkElems, v.Len)})
		}
	}
}

func (s *step) chunk(k int) {
	sp := s.spans[k]
	switch {
	case s.adam != nil:
		adamChunk(s, sp)
	case s.adadelta != nil:
		adadeltaChunk(s, sp)
	case s.rmsprop != nil:
		rmspropChunk(s, sp)
	case s.adagrad != nil:
		adagradChunk(s, sp)
	default:
		sgdChunk(s, sp)
	}
}

// runStep runs one multi-tensor update whose lists set has filled, and clears them.
func runStep(set func(s *step)) {
	s := steps.Get().(*step)
	set(s)
	s.split(s.w)
	s.run.Run(len(s.spans), s.fn)
	s.w, s.g, s.m, s.v, s.x = nil, nil, nil, nil, nil
	s.adam, s.sgd, s.adadelta, s.rmsprop, s.adagrad = nil, nil, nil, nil, nil
	steps.Put(s)
}

func f32(v backend.Vec, lo, hi int) []float32 { return v.Buf.F32[v.Off+lo : v.Off+hi] }

// AdamStep implements backend.OptimizerOps: every parameter's chunks run on all cores.
func (c *CPU) AdamStep(w, g, m, v []backend.Vec, sc []backend.AdamScalars) {
	s := steps.Get().(*step)
	s.w, s.g, s.m, s.v, s.adam = w, g, m, v, sc
	s.split(w)
	s.run.Run(len(s.spans), s.fn)
	s.w, s.g, s.m, s.v, s.adam = nil, nil, nil, nil, nil
	steps.Put(s)
}

func adamChunk(s *step, sp span) {
	i := sp.i
	c := &s.adam[i]
	w, g, m, v := f32(s.w[i], sp.lo, sp.hi), f32(s.g[i], sp.lo, sp.hi), f32(s.m[i], sp.lo, sp.hi), f32(s.v[i], sp.lo, sp.hi)
	if c.L2 == 0 {
		k := adamConsts{c.Beta1, c.OneMinusBeta1, c.Beta2, c.OneMinusBeta2, c.BC2, c.Eps, c.StepSize, c.Shrink}
		adamUpdate(w, g, m, v, &k)
		return
	}
	b1, ob1, b2, ob2, bc2, eps, nss, wd := c.Beta1, c.OneMinusBeta1, c.Beta2, c.OneMinusBeta2, c.BC2, c.Eps, c.StepSize, c.L2
	w, m, v = w[:len(g)], m[:len(g)], v[:len(g)]
	// Adam's L2 term, folded into the gradient. The explicit float32 conversions forbid the
	// compiler to fuse multiply-adds (it does on arm64): every platform, and the composed update
	// of devices without this kernel, round each operation alike.
	for j, gj := range g {
		gj += float32(wd * w[j])
		mj := float32(m[j]*b1) + float32(ob1*gj)
		vj := float32(v[j]*b2) + float32(float32(ob2*gj)*gj)
		m[j], v[j] = mj, vj
		w[j] += float32(nss * float32(mj/(float32(sqrt32(vj)/bc2)+eps)))
	}
}

// SGDStep implements backend.OptimizerOps.
func (c *CPU) SGDStep(w, g, buf []backend.Vec, sc []backend.SGDScalars) {
	s := steps.Get().(*step)
	s.w, s.g, s.m, s.sgd = w, g, buf, sc
	s.split(w)
	s.run.Run(len(s.spans), s.fn)
	s.w, s.g, s.m, s.sgd = nil, nil, nil, nil
	steps.Put(s)
}

// sgdConsts are sgdVec's scalars; mode's bits: 1 weight decay, 2 momentum, 4 first step,
// 8 Nesterov.
type sgdConsts struct {
	lr, wd, mom, damp float32
	mode              int32
}

func sgdChunk(s *step, sp span) {
	i := sp.i
	c := &s.sgd[i]
	g, w := f32(s.g[i], sp.lo, sp.hi), f32(s.w[i], sp.lo, sp.hi)
	w = w[:len(g)]
	var b []float32
	k := sgdConsts{lr: c.LR, wd: c.WeightDecay, mom: c.Momentum, damp: c.OneMinusDampening}
	if k.wd != 0 {
		k.mode |= 1
	}
	if s.m[i].Buf != nil {
		b = f32(s.m[i], sp.lo, sp.hi)[:len(g)]
		k.mode |= 2
		if c.First {
			k.mode |= 4
		}
		if c.Nesterov {
			k.mode |= 8
		}
	}
	done := 0
	if n := len(g) &^ 7; useVecOptim && n > 0 {
		var bp *float32
		if b != nil {
			bp = &b[0]
		}
		sgdVec(&w[0], &g[0], bp, n, &k)
		done = n
	}
	sgdScalar(w[done:], g[done:], b[min(done, len(b)):], &k)
}

// sgdScalar is sgdVec in Go: one SGD step (PyTorch's order of operations) over w. The explicit
// float32 conversions forbid the compiler to fuse multiply-adds (it does on arm64), so every
// platform and the vector kernels give the same bits.
func sgdScalar(w, g, b []float32, k *sgdConsts) {
	lr, wd, mom, damp := k.lr, k.wd, k.mom, k.damp
	for j, gj := range g {
		if k.mode&1 != 0 {
			gj += float32(wd * w[j])
		}
		if k.mode&2 != 0 {
			if k.mode&4 != 0 {
				b[j] = gj
			} else {
				b[j] = float32(b[j]*mom) + float32(damp*gj)
			}
			if k.mode&8 != 0 {
				gj += float32(mom * b[j])
			} else {
				gj = b[j]
			}
		}
		w[j] -= float32(lr * gj)
	}
}

// SumSquares implements backend.ForeachOps (one float64 accumulator, in element order).
func (c *CPU) SumSquares(dst *backend.Buffer, xs []backend.Vec) {
	var sq float64
	for _, x := range xs {
		for _, v := range f32(x, 0, x.Len) {
			sq += float64(v) * float64(v)
		}
	}
	dst.F64[0] = sq
}

// ScaleCheck implements backend.ForeachOps.
func (c *CPU) ScaleCheck(xs []backend.Vec, s float64, found *backend.Buffer) {
	k := float32(s)
	for _, x := range xs {
		d := f32(x, 0, x.Len)
		for i, v := range d {
			if math.IsInf(float64(v), 0) || v != v {
				found.F32[0] = 1
			}
			d[i] = v * k
		}
	}
}
