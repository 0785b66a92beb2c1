package backend

// The composed optimizer updates use one Core op per float32 operation of the fused kernels,
// in the same order, so they round exactly as the fused kernels do.

// mulScalar returns a·p in a new buffer.
func (x *completed) mulScalar(a *Buffer, p float32) *Buffer {
	return x.unaryNew(MulScalar, a, float64(p))
}

// plusScaled returns g + a·w (n elements) in g when g is owned (a temporary of the update),
// else in a new temporary: the result is always owned.
func (x *completed) plusScaled(g *Buffer, owned bool, w *Buffer, a float32, n int) *Buffer {
	t := x.mulScalar(w, a)
	dst := g
	if !owned {
		dst = x.tmp(F32, n)
	}
	x.binaryFlat(Add, dst, g, t, n, false)
	x.Release(t)
	return dst
}

func (x *completed) adamStep(wv, gv, mv, vv Vec, s AdamScalars) {
	n := wv.Len
	w, ow := x.load(wv)
	g, og := x.load(gv)
	m, om := x.load(mv)
	v, ov := x.load(vv)
	if s.L2 != 0 {
		g, og = x.plusScaled(g, og, w, s.L2, n), true
	}
	t := x.mulScalar(g, s.OneMinusBeta1) // (1−β1)·g
	x.Unary(MulScalar, m, m, float64(s.Beta1), 0)
	x.binaryFlat(Add, m, m, t, n, false)
	x.Unary(MulScalar, t, g, float64(s.OneMinusBeta2), 0) // (1−β2)·g·g
	x.binaryFlat(Mul, t, t, g, n, false)
	x.Unary(MulScalar, v, v, float64(s.Beta2), 0)
	x.binaryFlat(Add, v, v, t, n, false)
	bc2 := x.scalar(F32, float64(s.BC2))
	x.Unary(Sqrt, t, v, 0, 0) // √v/bc2 + ε
	x.binaryFlat(Div, t, t, bc2, n, true)
	x.Unary(AddScalar, t, t, float64(s.Eps), 0)
	x.binaryFlat(Div, t, m, t, n, false) // StepSize·(m/d)
	x.Unary(MulScalar, t, t, float64(s.StepSize), 0)
	x.Unary(MulScalar, w, w, float64(s.Shrink), 0)
	x.binaryFlat(Add, w, w, t, n, false)
	x.release(t, bc2)
	x.store(wv, w, ow)
	x.store(mv, m, om)
	x.store(vv, v, ov)
	if og {
		x.Release(g)
	}
}

func (x *completed) sgdStep(wv, gv, bv Vec, s SGDScalars) {
	n := wv.Len
	w, ow := x.load(wv)
	g, og := x.load(gv)
	if s.WeightDecay != 0 {
		g, og = x.plusScaled(g, og, w, s.WeightDecay, n), true
	}
	if bv.Buf != nil {
		b, ob := x.load(bv)
		if s.First {
			x.Copy(whole(b, n), whole(g, n), []int{n})
		} else {
			t := x.mulScalar(g, s.OneMinusDampening)
			x.Unary(MulScalar, b, b, float64(s.Momentum), 0)
			x.binaryFlat(Add, b, b, t, n, false)
			x.Release(t)
		}
		if s.Nesterov {
			g, og = x.plusScaled(g, og, b, s.Momentum, n), true
		} else {
			if og {
				x.Release(g)
			}
			g, og = x.tmp(F32, n), true
			x.Copy(whole(g, n), whole(b, n), []int{n})
		}
		x.store(bv, b, ob)
	}
	t := x.mulScalar(g, s.LR)
	x.binaryFlat(Sub, w, w, t, n, false)
	x.Release(t)
	x.store(wv, w, ow)
	if og {
		x.Release(g)
	}
}

// sumSquares adds each vector's float64 sum of squares into one float64 total.
func (x *completed) sumSquares(dst *Buffer, xs []Vec) {
	total := x.Alloc(F64, 1)
	r := x.tmp(F64, 1)
	for _, v := range xs {
		if v.Len == 0 {
			continue
		}
		d := x.tmp(F64, v.Len)
		x.Copy(whole(d, v.Len), at(v.Buf, v.Off, 1), []int{v.Len})
		x.binaryFlat(Mul, d, d, d, v.Len, false)
		x.Reduce(Sum, r, d, 1, v.Len, 1)
		x.binaryFlat(Add, total, total, r, 1, false)
		x.Release(d)
	}
	x.Copy(whole(dst, 1), whole(total, 1), []int{1})
	x.release(total, r)
}

// scaleCheck flags a non-finite element through Σ 0·x, which is NaN exactly when some x is inf
// or NaN, without reading anything back.
func (x *completed) scaleCheck(xs []Vec, s float64, found *Buffer) {
	r := x.tmp(F32, 1)
	nan := x.tmp(F32, 1)
	for _, v := range xs {
		if v.Len == 0 {
			continue
		}
		b, owned := x.load(v)
		z := x.unaryNew(MulScalar, b, 0)
		x.Reduce(Sum, r, z, 1, v.Len, 1)
		x.binaryFlat(Ne, nan, r, r, 1, false)
		x.binaryFlat(Max2, found, found, nan, 1, false)
		x.Unary(MulScalar, b, b, float64(float32(s)), 0)
		x.store(v, b, owned)
		x.Release(z)
	}
	x.release(r, nan)
}

// scaleAdd computes dst ← dst·a + t over n elements: PyTorch's dst.mul_(a).add_(…) and
// dst.mul_(a).addcmul_(…) round in this order, t holding the added term.
func (x *completed) scaleAdd(dst *Buffer, a float32, t *Buffer, n int) {
	x.Unary(MulScalar, dst, dst, float64(a), 0)
	x.binaryFlat(Add, dst, dst, t, n, false)
}

func (x *completed) adadeltaStep(wv, gv, sv, av Vec, s AdadeltaScalars) {
	n := wv.Len
	w, ow := x.load(wv)
	g, og := x.load(gv)
	sq, osq := x.load(sv)
	a, oa := x.load(av)
	if s.WeightDecay != 0 {
		g, og = x.plusScaled(g, og, w, s.WeightDecay, n), true
	}
	t := x.mulScalar(g, s.OneMinusRho) // square_avg·ρ + (1−ρ)·g·g
	x.binaryFlat(Mul, t, t, g, n, false)
	x.scaleAdd(sq, s.Rho, t, n)
	std := x.tmp(F32, n) // √(square_avg + ε)
	x.Unary(AddScalar, std, sq, float64(s.Eps), 0)
	x.Unary(Sqrt, std, std, 0, 0)
	d := x.tmp(F32, n) // √(acc_delta + ε) / std · g
	x.Unary(AddScalar, d, a, float64(s.Eps), 0)
	x.Unary(Sqrt, d, d, 0, 0)
	x.binaryFlat(Div, d, d, std, n, false)
	x.binaryFlat(Mul, d, d, g, n, false)
	x.Unary(MulScalar, t, d, float64(s.OneMinusRho), 0) // acc_delta·ρ + (1−ρ)·d·d
	x.binaryFlat(Mul, t, t, d, n, false)
	x.scaleAdd(a, s.Rho, t, n)
	x.Unary(MulScalar, t, d, float64(s.LR), 0)
	x.binaryFlat(Sub, w, w, t, n, false)
	x.release(t, std, d)
	x.store(wv, w, ow)
	x.store(sv, sq, osq)
	x.store(av, a, oa)
	if og {
		x.Release(g)
	}
}

func (x *completed) rmspropStep(wv, gv, sv, mv, av Vec, s RMSpropScalars) {
	n := wv.Len
	w, ow := x.load(wv)
	g, og := x.load(gv)
	sq, osq := x.load(sv)
	if s.WeightDecay != 0 {
		g, og = x.plusScaled(g, og, w, s.WeightDecay, n), true
	}
	t := x.mulScalar(g, s.OneMinusAlpha) // square_avg·α + (1−α)·g·g
	x.binaryFlat(Mul, t, t, g, n, false)
	x.scaleAdd(sq, s.Alpha, t, n)
	r := x.tmp(F32, n)
	if s.Centered {
		m, om := x.load(av) // grad_avg·α + (1−α)·g
		x.Unary(MulScalar, t, g, float64(s.OneMinusAlpha), 0)
		x.scaleAdd(m, s.Alpha, t, n)
		x.Unary(MulScalar, t, m, -1, 0) // √(square_avg − grad_avg·grad_avg)
		x.binaryFlat(Mul, t, t, m, n, false)
		x.binaryFlat(Add, r, sq, t, n, false)
		x.Unary(Sqrt, r, r, 0, 0)
		x.store(av, m, om)
	} else {
		x.Unary(Sqrt, r, sq, 0, 0)
	}
	x.Unary(AddScalar, r, r, float64(s.Eps), 0)
	x.binaryFlat(Div, t, g, r, n, false) // g / r
	if s.Momentum > 0 {
		b, ob := x.load(mv)
		x.scaleAdd(b, s.Momentum, t, n)
		x.Unary(MulScalar, t, b, float64(s.LR), 0)
		x.store(mv, b, ob)
	} else {
		x.Unary(MulScalar, t, t, float64(s.LR), 0)
	}
	x.binaryFlat(Sub, w, w, t, n, false)
	x.release(t, r)
	x.store(wv, w, ow)
	x.store(sv, sq, osq)
	if og {
		x.Release(g)
	}
}

func (x *completed) adagradStep(wv, gv, sv Vec, s AdagradScalars) {
	n := wv.Len
	w, ow := x.load(wv)
	g, og := x.load(gv)
	sum, os := x.load(sv)
	if s.WeightDecay != 0 {
		g, og = x.plusScaled(g, og, w, s.WeightDecay, n), true
	}
	t := x.tmp(F32, n) // sum + g·g
	x.binaryFlat(Mul, t, g, g, n, false)
	x.binaryFlat(Add, sum, sum, t, n, false)
	r := x.tmp(F32, n) // √sum + ε
	x.Unary(Sqrt, r, sum, 0, 0)
	x.Unary(AddScalar, r, r, float64(s.Eps), 0)
	x.binaryFlat(Div, t, g, r, n, false) // w − clr·(g/r)
	x.Unary(MulScalar, t, t, float64(s.CLR), 0)
	x.binaryFlat(Sub, w, w, t, n, false)
	x.release(t, r)
	x.store(wv, w, ow)
	x.store(sv, sum, os)
	if og {
		x.Release(g)
	}
}
