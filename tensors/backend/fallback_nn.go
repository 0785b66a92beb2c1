package backend

import "fmt"

// softmax composes Softmax from a max, a shift, exp, a sum and a division (or a log).
func (x *completed) softmax(dst, src *Buffer, outer, n, inner int, log bool) {
	dt, total := src.DType, outer*n*inner
	shape := []int{outer, n, inner}
	red := func(b *Buffer) Strided { return at(b, 0, inner, 0, 1) }
	mx := x.tmp(dt, outer*inner)
	x.Reduce(Max, mx, src, outer, n, inner)
	sh := x.tmp(dt, total)
	x.Binary(Sub, sh, whole(src, shape...), red(mx), shape)
	e := x.unaryNew(Exp, sh, 0)
	s := x.tmp(dt, outer*inner)
	x.Reduce(Sum, s, e, outer, n, inner)
	if log {
		x.Unary(Log, s, s, 0, 0)
		x.Binary(Sub, dst, whole(sh, shape...), red(s), shape)
	} else {
		x.Binary(Div, dst, whole(e, shape...), red(s), shape)
	}
	x.release(mx, sh, e, s)
}

// softmaxGrad: dx = y·(gy − Σ gy·y), or for log-softmax dx = gy − exp(y)·Σ gy.
func (x *completed) softmaxGrad(dx, gy, y *Buffer, outer, n, inner int, log bool) {
	dt, total := y.DType, outer*n*inner
	shape := []int{outer, n, inner}
	full := func(b *Buffer) Strided { return whole(b, shape...) }
	red := func(b *Buffer) Strided { return at(b, 0, inner, 0, 1) }
	dot := x.tmp(dt, outer*inner)
	t := x.tmp(dt, total)
	if log {
		x.Reduce(Sum, dot, gy, outer, n, inner)
		x.Unary(Exp, t, y, 0, 0)
		x.Binary(Mul, t, full(t), red(dot), shape)
		x.Binary(Sub, dx, full(gy), full(t), shape)
	} else {
		x.Binary(Mul, t, full(gy), full(y), shape)
		x.Reduce(Sum, dot, t, outer, n, inner)
		x.Binary(Sub, t, full(gy), red(dot), shape)
		x.Binary(Mul, dx, full(y), full(t), shape)
	}
	x.release(dot, t)
}

// normalized writes (in − mean)·rstd for rows of n into a new buffer.
func (x *completed) normalized(in, mean, rstd *Buffer, rows, n int) *Buffer {
	shape := []int{rows, n}
	row := func(b *Buffer) Strided { return at(b, 0, 1, 0) }
	xh := x.tmp(in.DType, rows*n)
	x.Binary(Sub, xh, whole(in, shape...), row(mean), shape)
	x.Binary(Mul, xh, whole(xh, shape...), row(rstd), shape)
	return xh
}

// layerNorm composes LayerNorm from row sums.
func (x *completed) layerNorm(y, mean, rstd, in, w, b *Buffer, rows, n int, eps float64) {
	dt := in.DType
	shape := []int{rows, n}
	x.Reduce(Sum, mean, in, rows, n, 1)
	x.Unary(MulScalar, mean, mean, 1/float64(n), 0)
	xc := x.tmp(dt, rows*n)
	x.Binary(Sub, xc, whole(in, shape...), at(mean, 0, 1, 0), shape)
	x.Binary(Mul, xc, whole(xc, shape...), whole(xc, shape...), shape)
	x.Reduce(Sum, rstd, xc, rows, n, 1)
	x.Unary(Affine, rstd, rstd, 1/float64(n), eps)
	x.Unary(Sqrt, rstd, rstd, 0, 0)
	one := x.scalar(dt, 1)
	x.Binary(Div, rstd, at(one, 0, 0), at(rstd, 0, 1), []int{rows})
	x.release(one, xc)
	xh := x.normalized(in, mean, rstd, rows, n)
	cur := xh
	if w != nil {
		x.Binary(Mul, y, whole(cur, shape...), at(w, 0, 0, 1), shape)
		cur = y
	}
	if b != nil {
		x.Binary(Add, y, whole(cur, shape...), at(b, 0, 0, 1), shape)
		cur = y
	}
	if cur != y {
		x.Copy(whole(y, shape...), whole(cur, shape...), shape)
	}
	x.Release(xh)
}

// layerNormGrad: dx = rstd·(ĝ − mean(ĝ) − x̂·mean(ĝ·x̂)) with ĝ = gy·w; dw += Σ gy·x̂; db += Σ gy.
func (x *completed) layerNormGrad(dx, dw, db, gy, in, mean, rstd, w *Buffer, rows, n int) {
	dt := in.DType
	shape := []int{rows, n}
	full := func(b *Buffer) Strided { return whole(b, shape...) }
	row := func(b *Buffer) Strided { return at(b, 0, 1, 0) }
	xh := x.normalized(in, mean, rstd, rows, n)
	t := x.tmp(dt, rows*n)
	col := x.tmp(dt, n)
	if dw != nil {
		x.Binary(Mul, t, full(gy), full(xh), shape)
		x.Reduce(Sum, col, t, 1, rows, n)
		x.binaryFlat(Add, dw, dw, col, n, false)
	}
	if db != nil {
		x.Reduce(Sum, col, gy, 1, rows, n)
		x.binaryFlat(Add, db, db, col, n, false)
	}
	if dx != nil {
		gh := gy
		if w != nil {
			gh = x.tmp(dt, rows*n)
			x.Binary(Mul, gh, full(gy), at(w, 0, 0, 1), shape)
		}
		sg, sgx := x.tmp(dt, rows), x.tmp(dt, rows)
		x.Reduce(Sum, sg, gh, rows, n, 1)
		x.Unary(MulScalar, sg, sg, 1/float64(n), 0)
		x.Binary(Mul, t, full(gh), full(xh), shape)
		x.Reduce(Sum, sgx, t, rows, n, 1)
		x.Unary(MulScalar, sgx, sgx, 1/float64(n), 0)
		x.Binary(Sub, t, full(gh), row(sg), shape)
		x.Binary(Mul, xh, full(xh), row(sgx), shape)
		x.Binary(Sub, t, full(t), full(xh), shape)
		x.Binary(Mul, dx, full(t), row(rstd), shape)
		if gh != gy {
			x.Release(gh)
		}
		x.release(sg, sgx)
	}
	x.release(xh, t, col)
}

// checkTargets panics, as the CPU kernel does, on a target outside [0, classes) that is not ignore.
func (x *completed) checkTargets(target *Buffer, rows, classes int, ignore int64) {
	if rows == 0 {
		return
	}
	// Ignored entries become 0 so that only real targets decide the extremes.
	ign, zero := x.scalar(I64, float64(ignore)), x.scalar(I64, 0)
	keep := x.tmp(I64, rows)
	x.Binary(Ne, keep, at(target, 0, 1), at(ign, 0, 0), []int{rows})
	t := x.tmp(I64, rows)
	x.Where(t, at(keep, 0, 1), at(target, 0, 1), at(zero, 0, 0), []int{rows})
	lo, hi := x.tmp(I64, 1), x.tmp(I64, 1)
	x.Reduce(Min, lo, t, 1, rows, 1)
	x.Reduce(Max, hi, t, 1, rows, 1)
	bad := x.toHost(lo).I64[0] < 0 || x.toHost(hi).I64[0] >= int64(classes)
	x.release(ign, zero, keep, t, lo, hi)
	if !bad {
		return
	}
	for r, v := range x.toHost(target).I64[:rows] {
		if v != ignore && (v < 0 || v >= int64(classes)) {
			panic(fmt.Sprintf("tensors: CrossEntropy: target %d at row %d is outside [0, %d) (classes of logits)", v, r, classes))
		}
	}
}

// crossEntropy composes the loss from log-softmax and a gather of the targets' entries:
// (1−ε)·(−log p[t]) + ε/C·(−Σ log p), zero on ignored rows.
func (x *completed) crossEntropy(loss, prob, count, logits, target *Buffer, rows, classes int, ignore int64, eps float64) {
	x.checkTargets(target, rows, classes, ignore)
	dt := logits.DType
	x.Softmax(prob, logits, rows, classes, 1, false)
	logp := x.tmp(dt, rows*classes)
	x.Softmax(logp, logits, rows, classes, 1, true)
	ign, zeroI := x.scalar(I64, float64(ignore)), x.scalar(I64, 0)
	keep := x.tmp(I64, rows)
	x.Binary(Ne, keep, at(target, 0, 1), at(ign, 0, 0), []int{rows})
	t := x.tmp(I64, rows)
	x.Where(t, at(keep, 0, 1), at(target, 0, 1), at(zeroI, 0, 0), []int{rows})
	picked := x.tmp(dt, rows)
	x.Gather(picked, logp, t, rows, classes, 1, 1)
	l := x.tmp(dt, rows)
	x.Unary(MulScalar, l, picked, -(1 - eps), 0)
	if eps != 0 {
		s := x.tmp(dt, rows)
		x.Reduce(Sum, s, logp, rows, classes, 1)
		x.Unary(MulScalar, s, s, -eps/float64(classes), 0)
		x.binaryFlat(Add, l, l, s, rows, false)
		x.Release(s)
	}
	zero := x.scalar(dt, 0)
	x.Where(loss, at(keep, 0, 1), at(l, 0, 1), at(zero, 0, 0), []int{rows})
	if count != nil {
		n := x.tmp(I64, 1)
		x.Reduce(Sum, n, keep, 1, rows, 1)
		x.Copy(whole(count, 1), whole(n, 1), []int{1})
		x.Release(n)
	}
	x.release(logp, ign, zeroI, keep, t, picked, l, zero)
}

// crossEntropyGrad: dlogits = g·(p − ε/C − (1−ε)·onehot(t)), zero on ignored rows.
func (x *completed) crossEntropyGrad(d, gl, prob, target *Buffer, rows, classes int, ignore int64, eps float64) {
	dt := prob.DType
	shape := []int{rows, classes}
	it := x.iota(classes)
	oh := x.tmp(I64, rows*classes)
	x.Binary(Eq, oh, at(target, 0, 1, 0), at(it, 0, 0, 1), shape)
	ohf := x.tmp(dt, rows*classes)
	x.Copy(whole(ohf, shape...), whole(oh, shape...), shape)
	x.Unary(MulScalar, ohf, ohf, 1-eps, 0)
	t := x.tmp(dt, rows*classes)
	x.Unary(AddScalar, t, prob, -eps/float64(classes), 0)
	x.Binary(Sub, t, whole(t, shape...), whole(ohf, shape...), shape)
	gs := at(gl, 0, 1, 0)
	if gl.Len == 1 {
		gs = at(gl, 0, 0, 0)
	}
	x.Binary(Mul, t, whole(t, shape...), gs, shape)
	ign := x.scalar(I64, float64(ignore))
	keep := x.tmp(I64, rows)
	x.Binary(Ne, keep, at(target, 0, 1), at(ign, 0, 0), []int{rows})
	zero := x.scalar(dt, 0)
	x.Where(d, at(keep, 0, 1, 0), whole(t, shape...), at(zero, 0, 0, 0), shape)
	x.release(it, oh, ohf, t, ign, keep, zero)
}
