package backendtest

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

// vecSet is one vector per parameter of a multi-tensor update, each in a float32 buffer of its
// own: a short one, one at an offset inside a larger buffer (whose other elements must stay
// untouched) and a long one (a host device's vector and chunked paths).
type vecSet struct {
	bufs []*backend.Buffer
	vals [][]float64 // the whole buffers
	vecs []backend.Vec
}

var vecLayout = []struct{ off, n, size int }{{0, 300, 300}, {7, 40, 60}, {0, 20000, 20000}}

// vecSet makes a set of vectors with values in [lo, hi); absent marks parameters without this
// state (their Vec has a nil Buf).
func (s *suite) vecSet(lo, hi float64, absent ...int) vecSet {
	var v vecSet
	for i, l := range vecLayout {
		if contains(absent, i) {
			v.bufs, v.vals, v.vecs = append(v.bufs, nil), append(v.vals, nil), append(v.vecs, backend.Vec{})
			continue
		}
		b, vals := s.rand(backend.F32, l.size, lo, hi)
		v.bufs, v.vals = append(v.bufs, b), append(v.vals, vals)
		v.vecs = append(v.vecs, backend.Vec{Buf: b, Off: l.off, Len: l.n})
	}
	return v
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// update applies fn to every element of every vector: fn gets the element's index in its
// buffer and its parameter.
func update(fn func(p, k int)) {
	for p, l := range vecLayout {
		for k := l.off; k < l.off+l.n; k++ {
			fn(p, k)
		}
	}
}

// expectSet compares every buffer of a set with its reference values, to a few float32 ulps
// (the updates round in float32 in PyTorch's order; a device may fuse no operation).
func (s *suite) expectSet(what string, v vecSet) {
	s.t.Helper()
	for p, b := range v.bufs {
		if b != nil {
			s.expect(fmt.Sprintf("%s, parameter %d", what, p), b, v.vals[p], 1e-6)
		}
	}
}

type f32 = float32

func sqrt32(x f32) f32 { return f32(math.Sqrt(float64(x))) }

// get32 and set32 read and write a reference element as float32.
func get32(v vecSet, p, k int) f32    { return f32(v.vals[p][k]) }
func set32(v vecSet, p, k int, x f32) { v.vals[p][k] = float64(x) }

// checkOptimizers: two steps of each fused update over three parameters with their own
// constants, against the update rounded in float32 in the order backend's *Scalars document.
func checkOptimizers(s *suite) {
	// Adam: AdamW (Shrink) on two parameters, Adam with an L2 term on the third.
	w, g, m, v := s.vecSet(-1, 1), s.vecSet(-1, 1), s.vecSet(0, 0), s.vecSet(0, 0)
	adam := []backend.AdamScalars{
		{Beta1: 0.9, OneMinusBeta1: 0.1, Beta2: 0.999, OneMinusBeta2: 0.001, BC2: 0.0316, Eps: 1e-8, StepSize: -0.01, Shrink: 0.999},
		{Beta1: 0.8, OneMinusBeta1: 0.2, Beta2: 0.99, OneMinusBeta2: 0.01, BC2: 0.1, Eps: 1e-6, StepSize: -0.001, Shrink: 0.99},
		{Beta1: 0.9, OneMinusBeta1: 0.1, Beta2: 0.99, OneMinusBeta2: 0.01, BC2: 0.1, Eps: 1e-8, StepSize: -0.001, Shrink: 1, L2: 0.01},
	}
	for step := range 2 {
		s.be.AdamStep(w.vecs, g.vecs, m.vecs, v.vecs, adam)
		update(func(p, k int) {
			c := adam[p]
			gj, wj := get32(g, p, k), get32(w, p, k)
			if c.L2 != 0 {
				gj += f32(c.L2 * wj)
			}
			mj := f32(get32(m, p, k)*c.Beta1) + f32(c.OneMinusBeta1*gj)
			vj := f32(get32(v, p, k)*c.Beta2) + f32(f32(c.OneMinusBeta2*gj)*gj)
			d := f32(sqrt32(vj)/c.BC2) + c.Eps
			set32(m, p, k, mj)
			set32(v, p, k, vj)
			set32(w, p, k, f32(wj*c.Shrink)+f32(c.StepSize*f32(mj/d)))
		})
		s.expectSet(fmt.Sprintf("AdamStep %d w", step), w)
		s.expectSet(fmt.Sprintf("AdamStep %d m", step), m)
		s.expectSet(fmt.Sprintf("AdamStep %d v", step), v)
	}

	// SGD: Nesterov momentum with weight decay, plain momentum with dampening, none at all.
	w, g, buf := s.vecSet(-1, 1), s.vecSet(-1, 1), s.vecSet(0, 0, 2)
	sgd := []backend.SGDScalars{
		{LR: 0.1, WeightDecay: 0.01, Momentum: 0.9, OneMinusDampening: 1, Nesterov: true},
		{LR: 0.05, Momentum: 0.5, OneMinusDampening: 0.7},
		{LR: 0.05, WeightDecay: 0.001},
	}
	for step := range 2 {
		for p := range sgd {
			sgd[p].First = step == 0
		}
		s.be.SGDStep(w.vecs, g.vecs, buf.vecs, sgd)
		update(func(p, k int) {
			c := sgd[p]
			gj, wj := get32(g, p, k), get32(w, p, k)
			if c.WeightDecay != 0 {
				gj += f32(c.WeightDecay * wj)
			}
			if buf.bufs[p] != nil {
				b := gj
				if !c.First {
					b = f32(get32(buf, p, k)*c.Momentum) + f32(c.OneMinusDampening*gj)
				}
				set32(buf, p, k, b)
				if c.Nesterov {
					gj += f32(c.Momentum * b)
				} else {
					gj = b
				}
			}
			set32(w, p, k, wj-f32(c.LR*gj))
		})
		s.expectSet(fmt.Sprintf("SGDStep %d w", step), w)
		s.expectSet(fmt.Sprintf("SGDStep %d momentum", step), buf)
	}

	// Adadelta, with weight decay on the first parameter.
	w, g = s.vecSet(-1, 1), s.vecSet(-1, 1)
	sq, acc := s.vecSet(0, 0), s.vecSet(0, 0)
	adadelta := []backend.AdadeltaScalars{
		{LR: 1, Rho: 0.9, OneMinusRho: 0.1, Eps: 1e-6, WeightDecay: 0.01},
		{LR: 0.5, Rho: 0.95, OneMinusRho: 0.05, Eps: 1e-6},
		{LR: 1, Rho: 0.9, OneMinusRho: 0.1, Eps: 1e-5},
	}
	for step := range 2 {
		s.be.AdadeltaStep(w.vecs, g.vecs, sq.vecs, acc.vecs, adadelta)
		update(func(p, k int) {
			c := adadelta[p]
			gj, wj := get32(g, p, k), get32(w, p, k)
			if c.WeightDecay != 0 {
				gj += f32(c.WeightDecay * wj)
			}
			sj := f32(get32(sq, p, k)*c.Rho) + f32(f32(c.OneMinusRho*gj)*gj)
			d := f32(sqrt32(get32(acc, p, k)+c.Eps)/sqrt32(sj+c.Eps)) * gj
			aj := f32(get32(acc, p, k)*c.Rho) + f32(f32(c.OneMinusRho*d)*d)
			set32(sq, p, k, sj)
			set32(acc, p, k, aj)
			set32(w, p, k, wj-f32(c.LR*d))
		})
		s.expectSet(fmt.Sprintf("AdadeltaStep %d w", step), w)
		s.expectSet(fmt.Sprintf("AdadeltaStep %d square average", step), sq)
		s.expectSet(fmt.Sprintf("AdadeltaStep %d delta average", step), acc)
	}

	// RMSprop: centered with momentum and weight decay, momentum alone, plain.
	w, g, sq = s.vecSet(-1, 1), s.vecSet(-1, 1), s.vecSet(0, 0)
	mom, avg := s.vecSet(0, 0, 2), s.vecSet(0, 0, 1, 2)
	rms := []backend.RMSpropScalars{
		{LR: 0.01, Alpha: 0.99, OneMinusAlpha: 0.01, Eps: 1e-8, WeightDecay: 0.01, Momentum: 0.9, Centered: true},
		{LR: 0.01, Alpha: 0.9, OneMinusAlpha: 0.1, Eps: 1e-8, Momentum: 0.5},
		{LR: 0.001, Alpha: 0.99, OneMinusAlpha: 0.01, Eps: 1e-8},
	}
	for step := range 2 {
		s.be.RMSpropStep(w.vecs, g.vecs, sq.vecs, mom.vecs, avg.vecs, rms)
		update(func(p, k int) {
			c := rms[p]
			gj, wj := get32(g, p, k), get32(w, p, k)
			if c.WeightDecay != 0 {
				gj += f32(c.WeightDecay * wj)
			}
			sj := f32(get32(sq, p, k)*c.Alpha) + f32(f32(c.OneMinusAlpha*gj)*gj)
			set32(sq, p, k, sj)
			var r f32
			if c.Centered {
				mj := f32(get32(avg, p, k)*c.Alpha) + f32(c.OneMinusAlpha*gj)
				set32(avg, p, k, mj)
				r = sqrt32(sj + f32(-mj*mj))
			} else {
				r = sqrt32(sj)
			}
			r += c.Eps
			q := gj / r
			if c.Momentum > 0 {
				q = f32(get32(mom, p, k)*c.Momentum) + q
				set32(mom, p, k, q)
			}
			set32(w, p, k, wj-f32(c.LR*q))
		})
		s.expectSet(fmt.Sprintf("RMSpropStep %d w", step), w)
		s.expectSet(fmt.Sprintf("RMSpropStep %d square average", step), sq)
		s.expectSet(fmt.Sprintf("RMSpropStep %d momentum", step), mom)
		s.expectSet(fmt.Sprintf("RMSpropStep %d gradient average", step), avg)
	}

	// Adagrad, with weight decay on the first parameter.
	w, g, sum := s.vecSet(-1, 1), s.vecSet(-1, 1), s.vecSet(0, 0.1)
	ada := []backend.AdagradScalars{{CLR: 0.01, Eps: 1e-10, WeightDecay: 0.01}, {CLR: 0.005, Eps: 1e-10}, {CLR: 0.1, Eps: 1e-6}}
	for step := range 2 {
		s.be.AdagradStep(w.vecs, g.vecs, sum.vecs, ada)
		update(func(p, k int) {
			c := ada[p]
			gj, wj := get32(g, p, k), get32(w, p, k)
			if c.WeightDecay != 0 {
				gj += f32(c.WeightDecay * wj)
			}
			sj := get32(sum, p, k) + f32(gj*gj)
			set32(sum, p, k, sj)
			set32(w, p, k, wj-f32(c.CLR*f32(gj/(sqrt32(sj)+c.Eps))))
		})
		s.expectSet(fmt.Sprintf("AdagradStep %d w", step), w)
		s.expectSet(fmt.Sprintf("AdagradStep %d sum", step), sum)
	}
}

// checkForeach: SumSquares over vectors at offsets, in float64; ScaleCheck's products (exact in
// float32) and its flag, set by an infinity or a NaN and never reset.
func checkForeach(s *suite) {
	x := s.vecSet(-3, 3)
	dst, _ := s.poison(backend.F64, 1)
	s.be.SumSquares(dst, x.vecs)
	want := 0.0
	update(func(p, k int) { want += x.vals[p][k] * x.vals[p][k] })
	s.expect("SumSquares", dst, []float64{want}, 1e-12)

	for _, c := range []struct {
		name   string
		bad    float64 // placed in the second parameter; 0 for none
		before float64 // the flag's value before
	}{{"finite", 0, 0}, {"an infinity", math.Inf(-1), 0}, {"a NaN", math.NaN(), 0}, {"finite, flag already set", 0, 1}} {
		x := s.vecSet(-3, 3)
		if c.bad != 0 || math.IsNaN(c.bad) {
			x.vals[1][20] = c.bad
			x.bufs[1] = s.put(backend.F32, x.vals[1])
			x.vecs[1].Buf = x.bufs[1]
		}
		found := s.put(backend.F32, []float64{c.before})
		const scale = 0.3
		s.be.ScaleCheck(x.vecs, scale, found)
		update(func(p, k int) { set32(x, p, k, get32(x, p, k)*f32(scale)) })
		for p, b := range x.bufs {
			s.expect(fmt.Sprintf("ScaleCheck of %s: parameter %d", c.name, p), b, x.vals[p], 0)
		}
		wantFound := c.before
		if c.bad != 0 || math.IsNaN(c.bad) {
			wantFound = 1
		}
		s.expect("ScaleCheck's flag after "+c.name, found, []float64{wantFound}, 0)
	}
}
