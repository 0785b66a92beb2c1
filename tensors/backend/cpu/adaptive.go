package cpu

import "github.com/goaccel/goaccel/tensors/backend"

// The updates of the optimizers with per-element rates (Adadelta, RMSprop, Adagrad), in
// PyTorch's order of operations: every float32 result is rounded before the next operation uses
// it (the explicit conversions keep the compiler from fusing a multiply and an add), as PyTorch's
// CPU kernels and the composed fallbacks of package backend round.

// AdadeltaStep implements backend.AdaptiveOptimizerOps: every parameter's chunks on all cores.
func (c *CPU) AdadeltaStep(w, g, sq, acc []backend.Vec, sc []backend.AdadeltaScalars) {
	runStep(func(s *step) { s.w, s.g, s.m, s.v, s.adadelta = w, g, sq, acc, sc })
}

// adadeltaConsts are one parameter's Adadelta constants as adadelta_amd64.s and kernels_arm64.s
// read them: LR, Rho, OneMinusRho, Eps and WeightDecay at byte offsets 0, 4, 8, 12 and 16.
type adadeltaConsts backend.AdadeltaScalars

func adadeltaChunk(s *step, sp span) {
	i := sp.i
	k := adadeltaConsts(s.adadelta[i])
	g := f32(s.g[i], sp.lo, sp.hi)
	adadeltaUpdate(f32(s.w[i], sp.lo, sp.hi), g, f32(s.m[i], sp.lo, sp.hi), f32(s.v[i], sp.lo, sp.hi), &k)
}

// adadeltaUpdate applies one Adadelta step to a chunk: the vector kernel where there is one, the
// scalar loop for the rest.
func adadeltaUpdate(w, g, sq, acc []float32, k *adadeltaConsts) {
	done := adadeltaVec(w, g, sq, acc, k)
	adadeltaScalar(w[done:], g[done:], sq[done:], acc[done:], k)
}

// adadeltaScalar is adadeltaUpdate one element at a time.
func adadeltaScalar(w, g, sq, acc []float32, k *adadeltaConsts) {
	w, sq, acc = w[:len(g)], sq[:len(g)], acc[:len(g)]
	for j, gj := range g {
		if k.WeightDecay != 0 {
			gj += float32(k.WeightDecay * w[j])
		}
		sq[j] = float32(sq[j]*k.Rho) + float32(float32(k.OneMinusRho*gj)*gj)
		std := sqrt32(sq[j] + k.Eps)
		d := float32(sqrt32(acc[j]+k.Eps)/std) * gj
		acc[j] = float32(acc[j]*k.Rho) + float32(float32(k.OneMinusRho*d)*d)
		w[j] -= float32(k.LR * d)
	}
}

// RMSpropStep implements backend.AdaptiveOptimizerOps.
func (c *CPU) RMSpropStep(w, g, sq, mom, avg []backend.Vec, sc []backend.RMSpropScalars) {
	runStep(func(s *step) { s.w, s.g, s.m, s.v, s.x, s.rmsprop = w, g, sq, mom, avg, sc })
}

func rmspropChunk(s *step, sp span) {
	i := sp.i
	k := s.rmsprop[i]
	g := f32(s.g[i], sp.lo, sp.hi)
	w, sq := f32(s.w[i], sp.lo, sp.hi)[:len(g)], f32(s.m[i], sp.lo, sp.hi)[:len(g)]
	var b, m []float32
	if k.Momentum > 0 {
		b = f32(s.v[i], sp.lo, sp.hi)[:len(g)]
	}
	if k.Centered {
		m = f32(s.x[i], sp.lo, sp.hi)[:len(g)]
	}
	for j, gj := range g {
		if k.WeightDecay != 0 {
			gj += float32(k.WeightDecay * w[j])
		}
		sq[j] = float32(sq[j]*k.Alpha) + float32(float32(k.OneMinusAlpha*gj)*gj)
		var r float32
		if k.Centered {
			m[j] = float32(m[j]*k.Alpha) + float32(k.OneMinusAlpha*gj)
			r = sqrt32(sq[j] + float32(-m[j]*m[j]))
		} else {
			r = sqrt32(sq[j])
		}
		r += k.Eps
		q := gj / r
		if k.Momentum > 0 {
			b[j] = float32(b[j]*k.Momentum) + q
			q = b[j]
		}
		w[j] -= float32(k.LR * q)
	}
}

// AdagradStep implements backend.AdaptiveOptimizerOps.
func (c *CPU) AdagradStep(w, g, sum []backend.Vec, sc []backend.AdagradScalars) {
	runStep(func(s *step) { s.w, s.g, s.m, s.adagrad = w, g, sum, sc })
}

func adagradChunk(s *step, sp span) {
	i := sp.i
	k := s.adagrad[i]
	g := f32(s.g[i], sp.lo, sp.hi)
	w, sum := f32(s.w[i], sp.lo, sp.hi)[:len(g)], f32(s.m[i], sp.lo, sp.hi)[:len(g)]
	for j, gj := range g {
		if k.WeightDecay != 0 {
			gj += float32(k.WeightDecay * w[j])
		}
		sum[j] += float32(gj * gj)
		r := sqrt32(sum[j]) + k.Eps
		w[j] -= float32(k.CLR * float32(gj/r))
	}
}
